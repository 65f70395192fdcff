"""Export the read-only subset of a hub as plain files for any static host.

Layout (paths as a client requests them)::

    v1/health                                   {"status": "ok", "version": ..., "static": true}
    v1/search                                   the whole index: every (namespace, name) at latest
    v1/adapters/NS/NAME/VERSION/index.html      the manifest (JSON) of each live version ...
    v1/adapters/NS/NAME/latest/index.html       ... and of latest
    v1/adapters/NS/NAME/VERSION/payload         the payload bytes (latest/payload too)

A static server answers ``/VERSION`` with a redirect to ``/VERSION/`` and its ``index.html``; the
client follows same-origin redirects and filters the search index itself, so ``RegistryClient``
pulls from such a mirror exactly as from a live hub. The export is built beside the target and
renamed into place: readers never see half a site.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import provcat
from provcat.hub.errors import ValidationError
from provcat.hub.ref import LATEST
from provcat.hub.searching import rank
from provcat.hub.storage import Storage, StoredAdapter
from provcat.hub.storage.blobs import FileBlobStore

__all__ = ["ExportSummary", "export_static"]


@dataclass(frozen=True, slots=True)
class ExportSummary:
    out: Path
    adapters: int
    versions: int
    payload_bytes: int


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, sort_keys=True, indent=2) + "\n", encoding="utf-8")


def _storage_uri(base_url: str | None, row: StoredAdapter, version: str) -> str:
    path = f"v1/adapters/{row.namespace}/{row.name}/{version}/payload"
    return f"{base_url.rstrip('/')}/{path}" if base_url else f"/{path}"


def _copy_payload(storage: Storage, row: StoredAdapter, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(storage.blobs, FileBlobStore):
        source = storage.blobs.path(row.checksum_sha256)
        try:
            os.link(source, target)  # same filesystem: no copy at all
            return
        except OSError:
            shutil.copyfile(source, target)
            return
    reader = storage.open_payload(row)
    if reader is None:
        raise ValidationError(f"the payload of {row.namespace}/{row.name}:{row.version} is missing")
    with target.open("wb") as out:
        for chunk in reader.chunks():
            out.write(chunk)


def export_static(storage: Storage, out: Path, *, base_url: str | None = None) -> ExportSummary:
    """Write the site to ``out``, which must be absent or an empty directory: else an OSError
    (``ENOTDIR`` for a file, ``ENOTEMPTY`` for a directory holding anything), a local path
    problem, never one of the hub's (the command line says ``LocalFileError``)."""
    if out.exists():
        if not out.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(out))
        if any(out.iterdir()):  # the export replaces it whole: never another site's files
            raise OSError(errno.ENOTEMPTY, os.strerror(errno.ENOTEMPTY), str(out))
    out.parent.mkdir(parents=True, exist_ok=True)
    work = out.parent / f".{out.name}.export-{uuid.uuid4().hex}"
    try:
        rows = storage.live()
        latest = {(r.namespace, r.name): r for r in storage.latest_rows()}
        _write_json(
            work / "v1" / "health", {"status": "ok", "version": provcat.__version__, "static": True}
        )
        index = rank([r.search_row() for r in latest.values()], None, (), limit=len(latest) or 1)
        _write_json(work / "v1" / "search", {"results": index})
        total = 0
        for row in rows:
            names = [row.version]
            best = latest.get((row.namespace, row.name))
            if best is not None and best.version == row.version:
                names.append(LATEST)
            for version in names:
                base = work / "v1" / "adapters" / row.namespace / row.name / version
                manifest = {**row.manifest, "storage_uri": _storage_uri(base_url, row, version)}
                _write_json(base / "index.html", manifest)
                _copy_payload(storage, row, base / "payload")
            total += row.size_bytes
        if out.exists():
            out.rmdir()
        os.rename(work, out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return ExportSummary(out, len(latest), len(rows), total)
