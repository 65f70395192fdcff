"""The trusted snapshot: published as written, each provider's Python imported on first use.

These run the generator's own records through the publication the bundled snapshot takes
(``trusted_snapshot``), with the registry's importer counting what is imported.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest

from provcat import match_endpoint
from provcat.catalog.keyspace import indexes, record_keys
from provcat.catalog.load import Importer
from provcat.catalog.publish import trusted_snapshot
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.errors import ProviderUnavailable
from provcat.match import resolve
from provcat.registry import CatalogSource, EndpointRegistry
from tests.runtime.conftest import Records, base_records, record

THREADS = 32


class TrustedSource(CatalogSource):
    """Records published as the bundled snapshot is: no check, nothing imported."""

    def build(self, importer: Importer) -> CatalogSnapshot:
        records: Sequence[Mapping[str, Any]] = self.records()
        provider_index, _ = indexes(record_keys(r) for r in records)
        return trusted_snapshot(records, provider_index, {}, "test")


@pytest.fixture
def imported(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every module name the registry imports during the test."""
    calls: list[str] = []
    real = EndpointRegistry.importer

    def counting(name: str) -> Any:
        calls.append(name)
        return real(name)

    monkeypatch.setattr(EndpointRegistry, "importer", counting)
    yield calls
    EndpointRegistry._reset()


def _trusted(records: Records) -> None:
    EndpointRegistry._reset(TrustedSource(lambda: records))


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


def test_publication_imports_nothing_and_first_use_imports_one_provider(
    imported: list[str],
) -> None:
    _trusted(base_records())
    EndpointRegistry.snapshot()
    assert imported == []
    assert resolve("alpha", "chat").key == "chat/completions"
    assert imported == [], "resolution that returns the record imports nothing"
    match_endpoint("alpha", "chat")
    assert imported == ["provcat_testproviders.alpha"] * 3  # module, class, request model
    assert not any("beta" in name or "scripted" in name for name in imported)
    rows = EndpointRegistry.list_providers()  # inspection loads every provider
    assert {r["provider"]: r["availability"] for r in rows} == {
        "alpha": "available",
        "beta": "available",
        "scripted": "available",
    }
    assert {"provcat_testproviders.beta", "provcat_testproviders.scripted"} <= set(imported)


def test_a_broken_provider_hit_by_32_threads_is_imported_once_and_only_it_fails(
    imported: list[str],
) -> None:
    records = base_records()
    record(records, "beta")["module"] = "provcat_testproviders.broken"
    _trusted(records)
    failures: list[ProviderUnavailable] = []
    built: list[str] = []

    def work(i: int) -> None:
        try:
            ep = match_endpoint("beta" if i % 2 else "alpha", "chat")
        except ProviderUnavailable as exc:
            failures.append(exc)
        else:
            built.append(ep.config.provider)

    assert _run(THREADS, work) == []
    assert imported.count("provcat_testproviders.broken") == 1
    assert len(failures) == THREADS // 2 and built == ["alpha"] * (THREADS // 2)
    for exc in failures:
        assert exc.provider == "beta"
        assert exc.diagnostic.code == "import_error"
        assert exc.diagnostic.module == "provcat_testproviders.broken"
        assert exc.diagnostic.cause_type == "RuntimeError"
        assert "sk-testsecret" not in str(exc)
    # the failure holds for the snapshot's life: no re-import per request, resolve() says so too
    for _ in range(3):
        with pytest.raises(ProviderUnavailable):
            match_endpoint("beta", "cli")
        with pytest.raises(ProviderUnavailable):
            resolve("beta-ai", "chat")
    assert imported.count("provcat_testproviders.broken") == 1
    [row] = [r for r in EndpointRegistry.list_providers() if r["provider"] == "beta"]
    assert row["availability"] == "unavailable" and row["diagnostics"][0]["code"] == "import_error"
    EndpointRegistry.refresh()  # a refresh tries again
    with pytest.raises(ProviderUnavailable):
        match_endpoint("beta", "chat")
    assert imported.count("provcat_testproviders.broken") == 2


def test_a_request_model_that_fails_on_first_use_makes_its_provider_unavailable(
    imported: list[str],
) -> None:
    records = base_records()
    alpha = record(records, "alpha")
    alpha["endpoints"][1]["request_options"] = "provcat_testproviders.alpha:failing_factory"
    _trusted(records)
    assert match_endpoint("alpha", "chat").config.provider == "alpha"  # not yet touched
    with pytest.raises(ProviderUnavailable) as caught:
        match_endpoint("alpha", "embed")
    assert "factory raised RuntimeError" in caught.value.diagnostic.message
    with pytest.raises(ProviderUnavailable):
        match_endpoint("alpha", "chat")  # the whole provider, from now on
    assert match_endpoint("scripted", "").config.provider == "scripted"


def test_refreshes_racing_32_lazily_binding_threads_never_mix_two_snapshots(
    imported: list[str],
) -> None:
    a = base_records()
    b = base_records()
    alpha_b = record(b, "alpha")
    alpha_b["endpoints"][0]["request_defaults"] = {"model": "alpha-2"}
    alpha_b["endpoints"][0]["base_url"] = "http://127.0.0.1:9/v2"
    sources = [TrustedSource(lambda: a), TrustedSource(lambda: b)]
    EndpointRegistry._reset(sources[0])
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


def test_a_fresh_process_resolving_a_record_loads_no_pydantic_and_no_provider() -> None:
    code = (
        "import sys, provcat\n"
        "spec = provcat.resolve('OpenAI', ' chat ')\n"
        "print(spec.provider, spec.key, spec.protocol)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'provcat.providers',"
        " 'provcat.protocols.'))))\n"
        "provcat.match_endpoint('openai', 'chat')\n"
        "print(sorted(m for m in sys.modules if m.startswith('provcat.p')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, before, after = out.stdout.splitlines()
    assert first == "openai chat/completions openai-chat"
    assert before == "[]"
    assert after == str(
        [
            "provcat.protocols",
            "provcat.protocols.openai_audio",
            "provcat.protocols.openai_chat",
            "provcat.providers",
            "provcat.providers.openai",
        ]
    )
