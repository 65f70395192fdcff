"""Incremental builds: skip what the inputs prove unchanged, never trust anything else.

Two caches, both under ``.provcat-cache/`` beside the catalog folder (never in ``generated/``):

* **Per file.** A provider file's load, schema check and typed records are kept under the
  SHA-256 of its bytes, its name, the generator's own code (its modules, templates and
  schemas, its version, the Python version) and the runtime package's code (the records hold
  its endpoint defaults). A one-file change re-reads that file alone; the whole-set validation,
  the snapshot and the rendering always run, so the result is the result of a full build (what
  they keep between builds is kept under exactly what it was made from: the endpoint checks,
  generator.endpoint_memo; the proofs; the rendered texts).
* **Per build.** After a successful build the record holds the content hash of every catalog
  file and of the generator's code, templates and schemas, the day lifecycle diagnostics were
  judged on, every module file the build imported (its
  content hash when it belongs to the project, its size and mtime when it is an installed
  package) and, for every file written, its hash, its text's cache key and its stat
  (generator.written). ``python -m generator build`` checks that record
  first (``fast_build``) without importing the generator's heavy parts: when every input and
  every output still matches, nothing runs and nothing is written.

Input files are hashed once per process, and again only when their stat changed since a build
kept their hash (generator.file_hashes).

The templates' compiled code is kept there too (jinja's own bytecode cache, checked against each
template's source and jinja's and Python's versions).

A record that cannot be read, or was written by another generator version, is ignored: a stale
or damaged cache costs a full build, never a different output.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import time
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from generator import GENERATOR_VERSION
from generator.build_args import BuildArgs, parse_build
from generator.file_hashes import FileHashes
from generator.written import Written, read_checked

CACHE_FORMAT = 2
CACHE_DIR_NAME = ".provcat-cache"
_GENERATOR = Path(__file__).resolve().parent
_ROOT = _GENERATOR.parent
_OWN = (_GENERATOR, _ROOT / "schemas")


def cache_dir(catalog: Path) -> Path:
    """``.provcat-cache/<catalog>-<hash>/`` beside the catalog: one per catalog folder, so two
    catalogs side by side (catalog/ and catalog-big/) never evict each other's entries."""
    where = catalog.resolve()
    tail = hashlib.sha256(str(where).encode()).hexdigest()[:12]
    return where.parent / CACHE_DIR_NAME / f"{where.name}-{tail}"


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.hexdigest()


def _walk(root: str, skip: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], os.DirEntry[str]]]:
    """Every entry below ``root`` (links listed, never followed; folders named in ``skip`` left
    out), with its path's parts, in the order of those parts: what ``sorted(Path.rglob("*"))``
    gives, without a Path object per entry (the no-change check lists every input and output)."""
    found: list[tuple[tuple[str, ...], os.DirEntry[str]]] = []

    def visit(folder: str, prefix: tuple[str, ...]) -> None:
        with os.scandir(folder) as entries:
            for entry in entries:
                parts = (*prefix, entry.name)
                if entry.is_dir(follow_symlinks=False):
                    if entry.name in skip:
                        continue
                    found.append((parts, entry))
                    visit(entry.path, parts)
                else:
                    found.append((parts, entry))

    visit(root, ())
    found.sort(key=lambda item: item[0])
    return found


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


# the SHA-256 of input files (catalog and code), kept with their stat in the build cache of the
# catalog being built (``use_hashes``); until then, of this process only
_HASHES = FileHashes(None)


_HANDED: Path | None = None  # the fast path's hashes, handed to the build that follows it


def use_hashes(catalog: Path, hand_over: bool = False) -> None:
    """Read and keep input files' hashes in ``catalog``'s build cache (generator.file_hashes),
    as saved by earlier processes; the fast path's (``hand_over``) go to the build it starts."""
    global _HASHES, _HANDED
    where = cache_dir(catalog) / "file-hashes.json"
    handed, _HANDED = _HANDED, None
    if handed != where or _HASHES.path != where:
        _HASHES = FileHashes(where)
    if hand_over:
        _HANDED = where


def save_hashes() -> None:
    _HASHES.save()


def _file_digest(path: str) -> bytes:
    found = _HASHES.digest(path)
    if found is None:
        raise OSError(f"cannot read {path}")
    return found


def _tree_digest(roots: tuple[Path, ...], suffixes: tuple[str, ...]) -> str:
    parts: list[bytes] = []
    for root in roots:
        for _, entry in _walk(str(root), ("__pycache__",)):
            if entry.name.endswith(suffixes) and entry.is_file():
                parts += [Path(entry.path).as_posix().encode(), _file_digest(entry.path)]
    return _digest(*parts)


_CODE: str | None = None


def generator_fingerprint() -> str:
    """The generator's code, templates and schemas, its version and the Python version."""
    global _CODE
    if _CODE is None:
        code = _tree_digest(_OWN, (".py", ".j2", ".json"))
        _CODE = _digest(
            code.encode(),
            GENERATOR_VERSION.encode(),
            str(CACHE_FORMAT).encode(),
            sys.version.encode(),
        )
    return _CODE


def _runtime_root() -> Path | None:
    """The provcat package the build imports (found without importing it)."""
    import importlib.util  # the build's path only: the no-change check needs no package lookup

    spec = importlib.util.find_spec("provcat")
    places = spec.submodule_search_locations if spec is not None else None
    return Path(next(iter(places))) if places else None


_RUNTIME_CODE: str | None = None


def cache_fingerprint() -> str:
    """What every cached result depends on beyond its own input: the generator's code and the
    runtime's (the typed records hold defaults read from provcat's endpoint settings, the pages
    its protocols, effort levels and snapshot format), so a change to either misses."""
    global _RUNTIME_CODE
    if _RUNTIME_CODE is None:
        runtime = _runtime_root()
        _RUNTIME_CODE = _tree_digest((runtime,), (".py",)) if runtime is not None else "none"
    parts = (generator_fingerprint(), _RUNTIME_CODE)
    if parts not in _COMBINED:  # every cache key holds it: taken once per process
        _COMBINED[parts] = _digest(*(part.encode() for part in parts))
    return _COMBINED[parts]


_COMBINED: dict[tuple[str, str], str] = {}


def _pickle() -> ModuleType:
    import pickle  # the build's path only, as the dataclasses are: the no-change check is lean

    return pickle


_PROOFS = "proofs"


class FileCache:
    """Per-file results (diagnostics and typed records), keyed by content and generator code."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / "files"
        self.texts = folder / "texts"
        self._files = str(self.folder)  # as a string: a path object per entry costs more than
        # the entry's read
        self._templates = folder / "templates"
        self.used: set[str] = set()
        self._proved: set[str] | None = None
        self._proofs_used: set[str] = set()
        self._proofs_new = False
        self.hits = 0
        self.misses = 0
        # text -> SHA-256 of its UTF-8, for every text this cache read or kept: the build record
        # hashes the output files, most of which are such texts
        self.known: dict[str, bytes] = {}
        # what the last build left in the output folder (previous_outputs): a text it wrote
        # there, untouched since, is neither made nor read again (``holds``)
        self.written: Written | None = None

    def key(self, path: Path, shown: str, fresh: bool = False) -> str | None:
        """The entry of file ``path`` as it is now (None: never cached); ``fresh``: its bytes
        read again, whatever its stat."""
        where = str(path)
        if os.path.islink(where):
            return None  # the loader refuses links; never cache that decision by content
        found = _HASHES.digest(where, fresh)
        if found is None:
            return None
        return _digest(cache_fingerprint().encode(), shown.encode(), path.stem.encode(), found)

    def get(self, path: Path, shown: str) -> tuple[str, Any] | None:
        key = self.key(path, shown)
        if key is None:
            return None
        self.used.add(key)
        try:
            with open(os.path.join(self._files, key), "rb") as handle:
                value = _pickle().load(handle)
        except Exception:  # missing, truncated or from an incompatible generator: a miss
            self.misses += 1
            return (key, None)
        self.hits += 1
        return (key, value)

    def put(self, key: str, value: Any) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f".{key}.{os.getpid()}.tmp"
        with open(tmp, "wb") as handle:
            _pickle().dump(value, handle, protocol=5)
        os.replace(tmp, self.folder / key)

    def has_part(self, key: str) -> bool:
        """Whether the bulk kept apart from entry ``key`` (``put_part``) is there."""
        name = f"{key}.part"
        self.used.add(name)
        return os.path.isfile(os.path.join(self._files, name))

    def put_part(self, key: str, value: Any) -> None:
        """Keep the bulk of entry ``key`` apart, to be loaded only when it is read (``part``)."""
        self.used.add(f"{key}.part")
        self.put(f"{key}.part", value)

    def part(self, key: str) -> Any | None:
        """What ``put_part`` kept for entry ``key``; None when it is missing or damaged."""
        return self.kept(f"{key}.part")

    def kept(self, name: str) -> Any | None:
        """What ``keep`` kept under ``name``; None when it is missing or damaged."""
        self.used.add(name)
        try:
            with open(os.path.join(self._files, name), "rb") as handle:
                return _pickle().load(handle)
        except Exception:
            return None

    def keep(self, name: str, value: Any) -> None:
        """Keep ``value`` under ``name`` (best effort: what is not kept is made again)."""
        self.used.add(name)
        with contextlib.suppress(OSError):
            self.put(name, value)

    @property
    def templates(self) -> Path:
        """Where jinja keeps the templates' compiled code (one file per template)."""
        self._templates.mkdir(parents=True, exist_ok=True)
        return self._templates

    def digest(self, *parts: bytes) -> str:
        """A key for rendered text: ``parts`` (its inputs' exact bytes) and the generator's code."""
        return _digest(cache_fingerprint().encode(), *parts)

    def text(self, key: str) -> str | None:
        """Rendered text kept under ``key``, or None (never read: a miss)."""
        self.used.add(key)
        try:
            stored = _read(os.path.join(self.texts, key))
        except OSError:
            return None
        check, _, data = stored.partition(b"\n")
        digest = hashlib.sha256(data).digest()
        if check != digest.hex().encode():
            return None  # damaged: render it again
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None
        self.known[text] = digest
        return text

    def holds(self, name: str, key: str) -> bytes | None:
        """The SHA-256 of output ``name`` when the last build wrote it from the text under
        ``key`` and it is untouched since (generator.written); None otherwise."""
        if self.written is None:
            return None
        found = self.written.holds(name, key)
        if found is not None:
            self.used.add(key)  # kept for the day it is read (an output edited by hand)
        return found

    def put_text(self, key: str, text: str) -> None:
        self.texts.mkdir(parents=True, exist_ok=True)
        tmp = self.texts / f".{key}.{os.getpid()}.tmp"
        data = text.encode("utf-8")
        digest = hashlib.sha256(data).digest()
        with open(tmp, "wb") as handle:
            handle.write(digest.hex().encode() + b"\n" + data)
        os.replace(tmp, self.texts / key)
        self.known[text] = digest

    def _proofs(self) -> set[str]:
        """The digests of every proven fact: one file (``proofs``), read once, a line each."""
        if self._proved is None:
            self._proved = set()
            text = self.text(_PROOFS)
            if text is not None:
                self._proved.update(text.split())
        return self._proved

    def proven(self, fact: bytes) -> bool:
        """Whether a build with this code proved ``fact`` (generator.schema_check.Proofs)."""
        digest = self.digest(b"proven", fact)
        if digest in self._proofs():
            self._proofs_used.add(digest)
            return True
        return False

    def prove(self, fact: bytes) -> None:
        """Remember ``fact`` as proven; kept when the build ends (``flush``), not one write per
        proof (a first build proves hundreds)."""
        digest = self.digest(b"proven", fact)
        proofs = self._proofs()
        if digest not in proofs:
            proofs.add(digest)
            self._proofs_new = True
        self._proofs_used.add(digest)

    def flush(self) -> None:
        """Keep the proofs made since the last flush (a failed build keeps them too)."""
        if self._proofs_new and self._proved is not None:
            self._save_proofs(self._proved)
            self._proofs_new = False

    def _save_proofs(self, digests: set[str]) -> None:
        with contextlib.suppress(OSError):  # a proof not kept is made again
            self.put_text(_PROOFS, "\n".join(sorted(digests)))

    def prune(self) -> None:
        """Drop entries this build did not use, so the cache holds one build's worth."""
        if self._proved is not None and self._proofs_used != self._proved:
            self._save_proofs(self._proofs_used)
            self._proofs_new = False
        self.used.add(_PROOFS)
        for folder in (self.folder, self.texts):
            if not folder.is_dir():
                continue
            for entry in folder.iterdir():
                if entry.name not in self.used:
                    entry.unlink(missing_ok=True)


# ---- the per-build record -------------------------------------------------------------------


def _catalog_digest(catalog: Path) -> str:
    parts: list[bytes] = []
    for names, entry in _walk(os.path.realpath(catalog)):  # the paths the build reads
        rel = "/".join(names).encode()
        if entry.is_symlink():
            parts += [rel, b"link:" + os.readlink(entry.path).encode()]
        elif entry.is_file():
            parts += [rel, _file_digest(entry.path)]
        elif entry.is_dir():
            parts += [rel, b"dir"]
    return _digest(*parts)


_SEEN: tuple[str, str] | None = None  # (catalog folder, its digest) as the fast path read it


def catalog_state(catalog: Path) -> str:
    """The catalog's digest taken before a build reads it, for its record: a file edited while
    the build runs then differs from the record, and the next build runs. The fast path's
    digest of the same folder, taken moments earlier in this process, is used once."""
    global _SEEN
    seen, _SEEN = _SEEN, None
    where = str(catalog.resolve())
    if seen is not None and seen[0] == where:
        return seen[1]
    return _catalog_digest(catalog)


def _module_files() -> list[str]:
    files = set()
    for module in list(sys.modules.values()):
        name = getattr(module, "__file__", None)
        if isinstance(name, str) and os.path.isfile(name):
            files.add(os.path.abspath(name))
    return sorted(files)


# where installed packages live (a virtual environment inside the project folder included)
_INSTALLED = tuple(
    sorted({os.path.join(p, "") for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)})
)


def _dep_state(path: str, project: tuple[str, ...]) -> str:
    """A content hash for the project's own files; size and mtime for installed ones (a package
    in a virtual environment inside the project folder is installed, not the project's)."""
    try:
        if path.startswith(project) and not path.startswith(_INSTALLED):
            return "sha256:" + _file_digest(path).hex()
        st = os.stat(path)
        return f"stat:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        return "missing"


def _out_names(out: Path) -> list[str]:
    if not out.is_dir():
        return []
    return sorted("/".join(names) for names, e in _walk(str(out), ("__pycache__",)) if e.is_file())


def _outputs_match(out: Path, written: Written) -> bool:
    """Whether ``out`` holds exactly the files of the record, each with its recorded bytes: a
    file with its recorded stat is not read (generator.written), any other is read and hashed."""
    if _out_names(out) != sorted(written.entries):
        return False
    for name, (digest, _, _) in written.entries.items():
        if written.untouched(name) is not None:
            continue
        found = read_checked(os.path.join(out, name))
        if found is None or hashlib.sha256(found[0]).hexdigest() != digest:
            return False
    return True


def _read_outputs(out: Path) -> dict[str, list[Any]]:
    """The record's ``outputs`` read back from the tree (no stats: each is read next time)."""
    return {
        name: [hashlib.sha256(_read(os.path.join(out, name))).hexdigest(), None, None]
        for name in _out_names(out)
    }


def _record_path(catalog: Path, out: Path) -> Path:
    name = _digest(str(catalog.resolve()).encode(), str(out.resolve()).encode())[:24]
    return cache_dir(catalog) / f"build-{name}.json"


def _project_roots(import_paths: tuple[Path, ...]) -> tuple[str, ...]:
    return tuple(str(p.resolve()) + os.sep for p in (_ROOT, *import_paths))


class BuildRecord(NamedTuple):
    """What a successful build printed, so an unchanged rebuild can say it again."""

    counts: str
    diagnostics: list[dict[str, Any]]


def save_record(
    catalog: Path,
    out: Path,
    import_paths: tuple[Path, ...],
    as_of: date,
    record: BuildRecord,
    outputs: Mapping[str, list[Any]] | None = None,
    catalog_digest: str | None = None,
) -> None:
    """Write the per-build record after a successful build (best effort: a failure is a miss).

    ``outputs`` is what the build just left in ``out`` (generator.written.entries: each file's
    digest, text key and stat), read back from the tree when not given. ``catalog_digest`` is
    ``catalog_state`` taken before the build (read now when not given)."""
    project = _project_roots(import_paths)
    deps = {path: _dep_state(path, project) for path in _module_files()}
    if outputs is None or sorted(outputs) != _out_names(out):
        outputs = _read_outputs(out)
    payload = {
        "format": CACHE_FORMAT,
        "generator": GENERATOR_VERSION,
        "catalog": catalog_digest if catalog_digest is not None else _catalog_digest(catalog),
        "code": generator_fingerprint(),
        "import_paths": [str(p.resolve()) for p in import_paths],
        "as_of": as_of.isoformat(),
        "deps": deps,
        "outputs": outputs,
        "counts": record.counts,
        "diagnostics": record.diagnostics,
    }
    target = _record_path(catalog, out)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(payload, sort_keys=True), encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        pass


_LAST: tuple[str, Any] | None = None  # (record path, its payload) as the fast path read it


def _payload(catalog: Path, out: Path, again: bool = False) -> Any:
    """The last build's record for ``catalog`` and ``out``; with ``again``, the copy the fast
    path read moments earlier in this process, if it did (used once)."""
    global _LAST
    path = str(_record_path(catalog, out))
    seen, _LAST = _LAST, None
    if again and seen is not None and seen[0] == path:
        return seen[1]
    with open(path, encoding="utf-8") as handle:
        payload = json.loads(handle.read())
    _LAST = (path, payload)
    return payload


def previous_outputs(catalog: Path, out: Path) -> Written | None:
    """What the last build with this generator left in ``out`` (None: nothing is known)."""
    try:
        payload = _payload(catalog, out, again=True)
        if payload.get("format") != CACHE_FORMAT or payload.get("generator") != GENERATOR_VERSION:
            return None
        return Written.from_json(str(out), payload.get("outputs"))
    except (OSError, ValueError, AttributeError):
        return None


def unchanged(
    catalog: Path, out: Path, import_paths: tuple[Path, ...], as_of: date
) -> BuildRecord | None:
    """The record of the last build when every input and output still matches it, else None."""
    global _SEEN
    try:
        payload = _payload(catalog, out)
        if (
            payload.get("format") != CACHE_FORMAT
            or payload.get("generator") != GENERATOR_VERSION
            or payload.get("as_of") != as_of.isoformat()
            or payload.get("import_paths") != [str(p.resolve()) for p in import_paths]
        ):
            return None
        digest = _catalog_digest(catalog)
        _SEEN = (str(catalog.resolve()), digest)
        if payload.get("catalog") != digest:
            return None
        if payload.get("code") != generator_fingerprint():  # templates and schemas are no modules
            return None
        project = _project_roots(import_paths)
        for path, state in payload["deps"].items():
            if _dep_state(path, project) != state:
                return None
        written = Written.from_json(str(out), payload.get("outputs"))
        if written is None or not _outputs_match(out, written):
            return None
        return BuildRecord(payload["counts"], payload["diagnostics"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def fast_build(argv: list[str] | BuildArgs) -> bool:
    """``python -m generator build …`` when nothing changed: print what the last build printed
    and return True; False means run the real build."""
    started = time.perf_counter()
    if os.environ.get("PROVCAT_NO_CACHE"):
        return False
    args = parse_build(argv) if isinstance(argv, list) else argv
    if args is None or args.no_cache:
        return False
    catalog, out, fmt, import_paths = args.catalog, args.out, args.fmt, args.import_paths
    as_of = args.as_of or date.today()
    use_hashes(catalog, hand_over=True)
    record = unchanged(catalog, out, import_paths, as_of)
    if record is None:
        return False
    save_hashes()
    summary = f"{record.counts} in {time.perf_counter() - started:.2f}s"
    items = []
    if record.diagnostics:
        from generator.diagnostics import Diagnostic
        from generator.files import from_here

        here = from_here(catalog)
        items = [
            here(Diagnostic(d["file"], d["line"], d["column"], d["code"], d["message"], d["hint"]))
            for d in record.diagnostics
        ]
    if fmt == "json":
        payload = {
            "ok": True,
            "diagnostics": [d.as_json() for d in items],
            "summary": summary,
            "changed": [],
            "cached": True,
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
        return True
    if items:
        from generator.diagnostics import render

        print(render(items, fmt), file=sys.stderr if fmt == "text" else sys.stdout)
    print(f"provcat: {summary}; {out.name}/ unchanged.")
    return True
