"""`python -m generator build|check`: exit 0 clean, 1 diagnostics or stale output, 2 usage error."""

from __future__ import annotations

import json
import shlex
import sys
import time
from datetime import date, datetime
from pathlib import Path
from typing import Any

import click

from generator.diagnostics import render
from generator.emit import changed_files, counts, diff, write_tree
from generator.files import from_here
from generator.incremental import BuildRecord, FileCache, cache_dir, catalog_state, save_record
from generator.pipeline import Result, run

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
    type=click.Choice(["text", "json", "github"]),
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


def _counts(result: Result) -> str:
    assert result.snapshot is not None
    c = counts(result.snapshot)
    return (
        f"{c['providers']} providers, {c['endpoints']} endpoints, {c['aliases']} aliases, "
        f"{c['model_aliases']} model aliases, {c['models']} models, "
        f"{c['schema_targets']} schema targets"
    )


def _summary(result: Result, seconds: float) -> str:
    return f"{_counts(result)} in {seconds:.2f}s"


def _record(result: Result) -> BuildRecord:
    return BuildRecord(_counts(result), [d.as_json() for d in result.diagnostics])


def _report(result: Result, fmt: str, extra: dict[str, Any], catalog: Path) -> None:
    here = from_here(catalog)
    diagnostics = [here(d) for d in result.diagnostics]
    if fmt == "json":
        payload = {
            "ok": result.ok and not extra.get("stale"),
            "diagnostics": [d.as_json() for d in diagnostics],
            **extra,
        }
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    if diagnostics:
        click.echo(render(diagnostics, fmt), err=fmt == "text")
    if fmt == "text" and not result.ok:
        n = sum(1 for d in result.diagnostics if d.severity == "error")
        click.echo(
            f"provcat: {n} error{'s' if n != 1 else ''} in the catalog; nothing was written.",
            err=True,
        )


def _check_catalog(catalog: Path) -> None:
    if not (catalog / "providers").is_dir():
        raise click.UsageError(f"no catalog at {catalog}: expected a providers/ folder in it")


class _Commands(click.Group):
    """The commands, with `import` loaded when it is named: a build needs none of the importers."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), "import"})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name == "import":
            from generator.importers.cli import import_group

            return import_group
        return super().get_command(ctx, cmd_name)


@click.group(cls=_Commands)
def main() -> None:
    """provcat's catalog compiler: validate catalog/ and generate the snapshot and docs."""


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
    """Validate the whole catalog; when it is valid, regenerate the snapshot and docs."""
    _check_catalog(catalog)
    started = time.perf_counter()
    cache = None if no_cache else FileCache(cache_dir(catalog))
    before = catalog_state(catalog) if cache is not None else None
    result = run(catalog, import_paths, _day(as_of), cache)
    if not result.ok or result.files is None:
        _report(result, fmt, {}, catalog)
        sys.exit(1)
    changed = write_tree(out, result.files)
    if cache is not None:
        cache.prune()
        save_record(
            catalog,
            out,
            import_paths,
            _day(as_of) or date.today(),
            _record(result),
            result.files,
            before,
            cache.known,
        )
    summary = _summary(result, time.perf_counter() - started)
    state = f"{len(changed)} files updated" if changed else "unchanged"
    _report(result, fmt, {"summary": summary, "changed": changed, "cached": False}, catalog)
    if fmt != "json":
        click.echo(f"provcat: {summary}; {out.name}/ {state}.")


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
    _check_catalog(catalog)
    result = run(catalog, import_paths, _day(as_of))
    if not result.ok or result.files is None:
        _report(result, fmt, {}, catalog)
        sys.exit(1)
    stale = changed_files(out, result.files)
    _report(result, fmt, {"stale": stale}, catalog)
    if not stale:
        if fmt != "json":
            click.echo(f"provcat: {out.name}/ is up to date with the catalog.")
        return
    if fmt != "json":
        click.echo(diff(out, result.files), err=True)
        names = ", ".join(f"{out.name}/{name}" for name in stale[:8])
        more = f" and {len(stale) - 8} more" if len(stale) > 8 else ""
        click.echo(
            f"provcat: {out.name}/ is stale ({names}{more}); run "
            f"`{_rebuild_command(catalog, out, import_paths)}` and commit the result.",
            err=True,
        )
    sys.exit(1)


def _rebuild_command(catalog: Path, out: Path, import_paths: tuple[Path, ...]) -> str:
    """The command that regenerates ``out``: `make generate` only for the repository's own."""
    if catalog == ROOT / "catalog" and out == ROOT / "generated" and not import_paths:
        return "make generate"
    words = ["python", "-m", "generator", "build", "--catalog", str(catalog), "--out", str(out)]
    for path in import_paths:
        words += ["--import-path", str(path)]
    return shlex.join(words)
