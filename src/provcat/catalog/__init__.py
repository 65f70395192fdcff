"""The catalog: its records, key functions and snapshot, and the publication of the snapshot
(ADR-0028). Records and lookup only: no pydantic, no endpoint classes.
"""

from provcat.catalog.diagnostic import CatalogDiagnosticCode, ProviderDiagnostic
from provcat.catalog.keys import canonical_endpoint_key, canonical_provider_key
from provcat.catalog.snapshot import CatalogSnapshot, ProviderEntry
from provcat.catalog.specs import (
    EffortMode,
    EndpointType,
    ProviderEndpointSpec,
    ProviderModelPolicy,
    ProviderModuleSpec,
)

__all__ = [
    "CatalogDiagnosticCode",
    "CatalogSnapshot",
    "EffortMode",
    "EndpointType",
    "ProviderDiagnostic",
    "ProviderEndpointSpec",
    "ProviderEntry",
    "ProviderModelPolicy",
    "ProviderModuleSpec",
    "canonical_endpoint_key",
    "canonical_provider_key",
]
