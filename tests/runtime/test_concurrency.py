"""D3 thread safety: one lazy build under a lock; lock-free reads; refreshes never mix views."""

from __future__ import annotations

import threading
from collections.abc import Callable

from provcat import match_endpoint
from provcat.registry import CatalogSource, EndpointRegistry
from tests.runtime.conftest import Records, base_records, record

THREADS = 32


def _run(threads: int, work: Callable[[int], None]) -> list[BaseException]:
    errors: list[BaseException] = []
    barrier = threading.Barrier(threads)

    def body(i: int) -> None:
        try:
            barrier.wait()
            work(i)
        except BaseException as exc:
            errors.append(exc)

    pool = [threading.Thread(target=body, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return errors


def test_32_threads_during_the_first_build_cause_exactly_one_build(
    use_catalog: Callable[[Records], CatalogSource],
) -> None:
    use_catalog(base_records())
    before = EndpointRegistry.builds
    seen: list[int] = []

    def work(i: int) -> None:
        ep = match_endpoint("alpha" if i % 2 else "BETA-ai", "chat")
        seen.append(id(EndpointRegistry.snapshot()))
        assert ep.config.provider in ("alpha", "beta")

    assert _run(THREADS, work) == []
    assert EndpointRegistry.builds == before + 1
    assert len(set(seen)) == 1


def test_refreshes_while_32_threads_resolve_never_show_a_mixed_view(
    use_catalog: Callable[[Records], CatalogSource],
) -> None:
    a = base_records()
    b = base_records()
    alpha_b = record(b, "alpha")
    alpha_b["endpoints"][0]["request_defaults"] = {"model": "alpha-2"}
    alpha_b["endpoints"][0]["base_url"] = "http://127.0.0.1:9/v2"
    sources = [use_catalog(a), CatalogSource(lambda: b)]
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
        errors = _run(THREADS, work)
    finally:
        stop.set()
        thread.join()
    assert errors == []
    assert observed <= {("http://127.0.0.1:9/v1", "alpha-1"), ("http://127.0.0.1:9/v2", "alpha-2")}
