"""CatalogSnapshot: the one immutable view of the catalog that lookup, inspection and model-spec
parsing read (ADR-0028 D2, D5), published whole (:mod:`provcat.catalog.publish`).

It holds facts only: records and indexes, never changed once made. What a process learns while
using a snapshot (which providers' Python loaded or failed, the memos of resolved spellings and
parsed specs) belongs to the layer that learns it, keyed by the snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from provcat.catalog.keys import suggest
from provcat.catalog.specs import ProviderEndpointSpec, ProviderModelPolicy, ProviderModuleSpec
from provcat.errors import EndpointNotFound

__all__ = ["CatalogSnapshot", "ProviderEntry"]


@dataclass(frozen=True, slots=True)
class ProviderEntry:
    """One provider the catalog lists."""

    provider: str  # canonical provider key
    display_name: str
    aliases: tuple[str, ...]
    module: str | None  # its import unit; None: declared in YAML alone
    endpoints: Mapping[str, ProviderEndpointSpec]  # canonical endpoint key -> record, by key
    endpoint_index: Mapping[str, str]  # canonical endpoint spelling -> canonical endpoint key

    def available_endpoints(self) -> tuple[str, ...]:
        """Canonical endpoint keys, sorted (what EndpointNotFound lists)."""
        return tuple(self.endpoints)

    def unknown_endpoint(self, ekey: str, elsewhere: Sequence[str] = ()) -> EndpointNotFound:
        """The one refusal of an endpoint spelling ``ekey`` the provider does not have, with a
        "did you mean" and the providers that have it, ``elsewhere``, when they are few
        (``match_endpoint`` and ``model_kwargs`` raise it alike)."""
        if not self.endpoints:  # inventory_only: the catalog lists its models alone
            reason = (
                f"{self.provider} has no endpoints: the catalog lists its models only "
                "(inventory_only), for lookups and costs; give the endpoint in its YAML, or call "
                "a compatible one with openai_compatible=True and base_url"
            )
        else:
            close = suggest(ekey, self.endpoint_index)
            reason = f"{self.provider} has no endpoint '{ekey}'" + (f" ({close})" if close else "")
            if 0 < len(elsewhere) <= 3:  # where to go instead; many is no pointer
                which = (
                    "a provider that has it" if len(elsewhere) == 1 else "providers that have it"
                )
                reason += f"; {which}: {', '.join(elsewhere)}"
        return EndpointNotFound(self.provider, ekey, self.available_endpoints(), reason=reason)


# eq=False: two snapshots are the same snapshot only if they are one object (every per-snapshot
# memo is keyed by identity); weakref_slot: those memos hold it weakly
@dataclass(frozen=True, slots=True, eq=False, weakref_slot=True)
class CatalogSnapshot:
    """Every provider the catalog knows. Lookups are plain reads of these mappings."""

    providers: Mapping[str, ProviderEntry]  # canonical key -> entry
    provider_index: Mapping[str, str]  # every canonical provider spelling -> canonical key
    # canonical key -> model policy (None: the catalog gives it none)
    policies: Mapping[str, ProviderModelPolicy | None]
    model_aliases: Mapping[str, str]  # canonical bare alias -> "provider/model"
    fingerprint: str
    trusted: bool  # written by the generator: configs are built without re-validation

    def unknown_endpoint(self, owner: str, ekey: str) -> EndpointNotFound:
        """``owner``'s refusal of the endpoint spelling ``ekey``, naming the providers that have
        it (``claude_code`` has no ``messages``; ``anthropic`` has)."""
        elsewhere = sorted(
            key
            for key, entry in self.providers.items()
            if key != owner and entry.endpoint_index.get(ekey)
        )
        return self.providers[owner].unknown_endpoint(ekey, elsewhere)

    @property
    def modules(self) -> tuple[ProviderModuleSpec, ...]:
        """The import unit of every provider, sorted by provider."""
        return tuple(ProviderModuleSpec(k, p.module) for k, p in self.providers.items())

    def canonical_provider(self, name: str) -> str | None:
        """The canonical provider key ``name`` spells, or None."""
        return self.provider_index.get(name.strip().casefold())

    def policy(self, provider: str) -> ProviderModelPolicy | None:
        return self.policies.get(provider)

    def endpoint(self, provider: str, key: str) -> ProviderEndpointSpec:
        """The record of canonical ``provider``/``key``."""
        return self.providers[provider].endpoints[key]
