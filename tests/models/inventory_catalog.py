"""The acme test catalog (tests/catalogs/models), compiled by the generator, for runtime tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from generator.pipeline import run
from provcat.endpoints.checked import CatalogSource
from provcat.endpoints.registry import EndpointRegistry
from provcat.models.inventory import _INVENTORY

CATALOG = Path(__file__).resolve().parent.parent / "catalogs" / "models"


def compiled() -> dict[str, Any]:
    result = run(CATALOG)
    assert result.ok and result.snapshot is not None, result.diagnostics
    return result.snapshot


def use_acme() -> Iterator[dict[str, Any]]:
    """Point the inventory and the registry at the acme catalog; restore the bundled one after."""
    snapshot = compiled()
    _INVENTORY._reset(
        (snapshot["inventory"], snapshot["inventory_index"], snapshot["provider_index"])
    )
    records = [dict(r) for r in snapshot["providers"]]
    EndpointRegistry._reset(CatalogSource(lambda: records, fingerprint=lambda: "acme"))
    try:
        yield snapshot
    finally:
        _INVENTORY._reset()
        EndpointRegistry._reset()
