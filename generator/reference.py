"""The Python API and command-line references, written from the code itself.

``python -m generator.reference`` (``make docs``) writes ``docs/reference/api.md`` from the
docstrings and signatures of every public name (each package's ``__all__``) and
``docs/reference/cli.md`` from the click commands of ``provcat`` and ``python -m generator``;
``--check`` writes nothing and exits 1 when either file differs from what the code gives
(``make test`` runs it as a test). The output is deterministic: names in code-point order, help
text at a fixed width of 100 columns.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import sys
import typing
from pathlib import Path
from typing import Any

import click

from generator.cli import main as generator_main
from provcat.cli.main import main as provcat_main

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "reference"
WIDTH = 100

# the public packages, in the order a reader meets them
PACKAGES = (
    "provcat",
    "provcat.catalog",
    "provcat.errors",
    "provcat.toolschema",
    "provcat.hub",
    "provcat.hub.errors",
)

HEADER = (
    "<!-- Written by `make docs` (python -m generator.reference) from the code; do not edit. -->\n"
)


def _doc(obj: Any) -> str:
    return inspect.getdoc(obj) or "(no docstring)"


def _plain(text: str) -> str:
    """A type as written in the code: Pythons before 3.13 spell some as ``typing.Annotated``."""
    return text.replace("typing.", "")


def _signature(name: str, obj: Any) -> str:
    try:
        return _plain(f"{name}{inspect.signature(obj)}")
    except (TypeError, ValueError):
        return name


def _own_members(cls: type) -> list[tuple[str, Any]]:
    """The public methods and properties a class defines itself (not those it inherits)."""
    members = []
    for name, value in sorted(vars(cls).items()):
        if name.startswith("_"):
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if inspect.isfunction(value) and not value.__module__.startswith("provcat"):
            continue  # a helper from elsewhere kept as an attribute, not this class's API
        if inspect.isfunction(value) or isinstance(value, property):
            members.append((name, value))
    return members


def _public_bases(cls: type) -> list[type]:
    """The bases a reader can name: a private base (``_LifecycleRetired``) stands for its own
    public bases, in order, each once; ``object`` is left out."""
    found: list[type] = []
    for base in cls.__bases__:
        for public in _public_bases(base) if base.__name__.startswith("_") else [base]:
            if public is not object and public not in found:
                found.append(public)
    return found


def _describe(qualified: str, obj: Any) -> list[str]:
    lines = [f"### `{qualified}`", ""]
    if inspect.isclass(obj):
        bases = ", ".join(b.__name__ for b in _public_bases(obj))
        kind = "exception" if issubclass(obj, BaseException) else "class"
        lines += [f"*{kind}*" + (f" ({bases})" if bases else ""), ""]
        if issubclass(obj, enum.Enum):  # its members; Enum's own signature varies by Python
            lines += ["```python", *(f"{obj.__name__}.{m.name} = {m.value!r}" for m in obj)]
            lines += ["```", ""]
        elif not issubclass(obj, BaseException):
            lines += ["```python", _signature(obj.__name__, obj), "```", ""]
        lines += [_doc(obj), ""]
        for name, member in _own_members(obj):
            if isinstance(member, property):
                lines += [f"- `{name}` (property): {_doc(member).splitlines()[0]}"]
            else:
                first = _doc(member).splitlines()[0]
                lines += [f"- `{_signature(name, member)}`: {first}"]
        if _own_members(obj):
            lines.append("")
    elif typing.get_origin(obj) is not None:  # a type alias such as Literal[...]
        lines += [f"`{qualified.rpartition('.')[2]} = {_plain(repr(obj))}`", ""]
    elif callable(obj):
        lines += ["```python", _signature(obj.__name__, obj), "```", "", _doc(obj), ""]
    else:
        lines += [f"`{qualified} = {obj!r}`", ""]
    return lines


def api_page() -> str:
    lines = [
        HEADER,
        "# Python API reference",
        "",
        "Every public name of provcat, with its signature and its docstring. The guides say what",
        "to do with them: [README](../../README.md), [docs/](../).",
        "",
    ]
    for package in PACKAGES:
        module = importlib.import_module(package)
        lines += [f"## `{package}`", "", _doc(module), ""]
        for name in sorted(getattr(module, "__all__", ())):
            lines += _describe(f"{package}.{name}", getattr(module, name))
    return "\n".join(lines).rstrip() + "\n"


def _commands(group: click.Command, ctx: click.Context) -> list[tuple[click.Context, str]]:
    """``(context, help text)`` of ``group`` and every command below it, depth first."""
    formatter = ctx.make_formatter()
    group.format_help(ctx, formatter)
    found = [(ctx, formatter.getvalue())]
    if isinstance(group, click.Group):
        for name in group.list_commands(ctx):
            sub = group.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            child = click.Context(sub, info_name=name, parent=ctx, max_content_width=WIDTH)
            child.terminal_width = WIDTH
            found += _commands(sub, child)
    return found


def cli_page() -> str:
    lines = [
        HEADER,
        "# Command-line reference",
        "",
        "Every command and option, as `--help` prints it. From a clone, run them as",
        "`.venv/bin/provcat …` and `.venv/bin/python -m generator …` (see the README's Install).",
        "",
    ]
    for root, name in ((provcat_main, "provcat"), (generator_main, "python -m generator")):
        ctx = click.Context(root, info_name=name, max_content_width=WIDTH)
        ctx.terminal_width = WIDTH
        for sub, text in _commands(root, ctx):
            lines += [f"## `{sub.command_path}`", "", "```", text.rstrip(), "```", ""]
    return "\n".join(lines).rstrip() + "\n"


def pages() -> dict[Path, str]:
    return {OUT / "api.md": api_page(), OUT / "cli.md": cli_page()}


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print("usage: python -m generator.reference [--check]", file=sys.stderr)
        return 2
    stale = []
    for path, text in pages().items():
        on_disk = path.read_text(encoding="utf-8") if path.exists() else None
        if on_disk == text:
            continue
        stale.append(path.relative_to(ROOT).as_posix())
        if not check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if check and stale:
        print(
            f"provcat: {', '.join(stale)} stale; run `make docs` and commit the result.",
            file=sys.stderr,
        )
        return 1
    print(f"provcat: docs/reference/ {'rewritten: ' + ', '.join(stale) if stale else 'unchanged'}.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
