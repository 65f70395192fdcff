"""Upload temp folders that several live processes can share one data dir with.

Each server process streams uploads into its own folder ``<data-dir>/tmp/<owner>/`` and holds an
exclusive ``flock`` on ``<owner>/.owner`` for as long as it lives; the kernel drops that lock when
the process dies, however it dies. Start-up cleaning removes only folders whose lock it can take
(their owner is gone), so a second server, a ``--workers`` sibling or a ``token create`` beside a
live server never touches an upload in flight. A folder is created under a ``.new-`` name, locked,
then renamed into place: a cleaner never sees an unlocked folder that is about to be used.
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import tempfile
import time
import uuid
from pathlib import Path

__all__ = ["OWNER_FILE", "OwnedTempDir", "clean_dead_owners"]

log = logging.getLogger("provcat.hub")
OWNER_FILE = ".owner"
_NEW = ".new-"


class OwnedTempDir:
    """This process's own upload folder under ``root``, locked until :meth:`close`."""

    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=_NEW, dir=root))
        self._fd = os.open(staging / OWNER_FILE, os.O_CREAT | os.O_RDWR, 0o600)
        fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.write(self._fd, f"{os.getpid()}\n".encode())
        self.path = root / f"p{os.getpid()}-{uuid.uuid4().hex[:12]}"
        staging.rename(self.path)

    def close(self) -> None:
        if self._fd >= 0:
            shutil.rmtree(self.path, ignore_errors=True)
            os.close(self._fd)  # releases the lock
            self._fd = -1


def _owner_alive(folder: Path) -> bool:
    try:
        fd = os.open(folder / OWNER_FILE, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing also drops a lock we just took
    return False


def clean_dead_owners(root: Path, grace_seconds: float) -> int:
    """Remove what no live process owns under ``root``: folders whose owner died, and (once
    older than ``grace_seconds``) loose files and half-made folders. Returns how many."""
    if not root.is_dir():
        return 0
    removed = 0
    now = time.time()
    for entry in sorted(root.iterdir()):
        try:
            old = now - entry.stat().st_mtime > grace_seconds
        except FileNotFoundError:
            continue
        if entry.is_dir() and not entry.name.startswith(_NEW):
            if (entry / OWNER_FILE).exists() and _owner_alive(entry):
                continue
            if not (entry / OWNER_FILE).exists() and not old:
                continue
            shutil.rmtree(entry, ignore_errors=True)
        elif old:  # a loose file (older layouts) or a folder whose creator died mid-way
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
        else:
            continue
        removed += 1
    if removed:
        log.info("removed %d stray temp item(s)", removed)
    return removed
