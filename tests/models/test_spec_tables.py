"""The model-spec tables a snapshot makes once (provcat.models.tables): the clamp tables
give what the policy's rules say, a spelling is one read, and an alias may contain a "/"."""

from __future__ import annotations

from collections.abc import Iterator

import provcat_catalog
import pytest

from provcat import model_kwargs, parse_model_spec
from provcat.catalog.publish import trusted_snapshot
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.catalog.specs import ProviderModelPolicy
from provcat.endpoints.checked import CatalogSource
from provcat.endpoints.load import Importer
from provcat.endpoints.registry import EndpointRegistry
from provcat.errors import EndpointNotFound, UnknownProviderWarning
from provcat.models.effort import EFFORT_LEVELS
from provcat.models.kwargs import translate_effort
from provcat.models.spec import ModelSpec
from provcat.models.tables import effort_tables, spec_tables


def test_clamp_tables_follow_the_first_matching_rule_and_stop_at_the_first_star() -> None:
    # expected values worked out by hand from the rule semantics (schemas/provider.schema.json:
    # translate first, then the first rule naming the model or "*")
    policy = ProviderModelPolicy(
        provider="p",
        effort_mode="kwarg",
        effort_kwarg="effort",
        effort_translate={"minimal": "low", "ultra": "max"},
        effort_model_rules=(
            (frozenset({"a"}), {"max": "high"}),
            (frozenset({"*"}), {"xhigh": "high"}),
            (frozenset({"b"}), {"low": "none"}),  # after "*": never reached
        ),
    )
    named, other = effort_tables(policy)
    assert sorted(named) == ["a"]
    assert named["a"] == {
        "none": "none",
        "minimal": "low",
        "low": "low",
        "medium": "medium",
        "high": "high",
        "xhigh": "xhigh",
        "max": "high",
        "ultra": "high",
    }
    assert other["xhigh"] == "high" and other["low"] == "low" and other["ultra"] == "max"


def test_without_a_star_rule_an_unnamed_model_gets_the_translation_alone() -> None:
    policy = ProviderModelPolicy(
        provider="p",
        effort_translate={"none": "off"},
        effort_model_rules=((frozenset({"a"}), {"max": "high"}),),
    )
    named, other = effort_tables(policy)
    assert named["a"]["max"] == "high" and named["a"]["none"] == "off"
    assert other == {level: "off" if level == "none" else level for level in EFFORT_LEVELS}


def test_the_tables_agree_with_the_rule_walk_for_every_bundled_policy() -> None:
    """Consistency guard: the precomputed tables against translate_effort's walk of the rules."""
    snapshot = EndpointRegistry.snapshot()
    checked = 0
    for found in {f.provider: f for f in spec_tables(snapshot).providers.values()}.values():
        if found.policy is None:
            continue
        names = {m for models, _ in found.policy.effort_model_rules for m in models} - {"*"}
        for name in [*sorted(names), "a-model-no-rule-names"]:
            table = found.effort_values.get(name, found.effort_values_other)
            for level in EFFORT_LEVELS:
                assert table[level] == translate_effort(found.policy, level, name)
                checked += 1
    assert checked > 100


def test_every_spelling_of_a_provider_reads_its_provider() -> None:
    providers = spec_tables(EndpointRegistry.snapshot()).providers
    assert providers["openai-codex"].provider == providers["codex"].provider == "codex"
    assert providers["claude"].provider == "claude_code"


def test_an_unknown_or_odd_provider_spelling_is_folded_before_it_is_refused() -> None:
    assert model_kwargs(" Codex /gpt-5.4-HIGH")["reasoning_effort"] == "high"
    assert model_kwargs("OPENAI-CODEX/gpt-5.4")["provider"] == "codex"
    with pytest.raises(
        EndpointNotFound, match=r"unknown provider 'nobody' in model spec 'nobody /x'"
    ):
        model_kwargs(" nobody /x")


# --- aliases with a "/" (a catalog may declare them; the bundled one has none) -------------


_EXTRA = {
    "team/fast": "codex/gpt-5.4",
    "ghost": "nobody/x",
    "bare": "gpt-x",
}


class _BundledWithAliases(CatalogSource):
    def build(self, importer: Importer) -> CatalogSnapshot:
        return trusted_snapshot(
            provcat_catalog.PROVIDERS,
            provcat_catalog.PROVIDER_INDEX,
            {**provcat_catalog.MODEL_ALIAS_INDEX, **_EXTRA},
            "test",
        )


@pytest.fixture
def extra_aliases() -> Iterator[None]:
    EndpointRegistry._reset(_BundledWithAliases(tuple))
    try:
        yield
    finally:
        EndpointRegistry._reset()


def test_the_bundled_catalog_has_no_alias_with_a_slash() -> None:
    assert not any("/" in alias for alias in provcat_catalog.MODEL_ALIAS_INDEX)


@pytest.mark.usefixtures("extra_aliases")
@pytest.mark.parametrize("spec", ["team/fast", "Team/Fast", " TEAM/FAST\t"])
def test_an_alias_with_a_slash_is_still_a_whole_string_alias(spec: str) -> None:
    assert parse_model_spec(spec) == ModelSpec("codex/gpt-5.4", None)
    assert model_kwargs(spec) == {"provider": "codex", "model": "gpt-5.4"}


@pytest.mark.usefixtures("extra_aliases")
def test_with_slashed_aliases_other_specs_parse_as_before() -> None:
    with pytest.warns(UnknownProviderWarning, match="unknown provider 'team'"):
        assert parse_model_spec("team/fast-high") == ModelSpec("team/fast", "high")
    assert parse_model_spec("codex/gpt-5.4-XHigh") == ModelSpec("codex/gpt-5.4", "xhigh")
    assert model_kwargs("claude") == {"provider": "claude_code", "model": "sonnet"}


@pytest.mark.usefixtures("extra_aliases")
def test_an_alias_whose_target_names_no_known_provider_is_refused_when_applied() -> None:
    with pytest.warns(UnknownProviderWarning, match="unknown provider 'nobody'"):
        assert parse_model_spec("Ghost") == ModelSpec("nobody/x", None)
    with pytest.raises(
        EndpointNotFound, match=r"unknown provider 'nobody' in model spec 'nobody/x'"
    ):
        model_kwargs("ghost")
    assert parse_model_spec("bare") == ModelSpec("gpt-x", None)
    with pytest.raises(ValueError, match="'gpt-x' names no provider"):
        model_kwargs("bare")
