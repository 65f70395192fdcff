"""A source snapshot read the same way from a folder or a tarball, without extracting anything.

Paths are posix and relative to the snapshot's root (a tarball's single top folder, if it has
one, is the root). Symbolic links are followed inside the snapshot only: a link that leaves it or
names nothing is reported as dangling, never read.
"""

from __future__ import annotations

import posixpath
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MAX_LINK_HOPS = 16


class SourceError(Exception):
    """The snapshot itself cannot be opened (not a folder, not a readable tarball)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One file of the snapshot: its bytes, or why they cannot be had (``problem``)."""

    path: str
    data: bytes | None
    problem: str | None = None
    link: str | None = None  # where a symbolic link pointed, when the entry was one


class Snapshot:
    """The files of a snapshot: ``files(prefix)`` lists them in code-point order."""

    def __init__(self, display: str, entries: dict[str, Entry]) -> None:
        self.display = display
        self._entries = entries

    def files(self, prefix: str = "") -> Iterator[Entry]:
        for path in sorted(self._entries):
            if path.startswith(prefix):
                yield self._entries[path]

    def get(self, path: str) -> Entry | None:
        return self._entries.get(path)

    def text(self, path: str) -> str | None:
        entry = self._entries.get(path)
        if entry is None or entry.data is None:
            return None
        return entry.data.decode("utf-8", errors="replace")


def _inside(path: str) -> str | None:
    norm = posixpath.normpath(path)
    if norm.startswith("../") or norm == ".." or norm.startswith("/"):
        return None
    return norm


def _follow(path: str, links: dict[str, str], files: dict[str, bytes]) -> tuple[bytes | None, str]:
    """The bytes a link leads to (following chains), or None and the target that was missing."""
    current = path
    for _ in range(MAX_LINK_HOPS):
        target = _inside(posixpath.join(posixpath.dirname(current), links[current]))
        if target is None:
            return None, links[current]
        if target in files:
            return files[target], target
        if target not in links:
            return None, target
        current = target
    return None, links[path]


def _assemble(display: str, files: dict[str, bytes], links: dict[str, str]) -> Snapshot:
    entries = {p: Entry(p, data) for p, data in files.items()}
    for path, target in links.items():
        data, reached = _follow(path, links, files)
        if data is None:
            entries[path] = Entry(path, None, f"dangling symbolic link to {reached}", target)
        else:
            entries[path] = Entry(path, data, None, target)
    return Snapshot(display, entries)


def _strip_top(names: list[str]) -> str:
    """The common top folder of a tarball's members ('' when they have none)."""
    tops = {n.split("/", 1)[0] for n in names if n}
    if len(tops) == 1:
        top = next(iter(tops))
        if top not in ("providers", "models") and all("/" in n or n == top for n in names):
            return top + "/"
    return ""


def _read_tar(path: Path, display: str) -> Snapshot:
    files: dict[str, bytes] = {}
    links: dict[str, str] = {}
    try:
        with tarfile.open(path, "r:*") as archive:
            members = archive.getmembers()
            prefix = _strip_top([m.name.removeprefix("./") for m in members])
            for member in members:
                name = _inside(member.name.removeprefix("./"))
                if name is None or not name.startswith(prefix):
                    continue
                rel = name[len(prefix) :]
                if member.issym():
                    links[rel] = member.linkname
                elif member.islnk():  # a hard link names its target from the archive's root
                    target = member.linkname.removeprefix("./")[len(prefix) :]
                    links[rel] = "/".join([".."] * rel.count("/") + [target])
                elif member.isfile():
                    handle = archive.extractfile(member)
                    if handle is not None:
                        files[rel] = handle.read()
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise SourceError(f"{display} is not a readable tarball: {exc}") from exc
    return _assemble(display, files, links)


def _read_dir(root: Path, display: str) -> Snapshot:
    files: dict[str, bytes] = {}
    links: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            target = path.readlink().as_posix()
            links[rel] = target
        elif path.is_file():
            try:
                files[rel] = path.read_bytes()
            except OSError:
                continue
    return _assemble(display, files, links)


def open_snapshot(path: Path, display: str | None = None) -> Snapshot:
    """Read a snapshot folder or tarball into memory (a models.dev snapshot is about 10 MB)."""
    shown = display or path.as_posix()
    if path.is_dir():
        return _read_dir(path, shown)
    if path.is_file():
        return _read_tar(path, shown)
    raise SourceError(f"{shown} does not exist: give a snapshot folder or a .tar.gz of one")
