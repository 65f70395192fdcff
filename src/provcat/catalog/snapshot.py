"""CatalogSnapshot: the one immutable, validated view that lookup, inspection and model-spec
parsing all read (ADR-0028 D2, D5). Built once, published in a single assignment, never mutated."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from provcat.catalog.specs import (
    ProviderDiagnostic,
    ProviderEndpointSpec,
    ProviderModelPolicy,
    ProviderModuleSpec,
)
from provcat.endpoint import EndpointMeta

if TYPE_CHECKING:
    from provcat.config import EndpointConfig

__all__ = ["CatalogSnapshot", "EndpointEntry", "ProviderEntry"]


@dataclass(frozen=True, slots=True)
class EndpointEntry:
    """One resolvable endpoint: its spec, resolved request model and class-bound metadata."""

    key: str
    spec: ProviderEndpointSpec
    request_model: type[BaseModel] | None
    meta: EndpointMeta
    config: EndpointConfig  # validated once; frozen, shared by instances built without overrides


@dataclass(frozen=True, slots=True)
class ProviderEntry:
    """One available provider."""

    provider: str
    display_name: str
    aliases: tuple[str, ...]
    module: str
    endpoints: Mapping[str, EndpointEntry]  # canonical endpoint key -> entry, sorted
    endpoint_index: Mapping[str, str]  # canonical spelling -> canonical endpoint key
    policy: ProviderModelPolicy | None

    def available_endpoints(self) -> tuple[str, ...]:
        """Canonical endpoint keys, sorted (what EndpointNotFound lists)."""
        return tuple(self.endpoints)


@dataclass(frozen=True, slots=True)
class CatalogSnapshot:
    """Every provider the catalog knows: available ones with their endpoints, unavailable ones
    with their import diagnostic. Lookups are plain reads of these mappings."""

    providers: Mapping[str, ProviderEntry]
    unavailable: Mapping[str, ProviderDiagnostic]
    unavailable_aliases: Mapping[str, tuple[str, ...]]
    provider_index: Mapping[str, str]  # every canonical spelling, unavailable ones included
    modules: tuple[ProviderModuleSpec, ...]
    model_aliases: Mapping[str, str]  # canonical bare alias -> "provider/model"
    fingerprint: str
    # provider -> endpoint, exactly as a caller spelled them -> the registered entry; filled on
    # first resolution of a spelling, valid for this snapshot's whole life (it never changes).
    # Nested rather than keyed by pairs: a hit is two dict reads, no tuple to build and hash.
    memo: dict[str, dict[str, EndpointEntry]] = field(default_factory=dict, compare=False)
    # model spec -> its parse, and model_kwargs arguments -> its result (pure functions of the
    # snapshot); filled on first use, bounded like memo
    parsed_specs: dict[Any, Any] = field(default_factory=dict, compare=False)
    applied_specs: dict[Any, Any] = field(default_factory=dict, compare=False)

    MEMO_LIMIT = 4096  # model-spec memos; and provider spellings, each with up to MEMO_SPELLINGS
    MEMO_SPELLINGS = 256  # endpoint spellings remembered per provider spelling

    def remember(self, provider: str, endpoint: str, entry: EndpointEntry) -> None:
        spellings = self.memo.get(provider)
        if spellings is None:
            if len(self.memo) >= self.MEMO_LIMIT:
                return
            spellings = self.memo.setdefault(provider, {})
        if len(spellings) < self.MEMO_SPELLINGS:
            spellings[endpoint] = entry

    def canonical_provider(self, name: str) -> str | None:
        """The canonical provider key ``name`` spells, or None."""
        return self.provider_index.get(name.strip().casefold())

    def policy(self, provider: str) -> ProviderModelPolicy | None:
        entry = self.providers.get(provider)
        return entry.policy if entry is not None else None

    def bind(self) -> None:
        """Attach each endpoint class's ``_ENDPOINT_META`` projection from this snapshot."""
        for entry in self.providers.values():
            for endpoint in entry.endpoints.values():
                endpoint.spec.endpoint_class._ENDPOINT_META = endpoint.meta
