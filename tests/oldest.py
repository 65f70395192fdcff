"""`make oldest` (part of `make test`): the runtime's tests on the oldest releases provcat allows.

``pyproject.toml`` admits a range of each dependency (``pydantic>=2.7.1,<3``, ...), while the main
suite runs on whatever the index offers today. This installs provcat with its ``generate`` extra
into ``.venv-oldest`` with uv's ``--resolution lowest-direct`` (each direct requirement at the
oldest release that resolves with the rest), and runs the tests of what those requirements carry:
the runtime (configs, resolution, requests: pydantic, click), calls (httpx, tenacity) and models.
A lower bound that no longer holds fails here, before a user on that release finds it; so does a
lower bound the rest raises (ag2 asks for a newer httpx than the runtime's old floor): the floor
``pyproject.toml`` states is the release tested.

The environment is made again when ``pyproject.toml``, this file or the Python changes. Exit
status: pytest's (5, no test collected, is a failure as everywhere in ``make test``).
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv-oldest"
STAMP = VENV / ".installed"

# the suites whose subject the floors carry; the vendor-SDK comparisons and the tool-schema
# recordings stay in the main suite (they need the dev extra's pins)
TESTS = ["tests/runtime", "tests/calls", "tests/models"]
# test tools, at the dev extra's own specifiers
TOOLS = ("pytest", "pytest-xdist", "hypothesis", "trustme")

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _project() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def tools(project: dict[str, Any]) -> list[str]:
    extras = project["optional-dependencies"]
    found = {}
    for requirement in extras["dev"]:
        name = _NAME.match(requirement)
        if name and name.group(0) in TOOLS:
            found[name.group(0)] = requirement
    missing = sorted(set(TOOLS) - set(found))
    if missing:
        raise SystemExit(f"tests/oldest.py: the dev extra no longer names {', '.join(missing)}")
    return [found[name] for name in TOOLS]


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
    direct = {_key(r): r for r in direct_requirements(project)}
    installed = {_key(line): line.partition("==")[2] for line in listed if "==" in line}
    print("oldest:", ", ".join(f"{k}=={v}" for k, v in sorted(installed.items()) if k in direct))
    # a floor the rest raised (another requirement asks for more): the run would test a newer
    # release than pyproject.toml states
    raised = [
        f"{requirement} (installed {installed[key]})"
        for key, requirement in sorted(direct.items())
        if (floor := re.search(r">=\s*([0-9][0-9.]*)", requirement))
        and key in installed
        and _release(installed[key]) > _release(floor.group(1))
    ]
    if raised:
        raise SystemExit(
            "oldest: the rest of the requirements raise these lower bounds; raise them in "
            "pyproject.toml to the release installed: " + "; ".join(raised)
        )
    STAMP.write_text(wanted, encoding="utf-8")
    return python


def _release(version: str) -> tuple[int, ...]:
    """``version``'s release numbers, trailing zeros dropped (``0.28`` equals ``0.28.0``)."""
    numbers = [int(n) for n in re.findall(r"\d+", version.split("+")[0].split("rc")[0])]
    while numbers and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def _key(requirement: str) -> str:
    """A distribution's name as pip compares names (case, ``_`` and ``.`` folded)."""
    found = _NAME.match(requirement)
    name = found.group(0) if found else requirement
    return re.sub(r"[-_.]+", "-", name.split("[")[0]).lower()


def direct_requirements(project: dict[str, Any]) -> list[str]:
    """The runtime's and the generate extra's direct requirements (provcat's own extras, such as
    ``provcat[ag2]``, included: their requirements are direct too)."""
    extras = project["optional-dependencies"]
    found: list[str] = []
    for requirement in [*project["dependencies"], *extras["generate"]]:
        if requirement.startswith("provcat["):
            for extra in requirement[len("provcat[") : requirement.index("]")].split(","):
                found += extras[extra.strip()]
        else:
            found.append(requirement)
    return found


def main() -> int:
    python = install(_project())
    test = [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "auto"]
    return subprocess.run([*test, "--maxprocesses", "4", *TESTS], cwd=ROOT).returncode


if __name__ == "__main__":
    raise SystemExit(main())
