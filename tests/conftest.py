"""Shared fixtures: a scratch copy of a test catalog and a way to run the generator on it."""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.cli import main

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FIXTURE_MODULES = TESTS / "fixture_modules"
BASE_CATALOG = TESTS / "catalogs" / "base"
SCHEMA_LINE = "# yaml-language-server: $schema=../../schemas/provider.schema.json\n"


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def json(self) -> Any:
        return json.loads(self.stdout)

    @property
    def codes(self) -> list[str]:
        return [d["code"] for d in self.json["diagnostics"]]

    def where(self, code: str) -> list[tuple[str, int, int]]:
        return [
            (d["file"], d["line"], d["column"])
            for d in self.json["diagnostics"]
            if d["code"] == code
        ]


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes, to prove a failed run wrote nothing."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


@dataclass
class Workspace:
    root: Path

    @property
    def catalog(self) -> Path:
        return self.root / "catalog"

    @property
    def providers(self) -> Path:
        return self.catalog / "providers"

    @property
    def out(self) -> Path:
        return self.root / "generated"

    def file(self, name: str) -> Path:
        return self.providers / name

    def write(self, name: str, text: str, *, header: bool = True) -> Path:
        path = self.providers / name
        path.write_text((SCHEMA_LINE if header else "") + text, encoding="utf-8")
        return path

    def edit(self, name: str, old: str, new: str) -> None:
        path = self.providers / name
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {name}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def run(self, command: str = "build", *extra: str, fmt: str = "json") -> Run:
        args = [
            command,
            "--catalog",
            str(self.catalog),
            "--out",
            str(self.out),
            "--import-path",
            str(FIXTURE_MODULES),
            "--format",
            fmt,
            *extra,
        ]
        with contextlib.chdir(self.root):  # as a maintainer runs it, from the project's root
            result = CliRunner().invoke(main, args, catch_exceptions=False)
        return Run(result.exit_code, result.stdout, result.stderr)

    def fails(self, *expected: tuple[str, str, int, int]) -> Run:
        """Run build; it must fail with exactly ``expected`` (code, file, line, column) and write nothing."""
        before = tree_bytes(self.out)
        run = self.run()
        assert run.exit_code == 1, run.stdout + run.stderr
        found = sorted(
            (d["code"], Path(d["file"]).name, d["line"], d["column"])
            for d in run.json["diagnostics"]
        )
        assert found == sorted(expected), json.dumps(run.json["diagnostics"], indent=1)
        assert tree_bytes(self.out) == before, "a failed run changed generated/"
        return run


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    """A copy of the base test catalog with a valid generated/ beside it."""
    ws = Workspace(tmp_path)
    shutil.copytree(BASE_CATALOG, ws.catalog)
    for path in ws.providers.glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("../../../../schemas/", "../../schemas/"), encoding="utf-8")
    run = ws.run()
    assert run.exit_code == 0, run.stdout + run.stderr
    return ws


WorkspaceFactory = Callable[[], Workspace]
