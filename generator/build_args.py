"""`python -m generator build`'s options, read without click for the common command line.

A build is the command run most, and click's import was a tenth of a one-file rebuild. This
reads the command line only when every word of it is a plain use of `build`'s options whose
value click would take as given (an existing folder for `--import-path`, a YYYY-MM-DD day for
`--as-of`, one of the formats, a catalog or output path that is not a file); anything else
(`--help`, an unknown or misspelt option, a missing or odd value) returns None, and click reads
the command line as ever, with its messages and exit codes.
"""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from typing import NamedTuple

FORMATS = ("text", "json", "github")
_VALUED = {"--catalog": "catalog", "--out": "out", "--format": "fmt", "--as-of": "as_of"}


class BuildArgs(NamedTuple):
    catalog: Path
    out: Path
    fmt: str
    import_paths: tuple[Path, ...]
    as_of: date | None
    no_cache: bool


def _root() -> Path:
    """The project folder (the default catalog's and output's parent), found when needed."""
    return Path(__file__).resolve().parent.parent


def _day(value: str) -> date | None:
    """``value`` as click's ``DateTime(formats=["%Y-%m-%d"])`` reads it, or None."""
    from datetime import datetime  # strptime's module is imported only for --as-of

    try:
        return datetime.strptime(value, "%Y-%m-%d").date()
    except ValueError:
        return None


def parse_build(argv: list[str]) -> BuildArgs | None:
    """The options of ``build ...`` as click would read them; None for anything else."""
    if not argv or argv[0] != "build":
        return None
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return None  # a shell asks click for completions
    found: dict[str, str] = {}
    import_paths: list[Path] = []
    no_cache = False
    args = argv[1:]
    i = 0
    while i < len(args):
        name, eq, value = args[i].partition("=")
        if name == "--no-cache" and not eq:
            no_cache = True
            i += 1
            continue
        if name not in _VALUED and name != "--import-path":
            return None
        if not eq:
            if i + 1 >= len(args):
                return None
            value = args[i + 1]
            i += 1
        if not value or value.startswith("-"):
            return None  # click's own reading (and message) for an empty or option-like value
        if name == "--import-path":
            if not os.path.isdir(value):
                return None  # click says it does not exist, or is a file
            import_paths.append(Path(value))
        else:
            found[_VALUED[name]] = value  # the last one given wins, as with click
        i += 1
    fmt = found.get("fmt", "text")
    if fmt not in FORMATS:
        return None
    as_of = None
    if "as_of" in found:
        as_of = _day(found["as_of"])
        if as_of is None:
            return None
    paths = {}
    for name, default in (("catalog", "catalog"), ("out", "generated")):
        if name in found and os.path.isfile(found[name]):
            return None  # click refuses a file where a folder is expected
        paths[name] = Path(found[name]) if name in found else _root() / default
    if not (paths["catalog"] / "providers").is_dir():
        return None  # click's usage error says what is missing
    return BuildArgs(paths["catalog"], paths["out"], fmt, tuple(import_paths), as_of, no_cache)
