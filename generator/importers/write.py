"""Write a set of catalog files at once: every file is staged first, then swapped in by rename.

A failure while staging leaves the catalog as it was; each swap is an atomic rename, so a reader
sees either the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

_MODE = 0o644  # mkstemp makes files private; catalog files are ordinary, readable ones


def write_files(folder: Path, texts: Mapping[str, str | bytes | None]) -> None:
    """``texts``: file name -> new text (``bytes``: written as they are), or None to delete the
    file."""
    write_folders({folder: texts})


def write_folders(folders: Mapping[Path, Mapping[str, str | bytes | None]]) -> None:
    """:func:`write_files` for several folders at once (``providers/`` and ``schema-targets/``):
    every file of every folder is staged before the first is swapped in."""
    staged: list[tuple[Path, Path]] = []
    try:
        for folder, texts in folders.items():
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
        raise
    for staged_path, target in staged:
        os.replace(staged_path, target)
    for folder, texts in folders.items():
        for name in sorted(texts):
            if texts[name] is None:
                (folder / name).unlink(missing_ok=True)
