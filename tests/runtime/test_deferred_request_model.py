"""A trusted snapshot's request model is imported when first read, not to build the endpoint.

The generator checked every bundled request default against its model, so resolving and building
an endpoint do not need the model; ``config.request_options`` still gives the class, loaded on the
first read (a payload built, a caller's request defaults checked), once, under the registry's
lock. The oracles: the class the record's "module:Model" reference names, imported here with
importlib; and the eager path (a checked catalog source loads the model when the endpoint is
first bound), whose error a deferred model that cannot load must raise unchanged.
"""

from __future__ import annotations

import copy
import importlib
import pickle
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from provcat import match_endpoint
from provcat.endpoints.checked import CatalogSource
from provcat.endpoints.config import DeferredModel, EndpointConfig
from provcat.endpoints.registry import EndpointRegistry
from provcat.errors import EndpointConfigurationError, ProviderUnavailable
from tests.runtime.conftest import Records, TrustedSource, base_records, record, run_threads

THREADS = 32
BROKEN = "provcat_testproviders.broken"


@pytest.fixture
def imported(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every module name the registry imports during the test; each import takes a little while,
    so that threads racing the first read all arrive while it runs."""
    calls: list[str] = []
    real = EndpointRegistry.importer

    def slow_counting(name: str) -> Any:
        calls.append(name)
        time.sleep(0.02)
        return real(name)

    monkeypatch.setattr(EndpointRegistry, "importer", slow_counting)
    yield calls
    EndpointRegistry._reset()


def _trusted(records: Records) -> None:
    EndpointRegistry._reset(TrustedSource(lambda: records))


def _named(ref: str) -> type[BaseModel]:
    """The class a record's "module:Model" reference names (a factory's result)."""
    module, _, attr = ref.partition(":")
    found = getattr(importlib.import_module(module), attr)
    return found if isinstance(found, type) else found()  # type: ignore[no-any-return]


def _alpha_chat_model() -> type[BaseModel]:
    return _named("provcat_testproviders.alpha:ChatRequest")


def test_every_bundled_endpoint_defers_its_model_and_reads_the_class_its_record_names() -> None:
    EndpointRegistry._reset()
    try:
        snapshot = EndpointRegistry.snapshot()
        checked = 0
        for entry in snapshot.providers.values():
            for spec in entry.endpoints.values():
                config = EndpointRegistry.bind(snapshot, spec).config
                stored = config.stored_request_options()
                if spec.request_options is None:
                    assert stored is None and config.request_options is None
                    continue
                assert isinstance(stored, DeferredModel) and stored.ref == spec.request_options
                assert config.request_options is _named(spec.request_options)
                checked += 1
        assert checked >= 40
        from provcat.endpoints.protocols.openai_chat import ChatCompletionsRequest

        assert match_endpoint("openai", "chat").request_model is ChatCompletionsRequest
    finally:
        EndpointRegistry._reset()


def test_a_config_behaves_as_before_whether_its_model_is_loaded_or_not(
    imported: list[str],
) -> None:
    _trusted(base_records())
    ep = match_endpoint("alpha", "chat")
    config = ep.config
    assert isinstance(config.stored_request_options(), DeferredModel)
    spec = EndpointRegistry.snapshot().endpoint("alpha", "chat/completions")
    loads = len(imported)
    # what reads no request model reads nothing new
    validated_dump = EndpointConfig(**spec.config_values()).model_dump()
    assert config.model_dump() == validated_dump and "request_options" not in validated_dump
    assert config.summary()["provider"] == "alpha" and config.url().endswith("/chat/completions")
    assert len(imported) == loads and isinstance(config.stored_request_options(), DeferredModel)
    # what reads it gives the class, as a validated config holding the class does
    validated = EndpointConfig(**spec.config_values(), request_options=_alpha_chat_model())
    assert config == validated and validated == config
    twin = copy.deepcopy(config)  # shares the one reference: loading it once serves both
    assert twin.stored_request_options() is config.stored_request_options()
    assert repr(config) == repr(validated)
    assert dict(config) == dict(validated)
    assert config.request_options is _alpha_chat_model()
    assert len(imported) == loads + 1
    assert pickle.loads(pickle.dumps(twin)).request_options is _alpha_chat_model()
    assert copy.copy(config) == validated
    assert config.model_fields_set == validated.model_fields_set
    with pytest.raises(ValidationError, match="frozen"):
        config.request_options = None  # type: ignore[misc]
    # on the class, as for any pydantic field with a default: no attribute
    assert hasattr(EndpointConfig, "timeout") is hasattr(EndpointConfig, "request_options") is False
    # a caller's config is untouched: the class in, the class out
    own = EndpointConfig(name="n", provider="p", endpoint="e", request_options=_alpha_chat_model())
    assert own.request_options is _alpha_chat_model()


def test_overrides_keep_the_model_deferred_and_request_defaults_load_it(
    imported: list[str],
) -> None:
    _trusted(base_records())
    ep = match_endpoint("alpha", "chat", timeout=5)
    spec = EndpointRegistry.snapshot().endpoint("alpha", "chat/completions")
    assert imported == ["provcat_testproviders.alpha"] * 2  # the module and the class
    assert isinstance(ep.config.stored_request_options(), DeferredModel)
    eager = EndpointConfig(
        **{**spec.config_values(), "timeout": 5}, request_options=_alpha_chat_model()
    )
    assert ep.config == eager and ep.config.model_fields_set == eager.model_fields_set
    assert ep.config.timeout == 5.0
    assert ep.payload(top_p=0.9) == {"model": "alpha-1", "temperature": 0.5, "top_p": 0.9}
    assert len(imported) == 3
    # a caller's request defaults are checked against the model: it is loaded for that
    _trusted(base_records())
    imported.clear()
    with pytest.raises(EndpointConfigurationError, match="temperature"):
        match_endpoint("alpha", "chat", request_defaults={"temperature": 9})
    assert imported == ["provcat_testproviders.alpha"] * 3


def _broken_chat_model() -> Records:
    records = base_records()
    record(records, "alpha")["endpoints"][0]["request_options"] = f"{BROKEN}:ChatRequest"
    return records


def _eager_error(use_catalog: Callable[[Records], CatalogSource]) -> ProviderUnavailable:
    """The error the eager path gives for the broken request module (a checked source loads
    it when the catalog is published)."""
    use_catalog(_broken_chat_model())
    with pytest.raises(ProviderUnavailable) as caught:
        match_endpoint("alpha", "chat")
    return caught.value


def test_a_broken_request_module_fails_on_first_read_and_every_read_after_with_the_eager_error(
    imported: list[str], use_catalog: Callable[[Records], CatalogSource]
) -> None:
    eager = _eager_error(use_catalog)
    imported.clear()
    _trusted(_broken_chat_model())
    chat = match_endpoint("alpha", "chat")  # built: nothing reads the model yet
    embed = match_endpoint("alpha", "embed")
    assert BROKEN not in imported
    failures: list[ProviderUnavailable] = []
    for read in (
        lambda: chat.request_model,
        lambda: chat.payload(model="alpha-1"),
        lambda: chat.config.request_options,
        lambda: dict(chat.config),
        lambda: match_endpoint("alpha", "chat"),  # the provider is unavailable from now on
        lambda: match_endpoint("alpha", "embed"),
        lambda: embed.request_model,  # built before: its provider's failure holds for it too
    ):
        with pytest.raises(ProviderUnavailable) as caught:
            read()
        failures.append(caught.value)
    assert imported.count(BROKEN) == 1  # once, whatever reads it after
    assert "provcat_testproviders.alpha:chat_request_factory" not in str(imported)
    for exc in failures:
        assert exc.provider == eager.provider == "alpha"
        assert exc.diagnostic == eager.diagnostic
        assert str(exc) == str(eager)
    assert eager.diagnostic.code == "import_error" and eager.diagnostic.module == BROKEN
    assert eager.diagnostic.cause_type == "RuntimeError"
    assert "sk-testsecret" not in str(eager) and "sk-testsecret" not in repr(chat.config)
    assert match_endpoint("beta", "chat").config.provider == "beta"  # other providers work
    [row] = [r for r in EndpointRegistry.list_providers() if r["provider"] == "alpha"]
    assert row["availability"] == "unavailable" and row["diagnostics"] == [
        eager.diagnostic.as_dict()
    ]
    EndpointRegistry.refresh()  # a refresh tries again
    with pytest.raises(ProviderUnavailable):
        match_endpoint("alpha", "chat").request_model  # noqa: B018
    assert imported.count(BROKEN) == 2


def test_32_threads_racing_the_first_read_import_the_model_once(imported: list[str]) -> None:
    alpha = importlib.import_module("provcat_testproviders.alpha")
    _trusted(base_records())
    shared = match_endpoint("alpha", "chat")
    embed = match_endpoint("alpha", "embed")  # a factory: called once per snapshot
    assert imported == ["provcat_testproviders.alpha"] * 3  # the module, each endpoint's class
    assert isinstance(embed.config.stored_request_options(), DeferredModel)
    factory_calls = alpha.FACTORY_CALLS
    models: list[object] = []
    payloads: list[dict[str, Any]] = []

    def work(i: int) -> None:
        if i % 4 == 0:
            models.append(shared.request_model)
        elif i % 4 == 1:
            payloads.append(match_endpoint("alpha", "chat").payload(temperature=1))
        elif i % 4 == 2:
            models.append(shared.config.request_options)
        else:
            models.append(embed.request_model)

    assert run_threads(THREADS, work) == []
    assert imported == ["provcat_testproviders.alpha"] * 5  # ... and each one's request model
    assert factory_calls + 1 == alpha.FACTORY_CALLS
    assert models == [_alpha_chat_model()] * (THREADS * 3 // 4)
    assert payloads == [{"model": "alpha-1", "temperature": 1.0}] * (THREADS // 4)


def test_32_threads_racing_a_broken_first_read_import_it_once_and_all_fail_alike(
    imported: list[str],
) -> None:
    _trusted(_broken_chat_model())
    chat = match_endpoint("alpha", "chat")
    failures: list[ProviderUnavailable] = []

    def work(i: int) -> None:
        try:
            chat.payload() if i % 2 else chat.request_model
        except ProviderUnavailable as exc:
            failures.append(exc)

    assert run_threads(THREADS, work) == []
    assert imported.count(BROKEN) == 1
    assert len(failures) == THREADS
    assert len({(f.provider, f.diagnostic, str(f)) for f in failures}) == 1
