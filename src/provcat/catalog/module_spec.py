"""ProviderModuleSpec: a provider's import unit (ADR-0028 D1, D3).

Its own module because only inspection (``CatalogSnapshot.modules``) makes these records: a
process that resolves and uses endpoints never creates the class. :mod:`provcat.catalog.specs`
re-exports it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ProviderModuleSpec"]


@dataclass(frozen=True, slots=True)
class ProviderModuleSpec:
    """One import unit: the module expected to provide ``provider``'s Python parts (D3).

    ``module`` is None for a provider declared in YAML alone."""

    provider: str
    module: str | None
