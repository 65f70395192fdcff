"""What the last build left in its output folder, so the next one need not read it back.

For each generated file the build record keeps the SHA-256 of its bytes, the text-cache key it
was rendered under (None for a text rendered every time) and the stat the build saw it with:
size, mtime, ctime and inode. A file whose stat is still that one holds those bytes: an edit, a
deletion, a ``touch -d`` or a copy over it changes its ctime or inode (the kernel sets ctime on
every change; nothing can set it back), so a hand-edited or deleted file is read, found to
differ, and written again.

A stat taken in the same clock tick as a later edit cannot tell the two apart (an edit right
after the build, of the same size, in the same millisecond or so). So a stat is kept only when
it is older than a probe file the build writes last, in the output folder: a file whose
ctime is not older is recorded without a stat and read the next time, as is every file this
build wrote (its stat would be taken after the move, when an edit could already have happened).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Mapping
from typing import Any

Stat = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode
Entry = tuple[str, str | None, Stat | None]  # sha256 hex, text-cache key, stat (None: read it)


def stat_of(st: os.stat_result) -> Stat:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def _stat(path: str) -> Stat | None:
    try:
        return stat_of(os.stat(path, follow_symlinks=False))
    except OSError:
        return None


class Written:
    """The files the last build left in ``root``, by relative path."""

    def __init__(self, root: str, entries: Mapping[str, Entry]) -> None:
        self.root = root
        self.entries = entries

    @classmethod
    def from_json(cls, root: str, data: Any) -> Written | None:
        """The record's ``outputs``; None when it is not that shape (then nothing is trusted)."""
        if not isinstance(data, dict):
            return None
        entries: dict[str, Entry] = {}
        for name, value in data.items():
            if not (isinstance(value, list) and len(value) == 3 and isinstance(value[0], str)):
                return None
            digest, key, st = value
            if key is not None and not isinstance(key, str):
                return None
            stat: Stat | None = None
            if st is not None:
                if not (isinstance(st, list) and len(st) == 4):
                    return None
                if not all(type(n) is int for n in st):
                    return None
                stat = (st[0], st[1], st[2], st[3])
            entries[name] = (digest, key, stat)
        return cls(root, entries)

    def untouched(self, name: str) -> Stat | None:
        """The recorded stat of ``name`` when the file still has it (it then holds the recorded
        bytes); None when it was recorded without one, or changed, or is gone."""
        entry = self.entries.get(name)
        if entry is None or entry[2] is None:
            return None
        now = _stat(os.path.join(self.root, name))
        return now if now == entry[2] else None

    def holds(self, name: str, key: str) -> bytes | None:
        """The SHA-256 of ``name`` when the last build wrote it from the text under ``key`` and
        it is untouched since; None otherwise."""
        entry = self.entries.get(name)
        if entry is None or entry[1] != key or self.untouched(name) is None:
            return None
        try:
            return bytes.fromhex(entry[0])
        except ValueError:
            return None

    def same(self, name: str, digest: bytes) -> Stat | None:
        """The stat of ``name`` when it is untouched and held bytes with SHA-256 ``digest``."""
        entry = self.entries.get(name)
        if entry is None or entry[0] != digest.hex():
            return None
        return self.untouched(name)


def read_checked(path: str) -> tuple[bytes, Stat] | None:
    """A file's bytes and the stat it had before they were read (an edit after the read then
    shows in its stat); None when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            st = stat_of(os.fstat(handle.fileno()))
            return handle.read(), st
    except OSError:
        return None


def probe(folder: str) -> int | None:
    """The file system's clock now, as the ctime of a file written and removed in ``folder``;
    None when no file can be written there (then no stat is kept)."""
    path = os.path.join(folder, f".provcat-stamp-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return None
    try:
        os.write(fd, b"x")
        return os.fstat(fd).st_ctime_ns
    except OSError:
        return None
    finally:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(path)


def entries(
    digests: Mapping[str, tuple[bytes, str | None]],
    seen: Mapping[str, Stat],
    now: int | None,
) -> dict[str, list[Any]]:
    """The record's ``outputs``: each file's digest and key (``digests``), and the stat it was
    seen with (``seen``: files this build found unchanged) when that stat is older than ``now``
    (``probe``)."""
    out: dict[str, list[Any]] = {}
    for name in sorted(digests):
        digest, key = digests[name]
        st = seen.get(name)
        keep = st is not None and now is not None and st[2] < now
        out[name] = [digest.hex(), key, list(st) if keep and st is not None else None]
    return out


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()
