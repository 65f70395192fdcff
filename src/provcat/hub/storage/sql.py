"""Metadata in SQL through SQLAlchemy Core: SQLite (WAL) embedded, or PostgreSQL to scale out.

Writes on SQLite open with ``BEGIN IMMEDIATE`` (one writer at a time, no upgrade deadlocks); on
PostgreSQL the blob row is locked ``FOR UPDATE``. The unique constraint on (namespace, name,
version) decides concurrent pushes of one version.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError

from provcat.hub.storage.records import SERVER_FIELDS, StoredAdapter, now_rfc3339
from provcat.hub.storage.tables import adapters, blobs, tokens
from provcat.hub.tokens import TokenRecord

__all__ = ["SqlMetadata", "make_engines", "same_or_conflict"]


def make_engines(url: str, busy_timeout_ms: int) -> tuple[Engine, Engine]:
    """``(reader, writer)`` engines; the same engine twice except on SQLite."""
    if url.startswith("sqlite"):
        return _sqlite_engine(url, busy_timeout_ms, "BEGIN"), _sqlite_engine(
            url, busy_timeout_ms, "BEGIN IMMEDIATE"
        )
    engine = create_engine(
        url,
        pool_pre_ping=True,
        pool_size=10,
        max_overflow=30,
        pool_timeout=10,
        connect_args={"connect_timeout": 5},
    )
    return engine, engine


def _sqlite_engine(url: str, busy_timeout_ms: int, begin: str) -> Engine:
    engine = create_engine(
        url,
        pool_size=20,
        max_overflow=40,
        pool_timeout=30,
        connect_args={"timeout": busy_timeout_ms / 1000, "check_same_thread": False},
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql(begin)

    return engine


def _insert_ignore(conn: Connection, table: Any, values: dict[str, Any]) -> None:
    from sqlalchemy.dialects import postgresql, sqlite

    if conn.dialect.name == "postgresql":
        conn.execute(postgresql.insert(table).values(**values).on_conflict_do_nothing())
    else:
        conn.execute(sqlite.insert(table).values(**values).on_conflict_do_nothing())


def _stored(row: Row[Any]) -> StoredAdapter:
    m = row._mapping
    return StoredAdapter(
        namespace=m["namespace"],
        name=m["name"],
        version=m["version"],
        checksum_sha256=m["checksum_sha256"],
        size_bytes=int(m["size_bytes"]),
        manifest=json.loads(m["manifest"]),
        created_at=m["created_at"],
        deleted_at=m["deleted_at"],
    )


def _client_part(manifest: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in manifest.items() if k not in SERVER_FIELDS}


class SqlMetadata:
    """Adapters, blob references and tokens in one SQL database."""

    def __init__(self, url: str, busy_timeout_ms: int = 30_000) -> None:
        self.reader, self.writer = make_engines(url, busy_timeout_ms)

    def migrate(self) -> None:
        from provcat.hub.storage.migrate import upgrade

        upgrade(self.writer)

    def close(self) -> None:
        self.reader.dispose()
        if self.writer is not self.reader:
            self.writer.dispose()

    def ping(self) -> None:
        with self.reader.connect() as conn:
            conn.exec_driver_sql("SELECT 1")

    # -- adapters ------------------------------------------------------------------------------
    def get(self, namespace: str, name: str, version: str) -> StoredAdapter | None:
        """The row of one version, tombstones included."""
        query = select(adapters).where(
            adapters.c.namespace == namespace,
            adapters.c.name == name,
            adapters.c.version == version,
        )
        with self.reader.connect() as conn:
            row = conn.execute(query).first()
        return _stored(row) if row else None

    def live_versions(self, namespace: str, name: str) -> list[StoredAdapter]:
        query = select(adapters).where(
            adapters.c.namespace == namespace,
            adapters.c.name == name,
            adapters.c.deleted_at.is_(None),
        )
        with self.reader.connect() as conn:
            return [_stored(r) for r in conn.execute(query)]

    def live(self) -> list[StoredAdapter]:
        query = (
            select(adapters)
            .where(adapters.c.deleted_at.is_(None))
            .order_by(adapters.c.namespace, adapters.c.name, adapters.c.version)
        )
        with self.reader.connect() as conn:
            return [_stored(r) for r in conn.execute(query)]

    def live_checksums(self) -> set[str]:
        query = select(adapters.c.checksum_sha256).where(adapters.c.deleted_at.is_(None))
        with self.reader.connect() as conn:
            return {r[0] for r in conn.execute(query)}

    def publish(
        self, record: StoredAdapter, ensure_blob: Callable[[], None]
    ) -> tuple[StoredAdapter, bool]:
        """Insert ``record`` unless its version exists: ``(stored, created)``.

        Same bytes and manifest again: the stored row, not created. Anything else existing (a
        tombstone too): AdapterExistsError. ``ensure_blob`` runs while the blob row is locked, so a
        concurrent delete cannot remove the blob under a version being published.
        """
        try:
            with self.writer.begin() as conn:
                self._lock_blob(conn, record.checksum_sha256, record.size_bytes)
                ensure_blob()
                existing = conn.execute(
                    select(adapters).where(
                        adapters.c.namespace == record.namespace,
                        adapters.c.name == record.name,
                        adapters.c.version == record.version,
                    )
                ).first()
                if existing is not None:
                    return same_or_conflict(_stored(existing), record), False
                conn.execute(
                    insert(adapters).values(
                        namespace=record.namespace,
                        name=record.name,
                        version=record.version,
                        checksum_sha256=record.checksum_sha256,
                        size_bytes=record.size_bytes,
                        manifest=json.dumps(record.manifest, sort_keys=True),
                        created_at=record.created_at,
                        deleted_at=None,
                    )
                )
            return record, True
        except IntegrityError:
            # another push of this version committed first: the constraint decided
            winner = self.get(record.namespace, record.name, record.version)
            if winner is None:
                raise
            return same_or_conflict(winner, record), False

    def _lock_blob(self, conn: Connection, sha256: str, size: int) -> None:
        _insert_ignore(
            conn, blobs, {"sha256": sha256, "size_bytes": size, "created_at": now_rfc3339()}
        )
        conn.execute(select(blobs.c.sha256).where(blobs.c.sha256 == sha256).with_for_update())

    def tombstone(self, namespace: str, name: str, version: str) -> StoredAdapter | None:
        """Mark a live version deleted; None when unknown or already deleted."""
        with self.writer.begin() as conn:
            row = conn.execute(
                select(adapters).where(
                    adapters.c.namespace == namespace,
                    adapters.c.name == name,
                    adapters.c.version == version,
                    adapters.c.deleted_at.is_(None),
                )
            ).first()
            if row is None:
                return None
            conn.execute(
                update(adapters)
                .where(
                    adapters.c.namespace == namespace,
                    adapters.c.name == name,
                    adapters.c.version == version,
                )
                .values(deleted_at=now_rfc3339())
            )
        return _stored(row)

    def release_blob(self, sha256: str, delete_blob: Callable[[], None]) -> bool:
        """Delete the blob when no live version references it (under the blob row lock)."""
        with self.writer.begin() as conn:
            self._lock_blob(conn, sha256, 0)
            count = conn.execute(
                select(func.count())
                .select_from(adapters)
                .where(adapters.c.checksum_sha256 == sha256, adapters.c.deleted_at.is_(None))
            ).scalar_one()
            if count:
                return False
            delete_blob()
            conn.execute(delete(blobs).where(blobs.c.sha256 == sha256))
        return True

    # -- tokens --------------------------------------------------------------------------------
    def add_token(self, record: TokenRecord) -> None:
        with self.writer.begin() as conn:
            conn.execute(
                insert(tokens).values(
                    token_id=record.token_id,
                    secret_hash=record.secret_hash,
                    namespaces=json.dumps(sorted(record.namespaces)),
                    description=record.description,
                    created_at=record.created_at,
                    revoked_at=None,
                )
            )

    def get_token(self, token_id: str) -> TokenRecord | None:
        with self.reader.connect() as conn:
            row = conn.execute(select(tokens).where(tokens.c.token_id == token_id)).first()
        return _token(row) if row else None

    def list_tokens(self) -> list[TokenRecord]:
        with self.reader.connect() as conn:
            rows = conn.execute(select(tokens).order_by(tokens.c.created_at, tokens.c.token_id))
            return [_token(r) for r in rows]

    def revoke_token(self, token_id: str) -> bool:
        with self.writer.begin() as conn:
            result = conn.execute(
                update(tokens)
                .where(tokens.c.token_id == token_id, tokens.c.revoked_at.is_(None))
                .values(revoked_at=now_rfc3339())
            )
            return bool(result.rowcount)


def _token(row: Row[Any]) -> TokenRecord:
    m = row._mapping
    return TokenRecord(
        token_id=m["token_id"],
        secret_hash=m["secret_hash"],
        namespaces=tuple(json.loads(m["namespaces"])),
        description=m["description"],
        created_at=m["created_at"],
        revoked_at=m["revoked_at"],
    )


def same_or_conflict(existing: StoredAdapter, record: StoredAdapter) -> StoredAdapter:
    from provcat.hub.errors import AdapterExistsError

    ref = f"{existing.namespace}/{existing.name}:{existing.version}"
    if existing.deleted_at is not None:
        raise AdapterExistsError(
            f"{ref} was deleted; versions are immutable and a deleted version cannot be pushed "
            "again: publish a new version",
            {"namespace": existing.namespace, "name": existing.name, "version": existing.version},
        )
    if existing.checksum_sha256 != record.checksum_sha256 or _client_part(
        existing.manifest
    ) != _client_part(record.manifest):
        raise AdapterExistsError(
            f"{ref} already exists with other content; versions are immutable: publish a new "
            "version",
            {"namespace": existing.namespace, "name": existing.name, "version": existing.version},
        )
    return existing
