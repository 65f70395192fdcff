"""match_endpoint: registered resolution that fails closed, compatible fallback only on request
(ADR-0028 D4), and the one place an endpoint instance is built from its record."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from provcat.catalog.keys import canonical_endpoint_key, canonical_provider_key, suggest
from provcat.catalog.publish import current
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.catalog.specs import ProviderEndpointSpec
from provcat.endpoints.compat import CompatibleEndpoint, compatible_request_model
from provcat.endpoints.config import EndpointConfig
from provcat.endpoints.endpoint import Endpoint
from provcat.endpoints.lifecycle import check_endpoint_use
from provcat.endpoints.problems import own_message
from provcat.endpoints.registry import EndpointRegistry
from provcat.endpoints.request import field_names, field_problem
from provcat.endpoints.resolution import Unlisted, lookup, registered, resolve
from provcat.endpoints.state import state_of
from provcat.errors import EndpointConfigurationError, EndpointNotFound, ProviderCatalogError
from provcat.strict import is_strict

__all__ = ["build", "match_endpoint", "resolve", "target"]

_FIXED = frozenset({"provider", "endpoint", "name", "openai_compatible"})


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


def _merged(catalog: Mapping[str, str], given: Mapping[str, Any]) -> dict[str, Any]:
    """``default_headers=`` added to the catalog's, as the vendor SDKs' ``default_headers`` add to
    their own (``anthropic-version`` stays): a given header replaces the catalog's of the same
    name in any case, and one given as None drops it. Two given names that differ only in case
    are refused: both would be sent."""
    names: dict[str, str] = {}
    for name in given:
        folded = str(name).casefold()
        if folded in names:
            raise EndpointConfigurationError(
                "default_headers",
                f"default_headers names '{names[folded]}' and '{name}', one header in two "
                "cases: give it once",
            )
        names[folded] = str(name)
    kept = {name: value for name, value in catalog.items() if name.casefold() not in names}
    return {**kept, **{name: value for name, value in given.items() if value is not None}}


def _config(fields: Mapping[str, Any]) -> EndpointConfig:
    try:
        return EndpointConfig(**fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "config"
        raise EndpointConfigurationError(field, f"'{field}': {own_message(first)}") from None


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
        # what the request model speaks, under the names a catalog provider gives it; any other
        # endpoint is the server's own path under base_url
        "endpoint": (
            "chat/completions"
            if endpoint.strip().casefold() in ("", "chat", "chat/completions")
            else endpoint.strip()
        ),
        "method": "POST",
        "auth_type": "bearer",
        "content_type": "application/json",
        "requires_tokens": True,
        # the caller named this base URL explicitly; a local server is a common target
        "allow_local_network": True,
        **overrides,
        "request_options": model,
        "openai_compatible": True,
    }
    return CompatibleEndpoint(_config(fields), request_defaults=defaults)


def target(
    provider: str, endpoint: str, openai_compatible: bool, overrides: Mapping[str, Any]
) -> tuple[CatalogSnapshot, ProviderEndpointSpec | Unlisted]:
    """Resolve for construction on the current catalog, returned with what was found: a
    registered record, or an unlisted key the caller may serve with a compatible endpoint
    (explicitly, or by the deprecated implicit base_url fallback). A record is bound on the
    catalog it came from (:func:`build`): one refreshed in between must not receive it."""
    snapshot = current()
    pkey = canonical_provider_key(provider)
    implicit = (
        not openai_compatible
        and bool(overrides.get("base_url"))
        and bool(pkey)
        and pkey not in snapshot.provider_index
    )
    found = lookup(snapshot, provider, endpoint, compatible=openai_compatible or implicit)
    if implicit and isinstance(found, Unlisted):
        if is_strict():
            raise EndpointNotFound(
                pkey,
                canonical_endpoint_key(endpoint),
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
    return snapshot, found


def build(
    snapshot: CatalogSnapshot,
    spec: ProviderEndpointSpec,
    request_defaults: Mapping[str, Any] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Endpoint:
    """A fresh instance of the registered endpoint ``spec`` of ``snapshot`` (loading its
    provider on first use), with the caller's request defaults and configuration overrides
    checked."""
    if spec.lifecycle is not None:  # a deprecated or retired endpoint: off the cold path
        check_endpoint_use(spec)
    model = request_defaults.get("model") if request_defaults else None
    if isinstance(model, str):  # the caller named a model (match_endpoint's or iModel's)
        # the inventory is imported only then: 4 ms of a cold start that names no model
        from provcat.models.inventory import check_model_use

        # deprecated: warns; retired: raises when strict
        check_model_use(spec.provider, model, stacklevel=4)
    binding = EndpointRegistry.bind(snapshot, spec)
    where = f"{spec.provider}/{spec.endpoint}"
    defaults = {**spec.request_defaults}
    if request_defaults:
        defaults.update(_check_defaults(binding.config.request_options, request_defaults, where))
    if overrides and "request_options" in overrides:
        raise EndpointConfigurationError(
            "request_options", f"{where} has its request model from the catalog"
        )
    config = binding.config
    if overrides:
        values = spec.config_values()
        headers = overrides.get("default_headers")
        if isinstance(headers, Mapping):  # else the validator's own error
            overrides = {
                **overrides,
                "default_headers": _merged(values["default_headers"], headers),
            }
        # the overrides are validated without the request model, which is then carried over as
        # stored: one not imported yet stays so (the same fields set as passing it in)
        config = _config({**values, **overrides}).model_copy(
            update={"request_options": config.stored_request_options()}
        )
    return binding.endpoint_class(config, request_defaults=defaults)


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
    endpoint (which needs a ``base_url``). A provider whose Python failed to import raises
    :class:`ProviderUnavailable`, with or without the flag. A ``model`` in ``request_defaults``
    that the provider's inventory marks deprecated warns (:class:`ModelDeprecated`); a retired one
    warns too, and raises :class:`ModelRetired` in strict mode.
    """
    if (
        request_defaults is None
        and not config_overrides
        and type(provider) is type(endpoint) is str
    ):
        # the repeated call: a remembered record whose endpoint is bound already (a registered
        # match wins whatever openai_compatible says)
        snapshot = current()
        try:
            spec = registered(snapshot, provider, endpoint)
        except ProviderCatalogError:
            pass  # raised again below, or a compatible endpoint instead
        else:
            bound = state_of(snapshot).bindings.get(spec.provider, {}).get(spec.key)
            if bound is not None and spec.lifecycle is None:  # each use of a retiring one warns
                return bound.endpoint_class(bound.config, request_defaults=spec.request_defaults)
    if not isinstance(provider, str):
        raise TypeError(f"provider must be a str, not {type(provider).__name__}")
    if not isinstance(endpoint, str):
        raise TypeError(f"endpoint must be a str, not {type(endpoint).__name__}")
    if request_defaults is not None and not isinstance(request_defaults, Mapping):
        raise TypeError(
            f"request_defaults must be a mapping, not {type(request_defaults).__name__}"
        )
    _check_overrides(config_overrides)
    snapshot, found = target(provider, endpoint, openai_compatible, config_overrides)
    if isinstance(found, Unlisted):
        return _compatible(str(found), endpoint, request_defaults, config_overrides)
    return build(snapshot, found, request_defaults, config_overrides)
