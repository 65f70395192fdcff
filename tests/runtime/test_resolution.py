"""ADR-0028 semantics over a test catalog: each test names the D1-D5 bullet it proves."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import FrozenInstanceError
from typing import Any

import pytest
from pydantic import ValidationError

from provcat import iModel, match_endpoint
from provcat.catalog.keys import canonical_endpoint_key, canonical_provider_key
from provcat.catalog.keyspace import (
    ClassUse,
    EndpointKeys,
    ProviderKeys,
    Spelling,
    check_keys,
)
from provcat.endpoints.agentic import AgenticEndpoint
from provcat.endpoints.checked import CatalogSource, check_classes
from provcat.endpoints.compat import CompatibleEndpoint
from provcat.endpoints.endpoint import Endpoint, EndpointType
from provcat.endpoints.match import resolve
from provcat.endpoints.registry import EndpointRegistry
from provcat.errors import (
    CatalogValidationError,
    EndpointConfigurationError,
    EndpointNotFound,
    ProviderUnavailable,
)
from provcat.strict import set_strict
from tests.runtime.conftest import Records, record

Use = Callable[[Records], CatalogSource]


# --- D1 -------------------------------------------------------------------------------------


def test_d1_named_fields_spec_is_immutable(base: Records) -> None:
    spec = EndpointRegistry.snapshot().providers["alpha"].endpoints["chat/completions"]
    assert spec.provider == "alpha" and spec.endpoint == "chat/completions"
    assert spec.endpoint_type is EndpointType.API
    with pytest.raises(FrozenInstanceError):
        spec.provider = "beta"  # type: ignore[misc]
    with pytest.raises(TypeError):
        spec.request_defaults["model"] = "x"  # type: ignore[index]


def test_d1_deferred_request_model_factory_called_exactly_once_per_build(base: Records) -> None:
    from provcat_testproviders import alpha

    before = alpha.FACTORY_CALLS
    EndpointRegistry.snapshot()
    match_endpoint("alpha", "embed")
    match_endpoint("alpha", "embeddings")
    assert before + 1 == alpha.FACTORY_CALLS
    EndpointRegistry.refresh()
    assert before + 2 == alpha.FACTORY_CALLS


def test_d1_factory_failure_prevents_publication(use_catalog: Use) -> None:
    records = base_records_with(lambda r: _set_options(r, "alpha", "embeddings", "failing_factory"))
    use_catalog(records)
    with pytest.raises(CatalogValidationError) as caught:
        EndpointRegistry.snapshot()
    codes = {d.code for d in caught.value.diagnostics}
    assert codes == {"invalid_request_options"}
    assert "factory raised RuntimeError" in str(caught.value)
    with pytest.raises(CatalogValidationError):  # no resolvable catalog after a failed build
        EndpointRegistry.snapshot()


def test_d1_endpoint_class_must_subclass_endpoint_and_agree_with_type() -> None:
    class Api(Endpoint):
        pass

    class Agent(AgenticEndpoint):
        pass

    found = check_classes(
        [
            ClassUse(Agent, False, "p", "a", None),
            ClassUse(Api, True, "p", "b", None),
            ClassUse(dict, False, "p", "c", None),
        ]
    )
    assert [d.code for d in found] == [
        "endpoint_type_mismatch",
        "endpoint_type_mismatch",
        "not_an_endpoint_class",
    ]


def test_d1_defaults_are_copied_and_each_instance_gets_a_fresh_dict(base: Records) -> None:
    mine = {"temperature": 0.3}
    first = match_endpoint("alpha", "chat", request_defaults=mine)
    mine["temperature"] = 1.9
    assert first.request_defaults == {"model": "alpha-1", "temperature": 0.3}
    second = match_endpoint("alpha", "chat")
    first.request_defaults["model"] = "changed"
    assert second.request_defaults == {"model": "alpha-1", "temperature": 0.5}
    assert match_endpoint("alpha", "chat").request_defaults["model"] == "alpha-1"


def test_d1_config_typo_raises_before_construction(
    base: Records, monkeypatch: pytest.MonkeyPatch
) -> None:
    from provcat_testproviders.alpha import AlphaChatEndpoint

    built: list[object] = []
    monkeypatch.setattr(AlphaChatEndpoint, "__init__", lambda self, *a, **k: built.append(a))
    with pytest.raises(EndpointConfigurationError) as caught:
        match_endpoint("alpha", "chat", timeot=5)
    assert caught.value.field == "timeot"
    assert "did you mean 'timeout'" in str(caught.value)
    assert built == []


def test_d1_config_value_error_names_the_field_without_the_value(base: Records) -> None:
    with pytest.raises(EndpointConfigurationError) as caught:
        match_endpoint("alpha", "chat", timeout=-1)
    assert caught.value.field == "timeout"


def test_d1_request_typo_raises_and_never_reaches_a_payload(base: Records) -> None:
    with pytest.raises(EndpointConfigurationError) as caught:
        match_endpoint("alpha", "chat", request_defaults={"temprature": 0.2})
    assert caught.value.field == "temprature"
    assert "did you mean 'temperature'" in str(caught.value)
    ep = match_endpoint("alpha", "chat")
    with pytest.raises(EndpointConfigurationError):
        ep.payload({"temprature": 0.2})


def test_d1_request_default_value_is_checked(base: Records) -> None:
    with pytest.raises(EndpointConfigurationError) as caught:
        match_endpoint("alpha", "chat", request_defaults={"temperature": 9})
    assert caught.value.field == "temperature"


def test_d1_endpoint_meta_is_derived_from_the_snapshot(base: Records) -> None:
    from provcat_testproviders.alpha import AlphaChatEndpoint

    snapshot = EndpointRegistry.snapshot()
    meta = AlphaChatEndpoint._ENDPOINT_META
    assert meta is snapshot.providers["alpha"].endpoints["chat/completions"]  # the record itself
    assert meta is not None and meta.endpoint_aliases == ("chat",)
    built = AlphaChatEndpoint()  # lionagi's cls(None) construction still works
    assert built.config.name == "alpha_chat/completions"


# --- D2 -------------------------------------------------------------------------------------


def test_d2_one_key_function_strip_and_casefold_only() -> None:
    assert canonical_provider_key("  Claude-Code\n") == "claude-code"
    assert canonical_endpoint_key("FindSimilar") == "findsimilar"
    assert canonical_provider_key("Straße") == "strasse"
    assert canonical_provider_key("claude_code") != canonical_provider_key("claude-code")
    with pytest.raises(TypeError):
        canonical_provider_key(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "spelling", ["alpha", "ALPHA", " Alpha ", "\talpha\n", "alpha-ai", "AL", " al "]
)
def test_d2_case_and_whitespace_variants_resolve(base: Records, spelling: str) -> None:
    assert match_endpoint(spelling, " CHAT ").config.provider == "alpha"


@pytest.mark.parametrize(
    "spelling", ["alpha_ai", "alphaai", "alpha ai", "\uff41\uff4c\uff50\uff48\uff41"]
)
def test_d2_punctuation_and_width_variants_do_not_resolve(base: Records, spelling: str) -> None:
    with pytest.raises(EndpointNotFound):
        match_endpoint(spelling, "chat")


def _keys(provider: str, aliases: tuple[str, ...], *endpoints: tuple[str, ...]) -> Any:
    def spell(value: str) -> Spelling[None]:
        return Spelling(value, None)

    return ProviderKeys(
        spell(provider),
        tuple(spell(a) for a in aliases),
        tuple(EndpointKeys(spell(e[0]), tuple(spell(a) for a in e[1:])) for e in endpoints),
    )


def test_d2_empty_and_self_alias_are_invalid() -> None:
    found = check_keys([_keys("p", ("", " P "), ("x",), (" ",))])
    assert sorted(d.code for d in found) == ["empty_key", "empty_key", "self_alias"]


def test_d2_provider_scope_is_global_and_endpoint_scope_per_provider() -> None:
    found = check_keys(
        [_keys("p", ("x",), ("chat",)), _keys("q", ("X",), ("chat",), ("other", "CHAT"))]
    )
    assert sorted(d.code for d in found) == ["duplicate_endpoint_key", "duplicate_provider_key"]
    assert [d.variant for d in found] == [True, True]  # 'X' vs 'x', 'CHAT' vs 'chat'


def test_d2_a_provider_declared_twice_is_a_duplicate_key(use_catalog: Use) -> None:
    records = base_records_with(lambda r: r.append({**record(r, "beta"), "provider": "BETA "}))
    use_catalog(records)
    with pytest.raises(CatalogValidationError) as caught:
        EndpointRegistry.snapshot()
    assert {d.code for d in caught.value.diagnostics} == {"duplicate_provider_key"}


def test_d2_duplicate_class_is_invalid() -> None:
    a = type("A", (Endpoint,), {})
    found = check_classes(
        [ClassUse(a, False, "p", "one", None), ClassUse(a, False, "q", "two", None)]
    )
    assert [d.code for d in found] == ["duplicate_endpoint_class"]
    assert "already serves p/one" in found[0].message


def test_d2_validation_reports_everything_at_once(use_catalog: Use) -> None:
    records = base_records_with(
        lambda r: record(r, "beta").update(aliases=("beta-ai", "al")),
        lambda r: _set_options(r, "alpha", "embeddings", "wrong_factory"),
        lambda r: record(r, "alpha")["endpoints"][0]["request_defaults"].update(temprature=1),
    )
    use_catalog(records)
    with pytest.raises(CatalogValidationError) as caught:
        EndpointRegistry.snapshot()
    assert sorted(d.code for d in caught.value.diagnostics) == [
        "duplicate_provider_key",
        "invalid_request_default",
        "invalid_request_options",
    ]


def test_d2_atomic_publication_refresh_with_a_collision_keeps_the_prior_snapshot(
    base: Records,
) -> None:
    prior = EndpointRegistry.snapshot()
    bad = base_records_with(lambda r: record(r, "beta").update(aliases=("alpha-ai",)))
    with pytest.raises(CatalogValidationError):
        EndpointRegistry.refresh(CatalogSource(lambda: bad))
    assert EndpointRegistry.snapshot() is prior
    assert match_endpoint("alpha-ai", "chat").config.provider == "alpha"


def test_d2_repeated_lookups_answer_from_the_published_snapshot_after_a_refresh(
    use_catalog: Use,
) -> None:
    use_catalog(base_records_with())
    first = resolve("alpha", "chat")
    assert resolve("alpha", "chat") == first
    EndpointRegistry.refresh(CatalogSource(base_records_with))
    fresh = EndpointRegistry.snapshot().providers["alpha"].endpoints[first.key]
    assert fresh is not first
    assert resolve("alpha", "chat") is fresh  # the new snapshot's entry, never the prior one
    assert match_endpoint("alpha", "chat").config.provider == "alpha"
    with pytest.raises(EndpointNotFound):  # a failed lookup is not remembered
        resolve("alpha", "chta")
    with pytest.raises(EndpointNotFound):
        resolve("alpha", "chta")


def test_d2_no_first_match_lookup_does_not_depend_on_record_order(use_catalog: Use) -> None:
    records = base_records_with()
    use_catalog(records)
    forward = {k: v for k, v in EndpointRegistry.snapshot().provider_index.items()}
    use_catalog(list(reversed(base_records_with())))
    assert dict(EndpointRegistry.snapshot().provider_index) == forward


# --- D3 -------------------------------------------------------------------------------------


def test_d3_failed_import_is_an_import_error_and_other_providers_work(use_catalog: Use) -> None:
    records = base_records_with(
        lambda r: record(r, "beta").update(module="provcat_testproviders.broken")
    )
    use_catalog(records)
    snapshot = EndpointRegistry.snapshot()
    diagnostic = EndpointRegistry.state(snapshot).unavailable["beta"]
    assert diagnostic.code == "import_error" and diagnostic.cause_type == "RuntimeError"
    assert diagnostic.module == "provcat_testproviders.broken"
    assert "sk-testsecret" not in diagnostic.message and "<redacted>" in diagnostic.message
    assert match_endpoint("alpha", "chat").config.provider == "alpha"
    for spelling in ("beta", "BETA-AI"):
        with pytest.raises(ProviderUnavailable) as caught:
            match_endpoint(spelling, "chat")
        assert caught.value.provider == "beta"
        assert "sk-testsecret" not in str(caught.value)


def test_d3_failed_provider_is_not_masked_by_openai_compatible(use_catalog: Use) -> None:
    use_catalog(
        base_records_with(lambda r: record(r, "beta").update(module="provcat_testproviders.broken"))
    )
    with pytest.raises(ProviderUnavailable):
        match_endpoint("beta", "chat", openai_compatible=True, base_url="http://127.0.0.1:9")


def test_d3_control_signals_from_an_import_propagate(use_catalog: Use) -> None:
    use_catalog(
        base_records_with(
            lambda r: record(r, "beta").update(module="provcat_testproviders.interrupting")
        )
    )
    with pytest.raises(KeyboardInterrupt):
        EndpointRegistry.snapshot()
    with pytest.raises(KeyboardInterrupt):  # nothing was published: the next use builds again
        EndpointRegistry.snapshot()


def test_d3_failed_provider_is_not_reimported_per_lookup_but_on_refresh(use_catalog: Use) -> None:
    import sys

    use_catalog(
        base_records_with(lambda r: record(r, "beta").update(module="provcat_testproviders.broken"))
    )
    calls: list[str] = []
    real_import = __import__("importlib").import_module

    def counting(name: str, package: str | None = None) -> Any:
        calls.append(name)
        return real_import(name, package)

    original = EndpointRegistry.importer
    EndpointRegistry.importer = counting
    try:
        EndpointRegistry.snapshot()
        for _ in range(5):
            with pytest.raises(ProviderUnavailable):
                match_endpoint("beta", "chat")
        assert calls.count("provcat_testproviders.broken") == 1
        EndpointRegistry.refresh()
        assert calls.count("provcat_testproviders.broken") == 2
    finally:
        EndpointRegistry.importer = original
    assert "provcat_testproviders.broken" not in sys.modules


def test_d3_validation_failure_among_imported_specs_is_not_partial(use_catalog: Use) -> None:
    use_catalog(base_records_with(lambda r: record(r, "beta").update(aliases=("al",))))
    with pytest.raises(CatalogValidationError):
        EndpointRegistry.snapshot()
    with pytest.raises(CatalogValidationError):
        match_endpoint("alpha", "chat")  # nothing resolves, not even the valid provider


def test_d3_unknown_provider_is_endpoint_not_found(base: Records) -> None:
    with pytest.raises(EndpointNotFound) as caught:
        match_endpoint("gamma", "chat")
    assert caught.value.provider == "gamma"
    assert "known providers: alpha, beta, scripted" in str(caught.value)


# --- D4 -------------------------------------------------------------------------------------


def test_d4_known_match_wins_over_the_flag(base: Records) -> None:
    ep = match_endpoint("alpha", "chat", openai_compatible=True, base_url="http://127.0.0.1:9")
    assert type(ep).__name__ == "AlphaChatEndpoint"
    assert ep.config.openai_compatible is False
    assert ep.config.base_url == "http://127.0.0.1:9"  # an override, not a replacement


def test_d4_empty_endpoint_only_for_single_endpoint_providers(base: Records) -> None:
    assert match_endpoint("scripted", "").config.endpoint == "chat/completions"
    assert match_endpoint("scripted", "   ").config.endpoint == "chat/completions"
    with pytest.raises(EndpointNotFound) as caught:
        match_endpoint("alpha", "")
    assert caught.value.available == ("chat/completions", "embeddings", "query_cli")


def test_d4_known_provider_unknown_endpoint_raises_even_with_one_endpoint(base: Records) -> None:
    with pytest.raises(EndpointNotFound) as caught:
        match_endpoint("alpha", "chta")
    assert (caught.value.provider, caught.value.endpoint) == ("alpha", "chta")
    assert caught.value.available == ("chat/completions", "embeddings", "query_cli")
    message = str(caught.value)
    assert (
        "alpha has no endpoint 'chta' (did you mean 'chat'?); available: chat/completions"
        in message
    )
    with pytest.raises(EndpointNotFound):
        match_endpoint("scripted", "anything")


def test_unknown_provider_gets_the_closest_spelling(base: Records) -> None:
    with pytest.raises(
        EndpointNotFound, match=r"unknown provider 'alpah' \(did you mean 'alpha'\?"
    ):
        match_endpoint("alpah", "chat")


def test_d4_known_provider_miss_with_flag_is_a_marked_compatible_endpoint(base: Records) -> None:
    ep = match_endpoint(
        "alpha", "v2/chat", openai_compatible=True, base_url="http://127.0.0.1:9/v1"
    )
    assert isinstance(ep, CompatibleEndpoint)
    assert ep.config.openai_compatible is True and ep.config.provider == "alpha"
    assert ep.url == "http://127.0.0.1:9/v1/v2/chat"


def test_d4_unknown_provider_with_flag_is_the_adr_config(base: Records) -> None:
    ep = match_endpoint(
        " Acme ",
        "",
        openai_compatible=True,
        base_url="http://127.0.0.1:9/v1",
        request_defaults={"model": "m", "temperature": 0.2},
    )
    c = ep.config
    assert (c.name, c.provider, c.endpoint, c.method, c.auth_type) == (
        "openai_compatible_chat",
        "acme",
        "chat/completions",
        "POST",
        "bearer",
    )
    assert c.content_type == "application/json" and c.requires_tokens and c.openai_compatible
    assert c.request_options is not None and c.request_options.__name__ == "ChatCompletionsRequest"
    assert ep.request_defaults == {"model": "m", "temperature": 0.2}


def test_d4_compatible_needs_a_base_url(base: Records) -> None:
    for url in (None, "", "   "):
        kwargs = {} if url is None else {"base_url": url}
        with pytest.raises(EndpointConfigurationError) as caught:
            match_endpoint("acme", "", openai_compatible=True, **kwargs)
        assert caught.value.field == "base_url"


def test_d4_compatible_request_defaults_follow_its_model_or_none(base: Records) -> None:
    with pytest.raises(EndpointConfigurationError):
        match_endpoint(
            "acme",
            "",
            openai_compatible=True,
            base_url="http://127.0.0.1:9",
            request_defaults={"temprature": 1},
        )
    schemaless = match_endpoint(
        "acme",
        "",
        openai_compatible=True,
        base_url="http://127.0.0.1:9",
        request_options=None,
        request_defaults={"anything": [1, {"x": None}]},
    )
    assert schemaless.request_model is None
    assert schemaless.payload({"more": True}) == {"anything": [1, {"x": None}], "more": True}


def test_d4_compatible_api_key_is_the_credential_and_never_printed(base: Records) -> None:
    ep = match_endpoint(
        "acme",
        "",
        openai_compatible=True,
        base_url="http://127.0.0.1:9",
        api_key="sk-secretvalue12345",
    )
    assert ep.headers()["Authorization"] == "Bearer sk-secretvalue12345"
    assert "sk-secretvalue12345" not in repr(ep.config) + str(ep.config.summary()) + repr(ep)


def test_d4_implicit_fallback_by_base_url_warns_then_raises_when_strict(base: Records) -> None:
    with pytest.warns(DeprecationWarning, match="openai_compatible=True"):
        ep = match_endpoint("acme", "", base_url="http://127.0.0.1:9")
    assert ep.config.openai_compatible is True
    set_strict(True)
    try:
        with pytest.raises(EndpointNotFound, match="implicit fallback by base_url is disabled"):
            match_endpoint("acme", "", base_url="http://127.0.0.1:9")
    finally:
        set_strict(None)


def test_d4_strict_switch_follows_the_environment(
    base: Records, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROVCAT_STRICT", "1")
    with pytest.raises(EndpointNotFound):
        match_endpoint("acme", "", base_url="http://127.0.0.1:9")
    monkeypatch.setenv("PROVCAT_STRICT", "0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        match_endpoint("acme", "", base_url="http://127.0.0.1:9")


def test_an_unreadable_strict_value_warns_and_stays_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by a tester: ``PROVCAT_STRICT=ture`` (a typo) was silently off."""
    from provcat.strict import is_strict

    monkeypatch.setenv("PROVCAT_STRICT", "ture-typo-for-a-test")
    with pytest.warns(UserWarning, match=r"PROVCAT_STRICT='ture-typo-for-a-test' is neither on"):
        assert is_strict() is False
    monkeypatch.setenv("PROVCAT_STRICT", "TRUE")
    assert is_strict() is True


def test_d4_not_found_carries_no_secret_or_request_default(base: Records) -> None:
    with pytest.raises(EndpointNotFound) as caught:
        match_endpoint(
            "alpha",
            "nope",
            api_key="sk-secretvalue12345",
            request_defaults={"model": "private-model"},
        )
    assert "sk-secretvalue12345" not in str(caught.value) and "private-model" not in str(
        caught.value
    )


@pytest.mark.parametrize(
    ("provider", "endpoint", "kwargs", "error"),
    [
        (None, "chat", {}, TypeError),
        (1, "chat", {}, TypeError),
        (b"alpha", "chat", {}, TypeError),
        ("alpha", None, {}, TypeError),
        ("alpha", ["chat"], {}, TypeError),
        ("alpha", "chat", {"request_defaults": [("model", "x")]}, TypeError),
        ("", "chat", {}, EndpointConfigurationError),
        (
            "   ",
            "chat",
            {"openai_compatible": True, "base_url": "http://127.0.0.1:9"},
            EndpointConfigurationError,
        ),
    ],
)
def test_d4_bad_argument_types(
    base: Records, provider: Any, endpoint: Any, kwargs: dict[str, Any], error: type
) -> None:
    with pytest.raises(error):
        match_endpoint(provider, endpoint, **kwargs)


def test_d4_registered_endpoint_refuses_a_request_options_override(base: Records) -> None:
    with pytest.raises(EndpointConfigurationError) as caught:
        match_endpoint("alpha", "chat", request_options=None)
    assert caught.value.field == "request_options"


# --- D5 -------------------------------------------------------------------------------------


def test_d5_inspection_rows_sorted_typed_and_free_of_secrets(use_catalog: Use) -> None:
    use_catalog(
        base_records_with(lambda r: record(r, "beta").update(module="provcat_testproviders.broken"))
    )
    rows = EndpointRegistry.list_providers()
    assert [r["provider"] for r in rows] == ["alpha", "beta", "scripted"]
    alpha, beta, scripted = rows
    assert alpha["availability"] == "available" and alpha["diagnostics"] == []
    assert [e["endpoint"] for e in alpha["endpoints"]] == [
        "chat/completions",
        "embeddings",
        "query_cli",
    ]
    assert alpha["endpoints"][0] == {
        "endpoint": "chat/completions",
        "aliases": ["chat"],
        "endpoint_type": "api",
        "endpoint_class": "provcat_testproviders.alpha:AlphaChatEndpoint",
        "protocol": None,
        "request_options": "provcat_testproviders.alpha:ChatRequest",
        "base_url": "http://127.0.0.1:9/v1",
    }
    assert beta["availability"] == "unavailable" and beta["endpoints"] == []
    assert beta["aliases"] == ["beta-ai"]
    assert [d["code"] for d in beta["diagnostics"]] == ["import_error"]
    assert scripted["endpoints"][0]["aliases"] == ["chat", "cli", "query_cli"]
    text = repr(rows)
    assert "alpha-1" not in text, "request defaults are not inspection data"
    assert "sk-testsecret" not in text


def test_d5_valid_provider_has_no_historical_diagnostics(use_catalog: Use) -> None:
    use_catalog(
        base_records_with(lambda r: record(r, "beta").update(module="provcat_testproviders.broken"))
    )
    assert EndpointRegistry.list_providers()[1]["diagnostics"]
    fixed = base_records_with()
    EndpointRegistry.refresh(CatalogSource(lambda: fixed))
    assert all(r["diagnostics"] == [] for r in EndpointRegistry.list_providers())


def test_d5_policy_shares_the_snapshot(base: Records) -> None:
    policy = EndpointRegistry.snapshot().policy("alpha")
    assert policy is not None and policy.effort_mode == "kwarg" and policy.effort_kwarg == "effort"
    assert dict(policy.model_aliases) == {"alpha-default": "alpha/alpha-1"}
    assert policy.provider_aliases == ("al", "alpha-ai")


# --- helpers --------------------------------------------------------------------------------


def base_records_with(*changes: Callable[[Records], Any]) -> Records:
    from tests.runtime.conftest import base_records

    records = base_records()
    for change in changes:
        change(records)
    return records


def _set_options(records: Records, provider: str, endpoint: str, ref: str) -> None:
    for ep in record(records, provider)["endpoints"]:
        if ep["endpoint"] == endpoint:
            ep["request_options"] = f"provcat_testproviders.alpha:{ref}"


def test_d2_restart_rebuilds_and_persists_nothing(tmp_path: Any) -> None:
    import subprocess
    import sys

    code = "import provcat\nprint(provcat.match_endpoint('openai', 'chat').config.provider)\n"
    for _ in range(2):  # each process validates and builds its own snapshot from the catalog
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
        )
        assert out.stdout.strip() == "openai"
    assert list(tmp_path.iterdir()) == [], "no catalog state is written anywhere"


# --- a catalog source the generator did not write is checked -----------------------------------


def test_a_custom_source_has_every_request_default_checked(use_catalog: Use) -> None:
    records = base_records_with(
        lambda r: record(r, "alpha")["endpoints"][0]["request_defaults"].update(temperature=5),
    )
    with pytest.raises(CatalogValidationError) as caught:
        EndpointRegistry.refresh(CatalogSource(lambda: records))
    [found] = caught.value.diagnostics
    assert found.code == "invalid_request_default" and found.key == "temperature"
    # a caller's request_defaults are always validated
    use_catalog(base_records_with())
    with pytest.raises(EndpointConfigurationError):
        match_endpoint("alpha", "chat", request_defaults={"temperature": 5})


def test_a_custom_source_has_its_config_validators(use_catalog: Use) -> None:
    records = base_records_with(
        lambda r: record(r, "alpha")["endpoints"][0]["default_headers"].update(
            Authorization="Bearer x"
        ),
    )
    with pytest.raises(ValidationError, match="put credentials in api_key or api_key_env"):
        EndpointRegistry.refresh(CatalogSource(lambda: records))


def test_a_custom_source_with_a_key_collision_keeps_the_prior_snapshot(use_catalog: Use) -> None:
    use_catalog(base_records_with())
    prior = EndpointRegistry.snapshot()
    bad = base_records_with(lambda r: record(r, "scripted").update(aliases=("AL",)))
    with pytest.raises(CatalogValidationError) as caught:
        EndpointRegistry.refresh(CatalogSource(lambda: bad))
    [found] = caught.value.diagnostics
    assert (found.code, found.provider, found.key) == ("duplicate_provider_key", "scripted", "AL")
    assert "already an alias of provider 'alpha'" in found.message
    assert EndpointRegistry.snapshot() is prior
    assert match_endpoint("al", "chat").config.provider == "alpha"


@pytest.mark.parametrize(
    "change",
    [
        {"provider": " Alpha "},  # folded by the validator
        {"surprise": 1},  # refused by the validator
        {"default_headers": {"X-Api-Key": "k"}},  # refused by the validator
    ],
)
def test_trusted_config_construction_falls_back_to_the_validator(change: dict[str, Any]) -> None:
    from provcat.endpoints.config import EndpointConfig

    values = {"name": "alpha_chat", "provider": "alpha", "endpoint": "chat", **change}
    try:
        expected: Any = EndpointConfig(**values)
    except ValidationError as exc:
        expected = exc.errors()[0]["type"]
    try:
        got: Any = EndpointConfig._from_catalog(values)
    except ValidationError as exc:
        got = exc.errors()[0]["type"]
    assert got == expected


@pytest.mark.parametrize("endpoint", ["", "chat", "Chat", " chat/completions "])
def test_a_compatible_chat_endpoint_posts_to_chat_completions(endpoint: str) -> None:
    """An OpenAI-compatible server (vLLM, llama.cpp, LM Studio) serves Chat Completions at
    `<base_url>/chat/completions` (https://platform.openai.com/docs/api-reference/chat/create);
    `chat`, the name every catalog provider gives that endpoint and iModel's default, posted to
    `<base_url>/chat`, which such a server answers 404."""
    found = match_endpoint(
        "acme", endpoint, openai_compatible=True, base_url="http://127.0.0.1:9/v1", api_key="k"
    )
    assert found.url == "http://127.0.0.1:9/v1/chat/completions"
    other = match_endpoint(
        "acme", "v2/chat", openai_compatible=True, base_url="http://127.0.0.1:9", api_key="k"
    )
    assert other.url == "http://127.0.0.1:9/v2/chat"  # any other endpoint: the server's own path
    model = iModel(
        provider="acme", model="m", base_url="http://127.0.0.1:9/v1", openai_compatible=True
    )
    assert model.endpoint.url == "http://127.0.0.1:9/v1/chat/completions"


def test_a_compatible_endpoint_without_a_key_says_how_to_call_a_keyless_server() -> None:
    """Local OpenAI-compatible servers (llama.cpp, LM Studio) often take no key; the message
    names the setting that says so, and with it nothing is asked."""
    from provcat.errors import EndpointConfigurationError

    found = match_endpoint("acme", "chat", openai_compatible=True, base_url="http://127.0.0.1:9")
    with pytest.raises(EndpointConfigurationError, match=r"auth_type='none'"):
        found.headers()
    keyless = match_endpoint(
        "acme", "chat", openai_compatible=True, base_url="http://127.0.0.1:9", auth_type="none"
    )
    assert "Authorization" not in keyless.headers()


def test_an_endpoint_the_provider_lacks_names_the_providers_that_have_it() -> None:
    # `claude` is Claude Code (lionagi's alias), whose only endpoint is the CLI; the Messages
    # API is anthropic's: the refusal says where the endpoint is, before what this one has
    from provcat import model_kwargs
    from provcat.errors import EndpointNotFound

    with pytest.raises(EndpointNotFound) as found:
        match_endpoint("claude", "messages")
    assert str(found.value) == (
        "claude_code has no endpoint 'messages'; a provider that has it: anthropic; "
        "available: query_cli"
    )
    with pytest.raises(EndpointNotFound, match="a provider that has it: anthropic;"):
        model_kwargs("claude_code/sonnet", endpoint="messages")
    with pytest.raises(EndpointNotFound, match=r"providers that have it: openai, .*xai;"):
        match_endpoint("deepseek", "responses")
    # an endpoint most providers have points nowhere in particular: not listed
    with pytest.raises(EndpointNotFound) as many:
        match_endpoint("exa", "chat")
    assert "have it" not in str(many.value)
