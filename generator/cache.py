"""The build cache: one seam, two uses, both under ``.provcat-cache/`` beside the catalog folder.

* **Per file.** A provider file's load, schema check and the records made from it are kept
  under the SHA-256 of the file's bytes, its name and the code version (``code_version``: the
  generator's code, templates and schemas, the runtime package's code, Python's version). A
  one-file change loads and checks that file alone; everything after (the whole-set checks, the
  snapshot, every page) runs on every build, so the result is a full build's. The pages'
  templates, as jinja2 compiles them, are kept the same way (generator.render), under their
  source's checksum.
* **No change.** After a successful build the record holds a digest of every input (the catalog
  files' bytes, the code version, the import paths, the day lifecycle diagnostics were judged on,
  the bytes of every non-standard-library module the build imported) and the SHA-256 of every
  file written. A build whose inputs and outputs all hash as recorded prints what the last one
  printed and writes nothing.

Nothing is trusted without hashing it: an entry or record that cannot be read, or was made by
other code, is a miss; a stale or damaged cache costs a full build, never a different output.
Hashing opens regular files only, and never waits: a catalog holding a file it cannot hash (one
it may not read, a named pipe, a socket, a device) has no digest, so the build runs in full and
its loader says what is wrong with the file.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import importlib.util
import json
import os
import pickle
import stat
import sys
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any, NamedTuple

from generator import GENERATOR_VERSION

CACHE_DIR_NAME = ".provcat-cache"
_GENERATOR = Path(__file__).resolve().parent
_ROOT = _GENERATOR.parent
_STDLIB = os.path.join(os.path.dirname(os.path.realpath(os.__file__)), "")


def cache_dir(catalog: Path) -> Path:
    """``.provcat-cache/<catalog>-<hash>/`` beside the catalog: one per catalog folder."""
    where = catalog.resolve()
    tail = hashlib.sha256(str(where).encode()).hexdigest()[:12]
    return where.parent / CACHE_DIR_NAME / f"{where.name}-{tail}"


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.hexdigest()


def _raise(error: OSError) -> None:
    raise error


def _files(
    root: str, suffixes: tuple[str, ...] = (), *, strict: bool = False, empty: bool = False
) -> list[tuple[str, str]]:
    """Every file under ``root`` (links not followed, ``__pycache__`` left out) as (relative
    posix path, path), in the order of the relative paths. ``strict``: a folder that cannot be
    listed raises OSError (else it is left out). ``empty``: an empty folder is listed too, its
    relative path ending in ``/``."""
    found = []
    for folder, dirs, names in os.walk(root, onerror=_raise if strict else None):
        rel = os.path.relpath(folder, root).replace(os.sep, "/")
        if empty and not dirs and not names and rel != ".":
            found.append((rel + "/", folder))
        links = [d for d in dirs if os.path.islink(os.path.join(folder, d))]
        dirs[:] = [d for d in dirs if d != "__pycache__" and d not in links]
        names += links  # a link to a folder counts by where it points
        prefix = "" if rel == "." else rel + "/"
        found += [
            (prefix + n, os.path.join(folder, n))
            for n in names
            if not suffixes or n.endswith(suffixes)
        ]
    return sorted(found)


# opened without waiting: opening a named pipe for reading otherwise blocks until a writer comes
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def regular_opener(path: str, flags: int) -> int:
    """An ``open(..., opener=)`` that opens regular files only (links followed), never waiting:
    anything else (a named pipe, a socket, a device) raises OSError before a byte is read."""
    fd = os.open(path, flags | _NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _file_digest(path: str) -> bytes:
    """The SHA-256 of regular file ``path``; OSError when it cannot be read or is no regular file."""
    # read whole and hashed at once: the files are small (the largest generated page is a few
    # hundred kB), and hashlib.file_digest's buffer per file costs more than the read
    with open(path, "rb", buffering=0, opener=regular_opener) as handle:
        return hashlib.sha256(handle.read()).digest()


def _tree_digest(root: str, suffixes: tuple[str, ...] = (), *, strict: bool = False) -> list[bytes]:
    parts: list[bytes] = []
    for rel, path in _files(root, suffixes, strict=strict):
        if os.path.islink(path):
            parts += [rel.encode(), b"link:" + os.readlink(path).encode()]
        else:
            parts += [rel.encode(), _file_digest(path)]
    return parts


def _runtime_root() -> Path:
    spec = importlib.util.find_spec("provcat")  # found, not imported
    if spec is None or spec.origin is None:
        raise ImportError("the provcat runtime is not installed")
    return Path(spec.origin).resolve().parent


@functools.cache
def code_version() -> str:
    """The code every cached result was made by: the generator (code, templates, schemas), the
    runtime package (the records hold its endpoint defaults), their versions and Python's."""
    parts = [GENERATOR_VERSION.encode(), sys.version.encode()]
    parts += _tree_digest(str(_GENERATOR), (".py", ".j2"))
    parts += _tree_digest(str(_ROOT / "schemas"), (".json",))
    parts += _tree_digest(str(_runtime_root()), (".py",))
    return _digest(*parts)


class FileCache:
    """Each provider file's results, kept under its content, name and the code version."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / "files"
        self.used: set[str] = set()

    def key(self, raw: bytes, shown: str) -> str:
        return _digest(code_version().encode(), shown.encode(), raw)

    def get(self, key: str) -> Any | None:
        """What ``put`` kept under ``key``; None when it is missing or damaged."""
        self.used.add(key)
        try:
            with open(self.folder / key, "rb", opener=regular_opener) as handle:
                return pickle.load(handle)
        except Exception:  # missing, truncated, or written by other code: a miss
            return None

    def put(self, key: str, value: Any) -> None:
        """Keep ``value`` (best effort: what is not kept is made again)."""
        self.used.add(key)
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp = self.folder / f".{key}.{os.getpid()}.tmp"
            with open(tmp, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.folder / key)

    def prune(self) -> None:
        """Drop the entries this build did not use, so the cache holds one build's worth."""
        if self.folder.is_dir():
            for entry in self.folder.iterdir():
                if entry.name not in self.used:
                    entry.unlink(missing_ok=True)


# ---- the no-change record --------------------------------------------------------------------


class BuildRecord(NamedTuple):
    """What a successful build printed, so an unchanged rebuild can say it again."""

    counts: str
    diagnostics: list[dict[str, Any]]


def _module_files() -> list[str]:
    """What the imported modules are known by: a module outside the standard library (Python's
    version stands for that), the generator and the runtime (``code_version`` holds them) and
    installed packages by its own file; an installed package by its installer's record of its
    files and their hashes (``*.dist-info/RECORD``, every one in the folder: a package upgraded
    or removed changes or drops one; ``_inputs`` adds the list of the folder's packages, which
    one added changes)."""
    found: set[str] = set()
    installed: set[str] = set()
    known = (_STDLIB, os.path.join(_GENERATOR, ""), os.path.join(_runtime_root(), ""))
    for module in list(sys.modules.values()):
        name = getattr(module, "__file__", None)
        if not (isinstance(name, str) and os.path.isfile(name)):
            continue
        path = os.path.realpath(name)
        head, packages, _ = path.partition(f"{os.sep}site-packages{os.sep}")
        if packages:
            installed.add(head + packages)
        elif not path.startswith(known):
            found.add(path)
    for folder in installed:
        found.update(str(p) for p in Path(folder).glob("*.dist-info/RECORD"))
    return sorted(found)


def _installed(records: list[str]) -> list[bytes]:
    """The names of the packages installed in each folder holding one of ``records``, each
    name with its version (``click-8.5.1.dist-info``): a package added there since the record
    was written changes them."""
    parts: list[bytes] = []
    for folder in sorted({os.path.dirname(os.path.dirname(r)) for r in records}):
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith(".dist-info"))
        except OSError:
            names = ["missing"]
        parts += [folder.encode(), "\n".join(names).encode()]
    return parts


def _inputs(import_paths: tuple[Path, ...], as_of: date, modules: list[str]) -> str:
    """Every input but the catalog: the code, the import paths, the day, the imported modules
    and the packages installed beside them."""
    parts = [code_version().encode(), as_of.isoformat().encode()]
    parts += [str(p.resolve()).encode() for p in import_paths]
    for path in modules:
        try:
            data = _file_digest(path)
        except OSError:
            data = b"missing"
        parts += [path.encode(), data]
    parts += _installed([m for m in modules if m.endswith(f".dist-info{os.sep}RECORD")])
    return _digest(*parts)


def text_digests(files: Mapping[str, str]) -> dict[str, str]:
    """``output_digests`` of a tree holding exactly ``files``."""
    return {name: hashlib.sha256(files[name].encode("utf-8")).hexdigest() for name in sorted(files)}


def output_digests(out: Path) -> dict[str, str]:
    """The SHA-256 of every file under ``out`` (``__pycache__`` left out), by relative path,
    and each empty folder as ``<path>/`` (no build writes one, so a record never matches it: the
    build says what to do with it). OSError when a file cannot be read, is no regular file, or
    a folder cannot be listed."""
    if not out.is_dir():
        return {}
    return {
        rel: "folder" if rel.endswith("/") else _file_digest(path).hex()
        for rel, path in _files(str(out), strict=True, empty=True)
    }


def _record_path(catalog: Path, out: Path) -> Path:
    name = _digest(str(catalog.resolve()).encode(), str(out.resolve()).encode())[:24]
    return cache_dir(catalog) / f"build-{name}.json"


def save_record(
    catalog: Path,
    out: Path,
    import_paths: tuple[Path, ...],
    as_of: date,
    record: BuildRecord,
    catalog_before: str,
    files: Mapping[str, str],
) -> None:
    """Write the record of a successful build (best effort: a failure is a miss next time).
    ``catalog_before`` is ``catalog_digest`` taken before the build read the catalog, so a file
    edited while the build ran is built next time; ``files`` is what the build left in ``out``."""
    modules = _module_files()
    payload = {
        "generator": GENERATOR_VERSION,
        "catalog": catalog_before,
        "inputs": _inputs(import_paths, as_of, modules),
        "modules": modules,
        "outputs": text_digests(files),
        "counts": record.counts,
        "diagnostics": record.diagnostics,
    }
    target = _record_path(catalog, out)
    with contextlib.suppress(OSError):
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(payload, sort_keys=True), encoding="utf-8")
        os.replace(tmp, target)


def catalog_digest(catalog: Path) -> str | None:
    """The catalog folder's files (names, bytes, links) as one digest; None when one cannot be
    hashed (unreadable, a named pipe, a socket, a device, a folder that cannot be listed): then
    no record matches and none is written, and the build's loader reports the file."""
    try:
        return _digest(*_tree_digest(os.path.realpath(catalog), strict=True))
    except OSError:
        return None


def unchanged(
    catalog: Path, out: Path, import_paths: tuple[Path, ...], as_of: date, digest: str
) -> BuildRecord | None:
    """The last build's record when every input and output still hashes as recorded, else
    None. ``digest`` is ``catalog_digest(catalog)``, taken by the caller."""
    try:
        with open(_record_path(catalog, out), encoding="utf-8", opener=regular_opener) as handle:
            payload = json.load(handle)
        if payload["generator"] != GENERATOR_VERSION or payload["catalog"] != digest:
            return None
        if payload["inputs"] != _inputs(import_paths, as_of, payload["modules"]):
            return None
        if payload["outputs"] != output_digests(out):
            return None
        return BuildRecord(payload["counts"], payload["diagnostics"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
