"""EndpointRegistry: the facade over the published snapshot and what this process learned while
using it (ADR-0028 D2, D3, D5).

The snapshot is published by :mod:`provcat.catalog.publish` (first use, or ``refresh()``); the
registry binds its endpoints: a provider's Python is imported the first time one of its endpoints
is used (:mod:`provcat.endpoints.load`), under the publication lock, and what that taught (which
providers loaded or failed, the bound classes and configs) is a :class:`LoadState` kept per
snapshot, so a refresh starts afresh and a snapshot never changes.
"""

from __future__ import annotations

import importlib
from typing import ClassVar, Protocol

from provcat.catalog import publish
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.catalog.specs import ProviderEndpointSpec
from provcat.endpoints.inspect import ProviderCatalogItem, rows
from provcat.endpoints.load import Binding, Importer, load_endpoint
from provcat.endpoints.state import LoadState, state_of
from provcat.errors import ProviderUnavailable

__all__ = ["EndpointRegistry", "SnapshotSource"]


class SnapshotSource(Protocol):
    """Where a snapshot comes from: :class:`provcat.endpoints.checked.CatalogSource`, or a test's."""

    def build(self, importer: Importer) -> CatalogSnapshot: ...


class EndpointRegistry:
    """Class-level registry: one published snapshot per process, and its load state."""

    # how modules are imported (tests count imports through it)
    importer: ClassVar[Importer] = staticmethod(importlib.import_module)

    @classmethod
    def snapshot(cls) -> CatalogSnapshot:
        """The published snapshot; the first call publishes it (once, whatever the thread count)."""
        return publish.current()

    @classmethod
    def _source(cls, source: SnapshotSource) -> publish.Source:
        return lambda: source.build(cls.importer)

    @classmethod
    def refresh(cls, source: SnapshotSource | None = None) -> CatalogSnapshot:
        """A new snapshot (failed providers are tried again), swapped in atomically; when the
        source is invalid the prior snapshot stays and the error is raised."""
        return publish.publish(None if source is None else cls._source(source))

    @classmethod
    def state(cls, snapshot: CatalogSnapshot) -> LoadState:
        """What this process learned using ``snapshot`` (made empty on first ask)."""
        return state_of(snapshot)

    @classmethod
    def bind(cls, snapshot: CatalogSnapshot, spec: ProviderEndpointSpec) -> Binding:
        """The class and base config of ``spec`` on ``snapshot``, loading it on first use.

        Raises :class:`ProviderUnavailable` when its provider's Python failed to import."""
        state = cls.state(snapshot)
        bound = state.bindings.get(spec.provider, {}).get(spec.key)
        if bound is not None:
            return bound
        with publish.LOCK:
            result = load_endpoint(snapshot, state, spec, cls.importer, lock=publish.LOCK)
        assert result is not None
        return result

    @classmethod
    def list_providers(cls) -> list[ProviderCatalogItem]:
        """Sorted inspection rows: availability, endpoints, sanitized diagnostics; no secrets.

        Inspection is where availability must be complete: every provider is loaded first, with
        its request models (which a first use leaves to be imported when first read)."""
        snapshot = cls.snapshot()
        for entry in snapshot.providers.values():
            for spec in entry.endpoints.values():
                try:
                    cls.bind(snapshot, spec).config.request_options  # noqa: B018 (loads it)
                except ProviderUnavailable:
                    break
        return rows(snapshot, cls.state(snapshot))

    @classmethod
    def canonical_provider(cls, name: str) -> str | None:
        """The canonical key ``name`` spells (case and surrounding whitespace folded), or None."""
        if not isinstance(name, str):
            raise TypeError(f"provider must be a str, not {type(name).__name__}")
        return cls.snapshot().canonical_provider(name)

    @classmethod
    def _reset(cls, source: SnapshotSource | None = None) -> None:
        """Forget the published snapshot (tests): the next use publishes from ``source``."""
        publish.reset(None if source is None else cls._source(source))
