"""The local adapter store a client pulls into: ``<root>/<adapter_id>/`` holding
``adapter.safetensors``, ``manifest.json`` and ``source`` (the URL of the hub it came from). A
version appears there only complete and verified: it is assembled in a staging directory beside
it, then renamed into place in one step.

One store may serve clients of several hubs, and two hubs may hold different bytes under one
adapter id; ``source`` is what lets a client tell its own hub's copy from another's.

A pull that is killed (SIGKILL, SIGTERM) runs no clean-up, so its staging directory stays. Each
staging directory ``.staging-<id>`` therefore has a lock file ``.staging-<id>.lock`` beside it,
held with ``flock`` by the pull that uses it; the kernel drops the lock when that process dies,
however it dies. A pull starting removes the staging directories whose lock it can take (their
pull is gone) and those with no lock file (left by an older provcat, or a removal interrupted
half-way), never one a running pull holds: concurrent pulls into one store stay safe, with no
age threshold to guess (a download may take hours)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: no locks, and stale staging directories are left alone
    fcntl = None  # type: ignore[assignment]

from provcat.hub.manifest import AdapterManifest
from provcat.hub.settings import xdg_data_home

__all__ = ["PAYLOAD_FILE", "LocalStore", "default_store_dir", "sha256_file"]

PAYLOAD_FILE = "adapter.safetensors"
MANIFEST_FILE = "manifest.json"
SOURCE_FILE = "source"
_STAGING = ".staging-"
_LOCK = ".lock"
_HASH_CHUNK = 1 << 20


def default_store_dir() -> Path:
    """``$PROVCAT_ADAPTERS_DIR``, else ``$XDG_DATA_HOME/provcat/adapters`` (``~/.local/share``)."""
    explicit = os.environ.get("PROVCAT_ADAPTERS_DIR")
    if explicit:
        return Path(explicit)
    return xdg_data_home() / "provcat" / "adapters"


def sha256_file(path: Path, on_bytes: Callable[[int], None] | None = None) -> str:
    """The file's SHA-256, read into one reused buffer (no new object per chunk)."""
    digest = hashlib.sha256()
    buffer = bytearray(_HASH_CHUNK)
    view = memoryview(buffer)
    with path.open("rb", buffering=0) as handle:
        while n := handle.readinto(buffer):
            digest.update(view[:n])
            if on_bytes is not None:
                on_bytes(n)
    return digest.hexdigest()


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class LocalStore:
    """Pulled adapters under ``root``, one directory per canonical adapter_id."""

    def __init__(self, root: Path | str | None = None) -> None:
        self.root = Path(root) if root is not None else default_store_dir()

    def __repr__(self) -> str:
        return f"LocalStore({str(self.root)!r})"

    def path(self, adapter_id: str) -> Path:
        return self.root / adapter_id

    def payload_path(self, adapter_id: str) -> Path:
        return self.path(adapter_id) / PAYLOAD_FILE

    def manifest(self, adapter_id: str) -> AdapterManifest | None:
        """The stored manifest, or None when the adapter is not (completely) here."""
        try:
            text = (self.path(adapter_id) / MANIFEST_FILE).read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return None
        return AdapterManifest.model_validate_json(text)

    def source(self, adapter_id: str) -> str | None:
        """The hub URL the stored copy was pulled from (None for a copy stored before this was
        recorded, or none at all)."""
        try:
            text = (self.path(adapter_id) / SOURCE_FILE).read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return None
        return text.strip() or None

    def adopt(self, adapter_id: str, manifest: AdapterManifest, source: str) -> None:
        """Record that the stored copy is also ``source``'s version (same bytes): its manifest
        and source replace the stored ones, each file in one step."""
        folder = self.path(adapter_id)
        for name, text in ((MANIFEST_FILE, _manifest_text(manifest)), (SOURCE_FILE, source + "\n")):
            temp = folder / f"{_STAGING}{uuid.uuid4().hex}"
            temp.write_text(text, encoding="utf-8")
            os.replace(temp, folder / name)

    def remove(self, adapter_id: str) -> None:
        target = self.path(adapter_id)
        if target.exists():
            trash = self.root / f"{_STAGING}{uuid.uuid4().hex}"
            os.rename(target, trash)  # vanish in one step, then delete at leisure
            shutil.rmtree(trash, ignore_errors=True)

    @contextlib.contextmanager
    def staging(self) -> Iterator[Path]:
        """A fresh directory beside the store (same filesystem), removed unless installed.

        Its lock file is held while it is in use, so :meth:`clean_staging` leaves it alone."""
        self.root.mkdir(parents=True, exist_ok=True)
        path, lock_fd = self._locked_staging_name()
        try:
            path.mkdir()
            yield path
        finally:
            shutil.rmtree(path, ignore_errors=True)
            if lock_fd is not None:
                _lock_path(path).unlink(missing_ok=True)  # while still held: no cleaner races
                os.close(lock_fd)

    def _locked_staging_name(self) -> tuple[Path, int | None]:
        """A new staging path whose lock file this process holds (the lock comes first, so a
        cleaner never sees the directory without it)."""
        while True:
            path = self.root / f"{_STAGING}{uuid.uuid4().hex}"
            if fcntl is None:
                return path, None
            lock = _lock_path(path)
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError:
                # a file system without locks: the lock file stays, and no cleaner can take it
                return path, fd
            except BaseException:
                os.close(fd)
                raise
            # a cleaner may have taken the fresh file's lock first and unlinked it: this lock
            # then guards nothing, so start again with another name
            if _same_file(fd, lock):
                return path, fd
            os.close(fd)

    def clean_staging(self) -> int:
        """Remove what killed pulls left: staging directories no running pull holds.

        A pull killed before it could clean up leaves its directory and lock file; returns how
        many directories went."""
        if fcntl is None:
            return 0
        try:
            entries = sorted(p.name for p in self.root.iterdir() if p.name.startswith(_STAGING))
        except OSError:  # no store yet (or not readable: the pull will say so)
            return 0
        removed = 0
        names = set(entries)
        for name in entries:
            path = self.root / name
            if name.endswith(_LOCK):
                staged = self.root / name.removesuffix(_LOCK)
                if _take_abandoned(path):
                    shutil.rmtree(staged, ignore_errors=True)
                    removed += 1
            elif name + _LOCK not in names and not _lock_path(path).exists() and path.is_dir():
                # no lock at all: an older provcat's, or a removal cut short (never a pull of
                # this version's: its lock file exists before its directory and outlives it)
                shutil.rmtree(path, ignore_errors=True)
                removed += 1
        return removed

    def install(self, staging: Path, manifest: AdapterManifest, source: str | None = None) -> Path:
        """Write the manifest (and the hub it came from) beside the verified payload and rename
        the directory into place."""
        adapter_id = manifest.canonical_id
        (staging / MANIFEST_FILE).write_text(_manifest_text(manifest), encoding="utf-8")
        names = [PAYLOAD_FILE, MANIFEST_FILE]
        if source is not None:
            (staging / SOURCE_FILE).write_text(source + "\n", encoding="utf-8")
            names.append(SOURCE_FILE)
        for name in names:
            _fsync(staging / name)
        _fsync(staging)
        target = self.path(adapter_id)
        try:
            os.rename(staging, target)
        except OSError:
            if not target.is_dir():
                raise
            # a concurrent pull installed the same verified version first: keep that one
            return target
        _fsync(self.root)
        return target


def _lock_path(staging: Path) -> Path:
    return staging.with_name(staging.name + _LOCK)


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.fstat(fd).st_ino == os.stat(path).st_ino
    except FileNotFoundError:
        return False


def _take_abandoned(lock: Path) -> bool:
    """Whether ``lock`` was abandoned (its pull is gone): then it is removed, under the lock
    this takes, and True; False while a pull holds it (or the file system cannot say)."""
    assert fcntl is not None
    try:
        fd = os.open(lock, os.O_RDWR)
    except OSError:
        return False  # its pull just finished (or not ours to touch)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held by a running pull (or no locks here): leave it
            return False
        if not _same_file(fd, lock):
            return False
        lock.unlink(missing_ok=True)
        return True
    finally:
        os.close(fd)


def _manifest_text(manifest: AdapterManifest) -> str:
    return json.dumps(manifest.to_dict(), sort_keys=True, indent=2) + "\n"
