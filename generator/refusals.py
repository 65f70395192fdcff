"""What the generator's commands (``build``, ``check``, ``site``) say when they refuse: usage
errors and refusals (exit 2; one JSON object under ``--format json``; in text, a control
character of a path or a value shown as its escape), and how a message names a folder."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import NoReturn

import click
from click.core import ParameterSource

from generator.diagnostics import counted
from provcat.terminal import printable


def folder(path: Path) -> str:
    """How the output lines name a folder: as diagnostics name files, relative to the current
    folder when under it, in full elsewhere (``--out /tmp/out2`` is ``/tmp/out2``)."""
    full = Path(os.path.abspath(path))
    try:
        return full.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return full.as_posix()


def usage_error(error: str, message: str, fmt: str) -> NoReturn:
    """A usage error, exit 2; with ``--format json`` a JSON object on stdout, where the command's
    JSON goes (``error`` names it), else click's usage text on stderr."""
    _json_refusal(error, message, fmt)
    raise click.UsageError(printable(message, keep="\n\t"))


class _Refused(click.ClickException):
    """A refusal that is no mistake of the command line: ``Error: ...`` on stderr, without
    click's usage text, exit 2 as a usage error."""

    exit_code = 2


def refuse(error: str, message: str, fmt: str) -> NoReturn:
    """A refusal that is not a usage mistake (exit 2): with ``--format json`` the same JSON
    object as a usage error, else the message alone on stderr."""
    _json_refusal(error, message, fmt)
    raise _Refused(printable(message, keep="\n\t"))


def _json_refusal(error: str, message: str, fmt: str) -> None:
    if fmt == "json":
        click.echo(
            json.dumps(
                {"ok": False, "error": error, "message": message}, indent=2, ensure_ascii=False
            )
        )
        sys.exit(2)


def refuse_out(message: str, fmt: str) -> NoReturn:
    """A refused ``--out`` (``generator.tree.UnsafeOutput``)."""
    usage_error("UnsafeOutput", f"--out: {message}", fmt)


def named_folder(path: Path, param: str = "out") -> tuple[str, bool]:
    """How a message names the folder option ``param`` holds (``path``), and whether the command
    line gave it: as given (``--out out2`` is ``out2``), else as :func:`folder` names the default
    (``generated`` from the project's root)."""
    ctx = click.get_current_context(silent=True)
    source = ctx.get_parameter_source(param) if ctx is not None else None
    if source in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP, None):
        return folder(path), False
    return str(path), True


def foreign_refusal(out: Path, foreign: list[str]) -> str:
    """Why ``build`` leaves ``out`` alone when it holds what the generator did not write
    (``foreign``, relative to it): which files to delete or move, each as a path that opens from
    here, the folder named as the command line gave it (or as the default)."""
    name, given = named_folder(out)
    files = sum(1 for entry in foreign if not entry.endswith("/"))
    what = " and ".join(
        part
        for part in (
            counted(files, "file") if files else "",
            counted(len(foreign) - files, "folder") if len(foreign) > files else "",
        )
        if part
    )
    shown = ", ".join(f"{name}/{entry}" for entry in foreign[:10])
    if len(foreign) > 10:
        shown += f" and {len(foreign) - 10} more"
    which = "it" if len(foreign) == 1 else "them"
    then = "or name an empty or new folder with --out" if given else "then build again"
    return (
        f"{f'--out {name}' if given else f'{name}/'} holds {what} the generator did not write: "
        f"{shown}. "
        f"The generator replaces {name}/ as a whole and never deletes what it did not write: "
        f"delete or move {which}, {then}."
    )
