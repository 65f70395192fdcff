"""The models.dev snapshot the scale tests read, and a runner for `python -m generator import`.

The snapshot lives outside the repository, in ``../shared/datasets/`` beside the clone (CI runs a
clone on the same machine). ``PROVCAT_DATASETS`` names another folder. A missing snapshot fails
the test with what to do, never skips it.
"""

from __future__ import annotations

import json
import os
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.conftest import ROOT

SNAPSHOT_NAME = "models-dev-f3fc692.tar.gz"
WORKPLACE_DATASETS = Path("/work/shared/datasets")


def dataset_path(name: str = SNAPSHOT_NAME) -> Path:
    """The dataset file: $PROVCAT_DATASETS/name, else the nearest ``shared/datasets/name`` above
    the repository (``../shared/datasets/`` for a clone beside it)."""
    tried: list[Path] = []
    override = os.environ.get("PROVCAT_DATASETS")
    if override:
        tried.append(Path(override) / name)
    for parent in [ROOT, *ROOT.parents]:
        tried.append(parent / "shared" / "datasets" / name)
    # The workplace's shared folder, for a clone made elsewhere on this machine (CI's, say).
    tried.append(WORKPLACE_DATASETS / name)
    for candidate in tried:
        if candidate.is_file():
            return candidate
    pytest.fail(
        f"the dataset {name} is missing; looked in: {', '.join(str(p) for p in tried)}; "
        "put it in ../shared/datasets/ beside the clone or set PROVCAT_DATASETS to its folder",
        pytrace=False,
    )


@pytest.fixture(scope="session")
def snapshot_tarball() -> Path:
    return dataset_path()


@pytest.fixture(scope="session")
def snapshot_dir(snapshot_tarball: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The snapshot unpacked once into a temporary folder (never into the repository)."""
    root = tmp_path_factory.mktemp("models-dev")
    with tarfile.open(snapshot_tarball) as archive:
        archive.extractall(root, filter="tar")
    return root


@dataclass
class ImportRun:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def json(self) -> Any:
        return json.loads(self.stdout)

    def diagnostics(self, code: str) -> list[dict[str, Any]]:
        return [d for d in self.json["diagnostics"] if d["code"] == code]


def run_import(source: Path, into: Path, *extra: str) -> ImportRun:
    result = CliRunner().invoke(
        main, ["import", "models-dev", str(source), "--into", str(into), *extra]
    )
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return ImportRun(result.exit_code, result.stdout, result.stderr)


def import_and_build(source: Path, into: Path, *extra: str) -> ImportRun:
    """Import ``source`` into ``into``; the import must succeed and the catalog build."""
    from generator.pipeline import run

    result = run_import(source, into, *extra)
    assert result.exit_code == 0, result.stderr
    built = run(into)
    assert built.ok, [d.as_text() for d in built.diagnostics]
    return result


def provider_file(into: Path, key: str) -> dict[str, Any]:
    """The provider file ``key`` of the catalog at ``into``, as YAML reads it."""
    import yaml

    data: dict[str, Any] = yaml.safe_load((into / "providers" / f"{key}.yaml").read_text())
    return data
