"""Typed catalog errors (ADR-0028 D2). Messages name keys and fields, never secrets or values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from provcat.catalog.specs import ProviderDiagnostic

__all__ = [
    "CatalogValidationError",
    "EndpointConfigurationError",
    "EndpointNotFound",
    "ProviderCatalogError",
    "ProviderUnavailable",
]


class ProviderCatalogError(RuntimeError):
    """Base of every catalog error."""


class CatalogValidationError(ProviderCatalogError):
    """The catalog did not validate; no snapshot was published (or the prior one stays)."""

    def __init__(self, diagnostics: Sequence[ProviderDiagnostic]) -> None:
        self.diagnostics: tuple[ProviderDiagnostic, ...] = tuple(diagnostics)
        lines = [f"{d.code}: {d.message}" for d in self.diagnostics[:10]]
        more = len(self.diagnostics) - len(lines)
        if more > 0:
            lines.append(f"... and {more} more")
        super().__init__(
            f"the provider catalog is invalid ({len(self.diagnostics)} problems):\n  "
            + "\n  ".join(lines)
        )


class ProviderUnavailable(ProviderCatalogError):
    """A provider the catalog knows, whose module failed to import."""

    def __init__(self, provider: str, diagnostic: ProviderDiagnostic) -> None:
        self.provider = provider
        self.diagnostic = diagnostic
        super().__init__(
            f"provider '{provider}' is unavailable: {diagnostic.message}. "
            "Fix or install what its module needs, then call EndpointRegistry.refresh()."
        )


class EndpointNotFound(ProviderCatalogError):
    """No registered endpoint answers to this provider and endpoint key."""

    def __init__(
        self,
        provider: str,
        endpoint: str,
        available: Sequence[str],
        *,
        reason: str | None = None,
    ) -> None:
        self.provider = provider
        self.endpoint = endpoint
        self.available: tuple[str, ...] = tuple(available)
        if reason is None:
            reason = f"{provider} has no endpoint '{endpoint}'"
        if self.available:
            reason = f"{reason}; available: {', '.join(self.available)}"
        super().__init__(reason)


class EndpointConfigurationError(ProviderCatalogError):
    """A configuration or request-default field that the endpoint does not accept."""

    def __init__(self, field: str, message: str | None = None) -> None:
        self.field = field
        super().__init__(message or f"invalid endpoint configuration field '{field}'")
