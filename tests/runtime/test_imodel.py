"""D4 "Migration": iModel classifies legacy kwargs; one switch turns the warnings into errors."""

from __future__ import annotations

import warnings

import pytest

from provcat import iModel
from provcat.errors import EndpointConfigurationError
from provcat.strict import set_strict


@pytest.fixture(autouse=True)
def _not_strict() -> None:
    set_strict(False)
    yield
    set_strict(None)


def test_kwargs_are_classified_into_config_and_request_defaults() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = iModel(provider="OpenAI", model="gpt-4o", temperature=0.2, timeout=30)
    assert m.provider == "openai", "the canonical key, not the raw spelling"
    assert m.endpoint.config.timeout == 30
    assert m.request_defaults == {"model": "gpt-4o", "temperature": 0.2}


def test_model_with_provider_prefix_and_default_endpoint() -> None:
    assert iModel(model="groq/openai/gpt-oss-120b").endpoint.config.endpoint == "chat/completions"
    assert iModel(provider="claude").endpoint.config.endpoint == "query_cli"


def test_an_unknown_keyword_is_refused_with_a_did_you_mean() -> None:
    """Issue #25: the deprecation window (a DeprecationWarning, hidden by default) is over."""
    with pytest.raises(
        EndpointConfigurationError, match=r"max_tokenz.*\(did you mean 'max_tokens'\?\)"
    ):
        iModel(provider="anthropic", model="claude-x", max_tokenz=10)
    with pytest.raises(EndpointConfigurationError, match=r"\(did you mean 'timeout'\?\)"):
        iModel(provider="openai", model="gpt-4o", timout=30)  # a setting, misspelt


@pytest.mark.parametrize("strict", [True, False])
def test_strict_or_not_an_unknown_keyword_is_refused(strict: bool) -> None:
    set_strict(strict)
    with pytest.raises(EndpointConfigurationError) as caught:
        iModel(provider="codex", reasoning_efort="high")
    assert caught.value.field == "reasoning_efort"
    assert "(did you mean 'reasoning_effort'?)" in str(caught.value)


def test_api_key_is_config_and_stays_secret() -> None:
    m = iModel(
        provider="acme",
        openai_compatible=True,
        base_url="http://127.0.0.1:9",
        api_key="sk-hidden000000000",
    )
    assert "sk-hidden000000000" not in repr(m) + repr(m.endpoint.config)
    assert m.endpoint.headers()["Authorization"].endswith("sk-hidden000000000")


def test_provider_is_required() -> None:
    with pytest.raises(EndpointConfigurationError, match=r"give provider=, or model="):
        iModel(model="no-provider")


def test_a_model_without_provider_names_the_provider_that_lists_it() -> None:
    # OpenAI's model page lists GPT-6.2 Sol (https://developers.openai.com/api/docs/models)
    with pytest.raises(EndpointConfigurationError, match=r"write 'openai/gpt-6\.2-sol'"):
        iModel(model="gpt-6.2-sol")


def test_a_model_alias_says_model_kwargs_expands_it() -> None:
    # the catalog's model alias 'claude' (lionagi's shorthand for Claude Code's sonnet)
    with pytest.raises(EndpointConfigurationError) as caught:
        iModel(model="claude")
    assert "claude_code/sonnet" in str(caught.value)
    assert "iModel(**model_kwargs('claude'))" in str(caught.value)


def test_imodel_resolves_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import provcat.endpoints.resolution

    calls: list[tuple[str, str]] = []
    real = provcat.endpoints.resolution.lookup

    def counting(snapshot: object, provider: str, endpoint: str, *, compatible: bool) -> object:
        calls.append((provider, endpoint))
        return real(snapshot, provider, endpoint, compatible=compatible)  # type: ignore[arg-type]

    monkeypatch.setattr("provcat.endpoints.match.lookup", counting)
    m = iModel(provider="OpenAI ", endpoint="chat", model="gpt-4o", temperature=0.2)
    assert calls == [("OpenAI ", "chat")]
    assert m.request_defaults == {"model": "gpt-4o", "temperature": 0.2}


def test_a_model_that_reads_as_a_spec_warns_and_names_model_kwargs() -> None:
    """iModel's model= is a model name (README: only model_kwargs applies a spec), so the name
    is sent as written; one that ends in an effort suffix the inventory does not list warns."""
    with pytest.warns(UserWarning) as caught:
        m = iModel(model="openai/gpt-6.1-terra-high")
    assert m.request_defaults == {"model": "gpt-6.1-terra-high"}
    (warning,) = [w for w in caught if "model_kwargs" in str(w.message)]
    assert warning.filename == __file__, "the warning points at the caller's line"
    assert str(warning.message) == (
        "iModel sends model 'gpt-6.1-terra-high' as written: it is a model name, not a model "
        "spec, so its '-high' is not applied as an effort; for model 'gpt-6.1-terra' with "
        "effort 'high' write iModel(**model_kwargs('openai/gpt-6.1-terra', effort='high'))"
    )


def test_a_model_that_repeats_the_provider_warns_and_names_the_model() -> None:
    # iModel(model="openai/x") takes the provider from the model; beside provider="openai" the
    # "openai/" stays in the model sent, which openai lists under its own name only
    with pytest.warns(UserWarning, match="write model='gpt-6.1-terra'") as caught:
        m = iModel(provider="OpenAI", model="openai/gpt-6.1-terra", api_key="k" * 8)
    assert m.request_defaults == {"model": "openai/gpt-6.1-terra"}  # sent as written
    assert caught[0].filename == __file__
    with pytest.warns(UserWarning, match="write model='gpt-6.1-terra-high'"):  # then its effort
        iModel(provider="openai", model="openai/gpt-6.1-terra-high", api_key="k" * 8)
    with warnings.catch_warnings():  # a vendor id that holds a slash is no such mistake
        warnings.simplefilter("error")
        iModel(provider="groq", model="openai/gpt-oss-120b", api_key="k" * 8)
        iModel(provider="openai", model="gpt-6.1-terra", api_key="k" * 8)
    # a provider with no model inventory (an agent CLI) warns too: before, nothing did
    with pytest.warns(UserWarning, match="write model='sonnet'"):
        iModel(provider="claude_code", model="claude_code/sonnet")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        iModel(provider="claude_code", model="sonnet")


def test_the_hint_of_the_warning_builds_what_the_spec_means() -> None:
    from provcat import model_kwargs

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = iModel(**model_kwargs("openai/gpt-6.1-terra", effort="high"))
    assert m.request_defaults == {"model": "gpt-6.1-terra", "reasoning_effort": "high"}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"model": "openai/gpt-6.1-terra"},  # no suffix
        {"model": "groq/openai/gpt-oss-120b"},  # a vendor id with a slash
        {"provider": "openai", "model": "gpt-6.1-terra-highway"},  # not an effort word
    ],
)
def test_a_plain_model_name_does_not_warn(kwargs: dict[str, str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        iModel(**kwargs)
