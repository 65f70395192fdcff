"""Content-addressed blob stores: the interface and the local-disk implementation.

Blobs are immutable and named by their SHA-256 (``blobs/sha256/ab/<hex>``). ``put`` publishes a
complete, fsynced file atomically (hard link into place), so a reader never sees a partial blob.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

__all__ = ["CHUNK", "BlobReader", "BlobStore", "FileBlobStore", "blob_key"]

CHUNK = 1 << 20


def blob_key(sha256: str) -> str:
    """The relative key of a blob: ``blobs/sha256/ab/<hex>``."""
    return f"blobs/sha256/{sha256[:2]}/{sha256}"


class BlobReader(Protocol):
    """An open blob (or a byte range of it), readable in chunks even if deleted meanwhile."""

    size: int

    def chunks(self) -> Iterator[bytes]: ...

    def close(self) -> None: ...


class BlobStore(Protocol):
    """Where payload bytes live."""

    # whether put fsyncs its source file (then an upload starts its writeback while it arrives)
    syncs_source: bool

    def exists(self, sha256: str) -> bool: ...

    def put(self, sha256: str, source: Path) -> None:
        """Publish ``source`` (complete, hashed) under ``sha256``; a no-op when present."""

    def open(self, sha256: str, start: int = 0, end: int | None = None) -> BlobReader | None:
        """Bytes ``[start, end)`` of the blob (all when ``end`` is None); None when absent."""

    def size(self, sha256: str) -> int | None: ...

    def delete(self, sha256: str) -> None: ...

    def old_digests(self, older_than: float) -> list[str]:
        """Digests of the blobs older than ``older_than`` seconds, sorted."""

    def abort_stale_uploads(self, older_than: float) -> int:
        """Drop unfinished uploads (a crash mid-``put``) begun over ``older_than`` seconds ago."""

    def describe(self) -> str:
        """Where the blobs are, for messages (no credentials)."""

    def ping(self) -> None:
        """Check at start-up that the store can be used; raise ``RegistryUnavailableError``
        saying where, what failed and what to do."""


@dataclass
class _FileReader:
    handle: BinaryIO
    start: int
    size: int

    def chunks(self) -> Iterator[bytes]:
        try:
            self.handle.seek(self.start)
            left = self.size
            while left > 0:
                data = self.handle.read(min(CHUNK, left))
                if not data:
                    raise OSError("blob shorter than recorded")
                left -= len(data)
                yield data
        finally:
            self.close()

    def close(self) -> None:
        self.handle.close()


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class FileBlobStore:
    """Blobs as files under ``root/blobs/sha256/``."""

    syncs_source = True

    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "blobs" / "sha256").mkdir(parents=True, exist_ok=True)

    def path(self, sha256: str) -> Path:
        return self.root / blob_key(sha256)

    def exists(self, sha256: str) -> bool:
        return self.path(sha256).is_file()

    def ping(self) -> None:
        """Nothing to reach: the folder was made (or found) when the store was opened; it is
        still there (a mount that went away raises ``OSError``)."""
        os.stat(self.root / "blobs" / "sha256")

    def put(self, sha256: str, source: Path) -> None:
        target = self.path(sha256)
        if target.is_file():
            return
        with source.open("rb") as handle:
            os.fsync(handle.fileno())
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, target)  # atomic; the source stays until the publish commits
        except FileExistsError:
            return
        _fsync_dir(target.parent)

    def open(self, sha256: str, start: int = 0, end: int | None = None) -> _FileReader | None:
        try:
            handle = self.path(sha256).open("rb")
        except FileNotFoundError:
            return None
        total = os.fstat(handle.fileno()).st_size
        stop = total if end is None else min(end, total)
        return _FileReader(handle, start, max(0, stop - start))

    def size(self, sha256: str) -> int | None:
        try:
            return self.path(sha256).stat().st_size
        except FileNotFoundError:
            return None

    def delete(self, sha256: str) -> None:
        self.path(sha256).unlink(missing_ok=True)

    def old_digests(self, older_than: float) -> list[str]:
        now = time.time()
        out = []
        for path in sorted((self.root / "blobs" / "sha256").glob("*/*")):
            try:
                if now - path.stat().st_mtime >= older_than:
                    out.append(path.name)
            except FileNotFoundError:
                continue
        return out

    def abort_stale_uploads(self, older_than: float) -> int:
        # a put is a link from a complete temp file: an unfinished one is a temp file, and the
        # temp dir belongs to this process alone, so it is emptied at start whatever its age
        return 0

    def describe(self) -> str:
        return str(self.root / "blobs")
