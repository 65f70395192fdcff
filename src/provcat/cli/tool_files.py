"""What the tool commands read and write, and how they refuse it.

The tools under the paths given (``.json`` files, folders, ``-`` for standard input), the targets
chosen by ``--targets``/``--provider``/``--endpoint``, the folder ``compile --out`` writes (one
file per tool, names that cannot reach outside it, written atomically), and the input error
that stops a command with nothing processed: SchemaPort's ``{command, version, errors}`` with
provcat's ``error`` and ``message`` beside (exit 2).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from provcat import __version__
from provcat.cli.failures import UNKNOWN_PROVIDER, USAGE_ERROR, unknown_provider
from provcat.redact import secret_shapes_hidden
from provcat.toolschema.loading import STDIN, LoadedTool, load_tools
from provcat.toolschema.targets import (
    Target,
    UnknownTargetError,
    get_target,
    list_targets,
    no_targets_message,
    target_for_provider,
)

# a lone surrogate: how Python holds a file name's byte that is no UTF-8 (`\udcff` for 0xFF), or
# a `\ud800` escape in a tool's JSON; no UTF-8 output can hold one
_SURROGATE = re.compile("[\ud800-\udfff]")


def encodable(text: str) -> str:
    """``text`` (a path, or a message naming one) as it can be printed: a file name's byte that
    is no UTF-8 as `\\xff`, any other lone surrogate as `\\ud800`."""

    def escaped(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"

    return _SURROGATE.sub(escaped, text)


def json_text(text: str) -> str:
    """JSON text that is valid UTF-8: a lone surrogate left in a string (from a tool's own
    `\\udcff` escape) is written as that escape again."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def dumps(value: Any) -> str:
    return json_text(json.dumps(value, indent=2, ensure_ascii=False))


# the `error` codes of an input error (exit 2, as SchemaPort's CLI: nothing is processed)
UNKNOWN_TARGET = "UnknownTargetError"  # an unknown target id, provider or endpoint
INPUT = "InputError"  # a file that cannot be read or holds no tool, or tools that clash
LOCAL_FILE = "LocalFileError"  # the output folder cannot be written


DASH = "-"  # a path argument that means standard input (`./-` is a file named `-`)


def shown_source(source: str) -> str:
    """A path as the tool commands' results and errors show it: printable, anything shaped like
    a key (a key pasted as a file's name) as `<redacted>`, and a file named `-` (given as
    `./-`) as `./-`, never `-`, which means standard input."""
    if source == DASH or source.startswith(DASH + "["):  # the file, or one tool of its list
        source = "./" + source
    return secret_shapes_hidden(encodable(source))


def error_report(command: str, code: str, errors: list[tuple[str, str]]) -> dict[str, Any]:
    """An error of a tool command in JSON: SchemaPort's ``{command, version, errors}`` (its
    contract for a tool command's errors), with the ``error`` code and ``message`` every
    provcat command's error has (README, "Errors on the command line"), and for a usage error
    ``details.command``, as every command's usage error has it."""
    report: dict[str, Any] = {
        "error": code,
        "message": "; ".join(f"{s}: {m}" if s else m for s, m in errors),
        "command": command,
        "version": __version__,
        "errors": [{"sourcePath": s, "message": m} for s, m in errors],
    }
    if code == USAGE_ERROR:
        report["details"] = {"command": f"provcat tool {command}"}
    return report


def fail(command: str, fmt: str, errors: list[tuple[str, str]], code: str = INPUT) -> NoReturn:
    # a path or a value shaped like a key (pasted where a file or a target goes) is not repeated
    errors = [
        (shown_source(source), secret_shapes_hidden(encodable(message)))
        for source, message in errors
    ]
    if fmt == "json":
        click.echo(dumps(error_report(command, code, errors)))
    else:
        for source, message in errors:
            click.echo(f"{source}: {message}" if source else message, err=True)
        click.echo(f"provcat tool {command}: input error; nothing was processed.", err=True)
    sys.exit(2)


def chosen_targets(
    command: str,
    fmt: str,
    spec: str | None,
    provider: str | None,
    hosted: bool = False,
    endpoint: str | None = None,
) -> list[Target]:
    if spec and provider is not None:
        fail(command, fmt, [("", "use --targets or --provider, not both")], USAGE_ERROR)
    if endpoint is not None and provider is None:
        needs = "--endpoint needs --provider (the provider it belongs to)"
        fail(command, fmt, [("", needs)], USAGE_ERROR)
    if spec is not None and not spec.strip(" ,"):
        empty = "--targets is empty; give target ids (comma-separated) or all"
        fail(command, fmt, [("", empty)], USAGE_ERROR)
    if provider is not None and not provider.strip():  # an unset $PROVIDER, say: never "all"
        empty = "--provider is empty; give a provider (`provcat providers` lists them)"
        fail(command, fmt, [("", empty)], USAGE_ERROR)
    if endpoint is not None and not endpoint.strip():
        fail(
            command,
            fmt,
            [("", "--endpoint is empty; give an endpoint of the provider")],
            USAGE_ERROR,
        )
    try:
        if provider:
            return [target_for_provider(provider, endpoint)]
        if not spec or spec.strip() == "all":
            found = list_targets()
            if not found:  # every target of none: not a clean result, an input error
                raise UnknownTargetError(no_targets_message())
            return [t for t in found if t.probe is not None] if hosted else found
        ids = [s.strip() for s in spec.split(",") if s.strip()]
        return [get_target(i) for i in sorted(set(ids))]
    except UnknownTargetError as exc:
        unknown = unknown_provider(provider) if provider else None
        if unknown is not None:  # said as every command says it; still an input error, exit 2
            fail(command, fmt, [("", unknown)], UNKNOWN_PROVIDER)
        fail(command, fmt, [("", str(exc))], UNKNOWN_TARGET)


_STDIN_READ = "provcat.tool.stdin"  # ctx.meta key: standard input, read once per command


def _stdin() -> bytes:
    """Standard input's bytes, read on first use (`tool diff - -` reads it once)."""
    meta = click.get_current_context().meta
    if _STDIN_READ not in meta:
        meta[_STDIN_READ] = sys.stdin.buffer.read()
    data: bytes = meta[_STDIN_READ]
    return data


def load(
    command: str, fmt: str, paths: Sequence[str], *, empty_ok: bool = False
) -> list[LoadedTool]:
    """The tools under ``paths`` (``-``: standard input); an input error when one cannot be
    read, or when there are none (a wrong path must not pass a CI check by finding nothing to
    check) unless ``empty_ok``."""
    piped = _stdin() if DASH in paths else None
    problems: list[tuple[str, str]] = []
    if piped is not None and (unread := _unreadable(command, piped)) is not None:
        problems.append((STDIN, unread))
        piped = None
    # a file given twice is read once
    tools, errors = load_tools([Path(p) for p in paths if p != DASH], piped)
    problems += [(e.source_path, _missing(command, e.source_path, e.message)) for e in errors]
    if problems:
        fail(command, fmt, problems)
    if not tools and not empty_ok:
        shown = ", ".join(STDIN if p == DASH else shown_source(str(Path(p))) for p in paths)
        fail(
            command,
            fmt,
            [
                (
                    shown,
                    'no tools found (.json files holding a tool, a list of tools or {"tools": [...]})',
                )
            ],
        )
    return tools


def _unreadable(command: str, piped: bytes) -> str | None:
    """What is wrong with standard input's bytes before they are read as a tool's JSON (the
    loader would call it a file): nothing there, or no UTF-8 text. None when they can be read."""
    if not piped.strip():
        return (
            f"standard input is empty: pipe a tool's JSON into it (`... | provcat tool {command} "
            "-`), or give the file's path instead of `-`"
        )
    try:
        piped.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = f"byte {exc.start}: {exc.reason}"
        return f"cannot read standard input: it is not UTF-8 text ({where}); save the JSON as UTF-8"
    return None


def _missing(command: str, source: str, message: str) -> str:
    """The loader's ``message`` for ``source``, with what was meant when a path that is not
    there is a target id or, for a command with --provider, a provider (`tool compile openai
    tools.json`)."""
    if message != "no such file or directory" or not source or source.startswith("-"):
        return message
    if source in {t.id for t in list_targets()}:
        return f"{message}; targets are chosen with --targets {source}"
    if command in ("check", "compile"):
        try:
            target_for_provider(source)
        except UnknownTargetError:
            return message
        return f"{message}; a provider's target is chosen with --provider {source}"
    return message


# what a file name must not hold: path separators, `%` (the escape), the characters Windows
# refuses and control characters
_UNSAFE = re.compile(r'[/\\%:<>"|?*\x00-\x1f\x7f]')


def file_name(name: str) -> str:
    """A tool's file: its name with `_` as `-` and each unsafe character (and a leading `.`) as
    `%XX`, so no name reaches outside its target's folder (`../x` is written `%2E.%2Fx.json`)."""
    stem = _UNSAFE.sub(lambda m: f"%{ord(m.group()):02X}", name.replace("_", "-"))
    if stem.startswith("."):  # a hidden file, or `..`
        stem = "%2E" + stem[1:]
    return stem + ".json"


def clashes(owners: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Tools whose files would be one file (``owners``: (path, tool name) pairs), also where a
    file system ignores case or Unicode normalization (macOS): the second would overwrite the
    first."""
    seen: dict[str, tuple[str, str]] = {}
    errors = []
    for rel, name in owners:
        first = seen.setdefault(unicodedata.normalize("NFC", rel).casefold(), (rel, name))
        if first[1] != name:
            errors.append(
                (
                    first[0],
                    f"tools {first[1]!r} and {name!r} would both be written to {first[0]} "
                    "(a name's `_` is written `-`, and some file systems ignore case and "
                    "Unicode normalization); rename one",
                )
            )
    return errors


def write_atomic(out: Path, files: dict[str, str]) -> None:
    """Each file through a temporary file beside it, which is removed whatever goes wrong."""
    for rel, text in sorted(files.items()):
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(json_text(text))
            os.replace(tmp, target)
        finally:
            if os.path.lexists(tmp):
                os.unlink(tmp)
