"""EndpointRegistry: the facade over the one published CatalogSnapshot (ADR-0028 D2, D3, D5).

The first use builds the snapshot under a lock; after that every lookup reads the published
snapshot without a lock. ``refresh()`` builds a new snapshot and swaps it in with one assignment;
when the new catalog is invalid the prior snapshot stays and the error is raised.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from provcat.catalog.build import build_snapshot
from provcat.catalog.inspect import ProviderCatalogItem, rows
from provcat.catalog.snapshot import CatalogSnapshot

__all__ = ["CatalogSource", "EndpointRegistry", "bundled_source"]


class CatalogSource:
    """Where snapshot records come from: the generated ``provcat_catalog`` by default."""

    def __init__(
        self,
        records: Callable[[], Sequence[Mapping[str, Any]]],
        *,
        fingerprint: Callable[[], str] = lambda: "",
        model_aliases: Callable[[], Mapping[str, str]] = dict,
        trusted: bool = False,
    ) -> None:
        self.records = records
        self.fingerprint = fingerprint
        self.model_aliases = model_aliases
        # records the generator wrote and validated (see provcat.catalog.build)
        self.trusted = trusted

    def build(self) -> CatalogSnapshot:
        return build_snapshot(
            self.records(),
            fingerprint=self.fingerprint(),
            model_aliases=self.model_aliases(),
            trusted=self.trusted,
        )


def bundled_source() -> CatalogSource:
    def records() -> Sequence[Mapping[str, Any]]:
        import provcat_catalog

        return provcat_catalog.PROVIDERS

    def fingerprint() -> str:
        import provcat_catalog

        return provcat_catalog.FINGERPRINT

    def model_aliases() -> Mapping[str, str]:
        import provcat_catalog

        return provcat_catalog.MODEL_ALIAS_INDEX

    return CatalogSource(
        records, fingerprint=fingerprint, model_aliases=model_aliases, trusted=True
    )


class EndpointRegistry:
    """Class-level registry: one published snapshot per process."""

    _lock: ClassVar[threading.Lock] = threading.Lock()
    _snapshot: ClassVar[CatalogSnapshot | None] = None
    # told of every publication (and of a reset, with None): the lookup fast path keeps its own
    # reference to the published snapshot's memo in a module global, the quickest read there is
    _listeners: ClassVar[list[Callable[[CatalogSnapshot | None], None]]] = []
    _source: ClassVar[CatalogSource | None] = None
    builds: ClassVar[int] = 0  # how many snapshots were built (inspection and tests)

    @classmethod
    def snapshot(cls) -> CatalogSnapshot:
        """The published snapshot; the first call builds it (once, whatever the thread count)."""
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
        """Rebuild (re-importing failed modules) and swap atomically; on error keep the prior one."""
        with cls._lock:
            cls._publish(source or cls._source or bundled_source())
            assert cls._snapshot is not None
            return cls._snapshot

    @classmethod
    def _publish(cls, source: CatalogSource) -> None:
        snapshot = source.build()  # raises CatalogValidationError before anything changes
        cls.builds += 1
        snapshot.bind()
        cls._source = source
        cls._snapshot = snapshot  # the single assignment that publishes
        for listener in cls._listeners:
            listener(snapshot)

    @classmethod
    def list_providers(cls) -> list[ProviderCatalogItem]:
        """Sorted inspection rows: availability, endpoints, sanitized diagnostics; no secrets."""
        return rows(cls.snapshot())

    @classmethod
    def canonical_provider(cls, name: str) -> str | None:
        """The canonical key ``name`` spells (case and surrounding whitespace folded), or None."""
        if not isinstance(name, str):
            raise TypeError(f"provider must be a str, not {type(name).__name__}")
        return cls.snapshot().canonical_provider(name)

    @classmethod
    def _reset(cls, source: CatalogSource | None = None) -> None:
        """Forget the published snapshot (tests): the next use builds from ``source``."""
        with cls._lock:
            cls._snapshot = None
            cls._source = source
            for listener in cls._listeners:
                listener(None)
