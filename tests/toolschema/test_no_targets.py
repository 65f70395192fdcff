"""A snapshot built from a catalog without `schema-targets/` (a big catalog imported before the
import copied the targets): every way in says so and what to do, and `provcat tool matrix` is an
input error rather than an empty table. The snapshot is a real build, first on PYTHONPATH in a
fresh process, as docs/big-catalog.md uses one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main as generator_main
from tests.conftest import SCHEMA_LINE
from tests.toolschema.conftest import FIXTURES

ACME = SCHEMA_LINE + (
    "provider: acme\ndisplay_name: Acme\n"
    "defaults: {base_url: 'https://api.acme.test/v1', auth_type: bearer, api_key_env: ACME_KEY}\n"
    "endpoints:\n  chat/completions: {type: api, protocol: openai-chat}\n"
    "models:\n  m1: {context_window: 1000}\n"
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the built snapshot's folder, a folder of tools)."""
    root = tmp_path_factory.mktemp("no-targets")
    providers = root / "bare" / "providers"
    providers.mkdir(parents=True)
    (providers / "acme.yaml").write_text(ACME, encoding="utf-8")
    out = root / "build"
    result = CliRunner().invoke(
        generator_main, ["build", "--catalog", str(root / "bare"), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "0 schema targets" in result.stdout
    tools = root / "tools"
    tools.mkdir()
    (tools / "refund.json").write_text(json.dumps(FIXTURES["refund_order"]), encoding="utf-8")
    return out, tools


def _said(out: Path) -> str:
    return (
        f"the catalog at {out / 'provcat_catalog'} has no schema targets: copy "
        "catalog/schema-targets/ into the catalog it was built from (bare/) and build again"
    )


def _python(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # the built snapshot first, before the bundled one (the runner's own path kept after it)
    path = [str(out), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=out.parent
    )


def _provcat(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _python(out, "-c", "from provcat.cli.main import main; main()", *args)


def test_matrix_without_targets_is_an_input_error(built: tuple[Path, Path]) -> None:
    """It printed a table with no target columns and exited 0."""
    out, tools = built
    done = _provcat(out, "tool", "matrix", str(tools))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    assert (
        done.stderr == f"{_said(out)}\nprovcat tool matrix: input error; nothing was processed.\n"
    )
    done = _provcat(out, "tool", "matrix", str(tools), "--format", "json")
    assert done.returncode == 2
    report = json.loads(done.stdout)
    assert report["error"] == "UnknownTargetError"
    assert report["message"] == _said(out)
    assert report["command"] == "matrix"
    assert report["errors"] == [{"sourcePath": "", "message": _said(out)}]


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (["--targets", "openai"], "unknown tool-schema target 'openai': "),
        (["--provider", "acme"], "provider 'acme' has no tool_schema_target in the catalog: "),
        ([], ""),  # every target, of none: not a clean check
    ],
)
def test_check_without_targets_says_why(
    built: tuple[Path, Path], option: list[str], said: str
) -> None:
    """It said `unknown tool-schema target 'openai'; known: ` (an empty list)."""
    out, tools = built
    done = _provcat(out, "tool", "check", str(tools), *option, "--format", "json")
    assert done.returncode == 2, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert (report["error"], report["message"]) == ("UnknownTargetError", said + _said(out))


def test_compile_tool_without_targets_says_why(built: tuple[Path, Path]) -> None:
    out, _ = built
    code = (
        "from provcat.toolschema import UnknownTargetError, compile_tool\n"
        f"tool = {FIXTURES['refund_order']!r}\n"
        "try:\n"
        "    compile_tool(tool, 'openai')\n"
        "except UnknownTargetError as exc:\n"
        "    print(exc)\n"
    )
    done = _python(out, "-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"unknown tool-schema target 'openai': {_said(out)}\n"
