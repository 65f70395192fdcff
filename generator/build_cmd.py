"""The `build` command's work and what it prints, free of click: `python -m generator build`
runs it straight from its options (generator.build_args), the click command through them."""

from __future__ import annotations

import errno
import json
import os
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any, NoReturn

from generator.build_args import BuildArgs
from generator.diagnostics import render
from generator.emit import counts, write_tree
from generator.files import from_here
from generator.incremental import (
    BuildRecord,
    FileCache,
    cache_dir,
    catalog_state,
    previous_outputs,
    save_hashes,
    save_record,
    use_hashes,
)
from generator.outputs import Outputs
from generator.pipeline import Result, run
from generator.written import Stat, entries, probe, sha256


def echo(text: str, err: bool = False) -> None:
    """``click.echo``: the line and a line break, flushed. click leaves out terminal styles on
    a stream that is no terminal; text holding an escape goes through click itself."""
    if "\x1b" in text:
        import click

        click.echo(text, err=err)
        return
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n")
    stream.flush()


def _counted(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _counts(result: Result) -> str:
    assert result.snapshot is not None
    c = counts(result.snapshot)
    return ", ".join(
        (
            _counted(c["providers"], "provider", "providers"),
            _counted(c["endpoints"], "endpoint", "endpoints"),
            _counted(c["aliases"], "alias", "aliases"),
            _counted(c["model_aliases"], "model alias", "model aliases"),
            _counted(c["models"], "model", "models"),
            _counted(c["schema_targets"], "schema target", "schema targets"),
        )
    )


def _record(result: Result) -> BuildRecord:
    return BuildRecord(_counts(result), [d.as_json() for d in result.diagnostics])


def report(result: Result, fmt: str, extra: dict[str, Any], catalog: Path) -> None:
    here = from_here(catalog)
    diagnostics = [here(d) for d in result.diagnostics]
    if fmt == "json":
        payload = {
            "ok": result.ok and not extra.get("stale"),
            "diagnostics": [d.as_json() for d in diagnostics],
            **extra,
        }
        echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    if diagnostics:
        echo(render(diagnostics, fmt), err=fmt == "text")
    if fmt == "text" and not result.ok:
        n = sum(1 for d in result.diagnostics if d.severity == "error")
        echo(
            f"provcat: {n} error{'s' if n != 1 else ''} in the catalog; nothing was written.",
            err=True,
        )


def _left(out: Path, files: Any, seen: dict[str, Stat]) -> dict[str, list[Any]]:
    """The record's ``outputs``: what ``out`` now holds (generator.written)."""
    digests = {}
    for name in files:
        if isinstance(files, Outputs):
            digests[name] = (files.digest(name), files.key(name))
        else:
            digests[name] = (sha256(files[name].encode("utf-8")), None)
    # the probe goes in the output folder: should the build stop before it is removed, the next
    # build removes it as a file it does not make
    return entries(digests, seen, probe(str(out)))


def build(args: BuildArgs) -> int:
    """Validate the whole catalog; when it is valid, regenerate the snapshot and docs. Returns
    the exit code (the catalog folder is known to hold providers/)."""
    catalog, out, fmt = args.catalog, args.out, args.fmt
    started = time.perf_counter()
    no_cache = args.no_cache or bool(os.environ.get("PROVCAT_NO_CACHE"))
    if not no_cache:
        use_hashes(catalog)
    cache = None if no_cache else FileCache(cache_dir(catalog))
    before = catalog_state(catalog) if cache is not None else None
    if cache is not None:
        cache.written = previous_outputs(catalog, out)
    result = run(catalog, args.import_paths, args.as_of, cache)
    if not result.ok or result.files is None:
        report(result, fmt, {}, catalog)
        return 1
    seen: dict[str, Stat] = {}
    changed = write_tree(out, result.files, cache.written if cache else None, seen)
    if cache is not None:
        cache.prune()
        save_record(
            catalog,
            out,
            args.import_paths,
            args.as_of or date.today(),
            _record(result),
            _left(out, result.files, seen),
            before,
        )
        save_hashes()
    summary = f"{_counts(result)} in {time.perf_counter() - started:.2f}s"
    state = f"{_counted(len(changed), 'file', 'files')} updated" if changed else "unchanged"
    report(result, fmt, {"summary": summary, "changed": changed, "cached": False}, catalog)
    if fmt != "json":
        echo(f"provcat: {summary}; {out.name}/ {state}.")
    return 0


class _Quiet:
    """A stream whose flush ignores a closed pipe (as click leaves stdout and stderr then)."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as error:
            if error.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


def main(args: BuildArgs) -> NoReturn:
    """Run ``build`` as click's standalone mode runs a command: exit 0, or the build's code;
    Ctrl-C or end of input print a blank line and "Aborted!" and exit 1; a closed pipe exits 1
    quietly."""
    try:
        code = build(args)
    except (EOFError, KeyboardInterrupt):
        echo("", err=True)
        echo("Aborted!", err=True)
        sys.exit(1)
    except OSError as error:
        if error.errno != errno.EPIPE:
            raise
        sys.stdout = _Quiet(sys.stdout)
        sys.stderr = _Quiet(sys.stderr)
        sys.exit(1)
    _end(code)


def _end(code: int) -> NoReturn:
    """End the process without taking the interpreter apart: freeing a build's objects one by
    one at exit was a tenth of a one-file rebuild's CPU time. Every file the build wrote is
    closed by then, nothing registers exit handlers, and the two streams are flushed here."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError as error:
        if error.errno != errno.EPIPE:
            raise
        os._exit(1)  # as click ends on a closed pipe
    os._exit(code)
