"""Which files a catalog folder holds, and how diagnostics name them."""

from __future__ import annotations

import os
from pathlib import Path

from generator.diagnostics import Diagnostic, diag

IGNORED_NAMES = {".gitkeep", "README.md"}


def display_path(path: Path, base: Path) -> str:
    """How diagnostics name a file: relative to the catalog's parent folder, with '/'."""
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return os.path.relpath(path, base).replace(os.sep, "/")


def yaml_files(folder: Path, base: Path, kind: str) -> tuple[list[Path], list[Diagnostic]]:
    """The ``.yaml`` files of ``folder`` in code-point order; anything else is unexpected."""
    found: list[Path] = []
    problems: list[Diagnostic] = []
    if not folder.is_dir():
        return found, problems
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name in IGNORED_NAMES:
            continue
        if path.suffix == ".yaml" and (path.is_file() or path.is_symlink()):
            found.append(path)
        else:
            problems.append(
                diag(
                    "unexpected_file",
                    (display_path(path, base), 1, 1),
                    f"'{path.name}' is not a {kind} file",
                )
            )
    return found, problems
