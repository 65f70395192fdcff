"""The build cache, as a user meets it: an unchanged rebuild writes nothing and says "unchanged";
a cached build after any change writes what a full build writes; a stale, damaged or foreign
cache never changes the output."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator import cache, pipeline
from tests.conftest import FIXTURE_MODULES, ROOT, Workspace, tree_bytes


def _full(ws: Workspace, out: Path) -> dict[str, bytes]:
    result = ws.run("build", "--no-cache", "--out", str(out))  # the later --out wins
    assert result.exit_code == 0, result.stdout
    return tree_bytes(out)


def _cached(ws: Workspace, *extra: str) -> bool:
    """Whether a build was answered by the no-change check (the JSON payload's ``cached``)."""
    result = ws.run("build", *extra)
    assert result.exit_code == 0, result.stdout
    answered: bool = result.json["cached"]
    return answered


def _stats(out: Path) -> dict[Path, tuple[int, int]]:
    return {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()}


def test_unchanged_rebuild_writes_nothing_and_says_unchanged(workspace: Workspace) -> None:
    before = _stats(workspace.out)
    text = workspace.run(fmt="text")
    assert text.exit_code == 0
    assert text.stdout.startswith("provcat: 3 providers, ")
    assert text.stdout.endswith("generated/ unchanged.\n")
    assert _stats(workspace.out) == before
    payload = workspace.run().json
    assert payload["cached"] is True and payload["changed"] == [] and payload["ok"] is True
    assert _stats(workspace.out) == before


def test_the_unchanged_answer_says_what_the_build_said(workspace: Workspace) -> None:
    """Diagnostics (warnings) and the summary come back as the real build printed them."""
    workspace.edit(
        "alpha.yaml", "context_window: 8192}", "context_window: 8192, status: deprecated}"
    )
    built = workspace.run()
    assert built.json["diagnostics"] and built.json["cached"] is False
    again = workspace.run()
    assert again.json["cached"] is True
    assert again.json["diagnostics"] == built.json["diagnostics"]
    assert again.json["summary"].split(" in ")[0] == built.json["summary"].split(" in ")[0]
    for fmt in ("text", "github"):
        real = workspace.run("build", "--no-cache", fmt=fmt)
        kept = workspace.run(fmt=fmt)
        assert (kept.stdout.rsplit(" in ", 1)[0], kept.stderr) == (
            real.stdout.rsplit(" in ", 1)[0],
            real.stderr,
        )


def test_any_changed_input_or_output_means_a_real_build(workspace: Workspace) -> None:
    assert _cached(workspace)
    assert not _cached(workspace, "--as-of", "2031-01-01")  # lifecycle judged anew
    data = workspace.out / "provcat_catalog" / "data.py"
    data.write_text(data.read_text() + "# edited by hand\n")
    assert not _cached(workspace)  # the real build puts it right
    assert "# edited by hand" not in data.read_text()
    assert _cached(workspace)
    (workspace.out / "docs" / "providers.md").unlink()
    assert not _cached(workspace)
    assert (workspace.out / "docs" / "providers.md").is_file()
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    assert not _cached(workspace)


def test_an_edit_keeping_size_and_mtime_is_built(workspace: Workspace, tmp_path: Path) -> None:
    """Nothing is trusted by its stat: a file rewritten at the same size, its mtime set back,
    is read again, in the catalog and in the output alike."""
    beta = workspace.file("beta.yaml")
    st = beta.stat()
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Bxta")
    os.utime(beta, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert beta.stat().st_size == st.st_size
    assert not _cached(workspace)
    assert tree_bytes(workspace.out) == _full(workspace, tmp_path / "full")
    data = workspace.out / "provcat_catalog" / "data.py"
    st = data.stat()
    data.write_text(data.read_text().replace("'Bxta'", "'Byta'"))
    os.utime(data, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert not _cached(workspace)
    assert "'Bxta'" in data.read_text()


def test_a_changed_template_means_a_real_build(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Templates and schemas are read as files, not imported: their bytes are inputs."""
    assert _cached(workspace)
    monkeypatch.setattr(cache, "_GENERATOR", workspace.root / "code")
    shutil.copytree(ROOT / "generator", workspace.root / "code")
    cache.code_version.cache_clear()  # a fresh process computes it anew
    assert _cached(workspace)  # the same bytes: the same version
    page = workspace.root / "code" / "templates" / "docs" / "models.md.j2"
    page.write_text(page.read_text() + "\n")
    cache.code_version.cache_clear()
    assert not _cached(workspace)
    cache.code_version.cache_clear()


def _fresh_build(ws: Workspace, import_path: Path) -> bool:
    """Whether a build in a fresh process, with ``import_path``, was answered unchanged."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "build",
            "--catalog",
            str(ws.catalog),
            "--out",
            str(ws.out),
            "--import-path",
            str(import_path),
            "--format",
            "json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    cached: bool = json.loads(out.stdout)["cached"]
    return cached


def test_a_changed_module_the_build_imported_means_a_real_build(
    workspace: Workspace, tmp_path: Path
) -> None:
    """The providers' Python is an input: a fresh process notices a change to it."""
    modules = tmp_path / "modules"
    shutil.copytree(FIXTURE_MODULES, modules, ignore=shutil.ignore_patterns("__pycache__"))
    assert _fresh_build(workspace, modules) is False  # other import paths: a real build
    assert _fresh_build(workspace, modules) is True
    beta = modules / "provcat_testproviders" / "beta.py"
    beta.write_text(beta.read_text() + "\n# a change\n")
    assert _fresh_build(workspace, modules) is False


def test_an_installed_package_upgraded_or_added_means_a_real_build(
    workspace: Workspace, tmp_path: Path
) -> None:
    """Installed packages are known by their installers' RECORDs (the file lists with hashes):
    a package the build imported that changes, or a package added to the environment, means a
    real build."""
    site = tmp_path / "env" / "lib" / "site-packages"
    shutil.copytree(
        FIXTURE_MODULES / "provcat_testproviders",
        site / "provcat_testproviders",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    info = site / "provcat_testproviders-1.0.dist-info"
    info.mkdir()
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.py"))
    record = info / "RECORD"
    record.write_text("".join(f"{name},sha256=x,1\n" for name in files))

    assert _fresh_build(workspace, site) is False
    assert _fresh_build(workspace, site) is True
    record.write_text(record.read_text().replace("sha256=x", "sha256=y"))  # upgraded in place
    assert _fresh_build(workspace, site) is False
    assert _fresh_build(workspace, site) is True
    added = site / "another-2.0.dist-info"  # a package added beside it
    added.mkdir()
    (added / "RECORD").write_text("another/__init__.py,sha256=z,1\n")
    assert _fresh_build(workspace, site) is False
    assert _fresh_build(workspace, site) is True


@pytest.mark.parametrize("change", ["edit", "delete", "rename", "model"])
def test_cached_build_after_a_change_equals_a_full_build(
    workspace: Workspace, tmp_path: Path, change: str
) -> None:
    if change == "edit":
        workspace.edit("beta.yaml", "aliases: [beta-ai]", "aliases: [beta-ai, b2]")
    elif change == "model":  # a change to one provider's models: its module and page
        workspace.edit("alpha.yaml", "context_window: 8192", "context_window: 16384")
    elif change == "delete":
        workspace.file("beta.yaml").unlink()
    else:
        text = workspace.file("beta.yaml").read_text().replace("provider: beta", "provider: gamma")
        workspace.file("beta.yaml").unlink()
        workspace.file("gamma.yaml").write_text(text)
    cached = workspace.run()
    assert cached.exit_code == 0, cached.stdout
    assert cached.json["changed"] and cached.json["cached"] is False
    assert tree_bytes(workspace.out) == _full(workspace, tmp_path / "full")


def test_a_damaged_cache_never_changes_the_output(workspace: Workspace, tmp_path: Path) -> None:
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    folder = cache.cache_dir(workspace.catalog)
    entries = list((folder / "files").iterdir())
    assert entries
    for entry in entries:
        entry.write_bytes(b"not a pickle")  # truncated, corrupted, written by something else
    for record in folder.glob("build-*.json"):
        record.write_text("{")
    assert workspace.run().exit_code == 0
    assert tree_bytes(workspace.out) == _full(workspace, tmp_path / "full")


def _poison(folder: Path) -> None:
    """Every provider file's entry made to hold a wrong page for its provider (a valid entry,
    wrongly kept); the entries of compiled templates are left as they are."""
    for entry in (folder / "files").iterdir():
        kept: Any = pickle.loads(entry.read_bytes())
        if getattr(kept, "pages", None):
            pages = {name: "stale\n" for name in kept.pages}
            entry.write_bytes(pickle.dumps(kept._replace(pages=pages)))


def test_entries_of_other_code_are_never_read(
    workspace: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry is read only under the code version (generator, templates, schemas, runtime)
    that made it."""
    folder = cache.cache_dir(workspace.catalog)
    shutil.rmtree(folder)
    monkeypatch.setattr(cache, "code_version", lambda: "generator A")
    workspace.edit("alpha.yaml", "context_window: 8192", "context_window: 16384")
    assert workspace.run().exit_code == 0
    _poison(folder)
    monkeypatch.setattr(cache, "code_version", lambda: "generator B")
    workspace.edit("alpha.yaml", "context_window: 16384", "context_window: 8192")
    assert workspace.run().exit_code == 0
    full = _full(workspace, tmp_path / "full")
    assert tree_bytes(workspace.out) == full
    # a poisoned entry under its own version is read: the test above can fail
    _poison(folder)
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    assert workspace.run().exit_code == 0
    assert b"stale\n" in tree_bytes(workspace.out).values()


def test_no_cache_reads_and_writes_no_cache(workspace: Workspace, tmp_path: Path) -> None:
    folder = cache.cache_dir(workspace.catalog)
    workspace.edit("alpha.yaml", "context_window: 8192", "context_window: 16384")
    shutil.rmtree(folder)
    shutil.rmtree(workspace.out)
    result = workspace.run("build", "--no-cache")
    assert result.exit_code == 0 and result.json["cached"] is False
    assert not folder.exists()
    assert tree_bytes(workspace.out) == _full(workspace, tmp_path / "full")


def test_the_cache_lives_beside_the_catalog_never_in_the_output(workspace: Workspace) -> None:
    assert (workspace.root / ".provcat-cache").is_dir()
    assert not any(".provcat-cache" in str(p) for p in workspace.out.rglob("*"))
    # catalog.json is an output (the snapshot as JSON), not the cache's
    assert not any(
        p.suffix in (".json", ".pickle") and p.name != "catalog.json"
        for p in workspace.out.rglob("*")
    )


def test_a_file_broken_then_fixed_builds_as_a_full_build_does(
    workspace: Workspace, tmp_path: Path
) -> None:
    workspace.edit("alpha.yaml", "context_window: 8192}", "context_window: -5}")
    broken = workspace.run()
    assert broken.exit_code == 1
    assert [d["code"] for d in broken.json["diagnostics"]] == ["schema_violation"]
    assert [d["code"] for d in workspace.run().json["diagnostics"]] == ["schema_violation"]
    workspace.edit("alpha.yaml", "context_window: -5}", "context_window: 1, context_window: 2}")
    assert [d["code"] for d in workspace.run().json["diagnostics"]] == ["duplicate_yaml_key"]
    workspace.edit("alpha.yaml", "context_window: 1, context_window: 2}", "context_window: 32768}")
    fixed = workspace.run()
    assert fixed.exit_code == 0, fixed.stdout
    assert tree_bytes(workspace.out) == _full(workspace, tmp_path / "full")


def test_a_file_edited_while_the_build_runs_is_built_again_next_time(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record holds the catalog as it was before the build read it, never after."""
    workspace.edit("beta.yaml", "display_name: Beta", "display_name: Beta Two")
    read = pipeline.read_provider

    def read_then_edit(path: Path, *args: Any) -> Any:
        found = read(path, *args)
        if path.name == "beta.yaml":  # the build has read it: an editor saves it again
            workspace.edit("beta.yaml", "display_name: Beta Two", "display_name: Beta Three")
        return found

    monkeypatch.setattr(pipeline, "read_provider", read_then_edit)
    assert workspace.run().exit_code == 0
    monkeypatch.undo()
    assert not _cached(workspace)
    assert "'Beta Three'" in (workspace.out / "provcat_catalog" / "data.py").read_text()
    assert _cached(workspace)
