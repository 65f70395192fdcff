"""Write a set of catalog files at once: every file is staged first, then swapped in by rename.

A failure while staging leaves the catalog as it was; each swap is an atomic rename, so a reader
sees either the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

_MODE = 0o644  # mkstemp makes files private; catalog files are ordinary, readable ones


def write_files(folder: Path, texts: dict[str, str | None]) -> None:
    """``texts``: file name -> new text, or None to delete the file."""
    folder.mkdir(parents=True, exist_ok=True)
    staged: list[tuple[Path, Path]] = []
    try:
        for name in sorted(texts):
            text = texts[name]
            if text is None:
                continue
            fd, tmp_name = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
            staged.append((Path(tmp_name), folder / name))
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            os.chmod(tmp_name, _MODE)
    except BaseException:
        for staged_path, _ in staged:
            staged_path.unlink(missing_ok=True)
        raise
    for staged_path, target in staged:
        os.replace(staged_path, target)
    for name in sorted(texts):
        if texts[name] is None:
            (folder / name).unlink(missing_ok=True)
