"""D3 thread safety: one lazy build under a lock; lock-free reads; refreshes never mix views."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from provcat import match_endpoint
from provcat.endpoints.checked import CatalogSource
from provcat.endpoints.registry import EndpointRegistry
from tests.runtime.conftest import Records, TrustedSource, base_records, record, run_threads

THREADS = 32


def test_32_threads_during_the_first_build_cause_exactly_one_build(
    use_catalog: Callable[[Records], CatalogSource],
) -> None:
    records = base_records()
    reads: list[int] = []

    def read() -> Records:
        reads.append(1)
        return records

    use_catalog(records)
    EndpointRegistry._reset(CatalogSource(read, fingerprint=lambda: "test"))
    seen: list[object] = []

    def work(i: int) -> None:
        ep = match_endpoint("alpha" if i % 2 else "BETA-ai", "chat")
        seen.append(EndpointRegistry.snapshot())
        assert ep.config.provider in ("alpha", "beta")

    assert run_threads(THREADS, work) == []
    assert len(reads) == 1, "the catalog source is read once"
    assert len(seen) == THREADS and all(s is seen[0] for s in seen), "one published catalog"


@pytest.mark.parametrize("source", [CatalogSource, TrustedSource])
def test_refreshes_while_32_threads_resolve_never_show_a_mixed_view(
    use_catalog: Callable[[Records], CatalogSource], source: type[CatalogSource]
) -> None:
    """Checked sources load at publication; trusted ones bind lazily while the threads race."""
    a = base_records()
    b = base_records()
    alpha_b = record(b, "alpha")
    alpha_b["endpoints"][0]["request_defaults"] = {"model": "alpha-2"}
    alpha_b["endpoints"][0]["base_url"] = "http://127.0.0.1:9/v2"
    sources = [source(lambda: a), source(lambda: b)]
    use_catalog(a)
    EndpointRegistry._reset(sources[0])
    EndpointRegistry.snapshot()
    stop = threading.Event()
    observed: set[tuple[str | None, object]] = set()

    def refresher() -> None:
        n = 0
        while not stop.is_set() and n < 200:
            EndpointRegistry.refresh(sources[n % 2])
            n += 1

    def work(i: int) -> None:
        for _ in range(300):
            ep = match_endpoint("alpha", "chat")
            observed.add((ep.config.base_url, ep.request_defaults["model"]))

    thread = threading.Thread(target=refresher)
    thread.start()
    try:
        errors = run_threads(THREADS, work)
    finally:
        stop.set()
        thread.join()
    assert errors == []
    assert observed <= {("http://127.0.0.1:9/v1", "alpha-1"), ("http://127.0.0.1:9/v2", "alpha-2")}
