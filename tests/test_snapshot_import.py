"""The runtime's first layer: the snapshot imports from the checkout and from a wheel, checks its
format, and the runtime never imports the generator's tools."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import provcat_catalog
import pytest

from provcat.catalog.format import SUPPORTED_FORMAT
from tests.conftest import ROOT

BUILD_TOOLS = ("yaml", "jsonschema", "jinja2", "generator")


def _python(code: str, *, path: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter; with ``path``, site is off and sys.path is exactly it."""
    args = [sys.executable]
    if path is not None:
        code = f"import sys; sys.path[:0] = {path!r}\n" + code
        args.append("-S")
    return subprocess.run([*args, "-c", code], capture_output=True, text=True, check=False, cwd="/")


def test_checkout_import() -> None:
    assert provcat_catalog.FORMAT_VERSION == SUPPORTED_FORMAT
    assert provcat_catalog.FINGERPRINT.startswith("sha256:")
    assert len(provcat_catalog.PROVIDERS) >= 24
    assert Path(provcat_catalog.__file__).parent == ROOT / "generated" / "provcat_catalog"


def test_runtime_never_imports_build_tools() -> None:
    code = (
        "import importlib, pkgutil, sys\n"
        "import provcat, provcat_catalog, provcat_catalog.names, provcat_catalog.records\n"
        "for m in pkgutil.walk_packages(provcat.__path__, 'provcat.'):\n"
        "    importlib.import_module(m.name)\n"
        f"bad = sorted(n for n in sys.modules if n.split('.')[0] in {BUILD_TOOLS!r})\n"
        "print(','.join(bad))\n"
    )
    result = _python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"the runtime imported {result.stdout.strip()}"


def test_runtime_source_has_no_module_level_build_tool_import() -> None:
    """A lazy import inside a function (the hub's manifest check) is allowed; a module-level one
    is not, since it would load with the module."""
    for path in sorted((ROOT / "src").rglob("*.py")):
        for line in path.read_text(encoding="utf-8").splitlines():
            for tool in BUILD_TOOLS:
                assert not line.startswith((f"import {tool}", f"from {tool} ")), path


@pytest.fixture(scope="module")
def wheel_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = out.glob("provcat-*.whl")
    unpacked = out / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(unpacked)
    return unpacked


def test_wheel_holds_runtime_and_snapshot_only(wheel_dir: Path) -> None:
    top = sorted(p.name for p in wheel_dir.iterdir() if not p.name.endswith(".dist-info"))
    assert top == ["provcat", "provcat_catalog"]
    assert (wheel_dir / "provcat_catalog" / "py.typed").is_file()


def test_the_wheel_ships_catalog_json_with_its_schema(wheel_dir: Path) -> None:
    """catalog.json and its schema sit in the installed snapshot package, readable through
    importlib.resources, and the one validates against the other."""
    import json

    import jsonschema

    shipped = wheel_dir / "provcat_catalog" / "catalog.json"
    assert shipped.read_bytes() == (ROOT / "generated/provcat_catalog/catalog.json").read_bytes()
    schema = json.loads((wheel_dir / "provcat_catalog" / "catalog.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(json.loads(shipped.read_text()))
    result = _python(
        "import importlib.resources, json\n"
        "text = importlib.resources.files('provcat_catalog').joinpath('catalog.json').read_text()\n"
        "print(json.loads(text)['fingerprint'])\n",
        path=[str(wheel_dir), sysconfig.get_paths()["purelib"]],
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == provcat_catalog.FINGERPRINT


def test_import_from_an_installed_wheel(wheel_dir: Path) -> None:
    deps = sysconfig.get_paths()["purelib"]  # pydantic; its .pth files are not processed with -S
    result = _python(
        "import provcat_catalog, provcat\n"
        "print(provcat_catalog.__file__)\n"
        "print(len(provcat_catalog.PROVIDERS), provcat_catalog.FINGERPRINT)\n",
        path=[str(wheel_dir), deps],
    )
    assert result.returncode == 0, result.stderr
    where, summary = result.stdout.splitlines()
    assert where.startswith(str(wheel_dir))
    assert summary == f"{len(provcat_catalog.PROVIDERS)} {provcat_catalog.FINGERPRINT}"


@pytest.mark.parametrize("version", [0, SUPPORTED_FORMAT + 1])
def test_format_mismatch_is_a_clear_import_error(tmp_path: Path, version: int) -> None:
    copy = tmp_path / "provcat_catalog"
    shutil.copytree(ROOT / "generated" / "provcat_catalog", copy)
    init = copy / "__init__.py"
    text = init.read_text(encoding="utf-8")
    init.write_text(
        text.replace(
            f"FORMAT_VERSION: Final = {SUPPORTED_FORMAT}", f"FORMAT_VERSION: Final = {version}"
        ),
        encoding="utf-8",
    )
    deps = sysconfig.get_paths()["purelib"]
    result = _python("import provcat_catalog", path=[str(tmp_path), str(ROOT / "src"), deps])
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "provcat.errors.SnapshotFormatError: provcat_catalog has snapshot format"
    )
    assert "make generate" in last
