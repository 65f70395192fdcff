"""Write a set of catalog files at once: every file is staged first, then swapped in by rename.

A failure while staging leaves the catalog as it was, without a folder the write made; each swap
is an atomic rename, so a reader sees either the old file or the new one, never half of one. The
files named ``last`` (the import's record of what it wrote) are swapped in after every other file
and deletion: a write cut short leaves them old, never new beside old files. A staged file a killed write left behind
(``.<name>.<random>.tmp``) is removed by the next write into its folder.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Collection, Mapping
from pathlib import Path

_MODE = 0o644  # mkstemp makes files private; catalog files are ordinary, readable ones
# a staged file's name: mkstemp's prefix `.<name>.`, 8 random characters, the suffix `.tmp`
_STAGED = re.compile(r"^\..+\.(?:yaml|json)\.[a-z0-9_]{8}\.tmp$")


class SwapFailed(Exception):
    """Swapping the staged files in failed after ``replaced`` of ``total`` were (``cause``
    says why); the staged files not swapped in are removed, the ``last`` files are the old
    ones."""

    def __init__(self, cause: OSError, replaced: int, total: int) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.replaced = replaced
        self.total = total


def write_files(folder: Path, texts: Mapping[str, str | bytes | None]) -> None:
    """``texts``: file name -> new text (``bytes``: written as they are), or None to delete the
    file."""
    write_folders({folder: texts})


def remove_staged(folder: Path) -> list[Path]:
    """Remove the staged files an interrupted write left in ``folder``; the files removed."""
    removed: list[Path] = []
    if not folder.is_dir():
        return removed
    for path in sorted(folder.iterdir()):
        if _STAGED.match(path.name) and path.is_file() and not path.is_symlink():
            with contextlib.suppress(OSError):  # one that stays is harmless: the build skips it
                path.unlink()
                removed.append(path)
    return removed


def write_folders(
    folders: Mapping[Path, Mapping[str, str | bytes | None]], last: Collection[Path] = ()
) -> None:
    """:func:`write_files` for several folders at once (``providers/`` and ``schema-targets/``):
    every file of every folder is staged before the first is swapped in; the paths in ``last``
    are swapped in after all the others, and after the deletions. OSError when staging fails
    (nothing changed: no folder it made stays either), :class:`SwapFailed` when a swap does."""
    for folder in folders:
        remove_staged(folder)
    staged: list[tuple[Path, Path]] = []
    made: list[Path] = []  # the folders made here, outermost first
    try:
        for folder, texts in folders.items():
            made.extend(reversed([p for p in (folder, *folder.parents) if not p.exists()]))
            folder.mkdir(parents=True, exist_ok=True)
            for name in sorted(texts):
                text = texts[name]
                if text is None:
                    continue
                fd, tmp_name = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
                staged.append((Path(tmp_name), folder / name))
                if isinstance(text, bytes):
                    with os.fdopen(fd, "wb") as raw:
                        raw.write(text)
                else:
                    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                        handle.write(text)
                os.chmod(tmp_name, _MODE)
    except BaseException:
        for staged_path, _ in staged:
            staged_path.unlink(missing_ok=True)
        for path in reversed(made):  # innermost first; one that is not empty stays
            with contextlib.suppress(OSError):
                path.rmdir()
        raise
    ordered = [s for s in staged if s[1] not in last] + [s for s in staged if s[1] in last]
    replaced = 0
    try:
        for staged_path, target in ordered:
            if target in last:  # the others, deletions included, are all done
                _delete(folders)
            os.replace(staged_path, target)
            replaced += 1
        _delete(folders)
    except BaseException as exc:  # an error or Ctrl-C: no staged file stays behind
        for staged_path, _ in ordered[replaced:]:
            staged_path.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise SwapFailed(exc, replaced, len(ordered)) from exc
        raise


def _delete(folders: Mapping[Path, Mapping[str, str | bytes | None]]) -> None:
    for folder, texts in folders.items():
        for name in sorted(texts):
            if texts[name] is None:
                (folder / name).unlink(missing_ok=True)
