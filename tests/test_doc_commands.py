"""Every shell command of the README, CONTRIBUTING.md and docs/ that can run offline runs as
written (issue #25): each fenced `sh` or `console` block's commands, in a scratch copy of the
clone (its `.venv` linked in), one block's commands in one shell so `cd` and files carry on.

A `sh` command whose comment says "exits N" must exit N. A `console` block shows output too: every output line it shows (but `...` elisions) must appear
in what the command prints, in order, and a shown `$ echo $?` is the exit status the command
before it must have; any other command must exit 0. Optional parts written `[--format json]` are
run both without and with the brackets' content.

What cannot run here is named in SKIPPED with the reason and the test that covers it instead;
a command that matches none of them and still cannot run fails this test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import ROOT

PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(sh|console)\n(.*?)^```", re.M | re.S)

# (a pattern a command matches, why it does not run here)
SKIPPED: list[tuple[str, str]] = [
    (r"^python3 -m venv|pip install|python -m build", "network or PyPI: tests/test_install.py"),
    (r"^make ", "the whole set-up or suite: `make test` is what runs this test"),
    (r"provcat hub |^export |^cat manifest|^find site", "a running hub: tests/hub/"),
    (
        r"^rm -r ~/\.local/share/provcat/adapters/",
        "the store a running hub's pull filled: tests/hub/test_docs.py",
    ),
    (
        r"generator import models-dev|--catalog catalog-big|build/big",
        "tests/scale/, tests/site/test_big_catalog.py",
    ),
    (r"[A-Z]{3,}|\|", "a syntax summary with placeholders (DIR, A|B), not a command"),
    (r"provcat tool probe", "the hosted APIs: tests/toolschema/test_probe.py"),
    (r"site --serve|http\.server", "a server that runs until stopped: tests/site/test_build.py"),
]


@dataclass
class Step:
    command: str
    shown: list[str] = field(default_factory=list)  # the output lines a console block shows
    status: int = 0


@dataclass
class Block:
    page: str
    line: int
    steps: list[Step]


def _skip_reason(command: str) -> str | None:
    for pattern, reason in SKIPPED:
        if re.search(pattern, command):
            return reason
    return None


def _variants(command: str) -> list[str]:
    """``a [--x y]`` -> ``a`` and ``a --x y``."""
    if "[" not in command or "[" in command.split("#")[0].split("]")[-1]:
        return [command]
    plain = re.sub(r"\s*\[[^\]]*\]", "", command)
    full = re.sub(r"\[([^\]]*)\]", r"\1", command)
    return [plain, full]


def _blocks() -> list[Block]:
    blocks: list[Block] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            kind, body = match.groups()
            line = text[: match.start()].count("\n") + 1
            steps: list[Step] = []
            for raw in body.replace("\\\n", " ").splitlines():  # continued lines joined
                if kind == "sh":
                    command, _, comment = raw.partition("  #")
                    command = command.strip()
                    if command and not command.startswith("#"):
                        # a comment "exits N" says the status the command has as written
                        said = re.search(r"\bexits (\d+)", comment)
                        steps.append(Step(command, status=int(said.group(1)) if said else 0))
                elif raw.startswith("$ "):
                    steps.append(Step(raw[2:].split("  #", 1)[0].strip()))
                elif steps:
                    steps[-1].shown.append(raw)
            # a shown `echo $?` gives the status of the command before it
            kept: list[Step] = []
            for step in steps:
                if step.command == "echo $?" and kept and step.shown:
                    kept[-1].status = int(step.shown[0])
                    continue
                kept.append(step)
            if kept:
                blocks.append(Block(str(page.relative_to(ROOT)), line, kept))
    return blocks


BLOCKS = _blocks()


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch copy of what the commands read, so that nothing they write lands in the tree."""
    root = tmp_path_factory.mktemp("clone")
    for name in ("catalog", "schemas", "generator", "generated", "examples"):
        shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    (root / ".venv").symlink_to(ROOT / ".venv")
    return root


def _appears_in_order(shown: list[str], printed: str) -> str | None:
    """The first shown line missing from ``printed`` (in order), or None."""
    lines = printed.splitlines()
    at = 0
    for want in shown:
        if want.strip() in ("...", "…", ""):
            continue
        want = want.split("      #", 1)[0].rstrip()
        while at < len(lines) and lines[at].rstrip() != want:
            at += 1
        if at == len(lines):
            return want
        at += 1
    return None


def test_every_page_with_commands_is_collected() -> None:
    pages = {block.page for block in BLOCKS}
    assert {"README.md", "CONTRIBUTING.md", "docs/tool-schemas.md", "docs/models.md"} <= pages


@pytest.mark.parametrize("block", BLOCKS, ids=[f"{b.page}:{b.line}" for b in BLOCKS])
def test_the_commands_run_as_written(block: Block, clone: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env.update(COLUMNS="100", NO_COLOR="1", PROVCAT_STRICT="")
    ran = 0
    for step in block.steps:
        if _skip_reason(step.command):
            continue
        for command in _variants(step.command):
            result = subprocess.run(
                ["bash", "-c", command],
                cwd=clone,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,  # one stream, in the order a terminal shows it
                text=True,
                timeout=300,
            )
            printed = result.stdout
            assert result.returncode == step.status, (command, printed[-2000:])
            if command == _variants(step.command)[-1]:
                missing = _appears_in_order(step.shown, printed)
                assert missing is None, (command, missing, printed[-3000:])
            ran += 1
    if not ran:
        pytest.skip("every command of this block is named in SKIPPED")


def _example(name: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split(f"<!-- example: {name} -->\n```python\n", 1)[1].split("```", 1)[0]


def test_the_tool_example_prints_what_its_comments_say(clone: Path) -> None:
    code = _example("tool")
    (clone / "tool.py").write_text(code, encoding="utf-8")
    result = subprocess.run(
        [str(clone / ".venv" / "bin" / "python"), "tool.py"],
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    said = [line.split("  # ", 1)[1] for line in code.splitlines() if "  # " in line]
    said += [line[2:] for line in code.splitlines() if line.startswith("# ")]
    assert result.stdout.splitlines() == said


def test_the_quickstart_python_runs_as_written_and_prints_what_its_comments_say(
    clone: Path,
) -> None:
    code = _example("quickstart")
    (clone / "first.py").write_text(code, encoding="utf-8")
    result = subprocess.run(
        [str(clone / ".venv" / "bin" / "python"), "first.py"],
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(clone)},  # no API key, no network needed
    )
    assert result.returncode == 0, result.stderr
    said = [line.split("  # ", 1)[1] for line in code.splitlines() if "  # " in line]
    printed = result.stdout.splitlines()
    assert printed[: len(said)] == said
    assert len(printed) == 3 and printed[2] == "0.00200000"  # 1000 x $1.00/M + 200 x $5.00/M
