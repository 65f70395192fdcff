"""Metadata in SQL through SQLAlchemy Core: SQLite (WAL) embedded, or PostgreSQL to scale out.

Writes on SQLite open with ``BEGIN IMMEDIATE`` (one writer at a time, no upgrade deadlocks); on
PostgreSQL the blob row is locked ``FOR UPDATE``. The unique constraint on (namespace, name,
version) decides concurrent pushes of one version.

Reads are the hot path (every resolve, payload and token check): their statements are built once
with bound parameters (so SQLAlchemy's compiled cache is hit without rebuilding the expression),
SQLite readers run each SELECT in autocommit (one statement is its own consistent snapshot; no
``BEGIN``/``ROLLBACK`` round trips), and the reader pool holds ``READ_CONCURRENCY`` connections:
the server bounds its concurrent reads to the same number, so a read never waits for a
connection and never opens (and closes) an overflow one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    tuple_,
    update,
)
from sqlalchemy.engine import Row
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.sql import Executable

from provcat.hub.errors import AdapterExistsError
from provcat.hub.ref import parse_version, resolve_latest
from provcat.hub.storage.records import SERVER_FIELDS, StoredAdapter, now_rfc3339
from provcat.hub.storage.searchquery import search_query
from provcat.hub.storage.tables import adapters, blobs, downloads, search, search_tags, tokens
from provcat.hub.text import storable
from provcat.hub.tokens import TokenRecord

__all__ = ["READ_CONCURRENCY", "SqlMetadata", "make_engines", "same_or_conflict"]

# concurrent metadata reads per process: the reader pool's size, and the server's read limiter
READ_CONCURRENCY = 8


def make_engines(url: str, busy_timeout_ms: int) -> tuple[Engine, Engine]:
    """``(reader, writer)`` engines over one database."""
    if url.startswith("sqlite"):
        return _sqlite_engine(url, busy_timeout_ms, writer=False), _sqlite_engine(
            url, busy_timeout_ms, writer=True
        )
    common: dict[str, Any] = {"pool_timeout": 10, "connect_args": {"connect_timeout": 5}}
    # reads: autocommit (a SELECT is its own snapshot: no BEGIN/ROLLBACK round trips) and no
    # pre-ping round trip per checkout; a connection the server dropped is retried once instead
    reader = create_engine(
        url,
        isolation_level="AUTOCOMMIT",
        pool_size=READ_CONCURRENCY,
        max_overflow=4,
        **common,
    )
    # writes: transactions, checked before use (a write is not blindly retried)
    writer = create_engine(url, pool_pre_ping=True, pool_size=4, max_overflow=36, **common)
    return reader, writer


def _sqlite_engine(url: str, busy_timeout_ms: int, *, writer: bool) -> Engine:
    engine = create_engine(
        url,
        pool_size=4 if writer else READ_CONCURRENCY,
        max_overflow=40,
        pool_timeout=30,
        connect_args={"timeout": busy_timeout_ms / 1000, "check_same_thread": False},
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # autocommit; writers BEGIN IMMEDIATE themselves
        cursor = dbapi_connection.cursor()
        if writer:
            cursor.execute("PRAGMA journal_mode=WAL")  # persistent: set once by the writer
            cursor.execute("PRAGMA synchronous=FULL")
        else:
            cursor.execute("PRAGMA query_only=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.close()

    if writer:

        @event.listens_for(engine, "begin")
        def _begin(connection: Connection) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


# the hot reads, built once (bound parameters keep SQLAlchemy's compiled-statement cache warm)
_REF = (
    adapters.c.namespace == bindparam("namespace"),
    adapters.c.name == bindparam("name"),
)
_GET = select(adapters).where(*_REF, adapters.c.version == bindparam("version"))
_LIVE_VERSIONS = select(adapters).where(*_REF, adapters.c.deleted_at.is_(None))
_LIVE = (
    select(adapters)
    .where(adapters.c.deleted_at.is_(None))
    .order_by(adapters.c.namespace, adapters.c.name, adapters.c.version)
)
_LIVE_CHECKSUMS = select(adapters.c.checksum_sha256).where(adapters.c.deleted_at.is_(None))
_VERSION_DOWNLOADS = select(downloads.c.version, downloads.c.downloads).where(
    downloads.c.namespace == bindparam("namespace"), downloads.c.name == bindparam("name")
)
_NAMES = select(search.c.name).where(search.c.namespace == bindparam("namespace"))
_TOKEN = select(tokens).where(tokens.c.token_id == bindparam("token_id"))


def _insert_ignore(conn: Connection, table: Any, values: dict[str, Any]) -> None:
    from sqlalchemy.dialects import postgresql, sqlite  # loaded on first write, not on import

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
        from provcat.hub.storage.migrate import upgrade  # alembic only when migrating

        upgrade(self.writer)

    def close(self) -> None:
        self.reader.dispose()
        if self.writer is not self.reader:
            self.writer.dispose()

    def ping(self) -> None:
        self._read(select(1))

    def _read(
        self, statement: Executable, params: dict[str, Any] | None = None
    ) -> Sequence[Row[Any]]:
        """All rows of one read-only statement, retried once on a connection found dead.

        A pooled connection the database dropped (a restart, a failover, an idle timeout) fails
        on first use; SQLAlchemy then invalidates the whole pool, and a read, being idempotent,
        is simply run again on a fresh connection. A database that is really down fails again.
        """
        try:
            return self._read_once(statement, params)
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            return self._read_once(statement, params)

    def _read_once(
        self, statement: Executable, params: dict[str, Any] | None
    ) -> Sequence[Row[Any]]:
        with self.reader.connect() as conn:
            return conn.execute(statement, params).all()

    # -- adapters ------------------------------------------------------------------------------
    def get(self, namespace: str, name: str, version: str) -> StoredAdapter | None:
        """The row of one version, tombstones included."""
        rows = self._read(_GET, {"namespace": namespace, "name": name, "version": version})
        return _stored(rows[0]) if rows else None

    def live_versions(self, namespace: str, name: str) -> list[StoredAdapter]:
        return [
            _stored(r) for r in self._read(_LIVE_VERSIONS, {"namespace": namespace, "name": name})
        ]

    def latest(self, namespace: str, name: str) -> StoredAdapter | None:
        """The live version of highest SemVer precedence (one SELECT; one manifest decoded)."""
        rows = self._read(_LIVE_VERSIONS, {"namespace": namespace, "name": name})
        by_version = {parse_version(r._mapping["version"]): r for r in rows}
        best = resolve_latest(list(by_version))
        return None if best is None else _stored(by_version[best])

    def live(self) -> list[StoredAdapter]:
        return [_stored(r) for r in self._read(_LIVE)]

    def live_checksums(self) -> set[str]:
        return {r[0] for r in self._read(_LIVE_CHECKSUMS)}

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
                self._refresh_search(conn, record.namespace, record.name)
            return record, True
        except IntegrityError:
            # another push of this version committed first: the constraint decided
            winner = self.get(record.namespace, record.name, record.version)
            if winner is None:
                raise
            return same_or_conflict(winner, record), False

    def _refresh_search(self, conn: Connection, namespace: str, name: str) -> None:
        """Point the search index at the latest live version of (namespace, name), or drop it.

        Runs in the transaction that changed the versions, after locking the index row: on
        PostgreSQL, concurrent publishes of one adapter are serialised here, so the last one to
        commit sees every committed version and the index never keeps a stale latest.
        """
        key = {"namespace": namespace, "name": name}
        where = (search.c.namespace == namespace, search.c.name == name)
        _insert_ignore(conn, search, {**key, "version": "", "description_cf": ""})
        current = conn.execute(select(search.c.version).where(*where).with_for_update()).scalar()
        versions = conn.execute(
            select(adapters.c.version).where(
                adapters.c.namespace == namespace,
                adapters.c.name == name,
                adapters.c.deleted_at.is_(None),
            )
        ).scalars()
        by_semver = {parse_version(v): v for v in versions}
        best = resolve_latest(list(by_semver))
        tag_where = (search_tags.c.namespace == namespace, search_tags.c.name == name)
        if best is None:
            conn.execute(delete(search_tags).where(*tag_where))
            conn.execute(delete(search).where(*where))
            return
        version = by_semver[best]
        if version == current:
            return
        raw = conn.execute(
            select(adapters.c.manifest).where(
                adapters.c.namespace == namespace,
                adapters.c.name == name,
                adapters.c.version == version,
            )
        ).scalar_one()
        manifest = json.loads(raw)
        description_cf = storable(str(manifest.get("description") or "")).casefold()
        conn.execute(
            update(search).where(*where).values(version=version, description_cf=description_cf)
        )
        conn.execute(delete(search_tags).where(*tag_where))
        tags = list(dict.fromkeys(storable(str(t)) for t in manifest.get("tags") or []))
        if tags:
            conn.execute(
                insert(search_tags),
                [{**key, "tag": t, "tag_cf": t.casefold()} for t in tags],
            )

    def search(
        self,
        query: str | None,
        tags: Sequence[str],
        limit: int,
        namespaces: Sequence[str] | None = None,
        sort: str = "relevance",
        offset: int = 0,
    ) -> list[StoredAdapter]:
        """The latest version of each matching adapter, best first (see ``searching.rank``), or
        in another of ``SORTS``, ties by namespace and name, after skipping ``offset`` of them:
        one query over the search index; only the returned rows' manifests are decoded."""
        postgres = self.reader.dialect.name == "postgresql"
        statement, key = search_query(
            query, tags, limit, namespaces, sort, postgres=postgres, offset=offset
        )
        # at most ``limit`` rows: put them back in the decided order (code points, like Python)
        return [_stored(r) for r in sorted(self._read(statement), key=key)]

    # -- downloads -----------------------------------------------------------------------------
    def count_download(self, namespace: str, name: str, version: str) -> None:
        """One more download of a version: an atomic upsert (safe under any concurrency)."""
        from sqlalchemy.dialects import postgresql, sqlite  # loaded on first write, not on import

        dialect = postgresql if self.writer.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(downloads).values(
            namespace=namespace, name=name, version=version, downloads=1
        )
        statement = statement.on_conflict_do_update(
            index_elements=["namespace", "name", "version"],
            set_={"downloads": downloads.c.downloads + 1},
        )
        with self.writer.begin() as conn:
            conn.execute(statement)

    def version_downloads(self, namespace: str, name: str) -> dict[str, int]:
        """Each downloaded version of one adapter and its count."""
        rows = self._read(_VERSION_DOWNLOADS, {"namespace": namespace, "name": name})
        return {str(v): int(n) for v, n in (tuple(r) for r in rows)}

    def download_totals(self, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], int]:
        """The downloads of each (namespace, name), all versions together (absent: none)."""
        if not keys:
            return {}
        statement = (
            select(downloads.c.namespace, downloads.c.name, func.sum(downloads.c.downloads))
            .where(tuple_(downloads.c.namespace, downloads.c.name).in_(list(keys)))
            .group_by(downloads.c.namespace, downloads.c.name)
        )
        rows = (tuple(r) for r in self._read(statement))
        return {(str(ns), str(n)): int(total) for ns, n, total in rows}

    def namespace_counts(self) -> list[tuple[str, int]]:
        """Each namespace with a live adapter, and how many adapters it holds."""
        statement = select(search.c.namespace, func.count()).group_by(search.c.namespace)
        # code-point order, made here as search's is (a database collation may differ)
        return sorted((str(ns), int(n)) for ns, n in (tuple(r) for r in self._read(statement)))

    def names(self, namespace: str) -> list[str]:
        rows = self._read(_NAMES, {"namespace": namespace})
        return sorted(str(r[0]) for r in rows)

    def _lock_blob(self, conn: Connection, sha256: str, size: int) -> None:
        _insert_ignore(
            conn, blobs, {"sha256": sha256, "size_bytes": size, "created_at": now_rfc3339()}
        )
        conn.execute(select(blobs.c.sha256).where(blobs.c.sha256 == sha256).with_for_update())

    def tombstone(self, namespace: str, name: str, version: str) -> StoredAdapter | None:
        """Mark a live version deleted; None when unknown or already deleted."""
        where = (
            adapters.c.namespace == namespace,
            adapters.c.name == name,
            adapters.c.version == version,
            adapters.c.deleted_at.is_(None),
        )
        with self.writer.begin() as conn:
            # the conditional UPDATE decides: a concurrent delete waits for this row's lock, then
            # re-checks ``deleted_at IS NULL`` and changes nothing (exactly one delete wins)
            changed = conn.execute(update(adapters).where(*where).values(deleted_at=now_rfc3339()))
            if not changed.rowcount:
                return None
            row = conn.execute(select(adapters).where(*where[:3])).one()
            self._refresh_search(conn, namespace, name)
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
        rows = self._read(_TOKEN, {"token_id": token_id})
        return _token(rows[0]) if rows else None

    def list_tokens(self) -> list[TokenRecord]:
        rows = self._read(select(tokens).order_by(tokens.c.created_at, tokens.c.token_id))
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
    ref = f"{existing.namespace}/{existing.name}:{existing.version}"
    if existing.deleted_at is not None:
        raise AdapterExistsError(
            f"{ref} was deleted; versions are immutable and a deleted version cannot be pushed "
            "again: publish a new version",
            {"namespace": existing.namespace, "name": existing.name, "version": existing.version},
        )
    stored, pushed = _client_part(existing.manifest), _client_part(record.manifest)
    if existing.checksum_sha256 == record.checksum_sha256 and stored == pushed:
        return existing
    # the pusher may write this namespace, so it may read the stored digest: say what differs
    details: dict[str, Any] = {
        "namespace": existing.namespace,
        "name": existing.name,
        "version": existing.version,
        "stored_sha256": existing.checksum_sha256,
        "same_bytes": existing.checksum_sha256 == record.checksum_sha256,
    }
    if details["same_bytes"]:
        differ = sorted(k for k in stored.keys() | pushed.keys() if stored.get(k) != pushed.get(k))
        fields = [k[:64] for k in differ[:20]]  # extension keys are the client's: bounded
        details["fields"] = fields
        shown = ", ".join(fields[:5]) + (", ..." if len(differ) > 5 else "")
        what = f"the same bytes (sha256 {existing.checksum_sha256}) but another manifest ({shown})"
    else:
        what = (
            f"other bytes (stored sha256 {existing.checksum_sha256}, pushed "
            f"{record.checksum_sha256})"
        )
    raise AdapterExistsError(
        f"{ref} already exists with other content: {what}; versions are immutable: publish a "
        "new version",
        details,
    )
