"""The catalog's public records, key functions and snapshot (ADR-0028).

Names load on first access, so ``from provcat.catalog.specs import ...`` costs only that module.
"""

from typing import TYPE_CHECKING

from provcat.catalog.keys import canonical_endpoint_key, canonical_provider_key
from provcat.lazy_names import lazy_names

if TYPE_CHECKING:
    from provcat.catalog.snapshot import CatalogSnapshot
    from provcat.catalog.specs import (
        EndpointType,
        ProviderDiagnostic,
        ProviderEndpointSpec,
        ProviderModelPolicy,
        ProviderModuleSpec,
    )
    from provcat.endpoints.inspect import EndpointCatalogItem, ProviderCatalogItem

__all__ = [
    "CatalogSnapshot",
    "EndpointCatalogItem",
    "EndpointType",
    "ProviderCatalogItem",
    "ProviderDiagnostic",
    "ProviderEndpointSpec",
    "ProviderModelPolicy",
    "ProviderModuleSpec",
    "canonical_endpoint_key",
    "canonical_provider_key",
]

_LAZY = {
    "CatalogSnapshot": "provcat.catalog.snapshot",
    "EndpointCatalogItem": "provcat.endpoints.inspect",
    "ProviderCatalogItem": "provcat.endpoints.inspect",
    "EndpointType": "provcat.catalog.specs",
    "ProviderDiagnostic": "provcat.catalog.specs",
    "ProviderEndpointSpec": "provcat.catalog.specs",
    "ProviderModelPolicy": "provcat.catalog.specs",
    "ProviderModuleSpec": "provcat.catalog.specs",
}


__getattr__ = lazy_names(__name__, _LAZY)
