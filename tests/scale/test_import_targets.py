"""The schema targets of an imported catalog: models.dev has none (they are provcat's own rules,
each citing a vendor page), so the import copies the bundled ones into a catalog that has no
`schema-targets/` folder, and gives the providers it makes an `openai-chat` endpoint the bundled
catalog's target for such a provider. A folder that is there is the maintainers' and is never
written. Small models.dev-shaped snapshots (tests/scale/test_import_left_out.py's)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from click.testing import CliRunner

from generator.cli import main as generator_main
from tests.conftest import ROOT, tree_bytes
from tests.scale.conftest import import_and_build, provider_file, run_import
from tests.scale.test_import_left_out import OPENROUTER, PLAIN, _snapshot

BUNDLED = ROOT / "catalog" / "schema-targets"
MARKET = 'name = "Market"\nnpm = "@ai-sdk/market"\n'  # no endpoint: inventory only


def _bundled() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(BUNDLED.glob("*.yaml"))}


def _probed() -> dict[str, tuple[str, dict[str, str]]]:
    """The providers and models the bundled targets' probes name (`probe.provider`,
    `probe.default_model`, where a target has them): a catalog holding those targets lists them,
    or it does not build (generator/target_probes.py)."""
    found: dict[str, tuple[str, dict[str, str]]] = {}
    for path in sorted(BUNDLED.glob("*.yaml")):
        probe = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("probe") or {}
        if "provider" in probe:
            key = str(probe["provider"])
            _, models = found.setdefault(key, (f'name = "{key}"\n', {}))
            models[str(probe["default_model"])] = PLAIN
    return found


def _source(tmp_path: Path) -> Path:
    providers = {
        **_probed(),
        "openrouter": (OPENROUTER, {"m": PLAIN}),
        "market": (MARKET, {"m": PLAIN}),
    }
    return _snapshot(tmp_path / "src", providers)


_imported = import_and_build
_file = provider_file


def _targets(into: Path) -> dict[str, bytes]:
    return tree_bytes(into / "schema-targets")


def test_a_new_catalog_gets_the_bundled_schema_targets(tmp_path: Path) -> None:
    """It got none: the big catalog built with `0 schema targets`, and every `provcat tool`
    command said `unknown tool-schema target 'openai'; known: ` on it."""
    into = tmp_path / "catalog"
    result = _imported(_source(tmp_path), into, "--format", "json")
    assert _targets(into) == _bundled()  # byte for byte
    assert result.json["schema_targets"] == {
        "folder": str(into / "schema-targets"),
        "copied": sorted(_bundled()),
        "tool_schema_target": "openai-chat",
        "endpoints": 1,
    }
    assert result.json["totals"]["schema_targets_copied"] == len(_bundled())
    # the bundled convention: an OpenAI-compatible vendor's tools follow openai-chat
    assert _file(into, "openrouter")["tool_schema_target"] == "openai-chat"
    assert "tool_schema_target" not in _file(into, "market")  # inventory only: no endpoint


def test_the_text_summary_says_the_targets_were_copied(tmp_path: Path) -> None:
    source, into = _source(tmp_path), tmp_path / "catalog"
    result = _imported(source, into)
    ids = ", ".join(sorted(Path(n).stem for n in _bundled()))
    assert (
        f"provcat: copied the bundled catalog's {len(_bundled())} schema targets ({ids}) into "
        f"{into}/schema-targets/: provcat's tool-schema rules, not models.dev's; the providers "
        "with an openai-chat endpoint get tool_schema_target: openai-chat. A re-import leaves "
        "that folder as you keep it.\n"
    ) in result.stdout
    again = _imported(source, into)
    assert "schema target" not in again.stdout  # nothing new to say


def test_the_built_catalog_serves_every_bundled_target(tmp_path: Path) -> None:
    """On PYTHONPATH, as docs/big-catalog.md uses it: the targets, and a provider's target."""
    into, out = tmp_path / "catalog", tmp_path / "build"
    _imported(_source(tmp_path), into)
    built = CliRunner().invoke(generator_main, ["build", "--catalog", str(into), "--out", str(out)])
    assert built.exit_code == 0, built.output
    assert f"{len(_bundled())} schema targets" in built.stdout
    code = (
        "import json\n"
        "from provcat.toolschema.targets import target_for_provider, target_ids\n"
        "print(json.dumps([target_ids(), target_for_provider('openrouter').id]))\n"
    )
    # the built snapshot first, before the bundled one (the runner's own path kept after it)
    path = [str(out), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [sorted(Path(n).stem for n in _bundled()), "openai-chat"]


def test_a_reimport_leaves_the_maintainers_schema_targets_as_they_are(tmp_path: Path) -> None:
    source, into = _source(tmp_path), tmp_path / "catalog"
    _imported(source, into)
    folder = into / "schema-targets"
    edited = folder / "openai.yaml"
    edited.write_bytes(edited.read_bytes() + b"# reviewed by the platform team\n")
    (folder / "mcp.yaml").unlink()
    before = _targets(into)
    result = _imported(source, into, "--format", "json")
    assert _targets(into) == before  # the edit stays, the removed file is not put back
    assert result.json["schema_targets"]["copied"] == []
    assert result.json["totals"]["schema_targets_copied"] == 0
    assert result.json["changes"] == []


def test_an_empty_schema_targets_folder_is_the_maintainers(tmp_path: Path) -> None:
    """A folder that is there is never written: the endpoints then get no target, and the
    summary says how to give them one (the catalog still builds)."""
    source, into = _source(tmp_path), tmp_path / "catalog"
    (into / "schema-targets").mkdir(parents=True)
    result = _imported(source, into)
    assert _targets(into) == {}
    assert "tool_schema_target" not in _file(into, "openrouter")
    assert (
        f"provcat: {into}/schema-targets/ has no openai-chat schema target, so the 1 provider "
        "with an openai-chat endpoint gets no tool_schema_target; copy "
        "catalog/schema-targets/openai-chat.yaml into it and import again to give them one.\n"
    ) in result.stdout


def test_removing_the_openai_chat_target_removes_the_target_the_import_gave(
    tmp_path: Path,
) -> None:
    source, into = _source(tmp_path), tmp_path / "catalog"
    _imported(source, into)
    (into / "schema-targets" / "openai-chat.yaml").unlink()
    result = _imported(source, into, "--format", "json")  # it builds: no provider names it
    assert "tool_schema_target" not in _file(into, "openrouter")
    assert result.json["schema_targets"]["tool_schema_target"] is None
    assert {
        "provider": "openrouter",
        "model": None,
        "field": "tool_schema_target",
        "kind": "removed",
        "old": "openai-chat",
        "new": None,
        "reason": None,
    } in result.json["changes"]


def test_a_maintainers_target_is_kept(tmp_path: Path) -> None:
    source, into = _source(tmp_path), tmp_path / "catalog"
    _imported(source, into)
    path = into / "providers" / "openrouter.yaml"
    text = path.read_text()
    path.write_text(text.replace("tool_schema_target: openai-chat", "tool_schema_target: openai"))
    result = _imported(source, into, "--format", "json")
    assert _file(into, "openrouter")["tool_schema_target"] == "openai"
    assert [c for c in result.json["changes"] if c["field"] == "tool_schema_target"] == [
        {
            "provider": "openrouter",
            "model": None,
            "field": "tool_schema_target",
            "kind": "kept",
            "old": "openai",
            "new": "openai-chat",
            "reason": "maintainer's; the source says 'openai-chat'",
        }
    ]


def test_a_catalog_imported_before_the_targets_gets_them_on_the_next_import(
    tmp_path: Path,
) -> None:
    """A big catalog imported by an earlier provcat has no schema-targets/, its files and record
    no tool_schema_target: the next import brings both."""
    source, into = _source(tmp_path), tmp_path / "catalog"
    _imported(source, into)
    shutil.rmtree(into / "schema-targets")
    for path in (into / "providers").iterdir():
        text = path.read_text()
        path.write_text(text.replace("tool_schema_target: openai-chat\n", ""))
    record_path = into / "providers" / ".models-dev-import.json"
    record = json.loads(record_path.read_text())
    for provider in record["providers"].values():
        provider.pop("tool_schema_target", None)
    record_path.write_text(json.dumps(record))
    assert "tool_schema_target" not in _file(into, "openrouter")
    result = _imported(source, into, "--format", "json")
    assert _targets(into) == _bundled()
    assert _file(into, "openrouter")["tool_schema_target"] == "openai-chat"
    assert [c["kind"] for c in result.json["changes"] if c["field"] == "tool_schema_target"] == [
        "added"
    ]


def test_models_only_creates_no_schema_targets(tmp_path: Path) -> None:
    source, into = _source(tmp_path), tmp_path / "catalog"
    _imported(source, into)
    shutil.rmtree(into / "schema-targets")
    result = run_import(source, into, "--models-only", "--provider", "openrouter")
    assert result.exit_code == 0, result.stderr
    assert not (into / "schema-targets").exists()
    assert "schema target" not in result.stdout
