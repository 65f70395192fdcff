"""D3 thread safety: one lazy build under a lock; lock-free reads; refreshes never mix views."""

from __future__ import annotations

import threading
import warnings
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


@pytest.mark.parametrize("source", [CatalogSource, TrustedSource])
def test_a_refresh_between_resolving_and_binding_mixes_no_views(
    use_catalog: Callable[[Records], CatalogSource], source: type[CatalogSource]
) -> None:
    """Found under load by the test above, once in about 50 runs: an endpoint resolved on one
    catalog was bound on the catalog a refresh had just published, and that catalog's next
    resolutions mixed the two (one's base URL, the other's default model). Here the refresh
    comes, every time, from the warning a deprecated endpoint gives between the two steps."""
    catalogs = []
    for n in (1, 2):
        records = base_records()
        chat = record(records, "alpha")["endpoints"][0]
        chat["request_defaults"] = {"model": f"alpha-{n}"}
        chat["base_url"] = f"http://127.0.0.1:9/v{n}"
        chat["lifecycle"] = {
            "status": "deprecated",
            "deprecation_date": None,
            "shutdown_date": None,
            "successor": None,
            "source": ("https://example.com/deprecations",),
        }
        catalogs.append(source(lambda records=records: records))
    use_catalog(base_records())
    EndpointRegistry._reset(catalogs[0])
    refreshed: list[object] = []

    def refresh_once(*_: object, **__: object) -> None:
        if not refreshed:
            refreshed.append(EndpointRegistry.refresh(catalogs[1]))

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = refresh_once
        first = match_endpoint("alpha", "chat")  # resolved on catalog 1, 2 published meanwhile
        second = match_endpoint("alpha", "chat")
    assert refreshed
    assert (first.config.base_url, first.request_defaults["model"]) == (
        "http://127.0.0.1:9/v1",
        "alpha-1",
    )
    assert (second.config.base_url, second.request_defaults["model"]) == (
        "http://127.0.0.1:9/v2",
        "alpha-2",
    )
