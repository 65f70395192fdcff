"""``Storage``: the operations the server, the CLI and the static export need, in one place.

Publish is atomic: the upload was streamed to a temp file (hashed and counted); the blob is
published (fsync + link, or a completed multipart put), then the row is inserted. A crash at any
point leaves no visible version; temp folders of dead processes are removed at a server's start
(never a live process's: see ``tempdirs``) and unreferenced blobs older than a grace period are
swept.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import ParamSpec, TypeVar

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from provcat.hub.errors import AdapterExistsError, HubError, RegistryUnavailableError
from provcat.hub.ref import LATEST, resolve_latest
from provcat.hub.searching import DEFAULT_LIMIT
from provcat.hub.settings import HubSettings
from provcat.hub.storage.blobs import BlobReader, BlobStore, FileBlobStore
from provcat.hub.storage.dbfailure import database_failure
from provcat.hub.storage.full import full_storage_error, storage_full
from provcat.hub.storage.metadata import MetadataStore
from provcat.hub.storage.records import StoredAdapter, now_rfc3339
from provcat.hub.storage.sql import SqlMetadata, same_or_conflict
from provcat.hub.storage.tempdirs import OwnedTempDir, clean_dead_owners
from provcat.hub.suggest import closest_adapters
from provcat.hub.tokens import ADMIN, NewToken, TokenRecord, new_token

__all__ = ["Storage", "open_storage"]

log = logging.getLogger("provcat.hub")
P = ParamSpec("P")
T = TypeVar("T")


def _unavailable_errors() -> tuple[type[BaseException], ...]:
    # botocore only once a storage call has failed: a hub on local files never loads it
    from botocore.exceptions import BotoCoreError, ClientError

    return (OperationalError, InterfaceError, PoolTimeout, BotoCoreError, ClientError, OSError)


def guarded(fn: Callable[P, T]) -> Callable[P, T]:
    """Turn storage connectivity failures into RegistryUnavailableError, and a full disk into
    InsufficientStorageError (no SQL, URL or path)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return fn(*args, **kwargs)
        except HubError:
            raise
        except _unavailable_errors() as exc:
            if storage_full(exc):
                raise full_storage_error(exc, fn.__name__) from exc
            log.warning("storage failure in %s: %s", fn.__name__, type(exc).__name__)
            raise RegistryUnavailableError(
                "the hub's storage is unavailable; try again later"
            ) from exc

    return wrapper


class Storage:
    """Metadata + blobs + the local temp dir uploads stream into."""

    def __init__(self, metadata: MetadataStore, blobs: BlobStore, tmp_root: Path) -> None:
        self.metadata = metadata
        self.blobs = blobs
        self.tmp_root = tmp_root
        self._own_tmp: OwnedTempDir | None = None

    def __repr__(self) -> str:
        return f"Storage(blobs={self.blobs.describe()!r})"

    @property
    def tmp_dir(self) -> Path:
        """This process's own upload folder (made and locked on first use)."""
        if self._own_tmp is None:
            self._own_tmp = OwnedTempDir(self.tmp_root)
        return self._own_tmp.path

    def close(self) -> None:
        if self._own_tmp is not None:
            self._own_tmp.close()
            self._own_tmp = None  # used again after close (as pools are): a new folder
        self.metadata.close()

    # -- start-up ------------------------------------------------------------------------------
    def prepare(self, orphan_grace_seconds: float, *, housekeeping: bool = True) -> None:
        """Migrate the schema; with ``housekeeping`` (a server starting) also remove the temp
        folders of dead processes, abort unfinished blob uploads and sweep unreferenced blobs
        (those two only once older than the grace period: another server sharing the blob store
        may be publishing them right now). A database that cannot be opened raises its driver's
        error: ``open_storage`` names the database in the message."""
        self.metadata.migrate()
        if not housekeeping:
            return
        self.clean_temp(orphan_grace_seconds)
        self.abort_stale_uploads(orphan_grace_seconds)
        self.sweep(orphan_grace_seconds)

    @guarded
    def abort_stale_uploads(self, older_than: float) -> int:
        """Abort blob uploads a crash left unfinished (S3 multipart uploads), once old enough."""
        aborted = self.blobs.abort_stale_uploads(older_than)
        if aborted:
            log.info("aborted %d unfinished blob upload(s)", aborted)
        return aborted

    def clean_temp(self, grace_seconds: float) -> int:
        """Remove upload temp folders whose process is gone (never a live one's)."""
        return clean_dead_owners(self.tmp_root, grace_seconds)

    @guarded
    def sweep(self, older_than: float) -> int:
        """Remove blobs no live version references, once older than ``older_than`` seconds."""
        referenced = self.metadata.live_checksums()
        removed = 0
        for digest in self.blobs.old_digests(older_than):
            if digest not in referenced and self.metadata.release_blob(
                digest, functools.partial(self.blobs.delete, digest)
            ):
                removed += 1
        if removed:
            log.info("swept %d unreferenced blob(s)", removed)
        return removed

    # -- reads ---------------------------------------------------------------------------------
    @guarded
    def ping(self) -> None:
        """One trivial read of the database (``SELECT 1``)."""
        self.metadata.ping()

    def ping_blobs(self) -> None:
        """One cheap request to the blob store (S3: ``HeadBucket``); raises when it cannot be
        used."""
        self.blobs.ping()

    @guarded
    def resolve(self, namespace: str, name: str, version: str) -> StoredAdapter | None:
        """A live version (``latest``: the highest by SemVer precedence), else None."""
        if version == LATEST:
            return self.metadata.latest(namespace, name)
        row = self.metadata.get(namespace, name, version)
        return row if row is not None and row.deleted_at is None else None

    @guarded
    def latest_rows(self) -> list[StoredAdapter]:
        """One row per (namespace, name): its latest live version; sorted."""
        groups: dict[tuple[str, str], list[StoredAdapter]] = {}
        for row in self.metadata.live():
            groups.setdefault((row.namespace, row.name), []).append(row)
        out: list[StoredAdapter] = []
        for key in sorted(groups):
            rows = groups[key]
            best = resolve_latest([r.semver for r in rows])
            out.extend(r for r in rows if r.semver == best)
        return out

    @guarded
    def search(
        self,
        query: str | None,
        tags: Sequence[str] = (),
        limit: int = DEFAULT_LIMIT,
        namespaces: Sequence[str] | None = None,
        sort: str = "relevance",
        offset: int = 0,
    ) -> list[StoredAdapter]:
        """The latest live version of each matching adapter, by relevance then namespace and
        name (the rules of ``searching.rank``; or by ``sort``: recent, name, downloads), at
        most ``limit`` after skipping the first ``offset``; ``namespaces`` restricts."""
        return self.metadata.search(query, tags, limit, namespaces, sort, offset)

    @guarded
    def count_download(self, namespace: str, name: str, version: str) -> None:
        """Count one complete download of a version's payload (no client identity kept)."""
        self.metadata.count_download(namespace, name, version)

    @guarded
    def version_downloads(self, namespace: str, name: str) -> dict[str, int]:
        return self.metadata.version_downloads(namespace, name)

    @guarded
    def download_totals(self, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], int]:
        return self.metadata.download_totals(keys)

    @guarded
    def live(self) -> list[StoredAdapter]:
        return self.metadata.live()

    @guarded
    def namespace_counts(self) -> list[tuple[str, int]]:
        return self.metadata.namespace_counts()

    @guarded
    def suggest(
        self, namespace: str, name: str, namespaces: Sequence[str] | None = None
    ) -> list[tuple[str, str]]:
        """The adapters closest to ``namespace/name`` (which names none), best first; only in
        ``namespaces`` when given (what a reader may see)."""
        known = [ns for ns, _ in self.metadata.namespace_counts()]
        if namespaces is not None:
            known = [ns for ns in known if ns in namespaces]
        return closest_adapters(namespace, name, known, self.metadata.names)

    @guarded
    def versions(self, namespace: str, name: str) -> list[StoredAdapter]:
        """The live versions of one adapter, highest SemVer precedence first."""
        rows = self.metadata.live_versions(namespace, name)
        return sorted(rows, key=lambda r: r.semver, reverse=True)

    @guarded
    def open_payload(
        self, adapter: StoredAdapter, start: int = 0, end: int | None = None
    ) -> BlobReader | None:
        return self.blobs.open(adapter.checksum_sha256, start, end)

    # -- writes --------------------------------------------------------------------------------
    @guarded
    def precheck(self, namespace: str, name: str, version: str, checksum: str) -> None:
        """AdapterExistsError now if this version is a tombstone or holds other bytes."""
        row = self.metadata.get(namespace, name, version)
        if row is not None and (row.deleted_at is not None or row.checksum_sha256 != checksum):
            same_or_conflict(row, replace(row, checksum_sha256=checksum))

    @guarded
    def publish(self, record: StoredAdapter, source: Path) -> tuple[StoredAdapter, bool]:
        """Publish a verified upload at ``source``: ``(stored, created)``."""
        digest = record.checksum_sha256
        self.blobs.put(digest, source)

        def ensure_blob() -> None:
            # a delete may have removed an identical blob between put and the locked insert
            if not self.blobs.exists(digest):
                self.blobs.put(digest, source)

        try:
            return self.metadata.publish(record, ensure_blob)
        except AdapterExistsError:
            # the loser of a race: drop its blob unless something live uses it (under the lock)
            self.metadata.release_blob(digest, functools.partial(self.blobs.delete, digest))
            raise

    @guarded
    def tombstoned(self, namespace: str, name: str, version: str) -> bool:
        """Whether this version was published and then deleted (not: never existed)."""
        row = self.metadata.get(namespace, name, version)
        return row is not None and row.deleted_at is not None

    @guarded
    def delete(self, namespace: str, name: str, version: str) -> bool:
        """Tombstone a live version and drop its blob if nothing else uses it.

        The tombstone is the delete: once it is committed the version is gone, whatever happens
        to its blob. A blob that cannot be removed now (the blob store or the database failing
        right after the tombstone) stays, with a warning logged, for the sweep of a later start
        to remove (it is then unreferenced, like a crashed publish's)."""
        gone = self.metadata.tombstone(namespace, name, version)
        if gone is None:
            return False
        digest = gone.checksum_sha256
        try:
            self.metadata.release_blob(digest, functools.partial(self.blobs.delete, digest))
        except _unavailable_errors() as exc:
            log.warning(
                "deleted %s/%s:%s, but its blob %s could not be removed now (%s); a later "
                "start's sweep removes it",
                namespace,
                name,
                version,
                digest[:12],
                type(exc).__name__,
            )
        return True

    # -- tokens --------------------------------------------------------------------------------
    @guarded
    def create_token(self, namespaces: list[str], description: str = "") -> NewToken:
        token = new_token()
        scope = (ADMIN,) if ADMIN in namespaces else tuple(sorted(set(namespaces)))
        self.metadata.add_token(
            TokenRecord(token.token_id, token.secret_hash, scope, description, now_rfc3339())
        )
        return token

    @guarded
    def find_token(self, token_id: str) -> TokenRecord | None:
        return self.metadata.get_token(token_id)

    @guarded
    def list_tokens(self) -> list[TokenRecord]:
        return self.metadata.list_tokens()

    @guarded
    def revoke_token(self, token_id: str) -> bool:
        return self.metadata.revoke_token(token_id)


def _blob_store(settings: HubSettings) -> BlobStore:
    url = settings.blobs_url
    if url is None or url.startswith("file://") or "://" not in url:
        root = Path(url.removeprefix("file://")) if url else settings.data_dir
        return FileBlobStore(root)
    if url.startswith("s3://"):
        from provcat.hub.storage.s3 import S3BlobStore  # boto3 only for s3:// blobs

        bucket, _, prefix = url.removeprefix("s3://").partition("/")
        if not bucket:
            raise RegistryUnavailableError("--blobs s3:// needs a bucket: s3://bucket/prefix")
        return S3BlobStore(bucket, prefix)
    raise RegistryUnavailableError("--blobs must be a directory, file://DIR or s3://bucket/prefix")


def open_storage(
    settings: HubSettings, *, prepare: bool = True, housekeeping: bool = True
) -> Storage:
    """Open the storage the settings describe; by default migrate it and (``housekeeping``: a
    server starting) clean what dead processes left. Tools (``token``, ``export-static``) pass
    ``housekeeping=False``: they never remove anything another process may be using."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    try:
        metadata = SqlMetadata(settings.resolved_database_url, settings.busy_timeout_ms)
    except Exception as exc:  # a malformed URL or a missing driver; never echo the URL
        raise _unusable_database_url(settings.resolved_database_url, exc) from None
    try:
        metadata.ping()  # before the blob store makes anything for a database never reached
        blobs = _blob_store(settings)
        blobs.ping()  # a remote store: say now, and clearly, when it cannot be used
        storage = Storage(metadata, blobs, settings.data_dir / "tmp")
        if prepare:
            storage.prepare(settings.orphan_grace_seconds, housekeeping=housekeeping)
    except BaseException as exc:  # whatever failed, the database is not left open
        metadata.close()
        if isinstance(exc, _database_errors()):
            raise database_failure(
                settings.resolved_database_url, exc, explicit=settings.database_url is not None
            ) from None
        raise
    return storage


# written so that no redaction of credentials in URLs (the CLI's) mistakes it for one
_URL_FORMS = (
    "sqlite:///PATH, or postgresql+psycopg://HOST:PORT/DATABASE with the user and password "
    "before the host (USER:PASSWORD@HOST)"
)


def _unusable_database_url(url: str, exc: Exception) -> RegistryUnavailableError:
    """Why ``url`` cannot be used, without echoing it (it may hold a password)."""
    fix = "--database / PROVCAT_HUB_DATABASE"
    if "://" not in url:
        said = (
            "it is not a URL (a libpq keyword string such as 'host=... dbname=...' is not accepted)"
            if "=" in url
            else "it is not a URL"
        )
        return RegistryUnavailableError(
            f"cannot use the database setting: {said}; give {fix} as a URL: {_URL_FORMS}",
            {"reason": "not_a_url"},
        )
    scheme = url.split("://", 1)[0]
    shown = scheme if scheme.replace("+", "").replace("-", "").isalnum() else "?"
    if isinstance(exc, ModuleNotFoundError) or type(exc).__name__ == "NoSuchModuleError":
        return RegistryUnavailableError(
            f"cannot use the database URL: this provcat has no database driver for "
            f"'{shown}://'; use {_URL_FORMS} (the hub extra installs psycopg 3)",
            {"reason": "unknown_scheme", "scheme": shown},
        )
    return RegistryUnavailableError(
        f"cannot use the database URL ({type(exc).__name__}); expected {_URL_FORMS}",
        {"reason": "bad_url"},
    )


def _database_errors() -> tuple[type[BaseException], ...]:
    return (DBAPIError, PoolTimeout)
