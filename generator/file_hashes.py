"""The SHA-256 of the build's input files (the catalog's and the code's), read again only when
a file's stat changed.

Each build hashes every catalog file (is anything new?) and the generator's and the runtime's
code (the key of every cached result). The hashes are kept in the build cache with the stat each
file had when it was read: size, mtime, ctime and inode. A file whose stat is still that one
holds those bytes (generator.written says why); any other is read and hashed again. A file
changed just before it was read is read again next time it is asked for, and a stat taken in the
same clock tick as the probe written when the hashes are saved is not kept, so an edit right
after a read is never mistaken for the file read.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from generator.written import Stat, probe, stat_of

# path -> (sha256 hex, the stat it was read with; None: read it again next time)
_Entry = tuple[str, Stat | None]

# a file changed less than this long before it was read (50 ms: several ticks of the clock that
# stamps files) is read again when asked for again, in this process too
_RECENT = 50_000_000


class FileHashes:
    """Hashes kept in ``path`` (None: kept nowhere, every file is read)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._old: dict[str, _Entry] = {}
        self._new: dict[str, _Entry] = {}
        if path is not None:
            self._old = _load(path)

    def digest(self, path: str, fresh: bool = False) -> bytes | None:
        """The SHA-256 of the bytes of file ``path`` (its link followed); None when it cannot
        be read. ``fresh``: read it whatever its stat."""
        try:
            now = stat_of(os.stat(path))
        except OSError:
            return None
        for known in () if fresh else (self._new.get(path), self._old.get(path)):
            if known is not None and known[1] == now:
                self._new[path] = known
                return bytes.fromhex(known[0])
        try:
            with open(path, "rb") as handle:
                st = stat_of(os.fstat(handle.fileno()))
                found = hashlib.sha256(handle.read()).digest()
        except OSError:
            return None
        if time.time_ns() - st[2] > _RECENT:  # else an edit in its tick could keep its stat
            self._new[path] = (found.hex(), st)
        return found

    def save(self) -> None:
        """Keep the hashes this process took or used (best effort: a failure is a miss)."""
        if self.path is None or self._new.items() <= self._old.items():
            return
        now = probe(str(self.path.parent))
        kept = {
            name: [digest, list(st) if st is not None and now is not None and st[2] < now else None]
            for name, (digest, st) in sorted(self._new.items())
        }
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(kept), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            return


def _load(path: Path) -> dict[str, _Entry]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    found: dict[str, _Entry] = {}
    if not isinstance(data, dict):
        return found
    for name, value in data.items():
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)):
            continue
        st = value[1]
        if not (isinstance(st, list) and len(st) == 4 and all(type(n) is int for n in st)):
            continue  # no stat (or not one): read next time
        found[name] = (value[0], (st[0], st[1], st[2], st[3]))
    return found
