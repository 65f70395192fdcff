"""The source's defects, one each in a small hand-written snapshot: a warning with its code and
position, the rest of the snapshot imported, and the result still a catalog that builds."""

from __future__ import annotations

import os
import tarfile
from pathlib import Path

import pytest
import yaml

from generator.pipeline import run
from tests.conftest import ROOT, tree_bytes
from tests.scale.conftest import ImportRun, run_import

GOOD_MODEL = """name = "Good"
release_date = "2025-01-02"
tool_call = true

[limit]
context = 1000
output = 100

[cost]
input = 1.5
output = 2
"""


def _snapshot(root: Path, models: dict[str, str], *, lab: dict[str, str] | None = None) -> Path:
    provider = root / "providers" / "acme"
    (provider / "models").mkdir(parents=True)
    (provider / "provider.toml").write_text(
        'name = "Acme"\nenv = ["ACME_API_KEY"]\nnpm = "@ai-sdk/openai-compatible"\n'
        'api = "https://api.acme.test/v1"\ndoc = "https://acme.test/docs"\n'
    )
    for name, text in models.items():
        path = provider / "models" / f"{name}.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for name, text in (lab or {}).items():
        path = root / "models" / f"{name}.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _import(source: Path, tmp_path: Path) -> tuple[ImportRun, dict[str, dict[str, object]]]:
    into = tmp_path / "catalog"
    result = run_import(source, into, "--format", "json")
    assert result.exit_code == 0, result.stderr
    built = run(into)
    assert built.ok, [d.as_text() for d in built.diagnostics]
    doc = yaml.safe_load((into / "providers" / "acme.yaml").read_text())
    return result, doc.get("models", {})


def _where(result: ImportRun, code: str) -> list[tuple[str, int, int]]:
    return [
        (d["file"].rsplit("/providers/", 1)[-1], d["line"], d["column"])
        for d in result.diagnostics(code)
    ]


def test_unreadable_toml_is_reported_at_its_line(tmp_path: Path) -> None:
    src = _snapshot(tmp_path / "src", {"good": GOOD_MODEL, "bad": 'name = "Bad"\nlimit = {\n'})
    result, models = _import(src, tmp_path)
    assert _where(result, "import_unreadable_source") == [("acme/models/bad.toml", 2, 10)]
    assert sorted(models) == ["good"]


def test_dangling_link_is_reported_and_a_good_link_followed(tmp_path: Path) -> None:
    src = _snapshot(tmp_path / "src", {"good": GOOD_MODEL})
    os.symlink("missing.toml", src / "providers/acme/models/gone.toml")
    os.symlink("good.toml", src / "providers/acme/models/again.toml")
    result, models = _import(src, tmp_path)
    assert _where(result, "import_dangling_link") == [("acme/models/gone.toml", 1, 1)]
    assert sorted(models) == ["again", "good"]
    assert models["again"]["prices"] == models["good"]["prices"]


def test_links_in_a_tarball_are_resolved_inside_it(tmp_path: Path) -> None:
    src = _snapshot(tmp_path / "src", {"good": GOOD_MODEL})
    os.symlink("missing.toml", src / "providers/acme/models/gone.toml")
    os.symlink("good.toml", src / "providers/acme/models/again.toml")
    os.symlink("../../../../etc/hostname", src / "providers/acme/models/escape.toml")
    tarball = tmp_path / "snap.tar.gz"
    with tarfile.open(tarball, "w:gz") as archive:
        archive.add(src / "providers", arcname="providers")
    result, models = _import(tarball, tmp_path)
    assert sorted(models) == ["again", "good"]
    assert sorted(_where(result, "import_dangling_link")) == [
        ("acme/models/escape.toml", 1, 1),
        ("acme/models/gone.toml", 1, 1),
    ]


def test_broken_base_model_keeps_the_models_own_facts(tmp_path: Path) -> None:
    src = _snapshot(
        tmp_path / "src",
        {"orphan": '# inherits\nbase_model = "lab/nothing"\nname = "Orphan"\n'},
    )
    result, models = _import(src, tmp_path)
    assert _where(result, "import_broken_base_model") == [("acme/models/orphan.toml", 2, 1)]
    assert models["orphan"]["name"] == "Orphan"


def test_base_model_cycle_is_reported_not_followed_forever(tmp_path: Path) -> None:
    src = _snapshot(
        tmp_path / "src",
        {"m": 'base_model = "lab/a"\n'},
        lab={"lab/a": 'base_model = "lab/b"\nname = "A"\n', "lab/b": 'base_model = "lab/a"\n'},
    )
    result, models = _import(src, tmp_path)
    assert [code for code in ("import_broken_base_model",) if result.diagnostics(code)]
    assert models["m"]["name"] == "A"


def test_base_model_omit_and_nested_overlay(tmp_path: Path) -> None:
    lab = (
        'name = "Lab"\nfamily = "fam"\nknowledge = "2024-06"\n'
        "[limit]\ncontext = 5000\ninput = 4000\noutput = 500\n"
        "[cost]\ninput = 1\noutput = 2\ncache_read = 0.1\n"
    )
    own = (
        'base_model = "lab/x"\nbase_model_omit = ["limit.input", "cost.cache_read", "knowledge"]\n'
        "[limit]\noutput = 400\n"
    )
    src = _snapshot(tmp_path / "src", {"m": own}, lab={"lab/x": lab})
    _, models = _import(src, tmp_path)
    assert models["m"] == {
        "name": "Lab",
        "family": "fam",
        "context_window": 5000,
        "max_output_tokens": 400,
        "prices": {"input": "1", "output": "2"},
        "imported": {"status": "active"},  # the record of the status the import wrote
    }


def test_limits_that_contradict_and_values_that_do_not_fit(tmp_path: Path) -> None:
    text = (
        'name = "M"\nrelease_date = "2025-13-01"\nstatus = "sunset"\nmystery = 1\n'
        "[limit]\ncontext = 100\noutput = 200\ninput = 0\n"
        '[modalities]\ninput = ["text", "smell"]\noutput = ["text"]\n'
        "[cost]\ninput = -1\noutput = 2\nimage = 3\n"
    )
    src = _snapshot(tmp_path / "src", {"m": text, "Good": GOOD_MODEL, "good": GOOD_MODEL})
    result, models = _import(src, tmp_path)
    assert _where(result, "import_limit_conflict") == [("acme/models/m.toml", 7, 1)]
    assert sorted(_where(result, "import_invalid_value")) == [
        ("acme/models/m.toml", 2, 1),  # release_date: no 13th month
        ("acme/models/m.toml", 3, 1),  # status: not a models.dev status
        ("acme/models/m.toml", 8, 1),  # limit.input = 0
        ("acme/models/m.toml", 10, 1),  # modality 'smell'
        ("acme/models/m.toml", 12, 1),  # [cost] without a valid input price: no prices
        ("acme/models/m.toml", 13, 1),  # cost.input = -1
    ]
    assert sorted(_where(result, "import_unknown_field")) == [
        ("acme/models/m.toml", 4, 1),
        ("acme/models/m.toml", 15, 1),
    ]
    # 'good' differs from 'Good' only in case: the later (in code-point order) is left out
    assert _where(result, "import_duplicate_model") == [("acme/models/good.toml", 1, 1)]
    assert models["m"] == {
        "name": "M",
        "context_window": 100,
        "modalities": {"input": ["text"], "output": ["text"]},
        "imported": {"status": "active"},  # the invalid status was left out
    }


def test_a_missing_source_is_a_usage_error_and_writes_nothing(tmp_path: Path) -> None:
    result = run_import(tmp_path / "nope.tar.gz", tmp_path / "catalog")
    assert result.exit_code == 2
    assert "does not exist" in result.stderr
    broken = tmp_path / "broken.tar.gz"
    broken.write_bytes(b"\x1f\x8b not really gzip")
    result = run_import(broken, tmp_path / "catalog")
    assert result.exit_code == 2
    assert "not a readable tarball" in result.stderr
    assert not (tmp_path / "catalog").exists()


def test_a_snapshot_without_provider_files_says_which_case(tmp_path: Path) -> None:
    """An empty providers/ folder was reported as `holds no providers/ folder`."""
    empty = tmp_path / "empty"
    (empty / "providers").mkdir(parents=True)
    result = run_import(empty, tmp_path / "catalog")
    assert result.exit_code == 2
    assert f"{empty}'s providers/ folder is empty: is it a models.dev snapshot?" in " ".join(
        result.stderr.split()
    )
    result = run_import(tmp_path, tmp_path / "catalog")  # no providers/ at all
    assert f"{tmp_path} holds no providers/ folder" in " ".join(result.stderr.split())
    assert not (tmp_path / "catalog").exists()


def test_an_unreadable_catalog_file_stops_the_import_before_any_write(tmp_path: Path) -> None:
    src = _snapshot(tmp_path / "src", {"good": GOOD_MODEL})
    into = tmp_path / "catalog"
    (into / "providers").mkdir(parents=True)
    (into / "providers" / "acme.yaml").write_text("provider: acme\n  bad: [indent\n")
    (into / "providers" / "other.yaml").write_text("provider: other\n")
    before = tree_bytes(into)
    result = run_import(src, into)
    assert result.exit_code == 1
    assert "nothing was written" in result.stderr
    assert tree_bytes(into) == before


def test_the_readme_command_line_shape(tmp_path: Path) -> None:
    """`python -m generator import models-dev PATH --into DIR` works as a process, from the repo."""
    import subprocess
    import sys

    src = _snapshot(tmp_path / "src", {"good": GOOD_MODEL})
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "import",
            "models-dev",
            str(src),
            "--into",
            str(tmp_path / "c"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "imported 1 provider (0 inventory only), 1 model;" in out.stdout


def test_a_failed_write_changes_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Disk full while staging: the error says so, every old file is intact, no temp file stays."""
    from generator.importers import write

    src = _snapshot(tmp_path / "src", {"good": GOOD_MODEL})
    (src / "providers" / "zeta" / "models").mkdir(parents=True)
    (src / "providers" / "zeta" / "provider.toml").write_text('name = "Zeta"\nnpm = "x"\n')
    into = tmp_path / "catalog"
    assert run_import(src, into).exit_code == 0
    (src / "providers" / "acme" / "provider.toml").write_text(
        (src / "providers" / "acme" / "provider.toml").read_text().replace("Acme", "Acme Two")
    )
    (src / "providers" / "zeta" / "provider.toml").write_text('name = "Zeta Two"\nnpm = "x"\n')
    before = tree_bytes(into)
    calls = []

    def full_disk(path: object, mode: int) -> None:
        calls.append(path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(write.os, "chmod", full_disk)
    result = run_import(src, into)
    assert result.exit_code == 1
    assert (
        "No space left on device" in result.stderr and "no file of it was changed" in result.stderr
    )
    assert tree_bytes(into) == before


def test_a_failed_write_under_format_json_prints_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that failed printed nothing on stdout under --format json (a text error on
    stderr), while a usage error prints `{"ok": false, ...}`."""
    from generator.importers import write

    src = _snapshot(tmp_path / "src", {"good": GOOD_MODEL})
    into = tmp_path / "catalog"

    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied", str(into / "providers"))

    monkeypatch.setattr(write.tempfile, "mkstemp", read_only)
    result = run_import(src, into, "--format", "json")
    assert result.exit_code == 1
    payload = result.json
    assert (payload["ok"], payload["error"]) == (False, "WriteError")
    assert "Permission denied" in payload["message"]
    assert "no file of it was changed" in payload["message"]
    assert not list((into / "providers").glob("*.yaml"))


def _two_providers(tmp_path: Path) -> tuple[Path, Path]:
    """A snapshot of acme and zeta imported into a catalog, then both renamed upstream."""
    src = _snapshot(tmp_path / "src", {"good": GOOD_MODEL})
    (src / "providers" / "zeta" / "models").mkdir(parents=True)
    (src / "providers" / "zeta" / "provider.toml").write_text('name = "Zeta"\nnpm = "x"\n')
    into = tmp_path / "catalog"
    assert run_import(src, into).exit_code == 0
    _rename(src, "Acme Two", "Zeta Two")
    return src, into


def _rename(src: Path, acme: str, zeta: str) -> None:
    (src / "providers" / "acme" / "provider.toml").write_text(
        (src / "providers" / "acme" / "provider.toml").read_text().replace("Acme", acme, 1)
    )
    (src / "providers" / "zeta" / "provider.toml").write_text(f'name = "{zeta}"\nnpm = "x"\n')


def test_an_interrupted_swap_leaves_the_old_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record sorted first, so it was swapped in first: cut short after it, the next import
    took the old files' values for a maintainer's (`kept ... maintainer's`) for good."""
    from generator.importers import write

    src, into = _two_providers(tmp_path)
    record = into / "providers" / ".models-dev-import.json"
    old_record = record.read_bytes()
    old_zeta = (into / "providers" / "zeta.yaml").read_bytes()
    real_replace = os.replace
    calls: list[object] = []

    def fails_second(source: str, target: str) -> None:
        calls.append(target)
        if len(calls) == 2:
            raise OSError(5, "Input/output error")
        real_replace(source, target)

    monkeypatch.setattr(write.os, "replace", fails_second)
    result = run_import(src, into)
    assert result.exit_code == 1
    message = " ".join(result.stderr.split())
    assert "Input/output error; 1 of its 3 new files were swapped in before that" in message
    assert "run the same import again to finish it" in message
    assert record.read_bytes() == old_record  # old record, beside one new file and one old
    assert "Acme Two" in (into / "providers" / "acme.yaml").read_text()
    assert (into / "providers" / "zeta.yaml").read_bytes() == old_zeta
    assert [p.name for p in (into / "providers").iterdir() if p.suffix == ".tmp"] == []
    monkeypatch.setattr(write.os, "replace", real_replace)
    again = run_import(src, into, "--format", "json")
    assert again.exit_code == 0
    assert {(c["provider"], c["field"], c["kind"]) for c in again.json["changes"]} == {
        ("zeta", "display_name", "changed")
    }
    # the record matches the files: the source's next change is the source's, not kept
    _rename(src, "Acme Three", "Zeta Three")
    kinds = {c["kind"] for c in run_import(src, into, "--format", "json").json["changes"]}
    assert kinds == {"changed"}


def test_a_ctrl_c_while_swapping_leaves_no_staged_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.importers import write

    folder = tmp_path / "providers"
    folder.mkdir()
    calls: list[object] = []

    def interrupted(source: str, target: str) -> None:
        calls.append(target)
        raise KeyboardInterrupt

    monkeypatch.setattr(write.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write.write_folders(
            {folder: {".record.json": "{}", "a.yaml": "a", "b.yaml": "b"}},
            last=[folder / ".record.json"],
        )
    assert calls == [folder / "a.yaml"]  # the record comes last, not first in name order
    assert list(folder.iterdir()) == []


def test_staged_files_a_killed_import_left_are_removed(tmp_path: Path) -> None:
    """A write killed between staging and swapping left `.acme.yaml.*.tmp` files for good."""
    src = _snapshot(tmp_path / "src", {"good": GOOD_MODEL})
    into = tmp_path / "catalog"
    assert run_import(src, into).exit_code == 0
    providers = into / "providers"
    stale = [".acme.yaml.k2x_9q0a.tmp", "..models-dev-import.json.abcd1234.tmp"]
    others = [".notes.tmp", "draft.yaml.tmp", ".acme.yaml.tmp"]
    for name in stale + others:
        (providers / name).write_text("half a file")
    result = run_import(src, into)  # the same snapshot: nothing to write
    assert result.exit_code == 0 and "0 files written" in result.stdout
    assert sorted(p.name for p in providers.iterdir() if p.suffix == ".tmp") == sorted(others)


def test_the_text_summary_lists_what_changed(tmp_path: Path) -> None:
    src = _snapshot(tmp_path / "src", {"good": GOOD_MODEL})
    into = tmp_path / "catalog"
    assert run_import(src, into).exit_code == 0
    model = src / "providers" / "acme" / "models" / "good.toml"
    model.write_text(model.read_text().replace("input = 1.5", "input = 1.25"))
    (src / "providers" / "acme" / "models" / "fresh.toml").write_text(GOOD_MODEL)
    result = run_import(src, into)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "  added    acme/fresh" in lines
    assert (
        "  changed  acme/good: prices {'input': '1.5', 'output': '2'} -> "
        "{'input': '1.25', 'output': '2'}"
    ) in lines
    assert lines[-1].endswith("changes: models 1 added; fields 1 changed.")


def test_a_failed_first_import_leaves_no_new_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Disk full while staging the schema targets of a first import: it left `schema-targets/`
    behind, empty, and a folder that is there is the maintainers' (never written), so the next
    import copied none. No folder the import made stays: not the catalog's either."""
    from generator.importers import write

    src = _snapshot(tmp_path / "src", {"good": GOOD_MODEL})
    into = tmp_path / "new" / "catalog"

    def full_disk(path: object, mode: int) -> None:
        if "schema-targets" in str(path):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(write.os, "chmod", full_disk)
    result = run_import(src, into)
    assert result.exit_code == 1
    assert "no file of it was changed" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]
    monkeypatch.undo()
    assert run_import(src, into).exit_code == 0  # the next one makes the catalog whole
    assert list((into / "schema-targets").glob("*.yaml"))
