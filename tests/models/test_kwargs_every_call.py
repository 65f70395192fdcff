"""model_kwargs as a caller meets it: one path for a string and a ModelSpec, the lifecycle judged
on every call, endpoints and providers refused as match_endpoint refuses them, names sent in the
catalog's spelling, and the words of a spec that names no provider (tester's findings 1-6, 9)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from click.testing import CliRunner

import provcat.models.lifecycle
from provcat import match_endpoint, model_kwargs, parse_model_spec
from provcat.cli.main import main
from provcat.errors import (
    EffortIgnored,
    EndpointNotFound,
    ModelDeprecated,
    ModelRetired,
    ProviderCatalogError,
)
from provcat.models.spec import ModelSpec
from provcat.strict import set_strict
from tests.models.inventory_catalog import use_acme


@pytest.fixture
def acme() -> Iterator[dict[str, Any]]:
    yield from use_acme()


@pytest.fixture
def strict() -> Iterator[None]:
    try:
        yield
    finally:
        set_strict(None)


def _calls(spec: str, n: int = 3) -> list[list[str]]:
    """The lifecycle warnings of ``n`` calls of model_kwargs(spec), one list per call."""
    said = []
    for _ in range(n):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model_kwargs(spec)
        said.append([str(w.message) for w in caught if issubclass(w.category, ModelDeprecated)])
    return said


# --- 1: the lifecycle check runs on every call, judged on the day of the call ---------------


@pytest.mark.usefixtures("acme")
def test_a_deprecated_model_warns_on_every_call() -> None:
    said = _calls("acme/acme-old")
    assert all(len(call) == 1 and "acme-old" in call[0] for call in said), said


@pytest.mark.usefixtures("acme", "strict")
def test_strict_mode_set_after_a_first_call_refuses_a_retired_model() -> None:
    assert _calls("acme/acme-ancient", 1) == [
        [
            "model 'acme/acme-ancient' is retired since 2025-06-01: calls to it fail; "
            "move to its successor 'acme-old'"
        ]
    ]
    set_strict(True)
    with pytest.raises(ModelRetired, match="retired since 2025-06-01"):
        model_kwargs("acme/acme-ancient")
    set_strict(False)
    assert len(_calls("acme/acme-ancient", 1)[0]) == 1


class _Clock(date):
    """A date whose today() is set by the test: the day a long-running process has reached."""

    day = date(2027, 2, 28)

    @classmethod
    def today(cls) -> _Clock:
        return cls(cls.day.year, cls.day.month, cls.day.day)


@pytest.mark.usefixtures("acme", "strict")
def test_a_shutdown_date_that_passes_while_the_process_runs_is_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # acme-sunset: deprecated from 2027-03-01, shut down on 2027-06-01
    monkeypatch.setattr(provcat.models.lifecycle, "date", _Clock)
    assert _calls("acme/acme-sunset", 1) == [[]]
    _Clock.day = date(2027, 3, 1)
    assert "is deprecated (shuts down on 2027-06-01)" in _calls("acme/acme-sunset", 1)[0][0]
    _Clock.day = date(2027, 6, 1)
    assert "is retired since 2027-06-01" in _calls("acme/acme-sunset", 1)[0][0]
    set_strict(True)
    with pytest.raises(ModelRetired):
        model_kwargs("acme/acme-sunset")


# --- 2: a ModelSpec goes through the string's checks and rules ------------------------------

SPECS = [
    "claude",
    "pi",
    "claude/opus-4-7-high",
    "Claude/opus-4-7-HIGH",
    "claude/opus-4-7-high-max",
    "codex/gpt-5.4-XHigh",
    "codex/gpt-5.4-high-low",
    "pi/gemini-3.8-flash-ultra",
    "gemini_code/flash-max",
    "gemini_code/something-new-low",
    "openai/gpt-6.1-terra-high",
    "openai/GPT-6.1-Terra-high",
    "openai/ gpt-6.1-terra-high",
    "openai/gpt-6.1-terra-high ",
    "codex/gpt-5.4-high\n",
    "groq/openai/gpt-oss-120b-high",
    "openrouter/qwen/qwen3-max",
    "gemini/gemini-3.8-flash",
]


@pytest.mark.parametrize("spec", SPECS)
def test_a_parsed_spec_gives_what_its_string_gives(spec: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert model_kwargs(parse_model_spec(spec)) == model_kwargs(spec)


def test_a_model_spec_effort_is_checked_as_the_keyword_is() -> None:
    with pytest.raises(ValueError, match="effort 'bogus' is not one of") as from_spec:
        model_kwargs(ModelSpec("codex/gpt-5.4", "bogus"))
    with pytest.raises(ValueError) as from_keyword:
        model_kwargs("codex/gpt-5.4", effort="bogus")
    assert str(from_spec.value) == str(from_keyword.value)


def test_a_model_spec_takes_the_claude_rules_of_its_string() -> None:
    # lionagi 0.36.0: "claude/opus-4-7-high" -> model claude-opus-4-7, effort "high" (lowercase)
    expected = {"provider": "claude_code", "model": "claude-opus-4-7", "effort": "high"}
    assert model_kwargs(ModelSpec("claude/opus-4-7", "HIGH")) == expected
    assert model_kwargs("claude/opus-4-7-high") == expected


def test_a_model_spec_effort_on_a_provider_that_refuses_suffixes_is_refused_as_the_suffix() -> None:
    with pytest.raises(ValueError, match="does not support effort levels") as from_spec:
        model_kwargs(ModelSpec("gemini/gemini-3.8-flash", "high"))
    with pytest.raises(ValueError) as from_string:
        model_kwargs("gemini/gemini-3.8-flash-high")
    assert str(from_spec.value) == str(from_string.value)
    # the keyword stays the way to give it (the model declares "high")
    kwargs = model_kwargs("gemini/gemini-3.8-flash", effort="high")
    assert kwargs["reasoning_effort"] == "high"


# --- 3: an endpoint the provider does not have fails closed ---------------------------------


@pytest.mark.parametrize("spec", ["openai/gpt-6.1-terra", "openai/gpt-6.1-terra-high"])
def test_an_unknown_endpoint_is_endpoint_not_found_in_match_endpoints_words(spec: str) -> None:
    with pytest.raises(EndpointNotFound) as ours:
        model_kwargs(spec, endpoint="respones")
    with pytest.raises(EndpointNotFound) as theirs:
        match_endpoint("openai", "respones")
    assert str(ours.value) == str(theirs.value)
    assert "did you mean 'responses'?" in str(ours.value)
    assert ours.value.available == theirs.value.available


def test_a_known_endpoint_in_any_spelling_is_taken() -> None:
    kwargs = model_kwargs("openai/gpt-6.1-terra-high", endpoint=" Responses ")
    assert kwargs["reasoning"] == {"effort": "high"}
    with pytest.raises(EndpointNotFound, match="codex has no endpoint 'bogus'"):
        model_kwargs("codex/gpt-5.4-high", endpoint="bogus")


# --- 4: names matched loosely are sent in the catalog's spelling ----------------------------


@pytest.mark.parametrize(
    "spec",
    [
        "openai/gpt-6.1-terra-high",
        "openai/ gpt-6.1-terra-high",
        "openai/GPT-6.1-Terra-high",
        "openai/gpt-6.1-terra-high ",
        "  openai/gpt-6.1-terra-HIGH\t",
        "OpenAI /gpt-6.1-terra-high",
    ],
)
def test_a_listed_model_is_sent_in_the_catalogs_spelling(spec: str) -> None:
    assert model_kwargs(spec) == {
        "provider": "openai",
        "model": "gpt-6.1-terra",
        "reasoning_effort": "high",
    }


@pytest.mark.usefixtures("acme")
def test_an_alias_keeps_the_catalogs_spelling_of_the_alias() -> None:
    assert model_kwargs("acme/ACME-LARGE-2-20250929")["model"] == "acme-large-2-20250929"


def test_an_unlisted_model_is_sent_as_written_without_surrounding_whitespace() -> None:
    with pytest.warns(EffortIgnored):
        assert model_kwargs(" openai/ My-Model-high ") == {
            "provider": "openai",
            "model": "My-Model",
        }
    assert model_kwargs("openai/My-Model")["model"] == "My-Model"


def test_the_cli_reads_a_spec_without_its_surrounding_whitespace() -> None:
    result = CliRunner().invoke(main, ["model", "openai/gpt-6.1-terra-high ", "--format", "json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["spec"] == {"model": "openai/gpt-6.1-terra", "effort": "high"}
    assert out["kwargs"]["reasoning_effort"] == "high" and out["notes"] == []


# --- 5: a spec that names no provider says why, and what to write ----------------------------


def test_an_alias_with_an_effort_suffix_says_what_to_write() -> None:
    with pytest.raises(ValueError) as caught:
        model_kwargs("claude-high")
    message = str(caught.value)
    assert "model alias 'claude' (claude_code/sonnet)" in message
    assert "only as the whole spec" in message
    assert "'claude_code/sonnet-high'" in message and "effort='high'" in message
    # what it says to write works
    assert model_kwargs("claude_code/sonnet-high") == model_kwargs("claude", effort="high")
    assert model_kwargs("claude", effort="high") == {
        "provider": "claude_code",
        "model": "sonnet",
        "effort": "high",
    }
    with pytest.raises(ValueError) as same:
        model_kwargs(ModelSpec("claude", "high"))
    assert str(same.value) == message


def test_a_provider_without_a_model_says_so() -> None:
    with pytest.raises(ValueError, match=r"'openai-low' names no model: 'openai' is a provider;"):
        model_kwargs("openai-low")
    with pytest.raises(ValueError, match=r"'gpt-4o' names no provider: write it as provider/model"):
        model_kwargs("gpt-4o")


def test_the_cli_says_the_effort_option() -> None:
    result = CliRunner().invoke(main, ["model", "claude-high"])
    assert result.exit_code == 1
    assert "'claude' with --effort high" in result.stderr


# --- 6: an unknown provider is a typed catalog error ----------------------------------------


def test_an_unknown_provider_is_endpoint_not_found() -> None:
    with pytest.raises(EndpointNotFound) as caught:
        model_kwargs("opnai/gpt-6.1-terra")
    assert isinstance(caught.value, ProviderCatalogError)
    assert caught.value.provider == "opnai"
    result = CliRunner().invoke(main, ["model", "opnai/gpt-6.1-terra", "--format", "json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"] == "EndpointNotFound"


# --- 9: the JSON of `provcat model` carries --effort ----------------------------------------


def test_the_json_carries_the_effort_override() -> None:
    result = CliRunner().invoke(
        main, ["model", "codex/gpt-5.4-low", "--effort", "High", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["spec"] == {"model": "codex/gpt-5.4", "effort": "low"}
    assert out["effort_override"] == "high"
    assert out["kwargs"]["reasoning_effort"] == "high"
    result = CliRunner().invoke(main, ["model", "codex/gpt-5.4-low", "--format", "json"])
    assert json.loads(result.stdout)["effort_override"] is None
