"""`python -m generator build|check`: exit 0 clean, 1 diagnostics or stale output, 2 usage error.

The compiler (generator.pipeline) is imported once the no-change check has missed: an unchanged
build answers from the build cache's record (generator.cache) without it.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from generator import GENERATOR_VERSION
from generator.cache import (
    BuildRecord,
    FileCache,
    cache_dir,
    catalog_digest,
    save_record,
    unchanged,
)
from generator.codes import CODES
from generator.diagnostics import Diagnostic, counted, render
from generator.files import from_here
from generator.refusals import folder, foreign_refusal, refuse, refuse_out, usage_error
from generator.tree import (
    GENERATED_MARKER,
    UnsafeOutput,
    changed_files,
    diff,
    foreign_entries,
    path_refusal,
    write_tree,
)
from provcat.cli.choice import Choice
from provcat.cli.failures import for_terminal, json_requested, usage_message

if TYPE_CHECKING:
    from generator.pipeline import Result

FORMATS = ("text", "json", "github")
ROOT = Path(__file__).resolve().parent.parent

_catalog = click.option(
    "--catalog",
    type=click.Path(file_okay=False, path_type=Path),
    default=ROOT / "catalog",
    show_default="catalog/",
    help="The catalog folder (holding providers/).",
)
_out = click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=ROOT / "generated",
    show_default="generated/",
    help="Where the snapshot package and docs are written.",
)
_format = click.option(
    "--format",
    "fmt",
    type=Choice(FORMATS),
    default="text",
    show_default=True,
    help="How diagnostics are printed.",
)
_import_path = click.option(
    "--import-path",
    "import_paths",
    multiple=True,
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="A folder to import provider modules from, before the installed ones (repeatable).",
)

_as_of = click.option(
    "--as-of",
    "as_of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Judge model lifecycle (deprecated, retired) as of this day, YYYY-MM-DD "
    "[default: today]. Never changes the generated files.",
)


def _day(value: datetime | None) -> date | None:
    return value.date() if value is not None else None


def _check_catalog(catalog: Path, fmt: str) -> None:
    if not (catalog / "providers").is_dir():
        usage_error(
            "NoCatalog", f"no catalog at {catalog}: expected a providers/ folder in it", fmt
        )


class _Commands(click.Group):
    """The commands, with `import` and `site` loaded when named: a build needs neither. A command
    line click refuses is, under `--format json` (wherever it stands), the JSON usage error the
    commands' own refusals are."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_ARGS] = list(args)
        try:
            return super().parse_args(ctx, args)
        except click.ClickException as exc:
            if isinstance(exc, click.UsageError):
                _json_usage(exc, ctx)
            for_terminal(exc)  # in text, a quoted control character is shown as its escape
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            if isinstance(exc, click.UsageError):
                _json_usage(exc, ctx)
            for_terminal(exc)
            raise

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), "import", "site"})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name == "import":
            # deferred: only `import` needs the importer and what it imports (a build never)
            from generator.importers.cli import import_group

            return import_group
        if cmd_name == "site":
            # deferred, as `import` is: only `site` needs the site's command
            from generator.site.cli import site

            return site
        return super().get_command(ctx, cmd_name)


_ARGS = "generator.args"  # ctx.meta key of the root context: the command line after `generator`


def _json_usage(exc: click.UsageError, ctx: click.Context) -> None:
    """``exc`` as the JSON usage error when the command line asks for JSON (else return)."""
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):
        return
    if json_requested(ctx.find_root().meta.get(_ARGS, ())):
        usage_error("UsageError", usage_message(exc), "json")


@click.group(cls=_Commands)
@click.version_option(
    GENERATOR_VERSION, prog_name="provcat generator", message="%(prog)s %(version)s"
)
def main() -> None:
    """provcat's catalog compiler: validate catalog/ and generate the snapshot and docs."""


def _counts(result: Result) -> str:
    # deferred, as the compiler is: render imports jinja2, which a no-change build never needs
    from generator.render import counts

    assert result.snapshot is not None
    c = counts(result.snapshot)
    return ", ".join(
        (
            counted(c["providers"], "provider"),
            counted(c["endpoints"], "endpoint"),
            counted(c["aliases"], "alias", "aliases"),
            counted(c["model_aliases"], "policy model alias", "policy model aliases"),
            counted(c["models"], "model"),
            counted(c["schema_targets"], "schema target"),
        )
    )


def _report(
    diagnostics: list[Diagnostic],
    ok: bool,
    fmt: str,
    extra: dict[str, Any],
    catalog: Path,
    outcome: str = "nothing was written",
) -> None:
    """The diagnostics, then (text, on errors) a last line: the count of errors and ``outcome``,
    what the command did not do because of them."""
    here = from_here(catalog)
    shown = [here(d) for d in diagnostics]
    if fmt == "json":
        payload = {
            "ok": ok and not extra.get("stale"),
            "errors": sum(1 for d in diagnostics if d.severity == "error"),
            "warnings": sum(1 for d in diagnostics if d.severity == "warning"),
            # what the text's last line says: such files were checked no further
            "unchecked": not ok and unchecked(diagnostics),
            "diagnostics": [d.as_json() for d in shown],
            **extra,
        }
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    if shown:
        click.echo(render(shown, fmt), err=fmt == "text")
    if fmt == "text" and not ok:
        n = sum(1 for d in diagnostics if d.severity == "error")
        line = f"provcat: {counted(n, 'error')} in the catalog; {outcome}."
        if unchecked(shown):
            # such a file takes part in the key checks at most (its records may be half made)
            line += (
                " Files with YAML or schema errors were not checked further: fix those and run "
                "again to see the rest."
            )
        click.echo(line, err=True)


def unchecked(diagnostics: list[Diagnostic]) -> bool:
    """Whether a file was checked no further because of its YAML or schema errors (a file that
    is no catalog file at all, ``unexpected_file``, was never meant to be read)."""
    return any(
        d.severity == "error"
        and d.code != "unexpected_file"
        and _stage(d.code) in ("loader", "schema")
        for d in diagnostics
    )


def _stage(code: str) -> str | None:
    found = CODES.get(code)
    return found.stage if found is not None else None


def report(
    result: Result,
    fmt: str,
    extra: dict[str, Any],
    catalog: Path,
    outcome: str = "nothing was written",
) -> None:
    _report(result.diagnostics, result.ok, fmt, extra, catalog, outcome)


def _done(
    diagnostics: list[Diagnostic],
    summary: str,
    changed: list[str],
    cached: bool,
    fmt: str,
    catalog: Path,
    out: Path,
) -> None:
    """What a successful build prints."""
    _report(
        diagnostics, True, fmt, {"summary": summary, "changed": changed, "cached": cached}, catalog
    )
    if fmt != "json":
        state = f"{counted(len(changed), 'file')} updated" if changed else "unchanged"
        click.echo(f"provcat: {summary}; {folder(out)}/ {state}.")


@main.command()
@_catalog
@_out
@_format
@_import_path
@_as_of
@click.option(
    "--no-cache",
    is_flag=True,
    help="Build everything from scratch: read no cache and write none (.provcat-cache/).",
)
def build(
    catalog: Path,
    out: Path,
    fmt: str,
    import_paths: tuple[Path, ...],
    as_of: datetime | None,
    no_cache: bool,
) -> None:
    """Validate the whole catalog; when it is valid, regenerate the snapshot and docs.

    The output folder is replaced as a whole, so it must be the generator's: a new or empty
    folder, or one holding only what the generator wrote (never the catalog, a folder around
    it or inside it, nor the current folder or one of its parents)."""
    _check_catalog(catalog, fmt)
    refused = path_refusal(out, {"the catalog folder": catalog})
    if refused is not None:
        refuse_out(refused, fmt)
    started = time.perf_counter()
    day = _day(as_of) or date.today()
    use_cache = not (no_cache or os.environ.get("PROVCAT_NO_CACHE"))
    # the catalog as it is before the build reads it: an edit made while it runs is built next time
    # (None: a file could not be hashed; the build runs in full, and its loader reports the file)
    before = catalog_digest(catalog) if use_cache else None
    if before is not None:
        record = unchanged(catalog, out, import_paths, day, before)
        if record is not None:
            kept = [Diagnostic(**{k: d[k] for k in _FIELDS}) for d in record.diagnostics]
            summary = f"{record.counts} in {time.perf_counter() - started:.2f}s"
            _done(kept, summary, [], True, fmt, catalog, out)
            return
    cache = FileCache(cache_dir(catalog)) if use_cache else None
    # deferred: the compiler loads only once the no-change check has missed (module docstring)
    from generator.pipeline import run

    result = run(catalog, import_paths, day, cache)
    if not result.ok or result.files is None:
        report(result, fmt, {}, catalog)
        sys.exit(1)
    try:
        changed = write_tree(
            out, result.files, protect={"the catalog folder": catalog}, marker=GENERATED_MARKER
        )
    except UnsafeOutput as exc:
        if exc.foreign:  # no usage mistake: files to delete or move, wherever --out came from
            refuse("UnsafeOutput", foreign_refusal(out, exc.foreign), fmt)
        refuse_out(str(exc), fmt)
    counts = _counts(result)
    if cache is not None:
        cache.prune()
    if before is not None:
        shown = [d.as_json() for d in result.diagnostics]
        save_record(
            catalog, out, import_paths, day, BuildRecord(counts, shown), before, result.files
        )
    summary = f"{counts} in {time.perf_counter() - started:.2f}s"
    _done(result.diagnostics, summary, changed, False, fmt, catalog, out)


_FIELDS = ("file", "line", "column", "code", "message", "hint")


@main.command()
@_catalog
@_out
@_format
@_import_path
@_as_of
def check(
    catalog: Path,
    out: Path,
    fmt: str,
    import_paths: tuple[Path, ...],
    as_of: datetime | None,
) -> None:
    """Validate the catalog and fail when the generated files do not match it."""
    # deferred: the compiler is no part of the other commands (see build)
    from generator.pipeline import run

    _check_catalog(catalog, fmt)
    result = run(catalog, import_paths, _day(as_of))
    if not result.ok or result.files is None:
        # check never writes: what the errors stopped is the comparison with the output
        report(result, fmt, {}, catalog, f"{folder(out)}/ was not compared with it")
        sys.exit(1)
    stale = changed_files(out, result.files)
    # of those, the files the generator did not write: a build refuses them (never deletes one)
    foreign = (
        sorted(set(stale) & set(foreign_entries(out, result.files, GENERATED_MARKER)))
        if stale
        else []
    )
    # the stale paths are relative to the output folder, named as the text names it
    report(result, fmt, {"out": folder(out), "stale": stale, "foreign": foreign}, catalog)
    if not stale:
        if fmt != "json":
            click.echo(f"provcat: {folder(out)}/ is up to date with the catalog.")
        return
    if fmt != "json":
        shown = diff(out, result.files, folder(out), skip=foreign)
        if shown:
            click.echo(shown, err=True)
        if foreign:
            click.echo(_foreign_line(out, foreign), err=True)
        rest = [name for name in stale if name not in foreign]
        if rest:
            names = ", ".join(f"{folder(out)}/{name}" for name in rest[:8])
            more = f" and {len(rest) - 8} more" if len(rest) > 8 else ""
            click.echo(
                f"provcat: {folder(out)}/ is stale ({names}{more}); {'then ' if foreign else ''}"
                f"run `{_rebuild_command(catalog, out, import_paths)}` and commit the result.",
                err=True,
            )
    sys.exit(1)


def _foreign_line(out: Path, foreign: list[str]) -> str:
    """What ``check`` says of the files under ``out`` the generator did not write."""
    names = ", ".join(f"{folder(out)}/{name}" for name in foreign[:8])
    if len(foreign) > 8:
        names += f" and {len(foreign) - 8} more"
    one = len(foreign) == 1
    return (
        f"provcat: {names} {'is' if one else 'are'} not written by the generator: delete or move "
        f"{'it' if one else 'them'} (a build replaces {folder(out)}/ as a whole and never deletes "
        "what it did not write)."
    )


def _rebuild_command(catalog: Path, out: Path, import_paths: tuple[Path, ...]) -> str:
    """The command that regenerates ``out``: `make generate` only for the repository's own."""
    if catalog == ROOT / "catalog" and out == ROOT / "generated" and not import_paths:
        return "make generate"
    words = ["python", "-m", "generator", "build", "--catalog", str(catalog), "--out", str(out)]
    for path in import_paths:
        words += ["--import-path", str(path)]
    return shlex.join(words)
