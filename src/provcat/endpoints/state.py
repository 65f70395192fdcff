"""What this process learned while using a snapshot, kept beside it (the snapshot never changes).

One :class:`LoadState` per snapshot, made on first ask and dropped with the snapshot: which
providers' Python loaded or failed, the endpoints bound, the request-options factories called.
A refresh publishes a new snapshot, so a provider that failed is tried again. Filled under the
publication lock by :mod:`provcat.endpoints.load`; read without a lock. Importing this module
imports no pydantic, so resolving a record (which fails closed on an unavailable provider) stays
free of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from provcat.catalog.diagnostic import ProviderDiagnostic
from provcat.catalog.publish import LOCK
from provcat.catalog.snapshot import CatalogSnapshot

if TYPE_CHECKING:
    from provcat.endpoints.load import Binding

__all__ = ["LoadState", "state_of"]


@dataclass(slots=True)
class LoadState:
    """What using one snapshot taught this process."""

    # provider -> its import_error; filled when a provider's Python fails to load, then final
    unavailable: dict[str, ProviderDiagnostic] = field(default_factory=dict)
    # provider -> canonical endpoint key -> binding; filled on first use of each endpoint
    bindings: dict[str, dict[str, Binding]] = field(default_factory=dict)
    # providers whose module imported (or that have none)
    loaded_modules: set[str] = field(default_factory=set)
    # id of a request-options factory -> its result: each factory is called once per snapshot
    factories: dict[int, Any] = field(default_factory=dict)


_states: WeakKeyDictionary[CatalogSnapshot, LoadState] = WeakKeyDictionary()
# the last snapshot asked about and its state: the repeated ask is one identity check
_last: tuple[CatalogSnapshot, LoadState] | None = None


def state_of(snapshot: CatalogSnapshot) -> LoadState:
    """The load state of ``snapshot`` (made empty on first ask)."""
    global _last
    last = _last
    if last is not None and last[0] is snapshot:
        return last[1]
    with LOCK:
        found = _states.get(snapshot)
        if found is None:
            found = _states[snapshot] = LoadState()
        _last = (snapshot, found)
        return found
