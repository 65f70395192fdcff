"""EndpointRegistry: the facade over the one published CatalogSnapshot (ADR-0028 D2, D3, D5).

The first use publishes the snapshot under a lock; after that lookups read it without a lock.
``refresh()`` makes a new snapshot and swaps it in with one assignment; when a checked source is
invalid the prior snapshot stays and the error is raised. A provider's Python is imported the
first time one of its endpoints is used (:mod:`provcat.endpoints.load`), under the same lock.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from provcat.catalog.snapshot import Binding, CatalogSnapshot
from provcat.catalog.specs import ProviderEndpointSpec
from provcat.errors import ProviderUnavailable

if TYPE_CHECKING:
    from provcat.endpoints.inspect import ProviderCatalogItem
    from provcat.endpoints.load import Importer

__all__ = ["CatalogSource", "EndpointRegistry", "bundled_source"]


class CatalogSource:
    """Snapshot records from somewhere other than the generated package: checked when built.

    ``records`` returns provider records in the generated snapshot's shape
    (``provcat_catalog.PROVIDERS``). They go through the same key-space validation the generator
    runs, every provider is loaded, and every class, request model and request default is checked.
    """

    def __init__(
        self,
        records: Callable[[], Sequence[Mapping[str, Any]]],
        *,
        fingerprint: Callable[[], str] = lambda: "",
        model_aliases: Callable[[], Mapping[str, str]] = dict,
    ) -> None:
        self.records = records
        self.fingerprint = fingerprint
        self.model_aliases = model_aliases

    def build(self, importer: Importer) -> CatalogSnapshot:
        from provcat.catalog.publish import checked_snapshot

        return checked_snapshot(
            self.records(),
            fingerprint=self.fingerprint(),
            model_aliases=self.model_aliases(),
            importer=importer,
        )


class _BundledSource(CatalogSource):
    """The generated ``provcat_catalog`` package, published as the generator wrote it."""

    def __init__(self) -> None:
        super().__init__(self._records)

    @staticmethod
    def _records() -> Sequence[Mapping[str, Any]]:
        import provcat_catalog

        return provcat_catalog.PROVIDERS

    def build(self, importer: Importer) -> CatalogSnapshot:
        import provcat_catalog

        from provcat.catalog.publish import trusted_snapshot

        return trusted_snapshot(
            provcat_catalog.PROVIDERS,
            provcat_catalog.PROVIDER_INDEX,
            provcat_catalog.MODEL_ALIAS_INDEX,
            provcat_catalog.FINGERPRINT,
        )


def bundled_source() -> CatalogSource:
    """The snapshot bundled with this installation (the default source)."""
    return _BundledSource()


class EndpointRegistry:
    """Class-level registry: one published snapshot per process."""

    _lock: ClassVar[threading.RLock] = threading.RLock()
    _snapshot: ClassVar[CatalogSnapshot | None] = None
    _source: ClassVar[CatalogSource | None] = None
    # how modules are imported (tests count imports through it)
    importer: ClassVar[Importer] = staticmethod(importlib.import_module)
    builds: ClassVar[int] = 0  # how many snapshots were published (inspection and tests)

    @classmethod
    def snapshot(cls) -> CatalogSnapshot:
        """The published snapshot; the first call publishes it (once, whatever the thread count)."""
        published = cls._snapshot
        if published is not None:
            return published
        with cls._lock:
            if cls._snapshot is None:
                cls._publish(cls._source or bundled_source())
            assert cls._snapshot is not None
            return cls._snapshot

    @classmethod
    def refresh(cls, source: CatalogSource | None = None) -> CatalogSnapshot:
        """A new snapshot (failed providers are tried again), swapped in atomically; when the
        source is invalid the prior snapshot stays and the error is raised."""
        with cls._lock:
            cls._publish(source or cls._source or bundled_source())
            assert cls._snapshot is not None
            return cls._snapshot

    @classmethod
    def _publish(cls, source: CatalogSource) -> None:
        snapshot = source.build(cls.importer)  # raises CatalogValidationError first
        cls.builds += 1
        cls._source = source
        cls._snapshot = snapshot  # the single assignment that publishes

    @classmethod
    def bind(cls, snapshot: CatalogSnapshot, spec: ProviderEndpointSpec) -> Binding:
        """The class and base config of ``spec`` on ``snapshot``, loading it on first use.

        Raises :class:`ProviderUnavailable` when its provider's Python failed to import."""
        bound = snapshot.bindings.get(spec.provider, {}).get(spec.key)
        if bound is not None:
            return bound
        from provcat.endpoints.load import load_endpoint  # first use only: not to resolve a record

        with cls._lock:
            result = load_endpoint(snapshot, spec, cls.importer, lock=cls._lock)
        assert result is not None
        return result

    @classmethod
    def list_providers(cls) -> list[ProviderCatalogItem]:
        """Sorted inspection rows: availability, endpoints, sanitized diagnostics; no secrets.

        Inspection is where availability must be complete: every provider is loaded first, with
        its request models (which a first use leaves to be imported when first read)."""
        from provcat.endpoints.inspect import rows

        snapshot = cls.snapshot()
        for entry in snapshot.providers.values():
            for spec in entry.endpoints.values():
                try:
                    cls.bind(snapshot, spec).config.request_options  # noqa: B018 (loads it)
                except ProviderUnavailable:
                    break
        return rows(snapshot)

    @classmethod
    def canonical_provider(cls, name: str) -> str | None:
        """The canonical key ``name`` spells (case and surrounding whitespace folded), or None."""
        if not isinstance(name, str):
            raise TypeError(f"provider must be a str, not {type(name).__name__}")
        return cls.snapshot().canonical_provider(name)

    @classmethod
    def _reset(cls, source: CatalogSource | None = None) -> None:
        """Forget the published snapshot (tests): the next use publishes from ``source``."""
        with cls._lock:
            cls._snapshot = None
            cls._source = source
