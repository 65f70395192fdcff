"""parse_model_spec: lionagi 0.36.0's grammar from the snapshot, with its defects fixed."""

from __future__ import annotations

import itertools
import warnings

import pytest

from provcat.errors import UnknownProviderWarning
from provcat.models.effort import EFFORT_LEVELS
from provcat.models.spec import ModelSpec, parse_model_spec, split_effort_suffix


@pytest.mark.parametrize(
    ("spec", "model", "effort"),
    [
        ("claude", "claude_code/sonnet", None),
        ("pi_code", "pi/gemini-3.8-flash", None),
        ("codex/gpt-5.4-XHigh", "codex/gpt-5.4", "xhigh"),
        ("codex/gpt-5.4-high-low", "codex/gpt-5.4-high", "low"),
        ("claude/opus-4-7-high-max", "claude/claude-opus-4-7-high", "max"),
        ("CLAUDE_CODE/opus-4-7-HIGH", "CLAUDE_CODE/claude-opus-4-7", "high"),
        ("Claude/opus-4-7", "Claude/claude-opus-4-7", None),
        ("claude/Opus-4-7", "claude/Opus-4-7", None),
        ("claude/opus", "claude/opus", None),
        ("anthropic/opus-4-7", "anthropic/opus-4-7", None),
        ("opus-4-7", "opus-4-7", None),
        ("gpt-5.4-mini", "gpt-5.4-mini", None),
        ("gpt-5-minimal", "gpt-5", "minimal"),
        ("o4-mini-high", "o4-mini", "high"),
        ("openrouter/qwen/qwen3-max", "openrouter/qwen/qwen3-max", None),
        ("qwen/qwen3-max", "qwen/qwen3", "max"),
        ("/model-high", "/model", "high"),
        ("a//b", "a//b", None),
        ("codex/gpt-5.4-high/extra", "codex/gpt-5.4-high/extra", None),
        ("gemini-high", "gemini", "high"),
        ("gemini/openai/gpt-oss-high", "gemini/openai/gpt-oss-high", None),
        ("foo/bar-high", "foo/bar", "high"),
        ("claude-high", "claude", "high"),
        ("openai-codex", "openai-codex", None),
    ],
)
def test_lionagi_grammar(spec: str, model: str, effort: str | None) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert parse_model_spec(spec) == ModelSpec(model, effort)
    # a provider part the catalog does not know parses as before, with a warning naming it
    for warning in caught:
        assert warning.category is UnknownProviderWarning
        assert f"unknown provider '{spec.partition('/')[0]}'" in str(warning.message)


@pytest.mark.parametrize("spec", ["high", "-high", "codex/-high", "x_high", "x.high", "x-high "])
def test_no_split(spec: str) -> None:
    assert parse_model_spec(spec).effort is None


@pytest.mark.parametrize("spec", ["Claude", " claude", "CLAUDE\t", "claude\n", "Pi-Code"])
def test_aliases_in_every_case_and_whitespace_variant(spec: str) -> None:
    assert parse_model_spec(spec).effort is None
    assert parse_model_spec(spec).model in ("claude_code/sonnet", "pi/gemini-3.8-flash")


@pytest.mark.parametrize(
    "spec", ["gemini/gemini-2.5-flash-high", "GEMINI/x-low", "Gemini-API/x-max", " gemini/x-high"]
)
def test_effort_on_a_none_provider_is_refused_with_the_raw_spelling(spec: str) -> None:
    raw = spec.split("/")[0]
    with pytest.raises(ValueError, match=f"Provider '{raw}' does not support effort levels"):
        parse_model_spec(spec)


def test_a_refused_effort_on_a_model_that_takes_one_says_how_to_give_it() -> None:
    # lionagi's words stay as they are (and what is raised); where the inventory lists the model
    # with reasoning efforts (gemini-3.8-flash: low, medium, high), they go on to say how to
    # give the effort as a setting, which Gemini's policy sends
    lionagi = (
        "Provider 'gemini' does not support effort levels. Remove '-high' from "
        "'gemini/gemini-3.8-flash-high'."
    )
    with pytest.raises(ValueError) as refused:
        parse_model_spec("gemini/gemini-3.8-flash-high")
    assert str(refused.value) == (
        f"{lionagi} gemini-3.8-flash takes effort as a setting: `provcat model "
        "gemini/gemini-3.8-flash --effort high` / model_kwargs('gemini/gemini-3.8-flash', "
        "effort='high')."
    )
    with pytest.raises(ValueError, match=r"one of low, medium, high: .*--effort LEVEL"):
        parse_model_spec("gemini/gemini-3.8-flash-max")
    # a model the inventory does not list with efforts: lionagi's words alone
    with pytest.raises(ValueError) as refused:
        parse_model_spec("gemini/x-high")
    assert str(refused.value) == (
        "Provider 'gemini' does not support effort levels. Remove '-high' from 'gemini/x-high'."
    )


# --- lionagi defects, fixed -----------------------------------------------------------------


@pytest.mark.parametrize(
    "spec", ["codex/gpt-5.4-h\u0131gh", "codex/gpt-5.4-H\u0130GH", "x-\u212aigh"]
)
def test_unicode_case_folding_never_makes_an_effort(spec: str) -> None:
    assert parse_model_spec(spec) == ModelSpec(spec, None)


def test_a_trailing_newline_is_not_swallowed() -> None:
    assert parse_model_spec("codex/gpt-5.4-high\n") == ModelSpec("codex/gpt-5.4-high\n", None)


@pytest.mark.parametrize("spec", [None, 123, b"claude", ["claude"]])
def test_non_strings_are_a_clear_type_error(spec: object) -> None:
    with pytest.raises(TypeError, match="a model spec must be a str"):
        parse_model_spec(spec)  # type: ignore[arg-type]


@pytest.mark.parametrize("spec", ["", " ", "\n\t"])
def test_empty_specs_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="empty"):
        parse_model_spec(spec)


@pytest.mark.parametrize("spec", ["/", "//", "a/"])
def test_degenerate_slashes_pass_through(spec: str) -> None:
    with pytest.warns(UnknownProviderWarning, match="unknown provider"):
        assert parse_model_spec(spec) == ModelSpec(spec, None)


@pytest.mark.parametrize("hyphen", ["\u2010", "\uff0d", "\u2212"])
def test_unicode_hyphens_do_not_split(hyphen: str) -> None:
    assert parse_model_spec(f"codex/gpt-5.4{hyphen}high").effort is None


def test_100kb_spec_is_linear() -> None:
    long = "codex/" + "a-" * 50_000 + "b"
    assert parse_model_spec(long).effort is None
    assert split_effort_suffix("a-" * 50_000 + "high") == ("a-" * 49_999 + "a", "high")


def test_str_round_trip() -> None:
    assert str(parse_model_spec("codex/gpt-5.4-XHigh")) == "codex/gpt-5.4-xhigh"
    assert str(parse_model_spec("claude")) == "claude_code/sonnet"


def _ascii_case_spellings(word: str) -> set[str]:
    return {"".join(cs) for cs in itertools.product(*((c.lower(), c.upper()) for c in word))}


@pytest.mark.parametrize("level", EFFORT_LEVELS)
def test_every_ascii_case_spelling_of_a_level_splits(level: str) -> None:
    # the grammar: a level matches ASCII letters case-insensitively (module docstring, rule 3)
    for suffix in sorted(_ascii_case_spellings(level)):
        assert parse_model_spec(f"codex/gpt-5.4-{suffix}") == ModelSpec("codex/gpt-5.4", level)
        assert parse_model_spec(f"gpt-5.4-{suffix}") == ModelSpec("gpt-5.4", level)
        assert split_effort_suffix(f"gpt-5.4-{suffix}") == ("gpt-5.4", level)


@pytest.mark.parametrize("spec", ["codex/gpt-5.4-hi", "codex/gpt-5.4-highh", "gpt-5.4-", "-", "a-"])
def test_near_levels_do_not_split(spec: str) -> None:
    assert parse_model_spec(spec) == ModelSpec(spec, None)


def test_the_prefix_rule_needs_more_than_the_bare_start() -> None:
    # claude_code's prefix rule: opus/sonnet/haiku/fable names gain "claude-" (module docstring)
    assert parse_model_spec("claude/opus-high") == ModelSpec("claude/opus", "high")
    assert parse_model_spec("claude/opusx") == ModelSpec("claude/claude-opusx", None)
    assert parse_model_spec("claude/haiku-4-5-max") == ModelSpec("claude/claude-haiku-4-5", "max")


def test_a_key_given_as_the_model_stays_out_of_the_specs_repr() -> None:
    # a key pasted where the model goes reaches logs and tracebacks through the repr; the spec
    # itself keeps what the caller gave (str() is the request's model string)
    key = "sk-proj-" + "Ab3" * 16
    spec = parse_model_spec(f"openai/{key}-high")
    assert key not in repr(spec) and "openai/" in repr(spec) and "high" in repr(spec)
    assert spec.model == f"openai/{key}" and str(spec) == f"openai/{key}-high"
    assert "openai/gpt-5" in repr(parse_model_spec("openai/gpt-5-high"))


def test_a_key_given_as_the_model_or_provider_stays_out_of_warnings_and_errors() -> None:
    # docs/errors-and-retries.md: a key passed where a provider or model name goes is written
    # `<redacted>` in the message; the warnings and the effort refusal say so too
    from provcat import iModel, model_kwargs

    key = "sk-proj-" + "Ab3" * 16
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parse_model_spec(f"{key}/gpt-6.1-terra")  # UnknownProviderWarning
        model_kwargs(f"openai/{key}-high")  # EffortIgnored: the inventory does not list it
        iModel(provider="openai", model=f"{key}-high", api_key="k" * 8)  # sent as written
    kinds = {type(w.message).__name__ for w in caught}
    assert {"UnknownProviderWarning", "EffortIgnored", "UserWarning"} <= kinds
    assert all(key not in str(w.message) and "<redacted>" in str(w.message) for w in caught)
    with pytest.raises(ValueError, match="does not support effort levels") as refused:
        parse_model_spec(f"gemini/{key}-high")
    assert key not in str(refused.value)
