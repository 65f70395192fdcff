"""Parity with lionagi 0.36.0: hundreds of specs through both parsers. Every difference is one
that ADR-0028 or issue 4 orders, named here."""

from __future__ import annotations

import itertools
import warnings
from collections import Counter
from collections.abc import Callable

import provcat_catalog
import pytest

from provcat.catalog.keys import canonical_key
from provcat.models.spec import parse_model_spec

warnings.simplefilter("ignore", DeprecationWarning)
# the answers are compared, not the words (test_unknown_provider.py checks those)
pytestmark = pytest.mark.filterwarnings("ignore::provcat.errors.UnknownProviderWarning")
lionagi_providers = pytest.importorskip(
    "lionagi.service.providers", reason="lionagi is a dev dependency"
)

PROVIDERS = [*sorted(provcat_catalog.PROVIDER_INDEX), "foo", "qwen", "meta-llama"]
VARIANTS = [
    "OpenAI",
    "CLAUDE",
    "Claude",
    "Gemini-API",
    "GEMINI",
    "Pi_Code",
    " claude",
    "claude ",
    " gemini",
]
MODELS = [
    "gpt-5.4",
    "gpt-5.4-mini",
    "opus-4-7",
    "Opus-4-7",
    "opus",
    "sonnet-5",
    "haiku_4_5",
    "gemini-2.5-flash",
    "o4-mini",
    "qwen/qwen3-max",
    "x",
]
SUFFIXES = [
    "",
    "-high",
    "-XHigh",
    "-max",
    "-ULTRA",
    "-none",
    "-minimal",
    "-low-high",
    "-mini",
    "-h\u0131gh",
    "-high\n",
    "_high",
    "-",
]
ALIASES = sorted(provcat_catalog.MODEL_ALIAS_INDEX)
SPECIAL = [
    "",
    " ",
    "/",
    "//",
    "a/",
    "foo",
    "/model-high",
    "a//b",
    "claude//opus-4-7-high",
    "codex/gpt-5.4-high/extra",
    "codex/-high",
    "-high",
    "high",
    "gemini-high",
    "gemini/openai/gpt-oss-high",
    "codex/gpt-5.4\u2010high",
    "codex/gpt-5.4\uff0dhigh",
    "claude-high",
    "codex-xhigh",
    "openai-codex",
    "claude\n",
    "Claude",
    " claude",
]


def _specs() -> list[str]:
    specs = list(SPECIAL)
    for provider, model, suffix in itertools.product(PROVIDERS + VARIANTS, MODELS, SUFFIXES[:9]):
        specs.append(f"{provider}/{model}{suffix}")
    for model, suffix in itertools.product(MODELS, SUFFIXES):
        specs.append(f"{model}{suffix}")
    for alias, suffix in itertools.product(ALIASES, ["", "-high", "\n", " "]):
        specs.extend([alias + suffix, alias.upper() + suffix, " " + alias])
    for provider, suffix in itertools.product(["codex", "claude", "gemini"], SUFFIXES):
        specs.append(f"{provider}/gpt-5.4{suffix}")
    return list(dict.fromkeys(specs))


def _outcome(parse: Callable[[str], object], spec: str) -> tuple[str, object]:
    try:
        result = parse(spec)
    except (ValueError, TypeError) as exc:
        return ("error", type(exc).__name__)
    return ("ok", (result.model, result.effort))  # type: ignore[attr-defined]


# bare aliases whose target issue 12 moved off a model its vendor shut down (gemini-2.5-flash)
MOVED_ALIASES = {"pi", "pi-code", "pi_code"}


def _reason(spec: str) -> str | None:
    """The ordered difference a spec falls under, or None when the results must be equal."""
    if not spec.strip():
        return "empty_spec_refused"
    if spec in MOVED_ALIASES:
        return "alias_moved_off_a_shut_down_model"
    if (
        canonical_key(spec) in provcat_catalog.MODEL_ALIAS_INDEX
        and spec not in provcat_catalog.MODEL_ALIAS_INDEX
    ):
        return "alias_case_and_whitespace_widening"
    if spec.endswith("\n"):
        return "trailing_newline_not_swallowed"
    _, _, suffix = spec.rpartition("-")
    if not suffix.isascii():
        return "effort_ascii_only"
    provider = spec.split("/")[0]
    if "/" in spec and provider != provider.strip():
        return "provider_key_whitespace_canonicalized"
    return None


def test_at_least_500_specs_match_lionagi_or_differ_as_ordered() -> None:
    specs = _specs()
    assert len(specs) >= 500
    unexplained = []
    differences: Counter[str] = Counter()
    for spec in specs:
        ours = _outcome(parse_model_spec, spec)
        theirs = _outcome(lionagi_providers.parse_model_spec, spec)
        if ours == theirs:
            continue
        reason = _reason(spec)
        if reason is None:
            unexplained.append((spec, ours, theirs))
        else:
            differences[reason] += 1
    assert unexplained == [], unexplained[:10]
    assert set(differences) == {
        "empty_spec_refused",
        "alias_case_and_whitespace_widening",
        "trailing_newline_not_swallowed",
        "effort_ascii_only",
        "provider_key_whitespace_canonicalized",
        "alias_moved_off_a_shut_down_model",
    }, differences
    assert sum(differences.values()) < len(specs) // 4


@pytest.mark.parametrize(
    "model",
    ["gpt-5.4", "gpt-5.3-codex-spark", "gpt-5.6-luna", "gpt-5.6-sol", "gpt-6-sol", "unknown-model"],
)
@pytest.mark.parametrize(
    "effort", ["none", "minimal", "low", "medium", "high", "xhigh", "max", "ultra"]
)
def test_codex_clamp_matches_lionagi(model: str, effort: str) -> None:
    from provcat.models.kwargs import model_kwargs

    expected = lionagi_providers._clamp_codex_effort(effort, f"codex/{model}")
    assert model_kwargs(f"codex/{model}", effort=effort)["reasoning_effort"] == expected


@pytest.mark.parametrize(
    "model",
    [
        "claude-opus-4-7",
        "claude-haiku-4-5",
        "claude-sonnet-5",
        "claude-fable-5-1",
        "claude-opus-4-1",
    ],
)
@pytest.mark.parametrize("effort", ["low", "medium", "high", "xhigh", "max", "ultra"])
def test_claude_clamp_matches_lionagi_within_the_vendor_vocabulary(model: str, effort: str) -> None:
    from provcat.models.kwargs import model_kwargs

    expected = lionagi_providers._clamp_claude_effort(effort, model)
    assert model_kwargs(f"claude_code/{model}", effort=effort)["effort"] == expected


@pytest.mark.parametrize("effort", ["none", "minimal"])
def test_claude_no_longer_receives_efforts_it_cannot_take(effort: str) -> None:
    from provcat.models.kwargs import model_kwargs

    assert lionagi_providers._clamp_claude_effort(effort, "claude-opus-4-7") == effort  # lionagi
    assert model_kwargs("claude_code/claude-opus-4-7", effort=effort)["effort"] == "low"
