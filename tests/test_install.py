"""The install paths the README documents work from a clone, in a virtual environment of their own.

`python -m build` makes an sdist and, from it, a wheel (as `pip install .` does); the wheel goes
into a fresh venv with `--no-deps`. Its dependencies come from this checkout's `.venv` through a
path file that adds that site-packages directory *after* the new venv's own, without reading its
path files: so `provcat` is the wheel's copy, never the editable checkout, and the test needs no
network. What it checks is what a user of the wheel meets: the command, an offline call, the
snapshot and the data files, and the extras the README names.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.conftest import ROOT

EXTRAS = {"generate", "hub", "ag2", "dev", "bench"}


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return out


@pytest.fixture(scope="module")
def venv(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    env = tmp_path_factory.mktemp("venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    (wheel,) = dist.glob("provcat-*.whl")
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"),
            *("--no-deps", "--no-index", "--disable-pip-version-check", str(wheel)),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # the dependencies: this checkout's site-packages, read after the venv's own, path files unread
    (Path(site) / "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    yield env


def run(env: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(env / "bin" / argv[0]), *argv[1:]],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=env.parent,  # not the checkout: nothing may come from src/ or generated/
        env={"PATH": str(env / "bin"), "HOME": str(env.parent)},
    )


def test_the_sdist_holds_what_a_wheel_is_built_from(dist: Path) -> None:
    (sdist,) = dist.glob("provcat-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for needed in ("pyproject.toml", "README.md", "generated/provcat_catalog/__init__.py"):
        assert needed in names, needed
    assert "schemas/hub-manifest.schema.json" in names


def test_the_wheel_holds_the_runtime_the_snapshot_and_the_extras(dist: Path) -> None:
    (wheel,) = dist.glob("provcat-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        text = archive.read(metadata).decode()
    assert "provcat/__init__.py" in names
    assert "provcat_catalog/__init__.py" in names
    assert "provcat/hub/manifest.schema.json" in names
    # the JSON export ships beside the snapshot, with the schema it is documented by
    assert {"provcat_catalog/catalog.json", "provcat_catalog/catalog.schema.json"} <= names
    assert not any(n.startswith(("generator/", "tests/", "catalog/")) for n in names)
    extras = {
        line.split(":", 1)[1].strip() for line in text.splitlines() if "Provides-Extra" in line
    }
    assert extras == EXTRAS
    # found by a new user: `tool check` of a pydantic Literal (a `const`, checked with
    # jsonschema) failed on a plain `pip install .`, jsonschema being in an extra only
    required = {
        Requirement(line.split(":", 1)[1]).name
        for line in text.splitlines()
        if line.startswith("Requires-Dist:") and "extra ==" not in line
    }
    assert {"pydantic", "click", "httpx", "tenacity", "jsonschema"} <= required


def test_the_installed_command_answers_offline(venv: Path) -> None:
    helped = run(venv, "provcat", "--help")
    assert helped.returncode == 0, helped.stderr
    for command in ("providers", "resolve", "model", "models", "cost", "tool", "hub"):
        assert command in helped.stdout
    resolved = run(venv, "provcat", "resolve", "openai", "chat", "--format", "json")
    assert resolved.returncode == 0, resolved.stderr
    assert json.loads(resolved.stdout)["config"]["name"] == "openai_chat/completions"
    # without an extra (ag2 blocked here), an installed copy is told the plain install; a clone
    # that make set up is told `pip install -e` (tests/runtime/test_missing_extra.py)
    code = (
        "import sys; sys.modules['ag2'] = None\n"
        "from provcat import match_endpoint\n"
        "try:\n    match_endpoint('ag2', 'agent')\nexcept Exception as exc:\n    print(exc)"
    )
    told = run(venv, "python", "-c", code)
    assert "provcat[ag2]: pip install '.[ag2]' in a provcat clone, as the README" in told.stdout


def test_the_installed_library_is_the_wheel_and_works_offline(venv: Path) -> None:
    code = """
import json, provcat, provcat_catalog
from provcat import match_endpoint, parse_model_spec
from provcat.toolschema import compile_tool
ep = match_endpoint("openai", "chat")
tool = {"name": "get_weather", "description": "Weather for a city.",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
                        "required": ["city"]}}
print(json.dumps({
    "runtime": provcat.__file__, "snapshot": provcat_catalog.__file__,
    "endpoint": ep.config.name, "spec": parse_model_spec("codex/gpt-5.4-high").effort,
    "ok": compile_tool(tool, "openai").ok,
}))
"""
    answer = run(venv, "python", "-c", code)
    assert answer.returncode == 0, answer.stderr
    got = json.loads(answer.stdout)
    for key in ("runtime", "snapshot"):
        assert Path(got[key]).is_relative_to(venv), got[key]  # the wheel's copy, not the checkout
    assert got["endpoint"] == "openai_chat/completions"
    assert got["spec"] == "high"
    assert got["ok"] is True
