"""The model-spec tables derived from a snapshot's policies, once per snapshot (on the first spec
read), so that reading and applying a spec (provcat.models.spec, provcat.models.kwargs) is a few
dict reads: no canonical key, entry and policy look-up per spec, no clamp rules walked per call.

The tables are plain dicts; nothing writes them after they are made and nothing hands them out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from provcat.catalog.snapshot import CatalogSnapshot
from provcat.catalog.specs import ProviderModelPolicy
from provcat.models.effort import EFFORT_LEVELS

__all__ = [
    "SpecAlias",
    "SpecProvider",
    "SpecTables",
    "effort_tables",
    "effort_value",
    "spec_aliases",
    "spec_providers",
    "spec_tables",
]


@dataclass(frozen=True, slots=True)
class SpecProvider:
    """What reading and applying a model spec needs of the provider a spelling names."""

    provider: str  # canonical key
    policy: ProviderModelPolicy | None
    refuses_effort: bool  # the policy's effort mode is "none"
    model_prefix: str  # "" when the policy has no prefix rule
    model_prefix_for: tuple[str, ...]
    effort_kwarg: str | None  # set in effort mode "kwarg" only
    effort_in_name: bool  # effort mode "model_name": the tier is folded into the model name
    # canonical model name a clamp rule names -> generic level -> vendor value; every other model
    effort_values: dict[str, dict[str, str]]
    effort_values_other: dict[str, str]
    yolo_kwargs: dict[str, Any]
    bypass_kwargs: dict[str, Any]
    fast_kwargs: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SpecAlias:
    """A model alias's target: ``provider/model``, its model part and its provider (None: the
    target names none, or one the catalog does not know)."""

    target: str
    model: str | None
    provider: SpecProvider | None


def effort_value(policy: ProviderModelPolicy, effort: str, name: str | None) -> str:
    """The vendor value for generic ``effort`` on the model with canonical name ``name`` (None: a
    model no clamp rule names): translate, then the first rule naming the model or "*" clamps.
    The one implementation of the rules (provcat.models.kwargs.translate_effort, the tables below)."""
    level = policy.effort_translate.get(effort, effort)
    for models, clamp in policy.effort_model_rules:
        if name in models or "*" in models:
            return clamp.get(level, level)
    return level


def effort_tables(policy: ProviderModelPolicy) -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """:func:`effort_value` applied once to every generic level: per canonical model name a rule
    before the first "*" names (a name after it takes the "*" rule, as every other model does),
    and for every other model."""
    named: set[str] = set()
    for models, _ in policy.effort_model_rules:
        if "*" in models:
            break
        named |= models
    values = {
        model: {e: effort_value(policy, e, model) for e in EFFORT_LEVELS} for model in sorted(named)
    }
    return values, {e: effort_value(policy, e, None) for e in EFFORT_LEVELS}


def _spec_provider(key: str, policy: ProviderModelPolicy | None) -> SpecProvider:
    if policy is None:
        return SpecProvider(key, None, False, "", (), None, False, {}, {}, {}, {}, {})
    values, other = effort_tables(policy)
    return SpecProvider(
        key,
        policy,
        policy.effort_mode == "none",
        policy.model_prefix or "",
        policy.model_prefix_for if policy.model_prefix else (),
        policy.effort_kwarg if policy.effort_mode == "kwarg" else None,
        policy.effort_mode == "model_name",
        values,
        other,
        dict(policy.yolo_kwargs),
        dict(policy.bypass_kwargs),
        dict(policy.fast_kwargs),
    )


def spec_providers(
    provider_index: Mapping[str, str], policies: Mapping[str, ProviderModelPolicy | None]
) -> dict[str, SpecProvider]:
    """Every canonical provider spelling -> its provider's SpecProvider (one per provider)."""
    made = {
        key: _spec_provider(key, policies.get(key)) for key in sorted(set(provider_index.values()))
    }
    return {spelling: made[key] for spelling, key in provider_index.items()}


def spec_aliases(
    model_aliases: Mapping[str, str], providers: Mapping[str, SpecProvider]
) -> dict[str, SpecAlias]:
    """Every canonical model alias -> its target, split and its provider found."""
    aliases: dict[str, SpecAlias] = {}
    for alias, target in model_aliases.items():
        provider, slash, model = target.partition("/")
        if slash:
            aliases[alias] = SpecAlias(target, model, providers.get(provider.strip().casefold()))
        else:
            aliases[alias] = SpecAlias(target, None, None)
    return aliases


@dataclass(frozen=True, slots=True)
class SpecTables:
    """A snapshot's model-spec tables."""

    providers: dict[str, SpecProvider]  # every canonical provider spelling -> its provider
    aliases: dict[str, SpecAlias]  # every canonical model alias -> its target
    slashed_aliases: bool  # some alias has a "/" (when none has, a spec with one is no alias)


@lru_cache(maxsize=4)
def spec_tables(snapshot: CatalogSnapshot) -> SpecTables:
    """``snapshot``'s tables, made on the first spec read (they read every provider's policy,
    which the bundled snapshot makes only on first use)."""
    providers = spec_providers(snapshot.provider_index, snapshot.policies)
    return SpecTables(
        providers,
        spec_aliases(snapshot.model_aliases, providers),
        any("/" in a for a in snapshot.model_aliases),
    )
