"""Inspection rows (ADR-0028 D5): a stable, typed projection of the snapshot, free of secrets and
request defaults, sorted by canonical key."""

from __future__ import annotations

from typing import Literal, TypedDict

from provcat.catalog.snapshot import CatalogSnapshot

__all__ = ["EndpointCatalogItem", "ProviderCatalogItem", "rows"]


class EndpointCatalogItem(TypedDict):
    endpoint: str
    aliases: list[str]
    endpoint_type: Literal["api", "agentic"]
    endpoint_class: str
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


def rows(snapshot: CatalogSnapshot) -> list[ProviderCatalogItem]:
    """One row per provider, available or not, sorted by canonical key."""
    items: list[ProviderCatalogItem] = []
    for key, entry in snapshot.providers.items():
        endpoints: list[EndpointCatalogItem] = [
            {
                "endpoint": e.spec.endpoint,
                "aliases": sorted(e.spec.endpoint_aliases),
                "endpoint_type": "agentic" if e.spec.endpoint_type.value == "agentic" else "api",
                "endpoint_class": _qualified(e.spec.endpoint_class),
                "request_options": _qualified(e.request_model) if e.request_model else None,
                "base_url": e.spec.base_url,
            }
            for e in entry.endpoints.values()
        ]
        items.append(
            {
                "provider": key,
                "aliases": sorted(entry.aliases),
                "availability": "available",
                "endpoints": endpoints,
                "diagnostics": [],
            }
        )
    for key, diagnostic in snapshot.unavailable.items():
        items.append(
            {
                "provider": key,
                "aliases": sorted(snapshot.unavailable_aliases.get(key, ())),
                "availability": "unavailable",
                "endpoints": [],
                "diagnostics": [diagnostic.as_dict()],
            }
        )
    items.sort(key=lambda item: item["provider"])
    for item in items:
        item["diagnostics"].sort(
            key=lambda d: (
                d["provider"] or "",
                d["endpoint"] or "",
                d["code"] or "",
                d["key"] or "",
            )
        )
    return items
