"""Typed catalog errors (ADR-0028 D2). Messages name keys and fields, never secrets or values.

The errors of a call to a vendor's API (:class:`APIError` and its kinds) are defined in
:mod:`provcat.api_errors` and offered here too, loaded when first named: a process that
resolves and builds endpoints without calling them never makes their classes (cold start).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from provcat.lazy_names import lazy_names

if TYPE_CHECKING:
    from provcat.api_errors import (
        APIConnectionError,
        APIError,
        APIStatusError,
        APITimeoutError,
        AuthenticationError,
        BadRequestError,
        InvalidResponseError,
        LocalNetworkRefused,
        NotFoundError,
        RateLimitError,
        ServerError,
        StreamError,
    )
    from provcat.catalog.diagnostic import ProviderDiagnostic

__all__ = [
    "APIConnectionError",
    "APIError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "CatalogValidationError",
    "EndpointConfigurationError",
    "EndpointDeprecated",
    "EndpointNotFound",
    "EndpointRetired",
    "InvalidResponseError",
    "LocalNetworkRefused",
    "NotFoundError",
    "ProviderCatalogError",
    "ProviderUnavailable",
    "RateLimitError",
    "ServerError",
    "StreamError",
]


__getattr__ = lazy_names(
    __name__,
    dict.fromkeys(
        (
            "APIConnectionError",
            "APIError",
            "APIStatusError",
            "APITimeoutError",
            "AuthenticationError",
            "BadRequestError",
            "InvalidResponseError",
            "LocalNetworkRefused",
            "NotFoundError",
            "RateLimitError",
            "ServerError",
            "StreamError",
        ),
        "provcat.api_errors",
    ),
)


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


class _LifecycleRetired(ProviderCatalogError):
    """One wording for every retired thing (endpoint, model): names the date and the successor."""

    _kind = "thing"

    def __init__(
        self, provider: str, name: str, shutdown_date: str | None, successor: str | None
    ) -> None:
        self.provider = provider
        self.shutdown_date = shutdown_date
        self.successor = successor
        since = f" since {shutdown_date}" if shutdown_date else ""
        instead = f"; use its successor '{successor}'" if successor else ""
        super().__init__(f"{self._kind} '{provider}/{name}' is retired{since}{instead}")


class _LifecycleDeprecated(DeprecationWarning):
    """One wording for every deprecation warning (endpoint, model), the retired-but-not-strict
    case included: names the shutdown date and the successor."""

    _kind = "thing"

    def __init__(
        self,
        provider: str,
        name: str,
        shutdown_date: str | None,
        successor: str | None,
        *,
        retired: bool = False,
    ) -> None:
        self.provider = provider
        self.shutdown_date = shutdown_date
        self.successor = successor
        self.retired = retired
        subject = f"{self._kind} '{provider}/{name}'"
        instead = f"; move to its successor '{successor}'" if successor else ""
        if retired:
            since = f" since {shutdown_date}" if shutdown_date else ""
            text = f"{subject} is retired{since}: calls to it fail{instead}"
        else:
            until = (
                f"shuts down on {shutdown_date}" if shutdown_date else "no shutdown date announced"
            )
            text = f"{subject} is deprecated ({until}){instead}"
        super().__init__(text)


class EndpointRetired(_LifecycleRetired):
    """The vendor retired the endpoint (or its shutdown date has come): calls to it fail there.
    Raised in strict mode; otherwise :class:`EndpointDeprecated` warns with ``retired`` true."""

    _kind = "endpoint"

    def __init__(
        self, provider: str, endpoint: str, shutdown_date: str | None, successor: str | None
    ) -> None:
        self.endpoint = endpoint
        super().__init__(provider, endpoint, shutdown_date, successor)


class EndpointDeprecated(_LifecycleDeprecated):
    """The vendor deprecated the endpoint: it still answers until its shutdown date. Also the
    warning for a retired endpoint outside strict mode (``retired`` is then true)."""

    _kind = "endpoint"

    def __init__(
        self,
        provider: str,
        endpoint: str,
        shutdown_date: str | None,
        successor: str | None,
        *,
        retired: bool = False,
    ) -> None:
        self.endpoint = endpoint
        super().__init__(provider, endpoint, shutdown_date, successor, retired=retired)
