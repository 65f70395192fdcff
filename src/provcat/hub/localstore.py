"""The local adapter store a client pulls into: ``<root>/<adapter_id>/`` holding
``adapter.safetensors``, ``manifest.json`` and ``source`` (the URL of the hub it came from). A
version appears there only complete and verified: it is assembled in a staging directory beside
it, then renamed into place in one step.

One store may serve clients of several hubs, and two hubs may hold different bytes under one
adapter id; ``source`` is what lets a client tell its own hub's copy from another's."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

from provcat.hub.manifest import AdapterManifest

__all__ = ["PAYLOAD_FILE", "LocalStore", "default_store_dir", "sha256_file"]

PAYLOAD_FILE = "adapter.safetensors"
MANIFEST_FILE = "manifest.json"
SOURCE_FILE = "source"
_STAGING = ".staging-"
_HASH_CHUNK = 1 << 20


def default_store_dir() -> Path:
    """``$PROVCAT_ADAPTERS_DIR``, else ``$XDG_DATA_HOME/provcat/adapters`` (``~/.local/share``)."""
    explicit = os.environ.get("PROVCAT_ADAPTERS_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "provcat" / "adapters"


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
        """A fresh directory beside the store (same filesystem); removed unless installed."""
        self.root.mkdir(parents=True, exist_ok=True)
        path = self.root / f"{_STAGING}{uuid.uuid4().hex}"
        path.mkdir()
        try:
            yield path
        finally:
            shutil.rmtree(path, ignore_errors=True)

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


def _manifest_text(manifest: AdapterManifest) -> str:
    return json.dumps(manifest.to_dict(), sort_keys=True, indent=2) + "\n"
