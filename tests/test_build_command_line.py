"""`python -m generator build` reads a plain command line without click: the same output, the
same exit codes as click's command, and click's own reading for anything else."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.build_args import parse_build
from generator.cli import main
from tests.conftest import FIXTURE_MODULES, ROOT, Workspace, tree_bytes

# runs `python -m generator ARGS` and says whether click was imported
_DRIVER = """
import os, runpy, sys
sys.argv = ["generator", *sys.argv[1:]]
def said():
    sys.stderr.write("\\nclick imported: %s\\n" % ("click" in sys.modules))
    sys.stderr.flush()
end = os._exit
os._exit = lambda code: (said(), end(code))  # the build ends the process without unwinding
try:
    runpy.run_module("generator", run_name="__main__", alter_sys=True)
finally:
    said()
"""


def _timeless(text: str) -> str:
    return re.sub(r" in \d+\.\d\ds", " in T", text)


def _process(ws: Workspace, *args: str) -> tuple[int, str, str, bool]:
    done = subprocess.run(
        [sys.executable, "-c", _DRIVER, *args],
        cwd=ws.root,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    err, _, flag = done.stderr.rpartition("\nclick imported: ")
    return done.returncode, _timeless(done.stdout), _timeless(err), flag.strip() == "True"


def _click(ws: Workspace, *args: str) -> tuple[int, str, str]:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ws.root)
        result = CliRunner().invoke(main, list(args), prog_name="python -m generator")
    return result.exit_code, _timeless(result.stdout), _timeless(result.stderr)


def _base(ws: Workspace) -> list[str]:
    return [
        "build",
        "--catalog",
        "catalog",
        "--out",
        "generated",
        "--import-path",
        str(FIXTURE_MODULES),
    ]


@pytest.mark.parametrize(
    "extra",
    [
        ["--no-cache"],
        ["--no-cache", "--format", "json"],
        ["--no-cache", "--format=github", "--as-of", "2031-01-01"],
        ["--no-cache", "--out", "elsewhere"],  # the last one given wins
    ],
)
def test_a_plain_build_prints_and_exits_as_the_click_command_does(
    workspace: Workspace, extra: list[str]
) -> None:
    args = [*_base(workspace), *extra]
    code, out, err, clicked = _process(workspace, *args)
    assert not clicked
    shutil.rmtree(workspace.root / "elsewhere", ignore_errors=True)  # written anew by each
    assert (code, out, err) == _click(workspace, *args)


def test_a_catalog_with_errors_fails_as_the_click_command_does(workspace: Workspace) -> None:
    workspace.edit("alpha.yaml", "context_window: 8192}", "context_window: -5}")
    for fmt in ("text", "json"):
        args = [*_base(workspace), "--format", fmt]
        code, out, err, clicked = _process(workspace, *args)
        assert code == 1 and not clicked
        assert (code, out, err) == _click(workspace, *args)


@pytest.mark.parametrize(
    "extra",
    [
        ["--format", "xml"],
        ["--as-of", "2031-13-01"],
        ["--import-path", "nowhere"],
        ["--catalog", "nowhere"],
        ["--out", "catalog/providers/alpha.yaml"],
        ["--bogus"],
        ["--out"],
        ["--help"],
    ],
)
def test_anything_else_is_read_by_click(
    workspace: Workspace, extra: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [*_base(workspace), *extra]
    with monkeypatch.context() as patch:
        patch.chdir(workspace.root)
        assert parse_build(args) is None
    code, out, err, clicked = _process(workspace, *args)
    assert clicked
    if extra == ["--help"]:  # click wraps it to the terminal: CliRunner's is not the process's
        assert code == 0 and out.startswith("Usage: python -m generator build [OPTIONS]")
        return
    assert (code, out, err) == _click(workspace, *args)
    assert code == 2


def test_a_cached_build_without_click_writes_what_a_full_build_writes(
    workspace: Workspace, tmp_path: Path
) -> None:
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    code, out, _, clicked = _process(workspace, *_base(workspace), "--format", "json")
    assert code == 0 and not clicked
    assert json.loads(out)["changed"]
    full = workspace.run("build", "--no-cache", "--out", str(tmp_path / "full"))
    assert full.exit_code == 0
    assert tree_bytes(workspace.out) == tree_bytes(tmp_path / "full")


def test_the_options_read_are_those_click_reads(tmp_path: Path) -> None:
    (tmp_path / "c" / "providers").mkdir(parents=True)
    args = parse_build(
        ["build", "--catalog", str(tmp_path / "c"), "--out=o", "--as-of", "2026-2-3", "--no-cache"]
    )
    assert args is not None
    assert (args.catalog, args.out, args.fmt, args.import_paths) == (
        tmp_path / "c",
        Path("o"),
        "text",
        (),
    )
    assert args.as_of is not None and args.as_of.isoformat() == "2026-02-03" and args.no_cache
    assert parse_build(["check"]) is None
    assert parse_build(["build", "--as-of", "20260203"]) is None  # no day for strptime's %Y-%m-%d
    assert parse_build(["build", "--no-cache=1"]) is None
