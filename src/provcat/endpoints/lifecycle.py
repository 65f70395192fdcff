"""What using a deprecated or retired endpoint does: the same rule as for models.

Deprecated: a warning naming the shutdown date and the successor. Retired (or its shutdown date
has come): :class:`~provcat.errors.EndpointRetired` in strict mode, a warning otherwise, so an
existing configuration keeps resolving while its owner is told.
"""

from __future__ import annotations

import warnings
from datetime import date

from provcat.catalog.specs import ProviderEndpointSpec
from provcat.errors import EndpointDeprecated, EndpointRetired
from provcat.models.lifecycle import state
from provcat.strict import is_strict

__all__ = ["check_endpoint_use", "endpoint_state"]


def endpoint_state(spec: ProviderEndpointSpec, as_of: date | None = None) -> str:
    """``active``, ``deprecated`` or ``retired`` as of ``as_of`` (default: today)."""
    life = spec.lifecycle
    if life is None:
        return "active"
    return state(
        life["status"], life["deprecation_date"], life["shutdown_date"], as_of or date.today()
    )


def check_endpoint_use(spec: ProviderEndpointSpec) -> None:
    """Warn (or, for a retired endpoint in strict mode, raise) before ``spec`` is built."""
    now = endpoint_state(spec)
    if now == "active" or spec.lifecycle is None:
        return
    shutdown, successor = spec.lifecycle["shutdown_date"], spec.lifecycle["successor"]
    if now == "retired":
        if is_strict():
            raise EndpointRetired(spec.provider, spec.endpoint, shutdown, successor)
        warnings.warn(
            EndpointDeprecated(spec.provider, spec.endpoint, shutdown, successor, retired=True),
            stacklevel=4,
        )
    else:
        warnings.warn(
            EndpointDeprecated(spec.provider, spec.endpoint, shutdown, successor), stacklevel=4
        )
