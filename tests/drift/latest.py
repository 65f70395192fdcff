"""`make drift-latest`: the vendor drift check against the newest releases of the official SDKs.

Makes a throwaway virtual environment (a temporary folder, removed afterwards), installs provcat
with its ``dev`` extra there, upgrades every SDK the check compares to the newest release the
package index offers, and runs the same comparison (tests/drift/test_drift.py: request models,
enum values, deprecated values, recorded deviations) with ``PROVCAT_DRIFT_LATEST=1``, which skips
only the check that the installed SDKs equal the pins. ``make test`` stays on the pins; this
shows what changed since. Exit status: pytest's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def compared_sdks() -> list[str]:
    """The SDKs the drift check compares: the ``==`` pins of the dev extra that tests/drift
    pairs with a request model."""
    sys.path.insert(0, str(ROOT))
    from tests.drift.pairs import PAIRS

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pinned = {
        m.group(1).lower()
        for r in project["project"]["optional-dependencies"]["dev"]
        if (m := re.fullmatch(r"([A-Za-z0-9_.-]+)==.+", r))
    }
    return sorted({p.sdk for p in PAIRS} & pinned)


def main() -> int:
    sdks = compared_sdks()
    with tempfile.TemporaryDirectory(prefix="provcat-drift-latest-") as tmp:
        venv = Path(tmp) / "venv"
        py = venv / "bin" / "python"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, "-e", f"{ROOT}[dev]"], check=True)
        subprocess.run([*pip, "--upgrade", *sdks], check=True)
        versions = subprocess.run(
            [str(py), "-m", "pip", "list", "--format", "freeze"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        print("newest SDKs installed:")
        for line in versions.splitlines():
            name = line.split("==")[0].lower().replace("_", "-")
            if name in sdks:
                print(f"  {line}")
        env = {**os.environ, "PROVCAT_DRIFT_LATEST": "1"}
        test = [
            str(py),
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/drift/test_drift.py",
        ]
        return subprocess.run(test, cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    raise SystemExit(main())
