"""`provcat tool check|compile|matrix|diff|probe`.

Exit status: 0 fine; 1 findings (check at or above --fail-on, a refused compile, a breaking diff,
a rejected probe); 2 usage or input error (nothing is processed or written; an unknown target or
provider is one, as SchemaPort's CLI has it); 3 a probe could not give a verdict because of the
environment (credentials, network, model, rate limit). With ``--format json`` an error is
SchemaPort's ``{command, version, errors}`` with provcat's ``error`` and ``message`` beside (and,
for a usage error, ``details.command``, as every command's usage error has it).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from provcat import __version__, terminal
from provcat.cli.choice import FORMAT_OPTION, Choice
from provcat.cli.failures import (
    USAGE_ERROR,
    hide_secrets,
    json_wanted,
    not_a_key,
    usage_message,
)
from provcat.cli.table import counted
from provcat.cli.tool_files import (
    DASH,
    LOCAL_FILE,
    chosen_targets,
    clashes,
    dumps,
    encodable,
    error_report,
    fail,
    file_name,
    json_text,
    load,
    shown_source,
    write_atomic,
)
from provcat.toolschema.api import compile_tool
from provcat.toolschema.executor import run
from provcat.toolschema.probe import probe as run_probe
from provcat.toolschema.records import DiagnosticRecord, materialize_diagnostics
from provcat.toolschema.types import CompileResult, Diagnostic
from provcat.toolschema.values import stable_stringify

__all__ = ["tool"]

_SYMBOL = {"clean": "✓", "warning": "!", "error": "✗", "info": "i"}


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
                message = encodable(usage_message(exc))
                click.echo(dumps(error_report(where.info_name, USAGE_ERROR, [("", message)])))
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
    chosen = chosen_targets("check", fmt, targets, provider, endpoint=endpoint)
    tools = load("check", fmt, paths)
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
        # a file's name shaped like a key is not repeated, as in the errors
        rows.append(
            {"name": loaded.tool.name, "source": shown_source(loaded.source), "targets": per}
        )
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
        click.echo(dumps(payload))
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
    chosen = chosen_targets("compile", fmt, targets, provider, endpoint=endpoint)
    tools = load("compile", fmt, paths)
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
            rel = f"{target.id}/{file_name(loaded.tool.name)}"
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
                {"name": loaded.tool.name, "source": shown_source(loaded.source), "targets": per}
            )
    manifest = {
        "version": __version__,
        "targets": [t.id for t in chosen],
        "tools": manifest_tools,
    }
    files["manifest.json"] = stable_stringify(manifest)
    if out is not None:
        if clashing := clashes(owners):
            fail("compile", fmt, clashing)
        try:
            write_atomic(out, files)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            unwritable = f"cannot write the output folder: {reason}"
            fail("compile", fmt, [(str(out), unwritable)], LOCAL_FILE)
        except UnicodeError as exc:  # a tool's name no file name can hold
            unwritable = f"cannot write the output folder: {exc}"
            fail("compile", fmt, [(str(out), unwritable)], LOCAL_FILE)
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
        click.echo(dumps(report))
    else:
        for name, tid, result in refused:
            for d in result.diagnostics:
                if d.severity == "error":
                    click.echo(f"{name} [{tid}] refused: {d.code} {d.path}: {d.message}", err=True)
        compiled = len(files) - 1
        if out is None:  # the manifest alone on stdout, so it can be piped; the tally beside it
            click.echo(json_text(files["manifest.json"]), nl=False)
            click.echo(
                f"compiled {counted(compiled, 'tool output')}; {len(refused)} refused.", err=True
            )
        else:
            click.echo(
                f"wrote {counted(compiled, 'tool file')} and manifest.json to "
                f"{shown_source(str(out))}; {len(refused)} refused."
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
    chosen = chosen_targets("matrix", fmt, targets, None)
    tools = load("matrix", fmt, paths)
    cells = {
        (t.tool.name, target.id): _worst(run(t.tool, target).diagnostics)
        for t in tools
        for target in chosen
    }
    if fmt == "json":
        click.echo(
            dumps(
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
    if old == new == DASH:  # one read of standard input, compared with itself, would pass
        raise click.UsageError(
            "OLD and NEW are both `-`: standard input can be one side only; give the other "
            "version as a file or folder",
            click.get_current_context(),
        )
    chosen = chosen_targets("diff", fmt, targets, None)
    # one side may hold no tools: every tool added, or every tool removed
    before = {t.tool.name: t for t in load("diff", fmt, [old], empty_ok=True)}
    after = {t.tool.name: t for t in load("diff", fmt, [new], empty_ok=True)}
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
        click.echo(dumps({"command": "diff", "version": __version__, "changes": changes}))
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
@click.option(
    "--model",
    default=None,
    callback=not_a_key(None),
    help="The model to probe (default: the target's).",
)
@click.option("--allow-lossy", is_flag=True, help="Probe a lossy compile too.")
def probe_command(
    paths: tuple[str, ...], targets: str | None, fmt: str, model: str | None, allow_lossy: bool
) -> None:
    """Send each compiled tool to the hosted APIs once (needs their SDKs and API keys).

    PATHS are `.json` files (a tool, a list of tools or {"tools": [...]}) or folders;
    `-` reads the JSON from standard input."""
    chosen = chosen_targets("probe", fmt, targets, None, hosted=True)
    tools = load("probe", fmt, paths)
    results = [
        run_probe(t.tool, target, model=model, allow_lossy=allow_lossy)
        for t in tools
        for target in chosen
    ]
    if fmt == "json":
        click.echo(
            dumps(
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
            if r.provider_error is not None:  # what the vendor said (redacted): why it refused
                status = f"HTTP {r.provider_error.status}: " if r.provider_error.status else ""
                # a control character (ESC, a line break) shown as its escape: the vendor's
                # text may not move the terminal's cursor or forge a line
                click.echo(f"    {status}{terminal.printable(r.provider_error.message)}")
            for problem in r.argument_errors or ():
                click.echo(f"    arguments: {problem}")
            for note in r.notes:
                click.echo(f"    {note}")
    verdicts = {r.status for r in results}
    kinds = {r.error_kind for r in results}
    if "rejected" in verdicts or "compile-refused" in kinds:
        sys.exit(1)
    if "error" in verdicts:
        sys.exit(3)
    sys.exit(0)
