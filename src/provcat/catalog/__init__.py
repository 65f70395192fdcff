"""The catalog's public records, key functions and snapshot (ADR-0028)."""

from provcat.catalog.inspect import EndpointCatalogItem, ProviderCatalogItem
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.catalog.specs import (
    ProviderDiagnostic,
    ProviderEndpointSpec,
    ProviderModelPolicy,
    ProviderModuleSpec,
)
from provcat.keys import canonical_endpoint_key, canonical_provider_key

__all__ = [
    "CatalogSnapshot",
    "EndpointCatalogItem",
    "ProviderCatalogItem",
    "ProviderDiagnostic",
    "ProviderEndpointSpec",
    "ProviderModelPolicy",
    "ProviderModuleSpec",
    "canonical_endpoint_key",
    "canonical_provider_key",
]
