"""Re-import keeps hand edits: a second snapshot, derived from the first by editing a copy,
updates what the source owns and keeps what maintainers added; the summary lists each change."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.importers.yamlout import dump
from generator.pipeline import run
from tests.scale.conftest import ImportRun, run_import

HEADER_END = "reviewed_at.\n"


def _read(root: Path, key: str) -> tuple[str, dict[str, Any]]:
    text = (root / "providers" / f"{key}.yaml").read_text()
    return text, yaml.safe_load(text)


def _write(root: Path, key: str, text: str, data: dict[str, Any]) -> None:
    header = text[: text.index(HEADER_END) + len(HEADER_END)]
    (root / "providers" / f"{key}.yaml").write_text(dump(header, data))


def _maintain(root: Path) -> None:
    """What a maintainer adds after the first import."""
    text, cerebras = _read(root, "cerebras")
    cerebras["aliases"] = ["cerebras-inference"]
    cerebras["description"] = "Wafer-scale inference."
    oss = cerebras["models"]["gpt-oss-120b"]
    oss.update(
        aliases=["gpt-oss"],
        status="deprecated",
        deprecation_date="2026-06-01",
        shutdown_date="2027-01-15",
        successor="zai-glm-4.7",
        note="Checked against the vendor's page.",
    )
    cerebras["models"]["zai-glm-4.7"]["reviewed_at"] = "2026-11-30"
    _write(root, "cerebras", text, cerebras)
    text, deepseek = _read(root, "deepseek")
    deepseek["endpoints"]["chat/completions"]["request_defaults"] = {"model": "deepseek-chat"}
    _write(root, "deepseek", text, deepseek)


def _newer(first: Path, second: Path) -> None:
    """The second snapshot: the first with the edits a later upstream commit could make."""
    shutil.copytree(first, second, symlinks=True)
    models = second / "providers" / "cerebras" / "models"
    oss = models / "gpt-oss-120b.toml"
    # a top-level key goes before the first [table] of the TOML file
    oss.write_text('status = "beta"\n' + oss.read_text().replace("input = 0.35", "input = 0.30"))
    (models / "zai-glm-4.7.toml").unlink()  # gone upstream, but a maintainer reviewed it
    (models / "qwen-3-coder.toml").write_text(
        'name = "Qwen 3 Coder"\ntool_call = true\n[limit]\ncontext = 131072\noutput = 8192\n'
    )
    deepseek = second / "providers" / "deepseek" / "provider.toml"
    deepseek.write_text(deepseek.read_text().replace('name = "DeepSeek"', 'name = "DeepSeek AI"'))
    chat = second / "providers" / "deepseek" / "models" / "deepseek-chat.toml"
    chat.unlink()  # gone upstream; a maintainer's request default names it
    reasoner = second / "providers" / "deepseek" / "models" / "deepseek-reasoner.toml"
    reasoner.unlink()  # gone upstream and never touched by a maintainer
    shutil.rmtree(second / "providers" / "lucidquery")  # a whole provider gone upstream
    # deprecated upstream, and no maintainer touched its status: the re-import follows the source
    flash = second / "providers" / "deepseek" / "models" / "deepseek-v4-flash.toml"
    flash.write_text('status = "deprecated"\n' + flash.read_text())


@pytest.fixture(scope="module")
def reimported(
    snapshot_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, ImportRun]:
    work = tmp_path_factory.mktemp("reimport")
    catalog = work / "catalog-big"
    assert run_import(snapshot_dir, catalog).exit_code == 0
    _maintain(catalog)
    _newer(snapshot_dir, work / "second")
    result = run_import(work / "second", catalog, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return catalog, result


def test_source_facts_are_updated(reimported: tuple[Path, ImportRun]) -> None:
    _, cerebras = _read(reimported[0], "cerebras")
    assert cerebras["models"]["gpt-oss-120b"]["prices"]["input"] == "0.30"
    assert cerebras["models"]["qwen-3-coder"]["context_window"] == 131072
    _, deepseek = _read(reimported[0], "deepseek")
    assert deepseek["display_name"] == "DeepSeek AI"
    assert "deepseek-reasoner" not in deepseek["models"]
    # still named by the maintainers' request default: kept, so the catalog keeps building
    assert deepseek["models"]["deepseek-chat"]["name"] == "DeepSeek Chat"
    # its status was the importer's own (active), so the source's deprecation replaces it
    flash = deepseek["models"]["deepseek-v4-flash"]
    assert flash["status"] == "deprecated" and flash["imported"] == {"status": "deprecated"}


def test_maintainer_edits_are_kept(reimported: tuple[Path, ImportRun]) -> None:
    _, cerebras = _read(reimported[0], "cerebras")
    assert cerebras["aliases"] == ["cerebras-inference"]
    assert cerebras["description"] == "Wafer-scale inference."
    oss = cerebras["models"]["gpt-oss-120b"]
    assert oss["aliases"] == ["gpt-oss"]
    assert oss["status"] == "deprecated"  # the source now says beta: an edited status is kept
    assert oss["imported"] == {"status": "preview"}  # what the importer would have written
    assert (oss["deprecation_date"], oss["shutdown_date"]) == ("2026-06-01", "2027-01-15")
    assert oss["successor"] == "zai-glm-4.7"
    assert oss["note"] == "Checked against the vendor's page."
    # gone upstream, kept because a maintainer reviewed it (and a successor points to it)
    assert cerebras["models"]["zai-glm-4.7"]["reviewed_at"] == "2026-11-30"
    _, deepseek = _read(reimported[0], "deepseek")
    assert deepseek["endpoints"]["chat/completions"]["request_defaults"] == {
        "model": "deepseek-chat"
    }


def test_the_summary_names_every_change(reimported: tuple[Path, ImportRun]) -> None:
    payload = reimported[1].json
    changes = {
        (c["provider"], c["model"], c["field"], c["kind"]): (c["old"], c["new"])
        for c in payload["changes"]
    }
    assert changes[("cerebras", "gpt-oss-120b", "prices", "changed")][1]["input"] == "0.30"
    assert ("cerebras", "qwen-3-coder", None, "added") in changes
    assert ("cerebras", "zai-glm-4.7", None, "kept") in changes
    assert ("deepseek", "deepseek-reasoner", None, "removed") in changes
    assert ("deepseek", "deepseek-chat", None, "kept") in changes
    assert changes[("deepseek", None, "display_name", "changed")] == ("DeepSeek", "DeepSeek AI")
    assert ("lucidquery", None, None, "removed") in changes
    # the maintainer's status stands, and the source's new one is named beside it
    assert changes[("cerebras", "gpt-oss-120b", "status", "kept")] == ("deprecated", "preview")
    # the importer's own earlier status (none: active) is replaced, and named
    assert changes[("deepseek", "deepseek-v4-flash", "status", "added")] == (None, "deprecated")
    assert payload["summary"]["providers"] == {"removed": 1}
    assert payload["summary"]["models"] == {"added": 1, "kept": 2, "removed": 1}
    assert payload["totals"]["files_written"] == 2
    assert payload["totals"]["files_removed"] == 1
    assert not (reimported[0] / "providers" / "lucidquery.yaml").exists()


def test_the_merged_catalog_builds(reimported: tuple[Path, ImportRun]) -> None:
    result = run(reimported[0])
    assert [d.as_text() for d in result.diagnostics if d.severity == "error"] == []


def test_refreshing_a_bundled_provider_touches_its_models_alone(
    snapshot_dir: Path, tmp_path: Path
) -> None:
    """The README's refresh command on a copy of the bundled catalog: `--models-only` keeps every
    line above `models:` (comments included) and the models maintainers added."""
    from tests.conftest import ROOT

    shutil.copytree(ROOT / "catalog", tmp_path / "catalog")
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    path = tmp_path / "catalog" / "providers" / "deepseek.yaml"
    before = path.read_text()
    head = before[: before.index("\nmodels:\n")]
    bundled = yaml.safe_load(before)["models"]
    result = run_import(
        snapshot_dir,
        tmp_path / "catalog",
        "--models-only",
        "--provider",
        "deepseek",
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.stderr
    after = path.read_text()
    assert after.startswith(head + "\nmodels:\n")
    models = yaml.safe_load(after)["models"]
    # providers/deepseek/models/deepseek-v4-pro.toml exists upstream: source facts, kept notes
    assert models["deepseek-v4-pro"]["source"].endswith(
        "/providers/deepseek/models/deepseek-v4-pro.toml"
    )
    assert models["deepseek-v4-pro"]["note"] == bundled["deepseek-v4-pro"]["note"]
    for model_id, facts in bundled.items():  # nothing a maintainer wrote is lost
        for field in ("note", "reviewed_at", "successor", "shutdown_date", "aliases"):
            if field in facts:
                assert models[model_id][field] == facts[field], (model_id, field)
    assert sorted(p.name for p in (tmp_path / "catalog" / "providers").iterdir()) == sorted(
        p.name for p in (ROOT / "catalog" / "providers").iterdir()
    )
    assert run(tmp_path / "catalog").ok


# the refresh command of docs/big-catalog.md ("Refreshing the bundled providers' models")
BUNDLED_REFRESH = (
    "--models-only",
    *("--provider", "deepseek", "--provider", "groq", "--provider", "mistral"),
    *("--provider", "xai", "--provider", "openai", "--provider", "openrouter"),
    *("--provider", "google=gemini"),
)


def test_the_documented_refresh_of_the_bundled_providers_leaves_a_catalog_that_builds(
    snapshot_dir: Path, tmp_path: Path
) -> None:
    """The snapshot lists mistral-medium-latest as a model, and the bundled mistral.yaml lists it
    as an alias of mistral-medium-3-5: the refresh added it, and the build failed
    (model_alias_is_model_id). Such a model is skipped, and the summary names it."""
    from tests.conftest import ROOT

    shutil.copytree(ROOT / "catalog", tmp_path / "catalog")
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    result = run_import(snapshot_dir, tmp_path / "catalog", *BUNDLED_REFRESH)
    assert result.exit_code == 0, result.stderr
    built = run(tmp_path / "catalog")
    assert [d.as_text() for d in built.diagnostics if d.severity == "error"] == []
    # the text summary lists every skipped model, however many changes come before it
    assert (
        "  skipped  mistral/mistral-medium-latest: not added, its id is already an alias of "
        "model 'mistral-medium-3-5'" in result.stdout
    )
    last = result.stdout.splitlines()[-1]
    # the files keep their endpoints: none of them is "inventory only"
    assert last.startswith("provcat: refreshed the models of 7 providers: "), last
    assert "inventory only" not in last and "1 more skipped; listed above" in last
    _, mistral = _read(tmp_path / "catalog", "mistral")
    assert "mistral-medium-latest" not in mistral["models"]
    assert "mistral-medium-latest" in mistral["models"]["mistral-medium-3-5"]["aliases"]


def test_the_json_summary_names_each_skipped_model(snapshot_dir: Path, tmp_path: Path) -> None:
    from tests.conftest import ROOT

    shutil.copytree(ROOT / "catalog", tmp_path / "catalog")
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    result = run_import(snapshot_dir, tmp_path / "catalog", *BUNDLED_REFRESH, "--format", "json")
    assert result.exit_code == 0, result.stderr
    payload = result.json
    skipped = [c for c in payload["changes"] if c["kind"] == "skipped"]
    assert [(c["provider"], c["model"]) for c in skipped] == [("mistral", "mistral-medium-latest")]
    assert "alias of model 'mistral-medium-3-5'" in skipped[0]["reason"]
    assert payload["summary"]["models"]["skipped"] == 1
    assert payload["totals"]["models_skipped"] == 1
    assert payload["totals"]["inventory_only"] == 0 and payload["models_only"] is True


def test_a_source_model_named_like_a_kept_models_alias_or_id_is_skipped() -> None:
    """Whatever the case or spaces: the build folds names (canonical_key) the same way."""
    from generator.importers.merge import merge_provider

    old = {
        "provider": "p",
        "models": {
            "m-1": {"name": "M 1", "aliases": ["m-latest", "M-Stable"]},
        },
    }
    new = {
        "provider": "p",
        "models": {
            "m-1": {"name": "M 1"},
            "m-latest": {"name": "M latest"},
            "m-stable": {"name": "M stable"},
            "M-1": {"name": "M 1 again"},
            "m-2": {"name": "M 2"},
        },
    }
    doc, changes = merge_provider(old, new)
    assert sorted(doc["models"]) == ["m-1", "m-2"]
    kinds = {c.model: c.kind for c in changes if c.field is None}
    assert kinds == {
        "M-1": "skipped",
        "m-2": "added",
        "m-latest": "skipped",
        "m-stable": "skipped",
    }  # m-1 is merged: only its fields change
    reasons = {c.model: c.reason for c in changes if c.kind == "skipped"}
    assert reasons["M-1"] == (
        "its id is already the id of model 'm-1' (as 'm-1', differing only in case or spaces)"
    )
    assert reasons["m-stable"].startswith(
        "its id is already an alias of model 'm-1' (as 'M-Stable', differing only in case"
    )


def test_a_whole_import_refuses_to_rewrite_hand_written_files(
    snapshot_dir: Path, tmp_path: Path
) -> None:
    """Importing into the bundled catalog without --models-only rewrote its hand-written files
    whole: every comment citing a vendor's page was lost. It is refused, with the way to do it."""
    from tests.conftest import ROOT

    shutil.copytree(ROOT / "catalog", tmp_path / "catalog")
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    folder = tmp_path / "catalog" / "providers"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    result = run_import(snapshot_dir, tmp_path / "catalog")
    assert result.exit_code == 2
    assert "deepseek.yaml" in result.stderr and "no import wrote" in result.stderr
    assert "--models-only" in result.stderr and "nothing was written" in result.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    # the same for one provider named
    result = run_import(snapshot_dir, tmp_path / "catalog", "--provider", "deepseek")
    assert result.exit_code == 2 and "deepseek.yaml" in result.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_models_only_refuses_a_provider_without_a_file(snapshot_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "catalog" / "providers").mkdir(parents=True)
    result = run_import(
        snapshot_dir, tmp_path / "catalog", "--models-only", "--provider", "deepseek"
    )
    assert result.exit_code == 2
    assert "has no deepseek.yaml" in result.stderr
    result = run_import(snapshot_dir, tmp_path / "catalog", "--provider", "deepsek")
    assert result.exit_code == 2
    assert "did you mean deepseek" in result.stderr
    assert list((tmp_path / "catalog" / "providers").iterdir()) == []


@pytest.mark.parametrize(
    "after",
    [
        "# the policy below is hand-written\npolicy:\n  model_aliases: {}\n",
        "\n# reviewed by hand: keep\n\npolicy:\n  model_aliases: {}\n",
        "# a closing note at the end of the file\n",
    ],
)
def test_splicing_models_keeps_the_top_level_comments_after_the_block(after: str) -> None:
    """A comment at column 0 after the `models:` block is the file's, not the block's: a
    re-import (`--models-only`) replaces the models and keeps it where it was."""
    from generator.importers.yamlout import splice_models

    head = "# yaml-language-server: $schema=../../schemas/provider.schema.json\nprovider: p\n"
    old = head + "models:\n  a: {context_window: 1}\n  # a note inside the block\n" + after
    new = splice_models(old, {"b": {"context_window": 2}})
    assert new == head + "models:\n  b: {context_window: 2}\n" + after
