"""The checks of a provider's `policy:` against the model inventories: a `model_rules` entry
must name a model the rule can be matched against, a model alias may not take another
provider's model or spec, and `foreign_model_alias` says what to do in each of its cases.

Each catalog test breaks a small catalog (the base test catalog, plus a provider of its own
where the base has none that fits) in one place and proves the code, the position, the message
and the hint, and that a failed build wrote nothing (Workspace.fails). The runtime tests prove
the semantics the checks follow: how model_kwargs matches a rule's names, and the order in which
a model spec's aliases and provider are read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import provcat_catalog
import pytest

from generator.pipeline import run
from provcat import model_kwargs
from provcat.catalog.publish import trusted_snapshot
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.endpoints.checked import CatalogSource
from provcat.endpoints.load import Importer
from provcat.endpoints.registry import EndpointRegistry
from tests.conftest import ROOT, Workspace, tree_bytes

# a provider whose effort policy folds the tier into the model name (gemini_code's shape)
GAMMA = """\
provider: gamma
display_name: Gamma
endpoints:
  chat/completions:
    type: api
    protocol: openai-chat
    base_url: http://127.0.0.1:9/gamma
    auth_type: none
policy:
  effort:
    mode: model_name
    levels: [low, medium, high]
    translate: {none: low, minimal: low, xhigh: high, max: high, ultra: high}
    model_name_format: "{model} ({Level})"
    model_rules:
      - models: [Gamma Pro]   # Pro has no Medium tier
        translate: {medium: high}
models:
  Gamma Pro: {aliases: [gamma-pro], default_effort: high}
  Gamma Flash: {aliases: [gamma-flash], default_effort: medium}
"""

ALPHA_RULES = "ultra: high}}\n    model_rules:\n      - models: [{names}]\n        translate: {{high: medium}}\n"


def _only(run: Any) -> dict[str, Any]:
    (found,) = run.json["diagnostics"]
    assert isinstance(found, dict)
    return found


def _with_gamma(workspace: Workspace) -> Workspace:
    workspace.write("gamma.yaml", GAMMA)
    assert workspace.run().exit_code == 0
    return workspace


def _alpha_rules(workspace: Workspace, names: str) -> None:
    workspace.edit("alpha.yaml", "ultra: high}\n", ALPHA_RULES.format(names=names))


def _beta_aliases(workspace: Workspace, *lines: str) -> None:
    body = "".join(f"    {line}\n" for line in lines)
    workspace.edit(
        "beta.yaml",
        "module: provcat_testproviders.beta\n",
        f"module: provcat_testproviders.beta\npolicy:\n  model_aliases:\n{body}",
    )


# --- 1. model_rules entries name models the rule can be matched against ------------------------


def test_a_misspelt_model_rule_entry_is_an_error_with_a_did_you_mean(
    workspace: Workspace,
) -> None:
    _with_gamma(workspace)
    workspace.edit("gamma.yaml", "models: [Gamma Pro]", "models: [Gamma Proo]")
    found = _only(workspace.fails(("unknown_effort_rule_model", "gamma.yaml", 17, 18)))
    assert found["severity"] == "error"
    assert found["message"] == (
        "gamma: effort model rule names 'Gamma Proo', which is no model of gamma (the ids of "
        "its `models:`), so the rule never applies"
    )
    assert found["hint"] == "did you mean 'Gamma Pro'?"


def test_in_model_name_mode_a_rule_names_the_model_by_its_id(workspace: Workspace) -> None:
    """model_kwargs folds the tier after mapping the spec's model to its id, and matches the
    rule against the id: an inventory alias in a rule would never apply."""
    _with_gamma(workspace)
    workspace.edit("gamma.yaml", "models: [Gamma Pro]", "models: [gamma-pro]")
    found = _only(workspace.fails(("unknown_effort_rule_model", "gamma.yaml", 17, 18)))
    assert found["message"] == (
        "gamma: effort model rule names 'gamma-pro', an alias of model 'Gamma Pro': in effort "
        "mode 'model_name' a rule is matched against the id of the model a spec names, so it "
        "never applies"
    )
    assert found["hint"] == "name the model by its id: 'Gamma Pro'"


def test_a_rule_entry_with_an_effort_suffix_is_refused(workspace: Workspace) -> None:
    _with_gamma(workspace)
    workspace.edit("gamma.yaml", "models: [Gamma Pro]", "models: [Gamma Pro-high]")
    found = _only(workspace.fails(("unknown_effort_rule_model", "gamma.yaml", 17, 18)))
    assert "ends in the effort suffix '-high'" in found["message"]
    assert found["hint"] == "did you mean 'Gamma Pro'?"


def test_rule_entries_are_compared_as_keys_are_and_star_is_any_model(
    workspace: Workspace,
) -> None:
    _with_gamma(workspace)
    workspace.edit("gamma.yaml", "models: [Gamma Pro]", 'models: [" gamma PRO ", "*"]')
    assert workspace.run().exit_code == 0


def test_in_kwarg_mode_a_rule_may_name_an_id_or_an_alias(workspace: Workspace) -> None:
    _alpha_rules(workspace, "alpha-one, ALPHA-1, vendor/alpha-2:7b, alpha-2")
    found = _only(workspace.fails(("unknown_effort_rule_model", "alpha.yaml", 35, 57)))
    assert found["message"] == (
        "alpha: effort model rule names 'alpha-2', which is no model of alpha (the ids and "
        "aliases of its `models:`), so the rule never applies"
    )
    assert found["hint"] == "did you mean 'alpha-1'?"


def test_in_kwarg_mode_a_rule_may_name_a_model_as_the_prefix_rule_spells_it(
    workspace: Workspace,
) -> None:
    """read_spec applies the prefix rule before the rule is matched: 'alpha/alpha-1' is compared
    as 'x-alpha-1'."""
    workspace.edit(
        "alpha.yaml", "  effort:\n", "  model_prefix: {prefix: x-, for: [alpha]}\n  effort:\n"
    )
    _alpha_rules(workspace, "x-alpha-1, alpha-1")
    assert workspace.run().exit_code == 0
    workspace.edit("alpha.yaml", "models: [x-alpha-1, alpha-1]", "models: [x-alpha-3, alpha-1]")
    found = _only(workspace.fails(("unknown_effort_rule_model", "alpha.yaml", 36, 18)))
    assert found["hint"] == "did you mean 'x-alpha-1'?"


def test_without_an_inventory_a_rule_may_name_any_model(workspace: Workspace) -> None:
    """A provider without `models:` has an open model set (codex and claude_code: their CLIs
    take any model name, and model_kwargs sends an unlisted one as written and matches it
    against the rules): there is no list to check a name against."""
    workspace.edit(
        "alpha.yaml",
        "models:\n  alpha-1: {aliases: [alpha-one], context_window: 8192}\n"
        "  vendor/alpha-2:7b: {context_window: 4096}\n",
        "",
    )
    _alpha_rules(workspace, "alpha-2, some-model-no-catalog-lists")
    assert workspace.run().exit_code == 0


# --- 2. a policy alias spelled as another provider's model or spec -----------------------------


def test_an_alias_spelled_as_another_providers_model_id_is_a_warning(
    workspace: Workspace,
) -> None:
    _beta_aliases(workspace, "ALPHA-1: beta/b1")
    before = tree_bytes(workspace.out)
    run = workspace.run()
    assert run.exit_code == 0, "a warning: the build goes on"
    assert run.where("model_alias_is_foreign_model") == [("catalog/providers/beta.yaml", 8, 5)]
    found = _only(run)
    assert found["severity"] == "warning"
    assert found["message"] == (
        "model alias 'ALPHA-1' of beta is the id of alpha's model 'alpha-1' "
        "(catalog/providers/alpha.yaml:36:3): the spec 'ALPHA-1' goes to beta's 'beta/b1', "
        "not to alpha"
    )
    assert found["hint"] == (
        "rename the alias so that it does not read as alpha's model; 'alpha/alpha-1' names "
        "that model either way"
    )
    assert tree_bytes(workspace.out) != before


def test_an_alias_spelled_as_another_providers_inventory_alias_is_a_warning(
    workspace: Workspace,
) -> None:
    _beta_aliases(workspace, "alpha-one: beta/b1")
    run = workspace.run()
    assert run.exit_code == 0
    found = _only(run)
    assert found["code"] == "model_alias_is_foreign_model"
    message = found["message"]
    assert "is an alias of alpha's model 'alpha-1' (catalog/providers/alpha.yaml:" in message
    assert "'alpha/alpha-one' names that model either way" in found["hint"]


def test_an_alias_spelled_as_the_model_of_a_provider_without_a_policy_is_a_warning(
    workspace: Workspace,
) -> None:
    workspace.write(
        "gamma.yaml",
        GAMMA.split("policy:\n")[0] + "models:\n  gamma-large: {context_window: 8192}\n",
    )
    _beta_aliases(workspace, "gamma-large: beta/b1")
    run = workspace.run()
    assert run.exit_code == 0
    assert run.where("model_alias_is_foreign_model") == [("catalog/providers/beta.yaml", 8, 5)]


def test_an_alias_spelled_as_another_providers_spec_is_an_error(workspace: Workspace) -> None:
    """With a '/' in any alias every spec is looked up among the aliases first: 'al/alpha-1'
    would no longer reach alpha. The model need not be listed: alpha takes unlisted models."""
    _beta_aliases(workspace, "al/alpha-1: beta/b1", "alpha/anything: beta/b1")
    first, second = workspace.fails(
        ("foreign_model_alias", "beta.yaml", 8, 5),
        ("foreign_model_alias", "beta.yaml", 9, 5),
    ).json["diagnostics"]
    assert first["message"] == (
        "model alias 'al/alpha-1' of beta is spelled as a model spec of provider 'alpha': model "
        "aliases are read before the provider, so the spec 'al/alpha-1' would go to 'beta/b1' "
        "instead of to alpha's 'alpha-1'"
    )
    assert first["hint"] == (
        "rename the alias: the part before its first '/' ('al') names provider 'alpha', and a "
        "spec spelled so is alpha's"
    )
    assert "instead of to alpha's 'anything'" in second["message"]


def test_an_alias_may_spell_a_spec_of_its_own_provider(workspace: Workspace) -> None:
    _beta_aliases(workspace, "beta-ai/fast: beta/b1")
    assert workspace.run().exit_code == 0


# --- 3. foreign_model_alias says what to do in each of its cases -------------------------------


def test_foreign_model_alias_hints_per_case(workspace: Workspace) -> None:
    _beta_aliases(
        workspace,
        "b-default: alpha/alpha-1",  # targets another provider's model
        "b-typo: btea/b1",  # targets no provider
        "al: beta/b1",  # spelled as another provider (its alias), targets beta's own model
    )
    found = workspace.fails(
        ("foreign_model_alias", "beta.yaml", 8, 16),
        ("foreign_model_alias", "beta.yaml", 9, 13),
        ("foreign_model_alias", "beta.yaml", 10, 5),
    ).json["diagnostics"]
    assert [(d["message"], d["hint"]) for d in found] == [
        (
            "model alias 'b-default' of beta targets 'alpha/alpha-1', which is not a model of beta",
            "point the alias at a model of beta ('beta/<model>'); an alias for alpha's model "
            "belongs in alpha's policy",
        ),
        (
            "model alias 'b-typo' of beta targets 'btea/b1', which is not a model of beta",
            "'btea' names no provider: write the target as 'beta/b1', a model of beta",
        ),
        (
            "model alias 'al' of beta is a key of provider 'alpha'",
            "rename the alias: 'al' already names provider 'alpha' (a provider key or alias), so "
            "it cannot also name a model of beta",
        ),
    ]


# --- the bundled catalog ----------------------------------------------------------------------


def test_the_bundled_catalog_trips_none_of_these_checks() -> None:
    result = run(ROOT / "catalog")
    assert result.ok
    codes = {"unknown_effort_rule_model", "model_alias_is_foreign_model", "foreign_model_alias"}
    assert [d.as_text() for d in result.diagnostics if d.code in codes] == []


# --- the runtime semantics the checks follow --------------------------------------------------


class _Bundled(CatalogSource):
    """The bundled records with extra model aliases, and gemini_code's rule naming ``rule``."""

    def __init__(self, aliases: Mapping[str, str], rule: tuple[str, ...] | None = None) -> None:
        super().__init__(tuple)
        self.aliases = dict(aliases)
        self.rule = rule

    def build(self, importer: Importer) -> CatalogSnapshot:
        records = []
        for record in provcat_catalog.PROVIDERS:
            if self.rule is not None and record["provider"] == "gemini_code":
                policy = {
                    **record["policy"],
                    "effort_model_rules": ({"models": self.rule, "translate": {"medium": "high"}},),
                }
                record = {**record, "policy": policy}
            records.append(record)
        return trusted_snapshot(
            tuple(records),
            provcat_catalog.PROVIDER_INDEX,
            {**provcat_catalog.MODEL_ALIAS_INDEX, **self.aliases},
            "test",
        )


@pytest.fixture
def published() -> Iterator[type[_Bundled]]:
    yield _Bundled
    EndpointRegistry._reset()


def test_a_rule_that_misses_its_model_hands_the_vendor_the_unclamped_tier(
    published: type[_Bundled],
) -> None:
    spec, medium = "gemini_code/Gemini 3.1 Pro", {"effort": "medium"}
    assert model_kwargs(spec, **medium)["model"] == "Gemini 3.1 Pro (High)"
    for missed in ("Gemini 3.1 Proo", "gemini-3.1-pro"):  # a typo; an alias in model_name mode
        EndpointRegistry._reset(published({}, (missed,)))
        assert model_kwargs(spec, **medium)["model"] == "Gemini 3.1 Pro (Medium)"
        assert model_kwargs("gemini_code/gemini-3.1-pro-medium")["model"] == (
            "Gemini 3.1 Pro (Medium)"
        )


def test_a_bare_alias_takes_only_a_spec_that_named_no_provider(
    published: type[_Bundled],
) -> None:
    """Why model_alias_is_foreign_model is a warning: 'openai/gpt-6.1-terra' still goes to
    openai; the bare 'gpt-6.1-terra', which model_kwargs refused, now goes elsewhere."""
    with pytest.raises(ValueError, match=r"'gpt-6\.1-terra' names no provider"):
        model_kwargs("gpt-6.1-terra")
    EndpointRegistry._reset(published({"gpt-6.1-terra": "codex/gpt-5.4"}))
    assert model_kwargs("gpt-6.1-terra") == {"provider": "codex", "model": "gpt-5.4"}
    assert model_kwargs("openai/gpt-6.1-terra") == {"provider": "openai", "model": "gpt-6.1-terra"}


def test_a_slashed_alias_changes_where_another_providers_spec_goes(
    published: type[_Bundled],
) -> None:
    """Why an alias spelled as another provider's spec is an error (foreign_model_alias)."""
    assert model_kwargs("openai/gpt-6.1-terra")["provider"] == "openai"
    EndpointRegistry._reset(published({"openai/gpt-6.1-terra": "codex/gpt-5.4"}))
    assert model_kwargs("OpenAI/GPT-6.1-Terra") == {"provider": "codex", "model": "gpt-5.4"}
