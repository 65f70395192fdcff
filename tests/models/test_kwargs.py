"""model_kwargs: the one application path for yolo, bypass, fast and effort."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from provcat import model_kwargs, parse_model_spec
from provcat.cli.main import main
from provcat.errors import EffortIgnored, EndpointNotFound
from provcat.models.spec import ModelSpec


def test_bypass_beats_yolo_and_fast_adds_on_top() -> None:
    assert model_kwargs("codex/gpt-5.4-max", bypass=True, yolo=True, fast=True) == {
        "provider": "codex",
        "model": "gpt-5.4",
        "reasoning_effort": "xhigh",
        "bypass_approvals": True,
        "skip_git_repo_check": True,
        "fast_mode": True,
    }
    assert model_kwargs("openai-codex/gpt-5.4", yolo=True) == {
        "provider": "codex",
        "model": "gpt-5.4",
        "full_auto": True,
        "skip_git_repo_check": True,
    }


def test_fast_only_where_declared() -> None:
    with pytest.raises(ValueError, match="claude_code has no fast mode"):
        model_kwargs("claude/opus-4-7", fast=True)
    with pytest.raises(ValueError, match="openai has no fast mode"):
        model_kwargs("openai/gpt-4o", fast=True)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("pi/gemini-2.5-flash-ultra", "xhigh"),  # pi must not receive ultra
        ("pi/gemini-2.5-flash-none", "off"),
        ("pi/gemini-2.5-flash-max", "xhigh"),
        ("pi/gemini-2.5-flash-low", "low"),
    ],
)
def test_pi_vocabulary(spec: str, expected: str) -> None:
    assert model_kwargs(spec)["thinking"] == expected


@pytest.mark.parametrize(
    ("spec", "model"),
    [
        ("gemini_code", "Gemini 4 Argon (High)"),
        ("gemini-cli/flash", "Gemini 3.8 Flash (Medium)"),
        ("gemini_code/flash-max", "Gemini 3.8 Flash (High)"),
        ("gemini_code/Gemini 3.1 Pro-medium", "Gemini 3.1 Pro (High)"),
        ("gemini_code/pro-low", "Gemini 3.1 Pro (Low)"),
        ("gemini_code/gemini-2.5-flash-minimal", "Gemini 3.5 Flash (Low)"),
        ("gemini_code/opus-high", "Claude Opus 4.6 (Thinking)"),
        ("gemini_code/something-new", "something-new"),
    ],
)
def test_gemini_cli_folds_the_tier_into_the_model_name(spec: str, model: str) -> None:
    assert model_kwargs(spec) == {"provider": "gemini_code", "model": model}


def test_effort_override_and_its_validation() -> None:
    assert model_kwargs("claude/opus-4-7", effort="XHigh")["effort"] == "xhigh"
    assert model_kwargs("claude/haiku-4-5", effort="xhigh")["effort"] == "high"
    with pytest.raises(ValueError, match="is not one of"):
        model_kwargs("claude/opus-4-7", effort="h\u0131gh")
    with pytest.raises(ValueError, match="the model's efforts are low, medium, high"):
        model_kwargs("gemini/gemini-3.8-flash", effort="max")


def test_providers_without_a_policy_behave_as_before() -> None:
    # a model the inventory does not list: dropped as before, now with a warning
    # (test_effort_kwargs.py has the listed models whose efforts become request fields)
    with pytest.warns(EffortIgnored, match="does not list the model"):
        assert model_kwargs("openai/gpt-4o-high") == {"provider": "openai", "model": "gpt-4o"}


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [("gpt-4o", ValueError, "names no provider"), ("acme/x", EndpointNotFound, "unknown provider")],
)
def test_specs_without_a_known_provider(spec: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        model_kwargs(spec)


@pytest.mark.parametrize(
    ("spec", "written"),
    # OpenAI lists GPT-6.2 Sol, xAI lists Grok 4.3 (their model pages); the effort is kept
    [("gpt-6.2-sol", "openai/gpt-6.2-sol"), ("grok-4.3-high", "xai/grok-4.3-high")],
)
def test_a_spec_without_provider_names_the_provider_that_lists_it(spec: str, written: str) -> None:
    with pytest.raises(
        ValueError, match=f"names no provider: the catalog lists .* write '{written}'"
    ):
        model_kwargs(spec)


def test_a_parsed_spec_is_accepted() -> None:
    assert model_kwargs(parse_model_spec("claude"))["model"] == "sonnet"


def test_cli_text_and_json() -> None:
    result = CliRunner().invoke(main, ["model", "codex/gpt-5.4-max", "--bypass", "--fast"])
    assert result.exit_code == 0 and 'reasoning_effort: "xhigh"' in result.stdout
    result = CliRunner().invoke(main, ["model", "claude", "--format", "json"])
    assert json.loads(result.stdout) == {
        "spec": {"model": "claude_code/sonnet", "effort": None},
        "effort_override": None,
        "kwargs": {"provider": "claude_code", "model": "sonnet"},
        "warnings": [],
        "notes": [],
    }
    result = CliRunner().invoke(main, ["model", "gemini/x-high"])
    assert result.exit_code == 1 and "does not support effort levels" in result.stderr


def test_cli_effort_override_is_a_usage_error_when_unknown_and_shown_when_applied() -> None:
    result = CliRunner().invoke(main, ["model", "codex/gpt-5.4", "--effort", "bogus"])
    assert result.exit_code == 2 and "'bogus' is not one of" in result.stderr
    result = CliRunner().invoke(main, ["model", "codex/gpt-5.4", "--effort", "High"])
    assert result.exit_code == 0
    assert "effort: high (from --effort)" in result.stdout
    assert 'reasoning_effort: "high"' in result.stdout


def test_an_unknown_provider_in_a_spec_names_the_closest() -> None:
    with pytest.raises(EndpointNotFound, match=r"unknown provider 'opnai' .*did you mean 'openai'"):
        model_kwargs("opnai/gpt-5.4")
    with pytest.raises(EndpointNotFound, match=r"unknown provider 'zzzz' in model spec 'zzzz/x'$"):
        model_kwargs("zzzz/x")


def test_a_parsed_spec_with_an_effort_of_its_own_goes_through_the_rules() -> None:
    # the effort of a ModelSpec is checked as effort= is (not a generic level: refused)...
    with pytest.raises(ValueError, match="effort 'turbo' is not one of"):
        model_kwargs(ModelSpec("codex/gpt-5.4", "turbo"))
    # ...and translated and clamped as a suffix is
    assert model_kwargs(ModelSpec("claude/opus-4-7", "ultra"))["effort"] == "max"


@pytest.mark.parametrize("spec", [None, 3, ["codex/gpt-5.4"], {"model": "x"}])
def test_a_spec_that_is_not_a_string_is_a_clear_type_error(spec: object) -> None:
    with pytest.raises(TypeError, match="a model spec must be a str"):
        model_kwargs(spec)  # type: ignore[arg-type]


def test_the_result_is_the_callers_to_change() -> None:
    first = model_kwargs("codex/gpt-5.4-high", bypass=True)
    first["model"] = "changed"
    first.pop("reasoning_effort")
    assert model_kwargs("codex/gpt-5.4-high", bypass=True)["model"] == "gpt-5.4"
    assert "reasoning_effort" in model_kwargs("codex/gpt-5.4-high", bypass=True)
