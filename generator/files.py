"""Which files a catalog folder holds, and how diagnostics name them."""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable
from pathlib import Path

from generator.diagnostics import Diagnostic, diag

IGNORED_NAMES = {".gitkeep", "README.md"}


def display_path(path: Path, base: Path) -> str:
    """How diagnostics name a file: relative to the catalog's parent folder, with '/'."""
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return os.path.relpath(path, base).replace(os.sep, "/")


def from_here(catalog: Path) -> Callable[[Diagnostic], Diagnostic]:
    """How a diagnostic is printed: its paths as the user can open them from the current folder.

    Diagnostics (and the generated files) name files relative to the catalog's parent folder,
    which keeps the outputs the same wherever the generator runs. Printed, a path under the
    current folder is shown relative to it, any other path in full: ``--catalog ../x`` or a
    catalog elsewhere gives paths that open as printed.
    """
    folder = Path(os.path.abspath(catalog))
    old = f"{folder.name}/"
    try:
        new = f"{folder.relative_to(Path.cwd()).as_posix()}/"
    except ValueError:
        new = f"{folder.as_posix()}/"
    if new == old:
        return lambda d: d
    # the catalog's own prefix, where a path starts (not inside another word or path)
    pattern = re.compile(r"(?<![\w./-])" + re.escape(old))

    def shown(d: Diagnostic) -> Diagnostic:
        return dataclasses.replace(
            d,
            file=pattern.sub(new, d.file, count=1),
            message=pattern.sub(new, d.message),
            hint=pattern.sub(new, d.hint),
        )

    return shown


def skipped(name: str) -> bool:
    """A name the catalog folders may hold without being read: hidden files (``.DS_Store``, an
    editor's swap file ``.alpha.yaml.swp``), editor backups (``alpha.yaml~``) and the few
    files kept for people (``README.md``)."""
    return name in IGNORED_NAMES or name.startswith(".") or name.endswith("~")


def yaml_files(folder: Path, base: Path, kind: str) -> tuple[list[Path], list[Diagnostic]]:
    """The ``.yaml`` files of ``folder`` in code-point order; anything else is unexpected
    (hidden files and editor backups are left alone: see ``skipped``)."""
    found: list[Path] = []
    problems: list[Diagnostic] = []
    if not folder.is_dir():
        return found, problems
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if skipped(path.name):
            continue
        if path.suffix == ".yaml" and (path.is_symlink() or not path.is_dir()):
            found.append(path)  # the loader refuses a link, or a named pipe, socket or device
        elif path.is_dir() and not path.is_symlink():
            problems.append(
                diag(
                    "unexpected_file",
                    (display_path(path, base) + "/", 1, 1),
                    f"'{path.name}/' is a folder; {folder.name}/ holds {kind} files only",
                    f"move the folder out of {folder.name}/: only the .yaml files directly "
                    "in it are read",
                )
            )
        else:
            problems.append(
                diag(
                    "unexpected_file",
                    (display_path(path, base), 1, 1),
                    f"'{path.name}' is not a {kind} file",
                )
            )
    return found, problems


def stray_yaml(catalog: Path, base: Path, folders: tuple[str, ...]) -> list[Diagnostic]:
    """The ``.yaml`` and ``.yml`` files of ``catalog`` outside the ``folders`` the generator
    reads (its root, or a folder of its own such as ``models/``): each would be dropped without
    a word. Other files (``REVIEWS.md``), hidden files and folders, editor backups and links to
    folders are left alone."""
    shown = display_path(catalog, base)
    problems: list[Diagnostic] = []
    for folder, dirs, names in os.walk(catalog):
        top = Path(folder) == catalog
        dirs[:] = sorted(
            d
            for d in dirs
            if not skipped(d)
            and not (top and d in folders)
            and not os.path.islink(os.path.join(folder, d))
        )
        for name in sorted(names):
            if skipped(name) or not name.lower().endswith((".yaml", ".yml")):
                continue
            path = Path(folder) / name
            problems.append(
                diag(
                    "unexpected_file",
                    (display_path(path, base), 1, 1),
                    f"'{name}' is outside the folders the generator reads "
                    f"({', '.join(f'{shown}/{f}/' for f in folders)}): it is not read",
                    f"move a provider file to {shown}/providers/<provider>.yaml (a schema "
                    f"target to {shown}/schema-targets/<id>.yaml), or the file out of {shown}/",
                )
            )
    return problems
