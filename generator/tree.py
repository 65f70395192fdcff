"""The generated tree on disk: compare it with a build's files, show the difference, and swap
in a new tree atomically.

Nothing is written unless some file differs. Then the whole new tree is staged in a folder
beside the old one (a file the build leaves as it was is hard-linked from the old tree, not
written again) and swapped in with two renames: the old tree aside, the new one in place. A
crash leaves the old tree, or the new one, or (between the two renames) the old one set aside,
which the next run puts back before anything else (``recover``): never a mix of the two.

Files are not flushed to disk one by one (``fsync``): the swap protects against the build
being interrupted (a crash, a kill, a full disk). After a power loss a file of the new tree
may be damaged; the tree is derived data: ``generator check`` compares every byte, and the
next build (whose no-change check hashes every output) writes it again.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

IGNORED = {"__pycache__"}


def read_tree(root: Path) -> dict[str, str]:
    """The text files under ``root`` (relative posix path -> text as stored: line endings are
    not translated, so a file converted to CRLF reads as changed), without caches."""
    found: dict[str, str] = {}
    if not root.is_dir():
        return found
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in IGNORED]
        for name in names:
            path = Path(folder, name)
            rel = path.relative_to(root).as_posix()
            try:
                with open(path, encoding="utf-8", newline="") as handle:
                    found[rel] = handle.read()
            except (UnicodeDecodeError, OSError):
                found[rel] = "<unreadable>"
    return dict(sorted(found.items()))


def changed_files(root: Path, files: Mapping[str, str]) -> list[str]:
    """Paths that differ between ``files`` and the tree on disk (added, changed or removed)."""
    current = read_tree(root)
    names = sorted(set(current) | set(files))
    return [n for n in names if current.get(n) != files.get(n)]


def diff(root: Path, files: Mapping[str, str], per_file: int = 12) -> str:
    """A short unified diff of the stale files: the snapshot data first, ``per_file`` lines each."""
    current = read_tree(root)
    names = sorted(changed_files(root, files), key=lambda n: (not n.endswith("data.py"), n))
    lines: list[str] = []
    for name in names:
        chunk = list(
            difflib.unified_diff(
                current.get(name, "").splitlines(),
                files.get(name, "").splitlines(),
                f"{root.name}/{name} (on disk)",
                f"{root.name}/{name} (from the catalog)",
                n=1,
                lineterm="",
            )
        )
        if not chunk and name in current and name in files:
            # the same lines: only their endings differ (a checkout or an editor wrote CRLF)
            chunk = [f"{root.name}/{name}: the line endings differ (the catalog gives LF)"]
        if len(chunk) > per_file:
            chunk = [*chunk[:per_file], f"... ({len(chunk) - per_file} more diff lines)"]
        lines.extend(chunk)
    return "\n".join(lines)


def _aside(root: Path) -> Path:
    return root.parent / f".{root.name}.old"


def recover(root: Path) -> None:
    """Put back a tree a crash left set aside between the two renames of a swap, and remove
    what an interrupted build left beside the tree."""
    old = _aside(root)
    if old.exists() and not root.exists():
        os.rename(old, root)
    shutil.rmtree(old, ignore_errors=True)
    for stage in root.parent.glob(f".{root.name}.new-*"):
        shutil.rmtree(stage, ignore_errors=True)


def _stage(stage: Path, root: Path, files: Mapping[str, str], changed: set[str]) -> None:
    """Write the new tree into the fresh folder ``stage`` beside ``root``."""
    stage.mkdir()
    for name, text in files.items():
        target = stage / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if name not in changed:
            with contextlib.suppress(OSError):  # another file system: write it instead
                os.link(root / name, target)
                continue
        _write(target, text)


def _write(target: Path, text: str) -> None:
    with open(target, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def write_tree(root: Path, files: Mapping[str, str]) -> list[str]:
    """Make ``root`` hold exactly ``files``. Returns the changed paths (empty: nothing written)."""
    recover(root)
    changed = changed_files(root, files)
    if not changed:
        return []
    root.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(f"{root.parent}/.{root.name}.new-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        _stage(stage, root, files, set(changed))
        if root.exists():
            os.rename(root, _aside(root))
        os.rename(stage, root)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        recover(root)
        raise
    shutil.rmtree(_aside(root), ignore_errors=True)
    return changed
