"""`python -m generator build|check`: exit 0 clean, 1 diagnostics or stale output, 2 usage error."""

from __future__ import annotations

import shlex
import sys
from datetime import date, datetime
from pathlib import Path

import click

from generator.build_args import FORMATS, BuildArgs
from generator.build_cmd import build as run_build
from generator.build_cmd import report
from generator.emit import changed_files, diff
from generator.pipeline import run

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
    type=click.Choice(FORMATS),
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
    code = run_build(BuildArgs(catalog, out, fmt, import_paths, _day(as_of), no_cache))
    if code:
        sys.exit(code)


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
        report(result, fmt, {}, catalog)
        sys.exit(1)
    stale = changed_files(out, result.files)
    report(result, fmt, {"stale": stale}, catalog)
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
