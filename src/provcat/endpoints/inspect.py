"""Inspection rows (ADR-0028 D5): a stable, typed projection of the snapshot, free of secrets and
request defaults, sorted by canonical key. Read after every provider was loaded."""

from __future__ import annotations

from typing import Literal, TypedDict

from provcat.catalog.snapshot import CatalogSnapshot
from provcat.endpoints.state import LoadState

__all__ = ["EndpointCatalogItem", "ProviderCatalogItem", "rows"]


class EndpointCatalogItem(TypedDict):
    endpoint: str
    aliases: list[str]
    endpoint_type: Literal["api", "agentic"]
    endpoint_class: str
    protocol: str | None
    request_options: str | None
    base_url: str | None


class ProviderCatalogItem(TypedDict):
    provider: str
    aliases: list[str]
    availability: Literal["available", "unavailable"]
    endpoints: list[EndpointCatalogItem]
    diagnostics: list[dict[str, str | None]]


def _qualified(obj: object) -> str:
    return f"{getattr(obj, '__module__', '?')}:{getattr(obj, '__qualname__', repr(obj))}"


def rows(snapshot: CatalogSnapshot, state: LoadState) -> list[ProviderCatalogItem]:
    """One row per provider, available or not, sorted by canonical key."""
    items: list[ProviderCatalogItem] = []
    for key, entry in snapshot.providers.items():
        failed = state.unavailable.get(key)
        if failed is not None:
            items.append(
                {
                    "provider": key,
                    "aliases": sorted(entry.aliases),
                    "availability": "unavailable",
                    "endpoints": [],
                    "diagnostics": [failed.as_dict()],
                }
            )
            continue
        bound = state.bindings.get(key, {})
        endpoints: list[EndpointCatalogItem] = []
        for spec in entry.endpoints.values():
            binding = bound.get(spec.key)
            model = binding.config.request_options if binding is not None else None
            endpoints.append(
                {
                    "endpoint": spec.endpoint,
                    "aliases": sorted(spec.endpoint_aliases),
                    "endpoint_type": "agentic" if spec.endpoint_type.value == "agentic" else "api",
                    "endpoint_class": _qualified(binding.endpoint_class)
                    if binding is not None
                    else spec.endpoint_class or f"protocol:{spec.protocol}",
                    "protocol": spec.protocol,
                    "request_options": _qualified(model) if model is not None else None,
                    "base_url": spec.base_url,
                }
            )
        items.append(
            {
                "provider": key,
                "aliases": sorted(entry.aliases),
                "availability": "available",
                "endpoints": endpoints,
                "diagnostics": [],
            }
        )
    items.sort(key=lambda item: item["provider"])
    return items
