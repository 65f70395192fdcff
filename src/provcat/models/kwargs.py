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
from provcat.errors import EffortIgnored, EndpointNotFound
from provcat.models.effort import EFFORT_LEVELS
from provcat.models.inventory import (
    ModelInfo,
    check_use,
    dated_model,
    lookup_model,
    with_provider_hint,
)
from provcat.models.reasoning import endpoint_key, inventory_effort, split_known
from provcat.models.spec import ModelSpec, read_spec, unknown_provider
from provcat.models.tables import effort_value, spec_tables
from provcat.redact import secret_shapes_hidden

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

    ``spec`` is a string or a :class:`ModelSpec`; a ModelSpec reads as the string it was parsed
    from (its effort is checked and translated as a suffix is), so
    ``model_kwargs(parse_model_spec(s)) == model_kwargs(s)``. Surrounding whitespace is not part
    of the spec. A model the provider's inventory lists (matched case-insensitively) is returned
    in the catalog's spelling; any other passes through as written.

    ``effort`` overrides the spec's own suffix. Where the provider's policy translates efforts,
    its kwarg carries it. Otherwise, where the inventory lists the model's reasoning efforts and
    the effort is one of them, the request field of ``endpoint`` (default: the provider's
    ``chat`` endpoint, or its successor once retired) carries it: its protocol's field, or the
    one its request model declares (:mod:`provcat.models.reasoning`); an effort the
    model does not declare, or on a model the inventory does not list, is dropped as before,
    with an :class:`EffortIgnored` warning. A provider whose policy refuses effort suffixes
    (``gemini/m-high`` is a ValueError, as in lionagi) still takes ``effort=`` for a model that
    declares that effort, and raises for any other. Fast mode where the provider declares none is an
    error. A provider the catalog does not know, or an ``endpoint`` the provider does not have,
    is :class:`EndpointNotFound`, as ``match_endpoint`` says it. A model the provider's inventory
    marks deprecated on the day of the call warns (:class:`ModelDeprecated`) on every call; a
    retired one warns too, and raises :class:`ModelRetired` in strict mode.
    """
    if type(spec) is not str:
        _check_spec(spec)
    if effort is not None and not isinstance(effort, str):
        raise TypeError(f"effort must be a str, not {type(effort).__name__}")
    if endpoint is not None and not isinstance(endpoint, str):
        raise TypeError(f"endpoint must be a str, not {type(endpoint).__name__}")
    kwargs, dropped, dated, nested = _apply(current(), spec, yolo, bypass, fast, effort, endpoint)
    if dated is not None:
        # judged on the day of the call, on every call (never remembered): deprecated warns,
        # retired warns or, in strict mode as it is set now, raises (the warning at our caller)
        check_use(dated, stacklevel=3)
    if dropped is not None:
        warnings.warn(EffortIgnored.already_hidden(dropped), stacklevel=2)
    # the caller may change its dict: each call gets its own copy of the remembered one
    if not nested:
        return dict(kwargs)
    return {k: copy.deepcopy(v) if isinstance(v, (dict, list)) else v for k, v in kwargs.items()}


def _check_spec(spec: object) -> None:
    """A TypeError unless ``spec`` is a str or a ModelSpec of strings."""
    if isinstance(spec, ModelSpec):
        if not isinstance(spec.model, str):
            raise TypeError(f"a model spec must be a str, not {type(spec.model).__name__}")
        if spec.effort is not None and not isinstance(spec.effort, str):
            raise TypeError(f"effort must be a str, not {type(spec.effort).__name__}")
    elif not isinstance(spec, str):
        raise TypeError(f"a model spec must be a str, not {type(spec).__name__}")


def _level(effort: str) -> str:
    """A generic effort level as given (``effort=``, a ModelSpec's effort): ASCII case and
    surrounding whitespace folded, or a ValueError."""
    folded = effort.strip().lower() if effort.isascii() else effort
    if folded not in EFFORT_LEVELS:
        raise ValueError(f"effort {effort!r} is not one of {', '.join(EFFORT_LEVELS)}")
    return folded


def _spelling(provider: str, name: str) -> str:
    """The catalog's own spelling of ``name`` when the provider's inventory lists it (its id or
    the alias it matched, compared after ``strip().casefold()``), else ``name`` as written."""
    info = lookup_model(provider, name)
    if info is None:
        return name
    key = canonical_key(name)
    if canonical_key(info.id) == key:
        return info.id
    return next((alias for alias in info.aliases if canonical_key(alias) == key), name)


def _no_provider(snapshot: CatalogSnapshot, model: str, effort: str | None) -> str:
    """Why a spec without ``provider/`` cannot be applied, and what to write instead."""
    written = str(ModelSpec(model, effort))
    key = canonical_key(model)
    provider = snapshot.provider_index.get(key)
    alias = spec_tables(snapshot).aliases.get(key) if effort is not None else None
    if alias is not None:  # "claude-high": lionagi read it as the bare model 'claude' too
        other = f", or {model}/<model>-{effort} for another model" if provider else ""
        return (
            f"'{written}' names no provider: the model alias '{model}' ({alias.target}) expands "
            f"only as the whole spec, without an effort suffix; write '{alias.target}-{effort}', "
            f"or '{model}' with effort='{effort}'{other}"
        )
    if provider is not None:
        suffix = f"-{effort}" if effort else ""
        which = f" ({provider})" if provider != model else ""
        return (
            f"'{written}' names no model: '{model}' is a provider{which}; "
            f"write it as {model}/<model>{suffix}"
        )
    listed = with_provider_hint(model, written)
    if listed:
        return f"'{written}' names no provider: {listed}"
    return f"'{written}' names no provider: write it as provider/model (e.g. codex/gpt-5.4)"


# a pure function of its arguments and the snapshot (the inventory's facts included), remembered:
# a spec seen before costs about 0.5 us a call against 3-4 us for a fresh one (make bench
# BENCH=modelspec). What depends on the day or on strict mode, the lifecycle check, is
# model_kwargs' own, on every call.
@lru_cache(maxsize=4096)
def _apply(
    snapshot: CatalogSnapshot,
    spec: str | ModelSpec,
    yolo: bool,
    bypass: bool,
    fast: bool,
    effort: str | None,
    endpoint: str | None = None,
) -> tuple[dict[str, Any], str | None, ModelInfo | None, bool]:
    """The kwargs, why an effort is dropped (None: it is not; key shapes already hidden, so
    the warning made from it on each call need not scan it again), the model the inventory lists
    with lifecycle dates (None: none; the caller judges it on the day), and whether a kwarg's
    value is a dict or a list (the caller copies those)."""
    if isinstance(spec, ModelSpec):  # one path: read as the string it was parsed from
        own = _level(spec.effort) if spec.effort is not None else None
        (model, parsed_effort), name, found = read_spec(snapshot, spec.model.strip(), own)
    else:
        (model, parsed_effort), name, found = read_spec(snapshot, spec.strip())
    effort = _level(effort) if effort is not None else parsed_effort
    if name is None:
        raise ValueError(_no_provider(snapshot, model, parsed_effort))
    if found is None:
        provider_raw = model.partition("/")[0]
        raise EndpointNotFound(
            canonical_key(provider_raw),
            canonical_key(endpoint) if endpoint is not None else "",
            (),
            reason=unknown_provider(snapshot, provider_raw, ModelSpec(model, parsed_effort)),
        )
    provider = found.provider
    if endpoint is not None:  # fails closed, whether or not an effort needs its field
        endpoint = endpoint_key(snapshot, provider, endpoint)
    name = name.strip()
    dropped: str | None = None
    plain = found.effort_kwarg is None and not found.refuses_effort and not found.effort_in_name
    if plain and effort is None:
        known = split_known(provider, name)  # a suffix the grammar kept in a vendor id with "/"
        if known is not None:
            name, effort = known
    name = _spelling(provider, name)
    kwargs: dict[str, Any] = {"provider": provider, "model": name}
    if plain and effort is not None:
        fields, why = inventory_effort(snapshot, provider, name, effort, endpoint)
        kwargs.update(fields)
        if why is not None:
            dropped = secret_shapes_hidden(
                f"effort '{effort}' of '{provider}/{name}' is dropped: {why}"
            )
    elif effort is not None:
        kwarg = found.effort_kwarg
        if kwarg is not None:
            values = found.effort_values  # empty: no clamp rule names a model
            table = (
                values.get(name.casefold(), found.effort_values_other)
                if values
                else found.effort_values_other
            )
            kwargs[kwarg] = table[effort]  # every generic level is in every table
        elif found.refuses_effort:
            # the spec grammar takes no suffix here, but a model that declares its efforts
            # takes one given as the keyword in its protocol's field
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
    nested = any(isinstance(v, (dict, list)) for v in kwargs.values())
    return kwargs, dropped, dated_model(provider, name), nested
