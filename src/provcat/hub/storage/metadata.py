"""``MetadataStore``: what the hub needs from its metadata database, as an interface.

``SqlMetadata`` (SQLite or PostgreSQL through SQLAlchemy) is the one implementation; another
database kind is one module implementing these methods with the same guarantees: a version is
unique per (namespace, name, version) and the store decides concurrent publishes (exactly one
wins), a tombstone is set by exactly one delete, and ``release_blob`` deletes a blob only while
no live version references it, under a lock that ``publish`` also takes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from provcat.hub.storage.records import StoredAdapter
from provcat.hub.tokens import TokenRecord

__all__ = ["MetadataStore"]


class MetadataStore(Protocol):
    """Adapters, blob references and tokens; every method is safe across processes."""

    def migrate(self) -> None:
        """Create or upgrade the schema; safe when several processes start at once."""

    def close(self) -> None: ...

    def ping(self) -> None: ...

    def get(self, namespace: str, name: str, version: str) -> StoredAdapter | None:
        """One version's row, tombstones included."""

    def live_versions(self, namespace: str, name: str) -> list[StoredAdapter]: ...

    def latest(self, namespace: str, name: str) -> StoredAdapter | None:
        """The live version of highest SemVer precedence."""

    def live(self) -> list[StoredAdapter]: ...

    def live_checksums(self) -> set[str]: ...

    def publish(
        self, record: StoredAdapter, ensure_blob: Callable[[], None]
    ) -> tuple[StoredAdapter, bool]:
        """Insert unless the version exists: ``(stored, created)``; AdapterExistsError when it
        exists with other content or as a tombstone."""

    def search(
        self,
        query: str | None,
        tags: Sequence[str],
        limit: int,
        namespaces: Sequence[str] | None = None,
        sort: str = "relevance",
        offset: int = 0,
    ) -> list[StoredAdapter]: ...

    def count_download(self, namespace: str, name: str, version: str) -> None:
        """One more download of a version; exact under any number of concurrent calls."""

    def version_downloads(self, namespace: str, name: str) -> dict[str, int]: ...

    def download_totals(self, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], int]: ...

    def namespace_counts(self) -> list[tuple[str, int]]:
        """Each namespace with a live adapter and its number of adapters, sorted."""

    def names(self, namespace: str) -> list[str]:
        """The names of the live adapters of one namespace, sorted."""

    def tombstone(self, namespace: str, name: str, version: str) -> StoredAdapter | None:
        """Mark a live version deleted; None when unknown or already deleted (exactly one of
        several concurrent calls gets the row)."""

    def release_blob(self, sha256: str, delete_blob: Callable[[], None]) -> bool: ...

    def add_token(self, record: TokenRecord) -> None: ...

    def get_token(self, token_id: str) -> TokenRecord | None: ...

    def list_tokens(self) -> list[TokenRecord]: ...

    def revoke_token(self, token_id: str) -> bool: ...
