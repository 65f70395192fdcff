"""Typed errors and the warning of model lookups and cost estimates (provcat.inventory, .cost)."""

from __future__ import annotations

from collections.abc import Sequence

from provcat.errors import ProviderCatalogError

__all__ = ["ModelDeprecated", "ModelNotFound", "ModelRetired", "PricingUnavailable"]


class ModelNotFound(ProviderCatalogError, LookupError):
    """The provider's inventory lists no model by that id or alias (or the provider has none)."""

    def __init__(self, provider: str, model: str, closest: Sequence[str], reason: str) -> None:
        self.provider = provider
        self.model = model
        self.closest: tuple[str, ...] = tuple(closest)
        hint = f"; closest: {', '.join(self.closest)}" if self.closest else ""
        super().__init__(f"{reason}{hint}")


class ModelRetired(ProviderCatalogError):
    """The model is retired, or its shutdown date has come: a call to it fails at the vendor."""

    def __init__(
        self, provider: str, model: str, shutdown_date: str | None, successor: str | None
    ) -> None:
        self.provider = provider
        self.model = model
        self.shutdown_date = shutdown_date
        self.successor = successor
        since = f" since {shutdown_date}" if shutdown_date else ""
        instead = f"; use its successor '{successor}'" if successor else ""
        super().__init__(f"model '{provider}/{model}' is retired{since}{instead}")


class ModelDeprecated(DeprecationWarning):
    """The model is deprecated: it still answers until its shutdown date. Also the warning for a
    retired model outside strict mode (``retired`` is then true)."""

    def __init__(
        self,
        provider: str,
        model: str,
        shutdown_date: str | None,
        successor: str | None,
        *,
        retired: bool = False,
    ) -> None:
        self.provider = provider
        self.model = model
        self.shutdown_date = shutdown_date
        self.successor = successor
        self.retired = retired
        instead = f"; move to its successor '{successor}'" if successor else ""
        if retired:
            since = f" since {shutdown_date}" if shutdown_date else ""
            text = f"model '{provider}/{model}' is retired{since}: calls to it fail{instead}"
        else:
            until = (
                f"shuts down on {shutdown_date}" if shutdown_date else "no shutdown date announced"
            )
            text = f"model '{provider}/{model}' is deprecated ({until}){instead}"
        super().__init__(text)


class PricingUnavailable(ProviderCatalogError, LookupError):
    """The catalog holds no price for what the estimate needs: an error, never a zero."""
