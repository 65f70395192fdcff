"""`provcat tool check|compile|matrix|diff|probe`.

Exit status: 0 fine; 1 findings (check at or above --fail-on, a refused compile, a breaking diff,
a rejected probe); 2 usage or input error (nothing is processed or written; an unknown target or
provider is one, as SchemaPort's CLI has it); 3 a probe could not give a verdict because of the
environment (credentials, network, model, rate limit). With ``--format json`` an error is
SchemaPort's ``{command, version, errors}`` with provcat's ``error`` and ``message`` beside.
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
from provcat.cli.choice import FORMAT_OPTION, Choice
from provcat.cli.failures import (
    UNKNOWN_PROVIDER,
    USAGE_ERROR,
    hide_secrets,
    json_wanted,
    unknown_provider,
    usage_message,
)
from provcat.cli.table import counted
from provcat.redact import secret_shapes_hidden
from provcat.toolschema.api import compile_tool
from provcat.toolschema.core import (
    DiagnosticRecord,
    materialize_diagnostics,
    stable_stringify,
)
from provcat.toolschema.executor import run
from provcat.toolschema.loading import STDIN, LoadedTool, load_tools
from provcat.toolschema.probe import probe as run_probe
from provcat.toolschema.targets import (
    Target,
    UnknownTargetError,
    get_target,
    list_targets,
    no_targets_message,
    target_for_provider,
)
from provcat.toolschema.types import CompileResult, Diagnostic

__all__ = ["tool"]

_SYMBOL = {"clean": "✓", "warning": "!", "error": "✗", "info": "i"}

# a lone surrogate: how Python holds a file name's byte that is no UTF-8 (`\udcff` for 0xFF), or
# a `\ud800` escape in a tool's JSON; no UTF-8 output can hold one
_SURROGATE = re.compile("[\ud800-\udfff]")


def _printable(text: str) -> str:
    """``text`` (a path, or a message naming one) as it can be printed: a file name's byte that
    is no UTF-8 as `\\xff`, any other lone surrogate as `\\ud800`."""

    def escaped(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"

    return _SURROGATE.sub(escaped, text)


def _json_text(text: str) -> str:
    """JSON text that is valid UTF-8: a lone surrogate left in a string (from a tool's own
    `\\udcff` escape) is written as that escape again."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _dumps(value: Any) -> str:
    return _json_text(json.dumps(value, indent=2, ensure_ascii=False))


# the `error` codes of an input error (exit 2, as SchemaPort's CLI: nothing is processed)
_UNKNOWN_TARGET = "UnknownTargetError"  # an unknown target id, provider or endpoint
_INPUT = "InputError"  # a file that cannot be read or holds no tool, or tools that clash
_LOCAL_FILE = "LocalFileError"  # the output folder cannot be written


def _error_report(command: str, code: str, errors: list[tuple[str, str]]) -> dict[str, Any]:
    """An error of a tool command in JSON: SchemaPort's ``{command, version, errors}`` (its
    contract for a tool command's errors), with the ``error`` code and ``message`` every
    provcat command's error has (README, "Errors on the command line")."""
    return {
        "error": code,
        "message": "; ".join(f"{s}: {m}" if s else m for s, m in errors),
        "command": command,
        "version": __version__,
        "errors": [{"sourcePath": s, "message": m} for s, m in errors],
    }


def _fail(command: str, fmt: str, errors: list[tuple[str, str]], code: str = _INPUT) -> NoReturn:
    # a path or a value shaped like a key (pasted where a file or a target goes) is not repeated
    errors = [
        (secret_shapes_hidden(_printable(source)), secret_shapes_hidden(_printable(message)))
        for source, message in errors
    ]
    if fmt == "json":
        click.echo(_dumps(_error_report(command, code, errors)))
    else:
        for source, message in errors:
            click.echo(f"{source}: {message}" if source else message, err=True)
        click.echo(f"provcat tool {command}: input error; nothing was processed.", err=True)
    sys.exit(2)


def _targets(
    command: str,
    fmt: str,
    spec: str | None,
    provider: str | None,
    hosted: bool = False,
    endpoint: str | None = None,
) -> list[Target]:
    if spec and provider:
        _fail(command, fmt, [("", "use --targets or --provider, not both")], USAGE_ERROR)
    if endpoint is not None and not provider:
        needs = "--endpoint needs --provider (the provider it belongs to)"
        _fail(command, fmt, [("", needs)], USAGE_ERROR)
    if spec is not None and not spec.strip(" ,"):
        empty = "--targets is empty; give target ids (comma-separated) or all"
        _fail(command, fmt, [("", empty)], USAGE_ERROR)
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
            _fail(command, fmt, [("", unknown)], UNKNOWN_PROVIDER)
        _fail(command, fmt, [("", str(exc))], _UNKNOWN_TARGET)


DASH = "-"  # a path argument that means standard input (`./-` is a file named `-`)
_STDIN_READ = "provcat.tool.stdin"  # ctx.meta key: standard input, read once per command


def _stdin() -> bytes:
    """Standard input's bytes, read on first use (`tool diff - -` reads it once)."""
    meta = click.get_current_context().meta
    if _STDIN_READ not in meta:
        meta[_STDIN_READ] = sys.stdin.buffer.read()
    data: bytes = meta[_STDIN_READ]
    return data


def _load(
    command: str, fmt: str, paths: Sequence[str], *, empty_ok: bool = False
) -> list[LoadedTool]:
    """The tools under ``paths`` (``-``: standard input); an input error when one cannot be
    read, or when there are none (a wrong path must not pass a CI check by finding nothing to
    check) unless ``empty_ok``."""
    piped = _stdin() if DASH in paths else None
    # a file given twice is read once
    tools, errors = load_tools([Path(p) for p in paths if p != DASH], piped)
    if errors:
        _fail(command, fmt, [(e.source_path, e.message) for e in errors])
    if not tools and not empty_ok:
        shown = ", ".join(STDIN if p == DASH else str(Path(p)) for p in paths)
        _fail(
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


def _diag_json(d: Diagnostic) -> dict[str, Any]:
    data: dict[str, Any] = d.model_dump(mode="json", by_alias=True)
    return data


def _counts(diags: Sequence[Diagnostic]) -> dict[str, int]:
    return {s: sum(1 for d in diags if d.severity == s) for s in ("error", "warning", "info")}


# strings, not Paths: a Path reads `./-` (a file named `-`) as `-` (standard input)
_paths = click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
_targets_opt = click.option(
    "--targets", "targets", default=None, help="Comma-separated target ids, or `all` (default)."
)
_provider_opt = click.option(
    "--provider", default=None, help="Compile for the target the catalog maps this provider to."
)
_endpoint_opt = click.option(
    "--endpoint",
    default=None,
    help="With --provider: the endpoint the tools are for, where it has its own target "
    "(e.g. a Responses-style endpoint of a Chat Completions provider).",
)


class _ToolGroup(click.Group):
    """The tool commands' group: with ``--format json`` a usage error of a tool command (click's,
    raised while its line is parsed) is the command's JSON error report, SchemaPort's keys
    included, as its input errors are."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            where = exc.ctx
            hide_secrets(exc)  # a key pasted where a value goes is not repeated
            if (
                where is not None
                and where.parent is not None
                and where.parent.command is self
                and where.info_name is not None
                and not isinstance(exc, click.exceptions.NoArgsIsHelpError)
                and json_wanted(where)
            ):
                message = _printable(usage_message(exc))
                click.echo(_dumps(_error_report(where.info_name, USAGE_ERROR, [("", message)])))
                sys.exit(exc.exit_code)
            raise  # the group's own (`provcat tool chek`): said by the main group


@click.group(cls=_ToolGroup)
def tool() -> None:
    """Check and compile tool schemas for each provider's target.

    The commands' PATHS are `.json` files (a tool, a list of tools or {"tools": [...]}) or folders;
    `-` reads the JSON from standard input."""


@tool.command()
@_paths
@_targets_opt
@_provider_opt
@_endpoint_opt
@FORMAT_OPTION
@click.option(
    "--fail-on",
    type=Choice(["error", "warning", "never"]),
    default="error",
    show_default=True,
    help="The lowest severity that makes the exit status 1 (info never does).",
)
def check(
    paths: tuple[str, ...],
    targets: str | None,
    provider: str | None,
    endpoint: str | None,
    fmt: str,
    fail_on: str,
) -> None:
    """Report what each target has against each tool.

    PATHS are `.json` files (a tool, a list of tools or {"tools": [...]}) or folders;
    `-` reads the JSON from standard input."""
    chosen = _targets("check", fmt, targets, provider, endpoint=endpoint)
    tools = _load("check", fmt, paths)
    rows: list[dict[str, Any]] = []
    all_diags: list[Diagnostic] = []
    for loaded in tools:
        per: dict[str, Any] = {}
        for target in chosen:
            diags = materialize_diagnostics(
                run(loaded.tool, target).diagnostics, target.id, loaded.tool.name
            )
            all_diags.extend(diags)
            per[target.id] = {
                "diagnostics": [_diag_json(d) for d in diags],
                "summary": _counts(diags),
            }
        rows.append({"name": loaded.tool.name, "source": _printable(loaded.source), "targets": per})
    counts = _counts(all_diags)
    failing = {"error": ("error",), "warning": ("error", "warning"), "never": ()}[fail_on]
    failed = any(counts[s] for s in failing)
    if fmt == "json":
        payload = {
            "command": "check",
            "version": __version__,
            "summary": {
                "tools": len(tools),
                "errors": counts["error"],
                "warnings": counts["warning"],
                "infos": counts["info"],
            },
            "tools": rows,
        }
        click.echo(_dumps(payload))
    else:
        for row in rows:
            for tid, found in row["targets"].items():
                for d in found["diagnostics"]:
                    click.echo(
                        f"{row['source']}: {row['name']} [{tid}] {d['severity']} {d['code']} "
                        f"{d['path']}: {d['message']}"
                    )
        click.echo(
            f"{counted(len(tools), 'tool')}, {counted(len(chosen), 'target')}: "
            f"{counted(counts['error'], 'error')}, {counted(counts['warning'], 'warning')}, "
            f"{counted(counts['info'], 'info')}."
        )
    sys.exit(1 if failed else 0)


# what a file name must not hold: path separators, `%` (the escape), the characters Windows
# refuses and control characters
_UNSAFE = re.compile(r'[/\\%:<>"|?*\x00-\x1f\x7f]')


def _file_name(name: str) -> str:
    """A tool's file: its name with `_` as `-` and each unsafe character (and a leading `.`) as
    `%XX`, so no name reaches outside its target's folder (`../x` is written `%2E.%2Fx.json`)."""
    stem = _UNSAFE.sub(lambda m: f"%{ord(m.group()):02X}", name.replace("_", "-"))
    if stem.startswith("."):  # a hidden file, or `..`
        stem = "%2E" + stem[1:]
    return stem + ".json"


def _clashes(owners: list[tuple[str, str]]) -> list[tuple[str, str]]:
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


def _write_atomic(out: Path, files: dict[str, str]) -> None:
    """Each file through a temporary file beside it, which is removed whatever goes wrong."""
    for rel, text in sorted(files.items()):
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(_json_text(text))
            os.replace(tmp, target)
        finally:
            if os.path.lexists(tmp):
                os.unlink(tmp)


@tool.command(name="compile")
@_paths
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Output folder. Without it nothing is written: the manifest (every compiled tool, "
    "its changes and warnings) is printed instead.",
)
@_targets_opt
@_provider_opt
@_endpoint_opt
@FORMAT_OPTION
@click.option("--allow-lossy", is_flag=True, help="Accept outputs that weaken the schema.")
def compile_command(
    paths: tuple[str, ...],
    out: Path | None,
    targets: str | None,
    provider: str | None,
    endpoint: str | None,
    fmt: str,
    allow_lossy: bool,
) -> None:
    """Write `<out>/<target>/<file>.json` for each tool and target, plus manifest.json.

    \b
    A tool's file is its name with `_` written `-`: `refund_order` is
    `refund-order.json`; a character a file name cannot hold, or a leading `.`,
    is written `%XX`.

    Without --out, print the manifest: each tool's output per target, with its changes and
    warnings (`--format json`: inside the report, as `manifest`).

    PATHS are `.json` files (a tool, a list of tools or {"tools": [...]}) or folders;
    `-` reads the JSON from standard input."""
    chosen = _targets("compile", fmt, targets, provider, endpoint=endpoint)
    tools = _load("compile", fmt, paths)
    files: dict[str, str] = {}
    owners: list[tuple[str, str]] = []  # (file, the tool written to it)
    manifest_tools = []
    refused: list[tuple[str, str, CompileResult]] = []
    for loaded in tools:
        per: dict[str, Any] = {}
        for target in chosen:
            result = compile_tool(loaded.tool, target, allow_lossy=allow_lossy)
            if not result.ok or result.output is None:
                refused.append((loaded.tool.name, target.id, result))
                continue
            rel = f"{target.id}/{_file_name(loaded.tool.name)}"
            files[rel] = stable_stringify(result.output)
            owners.append((rel, loaded.tool.name))
            per[target.id] = {
                "output": result.output,
                "transformations": [
                    t.model_dump(mode="json", by_alias=True) for t in result.transformations
                ],
                "warnings": [
                    {"code": d.code, "path": d.path, "message": d.message}
                    for d in result.diagnostics
                    if d.severity != "error"
                ],
            }
        if per:
            manifest_tools.append(
                {"name": loaded.tool.name, "source": _printable(loaded.source), "targets": per}
            )
    manifest = {
        "version": __version__,
        "targets": [t.id for t in chosen],
        "tools": manifest_tools,
    }
    files["manifest.json"] = stable_stringify(manifest)
    if out is not None:
        if clashes := _clashes(owners):
            _fail("compile", fmt, clashes)
        try:
            _write_atomic(out, files)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            unwritable = f"cannot write the output folder: {reason}"
            _fail("compile", fmt, [(str(out), unwritable)], _LOCAL_FILE)
        except UnicodeError as exc:  # a tool's name no file name can hold
            unwritable = f"cannot write the output folder: {exc}"
            _fail("compile", fmt, [(str(out), unwritable)], _LOCAL_FILE)
    if fmt == "json":
        report: dict[str, Any] = {
            "command": "compile",
            "version": __version__,
            "written": sorted(files) if out is not None else [],
            "refused": [
                {
                    "name": name,
                    "target": tid,
                    "diagnostics": [_diag_json(d) for d in r.diagnostics if d.severity == "error"],
                }
                for name, tid, r in refused
            ],
        }
        if out is None:
            report["manifest"] = manifest
        click.echo(_dumps(report))
    else:
        for name, tid, result in refused:
            for d in result.diagnostics:
                if d.severity == "error":
                    click.echo(f"{name} [{tid}] refused: {d.code} {d.path}: {d.message}", err=True)
        compiled = len(files) - 1
        if out is None:  # the manifest alone on stdout, so it can be piped; the tally beside it
            click.echo(_json_text(files["manifest.json"]), nl=False)
            click.echo(
                f"compiled {counted(compiled, 'tool output')}; {len(refused)} refused.", err=True
            )
        else:
            click.echo(
                f"wrote {counted(compiled, 'tool file')} and manifest.json to "
                f"{_printable(str(out))}; {len(refused)} refused."
            )
    sys.exit(1 if refused else 0)


def _worst(diags: Sequence[DiagnosticRecord]) -> str:
    ranks = {d[0] for d in diags}
    for rank, s in enumerate(("error", "warning", "info")):
        if rank in ranks:
            return s
    return "clean"


@tool.command()
@_paths
@_targets_opt
@FORMAT_OPTION
def matrix(paths: tuple[str, ...], targets: str | None, fmt: str) -> None:
    """One row per tool, one column per target: the worst finding (✓ none, i info, ! warning,
    ✗ error).

    PATHS are `.json` files (a tool, a list of tools or {"tools": [...]}) or folders;
    `-` reads the JSON from standard input."""
    chosen = _targets("matrix", fmt, targets, None)
    tools = _load("matrix", fmt, paths)
    cells = {
        (t.tool.name, target.id): _worst(run(t.tool, target).diagnostics)
        for t in tools
        for target in chosen
    }
    if fmt == "json":
        click.echo(
            _dumps(
                {
                    "command": "matrix",
                    "version": __version__,
                    "targets": [t.id for t in chosen],
                    "tools": [
                        {
                            "name": t.tool.name,
                            "targets": {tg.id: cells[(t.tool.name, tg.id)] for tg in chosen},
                        }
                        for t in tools
                    ],
                }
            )
        )
        return
    width = max([len("tool"), *(len(t.tool.name) for t in tools)])
    click.echo("tool".ljust(width) + "  " + "  ".join(t.id for t in chosen))
    for t in tools:
        row = "  ".join(_SYMBOL[cells[(t.tool.name, tg.id)]].center(len(tg.id)) for tg in chosen)
        click.echo((t.tool.name.ljust(width) + "  " + row).rstrip())
    clean = " · ".join(
        f"{tg.display_name} {sum(1 for t in tools if cells[(t.tool.name, tg.id)] in ('clean', 'info'))}/{len(tools)}"
        for tg in chosen
    )
    click.echo("Worst finding: ✓ none · i info · ! warning · ✗ error")
    click.echo(f"Clean: {clean}")


@tool.command()
@click.argument("old", type=click.Path(allow_dash=True))
@click.argument("new", type=click.Path(allow_dash=True))
@_targets_opt
@FORMAT_OPTION
@click.option(
    "--fail-on",
    type=Choice(["breaking", "any", "never"]),
    default="breaking",
    show_default=True,
    help="What makes the exit status 1: a breaking change (a removed tool, a target that no "
    "longer compiles it), any change, or never.",
)
def diff(old: str, new: str, targets: str | None, fmt: str, fail_on: str) -> None:
    """Compare two versions of a tool set: removed tools and compile verdicts per target.

    OLD and NEW are `.json` files or folders; `-` reads one of them from standard input."""
    chosen = _targets("diff", fmt, targets, None)
    # one side may hold no tools: every tool added, or every tool removed
    before = {t.tool.name: t for t in _load("diff", fmt, [old], empty_ok=True)}
    after = {t.tool.name: t for t in _load("diff", fmt, [new], empty_ok=True)}
    changes: list[dict[str, Any]] = []
    for name in sorted(set(before) | set(after)):
        if name not in after:
            changes.append({"tool": name, "kind": "removed", "breaking": True})
            continue
        if name not in before:
            changes.append({"tool": name, "kind": "added", "breaking": False})
            continue
        if before[name].tool != after[name].tool:
            changes.append({"tool": name, "kind": "schema-changed", "breaking": False})
        for target in chosen:
            a = compile_tool(before[name].tool, target)
            b = compile_tool(after[name].tool, target)
            if a.ok and not b.ok:
                changes.append(
                    {"tool": name, "target": target.id, "kind": "regressed", "breaking": True}
                )
            elif b.ok and not a.ok:
                changes.append(
                    {"tool": name, "target": target.id, "kind": "fixed", "breaking": False}
                )
            elif sorted({d.code for d in a.diagnostics}) != sorted({d.code for d in b.diagnostics}):
                changes.append(
                    {
                        "tool": name,
                        "target": target.id,
                        "kind": "findings-changed",
                        "breaking": False,
                    }
                )
    failed = (fail_on == "any" and bool(changes)) or (
        fail_on == "breaking" and any(c["breaking"] for c in changes)
    )
    if fmt == "json":
        click.echo(_dumps({"command": "diff", "version": __version__, "changes": changes}))
    else:
        for c in changes:
            where = f" [{c['target']}]" if "target" in c else ""
            flag = " (breaking)" if c["breaking"] else ""
            click.echo(f"{c['tool']}{where}: {c['kind']}{flag}")
        click.echo(
            f"{counted(len(changes), 'change')}, {sum(c['breaking'] for c in changes)} breaking."
        )
    sys.exit(1 if failed else 0)


@tool.command(name="probe")
@_paths
@_targets_opt
@FORMAT_OPTION
@click.option("--model", default=None, help="The model to probe (default: the target's).")
@click.option("--allow-lossy", is_flag=True, help="Probe a lossy compile too.")
def probe_command(
    paths: tuple[str, ...], targets: str | None, fmt: str, model: str | None, allow_lossy: bool
) -> None:
    """Send each compiled tool to the hosted APIs once (needs their SDKs and API keys).

    PATHS are `.json` files (a tool, a list of tools or {"tools": [...]}) or folders;
    `-` reads the JSON from standard input."""
    chosen = _targets("probe", fmt, targets, None, hosted=True)
    tools = _load("probe", fmt, paths)
    results = [
        run_probe(t.tool, target, model=model, allow_lossy=allow_lossy)
        for t in tools
        for target in chosen
    ]
    if fmt == "json":
        click.echo(
            _dumps(
                {
                    "command": "probe",
                    "version": __version__,
                    "results": [r.model_dump(mode="json", by_alias=True) for r in results],
                }
            )
        )
    else:
        for r in results:
            extra = f" ({r.error_kind})" if r.error_kind else ""
            click.echo(f"{r.tool_name} [{r.provider_id}] {r.status}{extra}")
            for note in r.notes:
                click.echo(f"    {note}")
    verdicts = {r.status for r in results}
    kinds = {r.error_kind for r in results}
    if "rejected" in verdicts or "compile-refused" in kinds:
        sys.exit(1)
    if "error" in verdicts:
        sys.exit(3)
    sys.exit(0)
