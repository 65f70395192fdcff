"""`make oldest`: the runtime's tests on the oldest releases provcat allows (not in `make test`).

``pyproject.toml`` admits a range of each dependency (``pydantic>=2.7.1,<3``, ...), while the main
suite runs on whatever the index offers today. This installs provcat with its ``generate`` extra
into ``.venv-oldest`` with uv's ``--resolution lowest-direct`` (each direct requirement at the
oldest release that resolves with the rest), and runs the tests of what those requirements carry:
the runtime (configs, resolution, requests: pydantic, click), calls (httpx, tenacity) and models.
A lower bound that no longer holds fails here, before a user on that release finds it; so does a
lower bound the rest raises (ag2 asks for a newer httpx than the runtime's old floor): the floor
``pyproject.toml`` states is the release tested.

The environment is made again when ``pyproject.toml``, this file or the Python changes. Exit
status: pytest's (5, no test collected, is a failure).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv-oldest"
STAMP = VENV / ".installed"

# the suites whose subject the floors carry; the vendor-SDK comparisons and the tool-schema
# recordings stay in the main suite (they need the dev extra's pins)
TESTS = ["tests/runtime", "tests/calls", "tests/models"]
# test tools, at the dev extra's own specifiers
TOOLS = ("pytest", "pytest-xdist", "hypothesis", "trustme")


def _project() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def tools(project: dict[str, Any]) -> list[str]:
    found = {Requirement(r).name: r for r in project["optional-dependencies"]["dev"]}
    missing = sorted(set(TOOLS) - set(found))
    if missing:
        raise SystemExit(f"tests/oldest.py: the dev extra no longer names {', '.join(missing)}")
    return [found[name] for name in TOOLS]


def direct_requirements(project: dict[str, Any]) -> list[Requirement]:
    """The runtime's and the generate extra's direct requirements (provcat's own extras, such as
    ``provcat[ag2]``, included: their requirements are direct too)."""
    extras = project["optional-dependencies"]
    found: list[Requirement] = []
    for text in [*project["dependencies"], *extras["generate"]]:
        requirement = Requirement(text)
        if requirement.name == "provcat":
            found += [Requirement(r) for extra in requirement.extras for r in extras[extra]]
        else:
            found.append(requirement)
    return found


def raised_floors(requirements: list[Requirement], installed: dict[str, str]) -> list[str]:
    """The requirements whose ``>=`` floor is below the release installed: the rest of the
    requirements raised it, so the run would test a newer release than pyproject.toml states."""
    return [
        f"{requirement} (installed {installed[name]})"
        for requirement in requirements
        if (name := canonicalize_name(requirement.name)) in installed
        for spec in requirement.specifier
        if spec.operator == ">=" and Version(installed[name]) > Version(spec.version)
    ]


def install(project: dict[str, Any]) -> Path:
    """``.venv-oldest`` with the floors installed (made again when pyproject.toml changed)."""
    python = VENV / "bin" / "python"
    made_from = (ROOT / "pyproject.toml").read_bytes() + Path(__file__).read_bytes()
    wanted = hashlib.sha256(made_from + sys.version.encode()).hexdigest()
    if STAMP.is_file() and STAMP.read_text(encoding="utf-8") == wanted and python.exists():
        return python
    shutil.rmtree(VENV, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "uv>=0.5,<1"], check=True)
    print("oldest: installing provcat[generate] at its lowest allowed releases", flush=True)
    uv = [str(VENV / "bin" / "uv"), "pip", "install", "--quiet", "--python", str(python)]
    subprocess.run([*uv, *tools(project)], check=True)
    # uv's lowest-direct: each direct requirement at the oldest release that resolves with the
    # rest (a floor another requirement raises, as ag2 raises pyyaml's, is taken at that)
    subprocess.run([*uv, "--resolution", "lowest-direct", "-e", f"{ROOT}[generate]"], check=True)
    listed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format", "freeze", "--disable-pip-version-check"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    installed = {
        canonicalize_name(name): version
        for name, _, version in (line.partition("==") for line in listed)
        if version
    }
    direct = direct_requirements(project)
    names = sorted({canonicalize_name(r.name) for r in direct} & installed.keys())
    print("oldest:", ", ".join(f"{name}=={installed[name]}" for name in names))
    raised = raised_floors(direct, installed)
    if raised:
        raise SystemExit(
            "oldest: the rest of the requirements raise these lower bounds; raise them in "
            "pyproject.toml to the release installed: " + "; ".join(raised)
        )
    STAMP.write_text(wanted, encoding="utf-8")
    return python


def main() -> int:
    python = install(_project())
    test = [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "auto"]
    return subprocess.run([*test, "--maxprocesses", "4", *TESTS], cwd=ROOT).returncode


if __name__ == "__main__":
    raise SystemExit(main())
