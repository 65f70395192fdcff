"""Reading canonical tools from files and folders for the command line.

A ``.json`` file holds one tool, an array of tools, or ``{"tools": [...]}``; a folder is searched
recursively (skipping dot-entries, ``node_modules``, ``dist`` and ``coverage``). Any unreadable or
invalid file, any value that is no canonical tool and any tool name used twice is an input error:
nothing is processed. What a target judges for itself (the root's type, the name, a boolean
subschema ...) is that target's diagnostic, as in ``compile_tool``; a ``const`` its own schema
rejects is an input error here (no target reports it).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from provcat.toolschema.intake import canonical, tool_problems
from provcat.toolschema.types import CanonicalTool
from provcat.toolschema.validate import COMMAND_LINE_DIAGNOSED

__all__ = ["STDIN", "LoadError", "LoadedTool", "load_tools"]

_SKIP = {"node_modules", "dist", "coverage"}


@dataclass(frozen=True, slots=True)
class LoadedTool:
    tool: CanonicalTool
    source: str  # relative to the working folder when inside it, forward slashes


@dataclass(frozen=True, slots=True)
class LoadError:
    source_path: str
    message: str


def _shown(path: Path) -> str:
    """The path as the user finds it: relative to the working folder when inside it, else as
    given (``../../srv/tools`` for ``/srv/tools`` says less)."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return path.as_posix()
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return path.as_posix()
    return Path(relative).as_posix()


def _files(paths: list[Path], errors: list[LoadError]) -> list[Path]:
    """The tool files under ``paths``, each once (a file given twice, or given beside its
    folder, is read once: the same tool must not clash with itself)."""
    found: list[Path] = []
    seen: set[Path] = set()

    def add(file: Path) -> None:
        real = file.resolve()
        if real not in seen:
            seen.add(real)
            found.append(file)

    for path in paths:
        try:  # a name too long for the file system, say: said as the path's error
            folder, file, there = path.is_dir(), path.is_file(), path.exists()
        except OSError as exc:
            errors.append(LoadError(_shown(path), f"cannot read it: {exc.strerror or exc}"))
            continue
        if folder:
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP)
                for name in sorted(names):
                    if name.endswith(".json") and not name.startswith("."):
                        add(Path(root) / name)
        elif file:
            add(path)
        elif there:
            errors.append(LoadError(_shown(path), "not a file or a folder"))
        else:
            errors.append(LoadError(_shown(path), "no such file or directory"))
    return found


STDIN = "<stdin>"  # how tools read from standard input are named


def load_tools(
    paths: list[Path], stdin: bytes | None = None
) -> tuple[list[LoadedTool], list[LoadError]]:
    """Every tool under ``paths``, sorted by name, or the errors that stop processing.
    ``stdin``: bytes piped in, read first as one more `.json` file named ``<stdin>``."""
    errors: list[LoadError] = []
    tools: list[LoadedTool] = []
    seen: dict[str, str] = {}
    sources: list[tuple[str, Path | bytes]] = [] if stdin is None else [(STDIN, stdin)]
    sources += [(_shown(path), path) for path in _files(paths, errors)]
    for shown, source in sources:
        try:
            raw = source if isinstance(source, bytes) else source.read_bytes()
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            errors.append(LoadError(shown, f"cannot read the file: {exc}"))
            continue
        if not text.strip():
            errors.append(LoadError(shown, "the file is empty: write a tool's JSON in it"))
            continue
        try:
            data: Any = json.loads(text)
        except (ValueError, RecursionError) as exc:
            errors.append(LoadError(shown, f"not valid JSON: {exc}"))
            continue
        if isinstance(data, dict) and isinstance(data.get("tools"), list):
            items = data["tools"]
        elif isinstance(data, list):
            items = data
        else:
            items = [data]
        for index, item in enumerate(items):
            where = f"{shown}" if len(items) == 1 else f"{shown}[{index}]"
            problems = tool_problems(item, leave=COMMAND_LINE_DIAGNOSED)
            if problems:
                errors.extend(LoadError(where, problem) for problem in problems)
                continue
            name = item["name"]
            if not name:  # a target reports it; a file cannot be named by it
                errors.append(LoadError(where, "`name` is empty: give the tool a name"))
                continue
            if name in seen:
                errors.append(
                    LoadError(where, f"tool name {name!r} is already used in {seen[name]}")
                )
                continue
            seen[name] = where
            tools.append(LoadedTool(CanonicalTool.model_validate(canonical(item)), shown))
    tools.sort(key=lambda t: t.tool.name)
    return tools, errors
