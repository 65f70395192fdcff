"""The trusted snapshot: published as written, each provider's Python imported on first use.

These run the generator's own records through the publication the bundled snapshot takes
(``trusted_snapshot``), with the registry's importer counting what is imported.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from provcat import match_endpoint
from provcat.endpoints.match import resolve
from provcat.endpoints.registry import EndpointRegistry
from provcat.errors import ProviderUnavailable
from tests.runtime.conftest import Records, TrustedSource, base_records, record, run_threads

THREADS = 32


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


def test_publication_imports_nothing_and_first_use_imports_one_provider(
    imported: list[str],
) -> None:
    _trusted(base_records())
    EndpointRegistry.snapshot()
    assert imported == []
    assert resolve("alpha", "chat").key == "chat/completions"
    assert imported == [], "resolution that returns the record imports nothing"
    ep = match_endpoint("alpha", "chat")
    assert ep.request_model is not None and ep.request_model.__name__ == "ChatRequest"
    assert set(imported) == {"provcat_testproviders.alpha"}, "using alpha imports alpha alone"
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

    assert run_threads(THREADS, work) == []
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
    embed = match_endpoint("alpha", "embed")  # built: its request model is read when needed
    with pytest.raises(ProviderUnavailable) as caught:
        embed.payload(input="x")
    assert "factory raised RuntimeError" in caught.value.diagnostic.message
    with pytest.raises(ProviderUnavailable):
        match_endpoint("alpha", "chat")  # the whole provider, from now on
    assert match_endpoint("scripted", "").config.provider == "scripted"


def test_a_record_the_runtime_cannot_read_is_a_format_error_naming_its_provider(
    imported: list[str],
) -> None:
    """Found in review: the snapshot's entries are made at publication, so one record that lacks
    a field (a hand-made snapshot) failed every lookup with a bare KeyError."""
    from provcat.errors import SnapshotFormatError

    records = base_records()
    beta = record(records, "beta")
    del beta["endpoints"][0]["timeout"]
    _trusted(records)
    with pytest.raises(SnapshotFormatError, match=r"provider 'beta'.*'timeout'.*make generate"):
        match_endpoint("alpha", "chat")
