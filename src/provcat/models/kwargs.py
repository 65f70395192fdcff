"""model_kwargs: the one place a model spec's policy tables are applied (ADR-0028 D5).

lionagi applied its tables in three places that disagreed (the CLI builder, iModel and the agent
factory). Here one function turns a spec into the keyword arguments a caller passes: the canonical
provider, the model, the effort translated into the vendor's own vocabulary (or folded into the
model name), and the yolo / bypass / fast kwargs. Every table comes from the snapshot.
"""

from __future__ import annotations

import copy
import warnings
from functools import lru_cache
from typing import Any

from provcat.catalog.keys import canonical_key
from provcat.catalog.publish import current
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.catalog.specs import ProviderModelPolicy
from provcat.errors import EffortIgnored
from provcat.models.effort import EFFORT_LEVELS
from provcat.models.inventory import check_model_use
from provcat.models.reasoning import inventory_effort, split_known
from provcat.models.spec import ModelSpec, read_spec, unknown_provider
from provcat.models.tables import effort_value, spec_tables

__all__ = ["model_kwargs", "translate_effort"]


def translate_effort(policy: ProviderModelPolicy, effort: str, model: str) -> str:
    """The vendor value for generic ``effort`` on ``model``: translate, then the model's clamp."""
    return effort_value(policy, effort, canonical_key(model))


def _fold(policy: ProviderModelPolicy, model: str, effort: str | None) -> str:
    """model_name mode: the model's display name with the effort tier folded in."""
    model_id = policy.model_index.get(canonical_key(model))
    if model_id is None or model_id not in policy.model_default_effort:
        return model_id or model  # unknown names pass through; fixed names take no tier
    level = (
        translate_effort(policy, effort, model_id)
        if effort
        else policy.model_default_effort[model_id]
    )
    assert policy.effort_name_format is not None
    return policy.effort_name_format.format(model=model_id, level=level, Level=level.capitalize())


def model_kwargs(
    spec: str | ModelSpec,
    *,
    yolo: bool = False,
    bypass: bool = False,
    fast: bool = False,
    effort: str | None = None,
    endpoint: str | None = None,
) -> dict[str, Any]:
    """The kwargs for ``spec``: ``provider``, ``model``, the effort as the vendor takes it, and
    the yolo / bypass (bypass beats yolo) / fast kwargs the provider declares.

    ``effort`` overrides the spec's own suffix. Where the provider's policy translates efforts,
    its kwarg carries it. Otherwise, where the inventory lists the model's reasoning efforts and
    the effort is one of them, the request field of ``endpoint`` (default: the provider's
    ``chat`` endpoint, or its successor once retired) carries it: its protocol's field, or the
    one its request model declares (:mod:`provcat.models.reasoning`); an effort the
    model does not declare, or on a model the inventory does not list, is dropped as before,
    with an :class:`EffortIgnored` warning. A provider whose policy refuses effort suffixes
    (``gemini/m-high`` is a ValueError, as in lionagi) still takes ``effort=`` for a model that
    declares that effort, and raises for any other. Fast mode where the provider declares none is an
    error. A model the provider's inventory marks deprecated warns (:class:`ModelDeprecated`); a
    retired one warns too, and raises :class:`ModelRetired` in strict mode.
    """
    if not isinstance(spec, (str, ModelSpec)):
        raise TypeError(f"a model spec must be a str, not {type(spec).__name__}")
    if effort is not None and not isinstance(effort, str):
        raise TypeError(f"effort must be a str, not {type(effort).__name__}")
    if endpoint is not None and not isinstance(endpoint, str):
        raise TypeError(f"endpoint must be a str, not {type(endpoint).__name__}")
    kwargs, dropped = _apply(current(), spec, yolo, bypass, fast, effort, endpoint)
    if dropped is not None:
        warnings.warn(EffortIgnored(dropped), stacklevel=2)
    # the caller may change its dict: each call gets its own copy of the remembered one
    return {k: copy.deepcopy(v) if isinstance(v, (dict, list)) else v for k, v in kwargs.items()}


# a pure function of its arguments and the snapshot, remembered (the lifecycle check warns on
# the first application of a spec; Python shows a warning once per place anyway)
@lru_cache(maxsize=4096)
def _apply(
    snapshot: CatalogSnapshot,
    spec: str | ModelSpec,
    yolo: bool,
    bypass: bool,
    fast: bool,
    effort: str | None,
    endpoint: str | None = None,
) -> tuple[dict[str, Any], str | None]:
    parsed: tuple[str, str | None]  # (model, effort): a ModelSpec's fields
    if isinstance(spec, ModelSpec):
        parsed = spec
        provider_raw, slash, model = spec.model.partition("/")
        found = (
            spec_tables(snapshot).providers.get(provider_raw.strip().casefold()) if slash else None
        )
        name: str | None = model if slash else None
    else:
        parsed, name, found = read_spec(snapshot, spec)
    if effort is not None:
        if not isinstance(effort, str):
            raise TypeError(f"effort must be a str, not {type(effort).__name__}")
        folded = effort.strip().lower() if effort.isascii() else effort
        if folded not in EFFORT_LEVELS:
            raise ValueError(f"effort {effort!r} is not one of {', '.join(EFFORT_LEVELS)}")
        effort = folded
    else:
        effort = parsed[1]
    if name is None:
        raise ValueError(
            f"'{parsed[0]}' names no provider: write it as provider/model (e.g. codex/gpt-5.4)"
        )
    if found is None:
        provider_raw = parsed[0].partition("/")[0]
        raise ValueError(unknown_provider(snapshot, provider_raw, ModelSpec(*parsed)))
    provider = found.provider
    # deprecated: warns; retired: raises when strict (the warning at model_kwargs' caller)
    check_model_use(provider, name, stacklevel=4)
    dropped: str | None = None
    plain = found.effort_kwarg is None and not found.refuses_effort and not found.effort_in_name
    if plain and effort is None:
        known = split_known(provider, name)  # a suffix the grammar kept in a vendor id with "/"
        if known is not None:
            name, effort = known
    kwargs: dict[str, Any] = {"provider": provider, "model": name}
    if plain and effort is not None:
        fields, why = inventory_effort(snapshot, provider, name, effort, endpoint)
        kwargs.update(fields)
        if why is not None:
            dropped = f"effort '{effort}' of '{provider}/{name}' is dropped: {why}"
    elif effort is not None:
        kwarg = found.effort_kwarg
        if kwarg is not None:
            values = found.effort_values  # empty: no clamp rule names a model
            table = (
                values.get(name.strip().casefold(), found.effort_values_other)
                if values
                else found.effort_values_other
            )
            value = table.get(effort)  # None only for an effort a caller's own ModelSpec carries
            if value is None:
                assert found.policy is not None
                value = translate_effort(found.policy, effort, name)
            kwargs[kwarg] = value
        elif found.refuses_effort:
            # the spec grammar takes no suffix here, but a model that declares its efforts
            # takes one given as the keyword (or in a ModelSpec) in its protocol's field
            fields, why = inventory_effort(snapshot, provider, name, effort, endpoint)
            if why is not None:
                raise ValueError(f"effort '{effort}' cannot be sent for '{provider}/{name}': {why}")
            kwargs.update(fields)
    if found.effort_in_name:
        assert found.policy is not None
        kwargs["model"] = _fold(found.policy, name, effort)
    if bypass:
        kwargs.update(found.bypass_kwargs)
    elif yolo:
        kwargs.update(found.yolo_kwargs)
    if fast:
        if not found.fast_kwargs:
            raise ValueError(f"{provider} has no fast mode")
        kwargs.update(found.fast_kwargs)
    return kwargs, dropped
