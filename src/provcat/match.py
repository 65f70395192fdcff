"""match_endpoint: registered resolution that fails closed, compatible fallback only on request
(ADR-0028 D4 state machine)."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from provcat.catalog.snapshot import CatalogSnapshot, EndpointEntry
from provcat.compat import CompatibleEndpoint, compatible_request_model, is_strict
from provcat.config import EndpointConfig
from provcat.endpoint import Endpoint
from provcat.errors import (
    EndpointConfigurationError,
    EndpointNotFound,
    ProviderUnavailable,
)
from provcat.keys import canonical_endpoint_key, canonical_provider_key
from provcat.registry import EndpointRegistry
from provcat.request import field_names, field_problem, suggest

__all__ = ["match_endpoint", "resolve"]

_FIXED = frozenset({"provider", "endpoint", "name", "openai_compatible"})

# The published snapshot's memo (provider spelling -> endpoint spelling -> entry), kept here by a
# registry listener: a repeated lookup is two dict reads. Between a refresh's publication and
# this update a lookup may still answer from the prior snapshot, as one started a moment earlier
# would; it never mixes the two.
_memo: dict[str, dict[str, EndpointEntry]] = {}


def _track(snapshot: CatalogSnapshot | None) -> None:
    global _memo
    _memo = snapshot.memo if snapshot is not None else {}


EndpointRegistry._listeners.append(_track)
_track(EndpointRegistry._snapshot)


def _check_overrides(overrides: Mapping[str, Any]) -> None:
    allowed = EndpointConfig.field_names() - _FIXED
    for key in sorted(overrides):
        if key not in allowed:
            hint = suggest(key, allowed)
            raise EndpointConfigurationError(
                key,
                f"'{key}' is not an endpoint configuration field"
                + (f" ({hint})" if hint else "")
                + "; request fields go in request_defaults",
            )


def _check_defaults(
    model: type[BaseModel] | None, defaults: Mapping[str, Any], where: str
) -> dict[str, Any]:
    if not isinstance(defaults, Mapping):
        raise TypeError(f"request_defaults must be a mapping, not {type(defaults).__name__}")
    for key in sorted(defaults):
        if not isinstance(key, str):
            raise EndpointConfigurationError(str(key), f"request default key {key!r} is not a str")
        if model is None:
            continue
        problem = field_problem(model, key, defaults[key])
        if problem is not None:
            hint = suggest(key, field_names(model)) if key not in field_names(model) else None
            raise EndpointConfigurationError(
                key, f"{where}: {problem}" + (f" ({hint})" if hint else "")
            )
    return dict(defaults)


def _config(fields: Mapping[str, Any]) -> EndpointConfig:
    try:
        return EndpointConfig(**fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "config"
        raise EndpointConfigurationError(field, f"'{field}': {first['msg']}") from None


def _compatible(
    provider: str,
    endpoint: str,
    request_defaults: Mapping[str, Any] | None,
    overrides: Mapping[str, Any],
) -> Endpoint:
    base_url = overrides.get("base_url")
    if not isinstance(base_url, str) or not base_url.strip():
        raise EndpointConfigurationError(
            "base_url", "an OpenAI-compatible endpoint needs a non-empty base_url"
        )
    model: type[BaseModel] | None = (
        overrides["request_options"]
        if "request_options" in overrides
        else compatible_request_model()
    )
    defaults = _check_defaults(model, request_defaults or {}, f"{provider} (compatible)")
    fields: dict[str, Any] = {
        "name": "openai_compatible_chat",
        "provider": provider,
        "endpoint": endpoint.strip() or "chat/completions",
        "method": "POST",
        "auth_type": "bearer",
        "content_type": "application/json",
        "requires_tokens": True,
        **overrides,
        "request_options": model,
        "openai_compatible": True,
    }
    return CompatibleEndpoint(_config(fields), request_defaults=defaults)


def resolve(provider: str, endpoint: str = "") -> EndpointEntry:
    """The registered endpoint ``provider``/``endpoint`` names, without building an instance.

    Raises exactly what :func:`match_endpoint` raises for a registered lookup.
    """
    try:  # the fast path: a spelling this snapshot already resolved
        return _memo[provider][endpoint]
    except (KeyError, TypeError):  # no snapshot yet, a new spelling, unhashable
        pass
    if not isinstance(provider, str):
        raise TypeError(f"provider must be a str, not {type(provider).__name__}")
    if not isinstance(endpoint, str):
        raise TypeError(f"endpoint must be a str, not {type(endpoint).__name__}")
    found = _resolve(provider, endpoint, False, {})
    assert not isinstance(found, tuple)
    return found


def _resolve(
    provider: str, endpoint: str, openai_compatible: bool, overrides: Mapping[str, Any]
) -> EndpointEntry | tuple[str]:
    """The D4 state machine: a registered entry, or (canonical provider,) for a compatible one."""
    snapshot = EndpointRegistry.snapshot()
    pkey = canonical_provider_key(provider)
    ekey = canonical_endpoint_key(endpoint)
    owner = snapshot.provider_index.get(pkey)
    if owner is not None and owner in snapshot.unavailable:
        raise ProviderUnavailable(owner, snapshot.unavailable[owner])
    if owner is None:
        if not pkey:
            raise EndpointConfigurationError("provider", "the provider key is empty")
        if openai_compatible:
            return (pkey,)
        if overrides.get("base_url"):
            if is_strict():
                raise EndpointNotFound(
                    pkey,
                    ekey,
                    (),
                    reason=f"unknown provider '{pkey}': implicit fallback by base_url is "
                    "disabled; pass openai_compatible=True for a compatible service",
                )
            warnings.warn(
                f"unknown provider '{pkey}' falls back to an OpenAI-compatible endpoint only "
                "because base_url was given; pass openai_compatible=True (with base_url) to keep "
                "this, as implicit fallback will raise EndpointNotFound",
                DeprecationWarning,
                stacklevel=3,
            )
            return (pkey,)
        known = ", ".join(sorted(set(snapshot.provider_index.values())))
        raise EndpointNotFound(
            pkey, ekey, (), reason=f"unknown provider '{pkey}' (known providers: {known})"
        )
    entry = snapshot.providers[owner]
    if not ekey:
        if len(entry.endpoints) != 1:
            raise EndpointNotFound(
                owner,
                ekey,
                entry.available_endpoints(),
                reason=f"{owner} has {len(entry.endpoints)} endpoints: name one",
            )
        target = next(iter(entry.endpoints.values()))
    else:
        target_key = entry.endpoint_index.get(ekey)
        if target_key is None:
            if openai_compatible:
                return (owner,)
            raise EndpointNotFound(owner, ekey, entry.available_endpoints())
        target = entry.endpoints[target_key]
    snapshot.remember(provider, endpoint, target)
    return target


def match_endpoint(
    provider: str,
    endpoint: str = "",
    *,
    openai_compatible: bool = False,
    request_defaults: Mapping[str, Any] | None = None,
    **config_overrides: Any,
) -> Endpoint:
    """Resolve ``provider``/``endpoint`` to a fresh endpoint instance.

    Keys are compared after ``strip().casefold()`` only. A registered match always wins; a miss
    raises :class:`EndpointNotFound` unless ``openai_compatible=True`` authorizes a compatible
    endpoint (which needs a ``base_url``). A provider whose module failed to import raises
    :class:`ProviderUnavailable`, with or without the flag.
    """
    if request_defaults is None and not config_overrides:
        try:  # the fast path; a registered match wins whatever openai_compatible says
            hit = _memo[provider][endpoint]
        except (KeyError, TypeError):
            pass
        else:
            return hit.spec.endpoint_class(hit.config, request_defaults=hit.spec.request_defaults)
    if not isinstance(provider, str):
        raise TypeError(f"provider must be a str, not {type(provider).__name__}")
    if not isinstance(endpoint, str):
        raise TypeError(f"endpoint must be a str, not {type(endpoint).__name__}")
    if request_defaults is not None and not isinstance(request_defaults, Mapping):
        raise TypeError(
            f"request_defaults must be a mapping, not {type(request_defaults).__name__}"
        )
    _check_overrides(config_overrides)
    found = _resolve(provider, endpoint, openai_compatible, config_overrides)
    if isinstance(found, tuple):
        return _compatible(found[0], endpoint, request_defaults, config_overrides)
    target = found
    owner = target.meta.provider
    where = f"{owner}/{target.spec.endpoint}"
    defaults = {**target.spec.request_defaults}
    if request_defaults:
        defaults.update(_check_defaults(target.request_model, request_defaults, where))
    if "request_options" in config_overrides:
        raise EndpointConfigurationError(
            "request_options", f"{where} has its request model from the catalog"
        )
    config = (
        _config({**target.meta.config, **config_overrides}) if config_overrides else target.config
    )
    return target.spec.endpoint_class(config, request_defaults=defaults)
