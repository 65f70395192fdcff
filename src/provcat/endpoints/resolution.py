"""Registered resolution (ADR-0028 D4): provider and endpoint spellings to one snapshot record.

Resolution reads the published snapshot and imports no provider and builds no instance (and so
never loads pydantic's validators). It fails closed on a provider whose Python failed to load,
which the registry's load state knows. ``match_endpoint`` builds on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from provcat.catalog.keys import canonical_endpoint_key, canonical_provider_key, closest
from provcat.catalog.publish import current
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.catalog.specs import ProviderEndpointSpec
from provcat.endpoints.state import state_of
from provcat.errors import EndpointConfigurationError, EndpointNotFound, ProviderUnavailable

__all__ = ["Unlisted", "lookup", "registered", "resolve"]


class Unlisted(str):
    """The canonical key of a provider (or provider and endpoint) the catalog does not list:
    where ``openai_compatible=True`` may build a compatible endpoint."""


def _check_types(provider: object, endpoint: object) -> None:
    if not isinstance(provider, str):
        raise TypeError(f"provider must be a str, not {type(provider).__name__}")
    if not isinstance(endpoint, str):
        raise TypeError(f"endpoint must be a str, not {type(endpoint).__name__}")


@lru_cache(maxsize=4096)
def registered(snapshot: CatalogSnapshot, provider: str, endpoint: str) -> ProviderEndpointSpec:
    """The record ``provider``/``endpoint`` spell on ``snapshot``: :func:`lookup` without the
    compatible fallback, remembered per spelling (a failure is not remembered). The caller checks
    the provider's availability, which can change after a record was remembered."""
    found = lookup(snapshot, provider, endpoint, compatible=False)
    assert isinstance(found, ProviderEndpointSpec)
    return found


def resolve(provider: str, endpoint: str = "") -> ProviderEndpointSpec:
    """The registered endpoint ``provider``/``endpoint`` names, without importing or building it.

    Raises what :func:`provcat.match_endpoint` raises for a registered lookup.
    """
    _check_types(provider, endpoint)
    snapshot = current()
    spec = registered(snapshot, provider, endpoint)
    failed = state_of(snapshot).unavailable.get(spec.provider)
    if failed is not None:
        raise ProviderUnavailable(spec.provider, failed)
    return spec


def lookup(
    snapshot: CatalogSnapshot, provider: str, endpoint: str, *, compatible: bool
) -> ProviderEndpointSpec | Unlisted:
    """The D4 state machine: a registered record, or (with ``compatible``) :class:`Unlisted`."""
    pkey = canonical_provider_key(provider)
    ekey = canonical_endpoint_key(endpoint)
    owner = snapshot.provider_index.get(pkey)
    if owner is not None:
        failed = state_of(snapshot).unavailable.get(owner)
        if failed is not None:
            raise ProviderUnavailable(owner, failed)
    if owner is None:
        if not pkey:
            raise EndpointConfigurationError("provider", "the provider key is empty")
        if compatible:
            return Unlisted(pkey)
        known = ", ".join(sorted(snapshot.providers))
        close = closest(pkey, snapshot.provider_index)  # any declared spelling resolves
        hint = f"did you mean '{close}'? " if close else ""
        raise EndpointNotFound(
            pkey, ekey, (), reason=f"unknown provider '{pkey}' ({hint}known providers: {known})"
        )
    entry = snapshot.providers[owner]
    if not ekey and entry.endpoints:
        if len(entry.endpoints) != 1:
            raise EndpointNotFound(
                owner,
                ekey,
                entry.available_endpoints(),
                reason=f"{owner} has {len(entry.endpoints)} endpoints: name one"
                + _retired_note(entry.endpoints),
            )
        return next(iter(entry.endpoints.values()))
    target_key = entry.endpoint_index.get(ekey)
    if target_key is None:
        if compatible:
            return Unlisted(owner)
        raise snapshot.unknown_endpoint(owner, ekey)
    return entry.endpoints[target_key]


def _retired_note(endpoints: Mapping[str, ProviderEndpointSpec]) -> str:
    """For the "name one" error: which of ``endpoints`` are retired today, and what replaces
    them (a provider whose old endpoint stays listed must not send a caller there)."""
    from provcat.endpoints.lifecycle import endpoint_state  # only on this error's path

    notes = []
    for key, spec in endpoints.items():
        if spec.lifecycle is not None and endpoint_state(spec) == "retired":
            successor = spec.lifecycle.get("successor")
            notes.append(f"{key} is retired" + (f", use {successor}" if successor else ""))
    return f" ({'; '.join(notes)})" if notes else ""
