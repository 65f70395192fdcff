"""Importing the real models.dev snapshot (147 providers, 5,307 model paths, 31 dangling links).

Expected values are read from the snapshot's own TOML files and its README (the independent
source), not from our output.
"""

from __future__ import annotations

import shutil
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.pipeline import run
from tests.conftest import tree_bytes
from tests.scale.conftest import ImportRun, run_import

SHOWN = "models-dev-f3fc692.tar.gz"


@pytest.fixture(scope="module")
def imported(
    snapshot_tarball: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, ImportRun]:
    root = tmp_path_factory.mktemp("big") / "catalog-big"
    result = run_import(snapshot_tarball, root, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return root, result


def _rel(shown: str) -> str:
    """A diagnostic's file inside the snapshot (the snapshot is named as it was given)."""
    assert shown.split(SHOWN + "/")[0].endswith("/") or shown.startswith(SHOWN)
    return shown.split(SHOWN + "/", 1)[1]


def _provider(root: Path, key: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((root / "providers" / f"{key}.yaml").read_text())
    return data


def test_every_provider_and_every_readable_model(imported: tuple[Path, ImportRun]) -> None:
    root, result = imported
    files = sorted(p.stem for p in (root / "providers").glob("*.yaml"))
    assert len(files) == 147  # README: 147 providers
    assert result.json["totals"]["providers"] == 147
    # README: 5,307 provider-model paths, of which 31 are dangling symbolic links
    assert result.json["totals"]["models"] == 5307 - 31
    dangling = result.diagnostics("import_dangling_link")
    assert len(dangling) == 31
    by_provider = sorted({_rel(d["file"]).split("/")[1] for d in dangling})
    assert by_provider == ["siliconflow-cn", "zhipuai"]
    assert sum(1 for d in dangling if "/siliconflow-cn/" in d["file"]) == 30
    assert all(d["line"] == 1 and d["severity"] == "warning" for d in dangling)


def test_the_imported_catalog_builds_clean(imported: tuple[Path, ImportRun]) -> None:
    root, _ = imported
    result = run(root)
    assert [d.as_text() for d in result.diagnostics if d.severity == "error"] == []
    assert result.snapshot is not None
    assert sum(len(m) for m in result.snapshot["inventory"].values()) == 5307 - 31


def test_base_model_inheritance_and_own_overrides(imported: tuple[Path, ImportRun]) -> None:
    # providers/cerebras/models/gpt-oss-120b.toml: base_model openai/gpt-oss-120b, its own
    # limit.output 40_960, cost 0.35/0.75 and reasoning_options low/medium/high; the lab file
    # models/openai/gpt-oss-120b.toml gives the rest (context 131_072, family gpt-oss, ...)
    model = _provider(imported[0], "cerebras")["models"]["gpt-oss-120b"]
    assert model["context_window"] == 131072
    assert model["max_output_tokens"] == 40960
    assert model["family"] == "gpt-oss"
    assert model["name"] == "GPT OSS 120B"
    assert model["release_date"] == "2025-08-05"
    assert model["open_weights"] is True
    assert model["reasoning_efforts"] == ["low", "medium", "high"]
    assert model["prices"] == {"input": "0.35", "output": "0.75"}
    assert model["modalities"] == {"input": ["text"], "output": ["text"]}
    assert model["source"].endswith(
        "/blob/f3fc692299671838c7c65fd8126bf84d81a2e817/providers/cerebras/models/gpt-oss-120b.toml"
    )


def test_base_model_omit_drops_inherited_paths(imported: tuple[Path, ImportRun]) -> None:
    # amazon-bedrock/openai.gpt-5.4 omits limit.input (922_000 in models/openai/gpt-5.4.toml)
    model = _provider(imported[0], "amazon-bedrock")["models"]["openai.gpt-5.4"]
    assert "max_input_tokens" not in model
    assert model["context_window"] == 272000
    assert model["knowledge_cutoff"] == "2025-08-31"  # inherited, not omitted
    assert model["prices"] == {"input": "2.75", "output": "16.50", "cache_read": "0.275"}


def test_openai_compatible_provider_gets_a_protocol_endpoint(
    imported: tuple[Path, ImportRun],
) -> None:
    # providers/deepseek/provider.toml: npm @ai-sdk/openai-compatible, api https://api.deepseek.com
    deepseek = _provider(imported[0], "deepseek")
    assert deepseek["defaults"] == {
        "base_url": "https://api.deepseek.com",
        "auth_type": "bearer",
        "api_key_env": "DEEPSEEK_API_KEY",
    }
    assert deepseek["endpoints"]["chat/completions"]["protocol"] == "openai-chat"
    assert "inventory_only" not in deepseek
    # providers/cerebras/provider.toml: npm @ai-sdk/cerebras, no api -> models only
    cerebras = _provider(imported[0], "cerebras")
    assert "endpoints" not in cerebras
    assert "@ai-sdk/cerebras" in cerebras["inventory_only"]


def test_source_defects_carry_their_positions(imported: tuple[Path, ImportRun]) -> None:
    _, result = imported
    conflicts = {
        (_rel(d["file"]), d["line"], d["column"])
        for d in result.diagnostics("import_limit_conflict")
    }
    # providers/302ai/models/mistral-large-2512.toml:17 is `output = 262_144` under [limit]
    assert ("providers/302ai/models/mistral-large-2512.toml", 17, 1) in conflicts
    # providers/scaleway/models/qwen3-embedding-8b.toml:3 is release_date = "2025-25-11"
    invalid = [
        d
        for d in result.diagnostics("import_invalid_value")
        if _rel(d["file"]) == "providers/scaleway/models/qwen3-embedding-8b.toml"
    ]
    assert [(d["line"], d["column"]) for d in invalid] == [(3, 1)]


def test_same_input_same_bytes_from_folder_or_tarball(
    imported: tuple[Path, ImportRun], snapshot_dir: Path, tmp_path: Path
) -> None:
    again = run_import(snapshot_dir, tmp_path / "from-dir")
    assert again.exit_code == 0
    assert tree_bytes(tmp_path / "from-dir") == tree_bytes(imported[0])


def test_reimporting_the_same_snapshot_rewrites_nothing(
    snapshot_tarball: Path, imported: tuple[Path, ImportRun]
) -> None:
    root = imported[0]
    before = {p: p.stat().st_mtime_ns for p in (root / "providers").glob("*.yaml")}
    again = run_import(snapshot_tarball, root, "--format", "json")
    assert again.json["totals"]["files_written"] == 0
    assert again.json["summary"] == {
        "providers": {},
        "models": {},
        "fields": {},
        "source_links_relinked": 0,
    }
    assert {p: p.stat().st_mtime_ns for p in (root / "providers").glob("*.yaml")} == before


def test_the_text_summary_counts_the_files_it_wrote(
    snapshot_tarball: Path, imported: tuple[Path, ImportRun], tmp_path: Path
) -> None:
    """A re-import after one provider's file was deleted writes that file alone, and says it
    restored it."""
    root = tmp_path / "catalog-big"
    shutil.copytree(imported[0], root)
    (root / "providers" / "deepseek.yaml").unlink()
    again = run_import(snapshot_tarball, root)
    assert again.exit_code == 0, again.stderr
    last = again.stdout.strip().splitlines()[-1]
    assert "5276 models; 1 file written, 0 removed; changes: providers 1 restored." in last, last
    assert (root / "providers" / "deepseek.yaml").is_file()


def _prices(model: dict[str, Any]) -> list[str]:
    prices = model.get("prices", {})
    tiers = prices.get("tiers", [])
    return [v for table in [prices, *tiers] for k, v in table.items() if k not in ("tiers",)]


def test_floating_point_noise_in_prices_is_rounded_and_named(
    snapshot_dir: Path, imported: tuple[Path, ImportRun]
) -> None:
    """models.dev writes some prices as a double's every digit (0.1 + 0.2 is
    0.30000000000000004). The price meant is what C's ``%.15g`` prints of that double (15
    significant digits: what a double holds of any decimal); the import writes it and names the
    source's text at its line."""
    root, result = imported
    rel = "providers/amazon-bedrock/models/google.gemma-3-12b-it.toml"
    source = tomllib.loads((snapshot_dir / rel).read_text(), parse_float=str)["cost"]
    assert source == {"input": "0.049999999999999996", "output": "0.09999999999999999"}
    model = _provider(root, "amazon-bedrock")["models"]["google.gemma-3-12b-it"]
    assert model["prices"] == {k: f"{float(v):.15g}" for k, v in source.items()}
    assert model["prices"] == {"input": "0.05", "output": "0.1"}
    named = [d for d in result.diagnostics("import_float_noise") if _rel(d["file"]) == rel]
    # lines 14 and 15 of the file: `input = 0.0499...` and `output = 0.0999...` under [cost]
    assert [(d["line"], d["severity"]) for d in named] == [(14, "warning"), (15, "warning")]
    assert "cost.input 0.049999999999999996" in named[0]["message"]
    assert named[0]["message"].endswith("imported as 0.05")
    # a price with fewer digits is imported as written (nano-gpt's 0.700000007 has nine)
    assert "0.700000007" in {
        price
        for path in (root / "providers").glob("*.yaml")
        for m in yaml.safe_load(path.read_text()).get("models", {}).values()
        for price in _prices(m)
    }
    # and no imported price keeps more than 15 significant digits
    for path in (root / "providers").glob("*.yaml"):
        for mid, m in yaml.safe_load(path.read_text()).get("models", {}).items():
            for price in _prices(m):
                digits = Decimal(price).normalize().as_tuple().digits
                assert len(digits) <= 15, (path.name, mid, price)


def test_openrouter_and_what_the_catalog_cannot_hold(imported: tuple[Path, ImportRun]) -> None:
    """providers/openrouter/provider.toml names @openrouter/ai-sdk-provider and api
    https://openrouter.ai/api/v1: OpenAI's chat completions API, so an openai-chat endpoint. A
    model's own [provider] table (165 files; the 20 that repeat their provider's npm and api say
    nothing new) is one warning per model; the facts with no catalog field one per kind.
    docs/big-catalog.md quotes these figures."""
    root, result = imported
    openrouter = _provider(root, "openrouter")
    assert "inventory_only" not in openrouter
    assert openrouter["defaults"]["base_url"] == "https://openrouter.ai/api/v1"
    assert openrouter["endpoints"]["chat/completions"]["protocol"] == "openai-chat"
    totals = result.json["totals"]
    assert (totals["inventory_only"], totals["models_with_own_api"]) == (36, 145)
    unknown = result.diagnostics("import_unknown_field")
    own = [d for d in unknown if "an API of its own" in d["message"]]
    assert len(own) == 145
    # providers/opencode/models/claude-opus-4-5.toml: [provider] npm = "@ai-sdk/anthropic"
    assert any(
        _rel(d["file"]).startswith("providers/opencode/models/claude-")
        and "npm '@ai-sdk/anthropic'" in d["message"]
        for d in own
    )
    kinds = sorted(
        d["message"].split(":")[0].split(" (")[0] for d in unknown if "one warning" in d["message"]
    )
    assert kinds == [
        "`experimental.modes.fast`",
        "`interleaved`",
        "reasoning_options of type 'budget_tokens'",
        "reasoning_options of type 'toggle'",
    ]
    docs = (Path(__file__).resolve().parents[2] / "docs" / "big-catalog.md").read_text()
    assert f"This snapshot gives {len(result.json['diagnostics'])} warnings" in docs
    assert "(36 of them inventory only" in docs
