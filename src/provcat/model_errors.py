"""Typed errors and the warning of model lookups and cost estimates (provcat.models.inventory, .cost)."""

from __future__ import annotations

from collections.abc import Sequence

from provcat.errors import ProviderCatalogError, _LifecycleDeprecated, _LifecycleRetired

__all__ = ["ModelDeprecated", "ModelNotFound", "ModelRetired", "PricingUnavailable"]


class ModelNotFound(ProviderCatalogError, LookupError):
    """The provider's inventory lists no model by that id or alias (or the provider has none)."""

    def __init__(self, provider: str, model: str, closest: Sequence[str], reason: str) -> None:
        self.provider = provider
        self.model = model
        self.closest: tuple[str, ...] = tuple(closest)
        hint = f"; closest: {', '.join(self.closest)}" if self.closest else ""
        super().__init__(f"{reason}{hint}")


class ModelRetired(_LifecycleRetired):
    """The model is retired, or its shutdown date has come: a call to it fails at the vendor."""

    _kind = "model"

    def __init__(
        self, provider: str, model: str, shutdown_date: str | None, successor: str | None
    ) -> None:
        self.model = model
        super().__init__(provider, model, shutdown_date, successor)


class ModelDeprecated(_LifecycleDeprecated):
    """The model is deprecated: it still answers until its shutdown date. Also the warning for a
    retired model outside strict mode (``retired`` is then true)."""

    _kind = "model"

    def __init__(
        self,
        provider: str,
        model: str,
        shutdown_date: str | None,
        successor: str | None,
        *,
        retired: bool = False,
    ) -> None:
        self.model = model
        super().__init__(provider, model, shutdown_date, successor, retired=retired)


class PricingUnavailable(ProviderCatalogError, LookupError):
    """The catalog holds no price for what the estimate needs: an error, never a zero."""
