"""The generated inventory is split per provider and read on demand: lookups and list_models see
it whole, and the docs are an index with one page per provider."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

GENERATED = ROOT / "generated"


def test_after_a_first_lookup_list_models_lists_every_providers_models() -> None:
    """A first lookup reads one provider's part; list_models, after it, still lists every model."""
    from provcat_catalog.inventory import MODELS

    code = (
        "import json, provcat\n"
        "provcat.get_model('deepseek', 'deepseek-v4-pro')\n"
        "print(json.dumps([m.provider for m in provcat.list_models()]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    listed = json.loads(out.stdout)
    assert sorted(set(listed)) == sorted(key for key, models in MODELS.items() if models)
    assert len(listed) == sum(len(models) for models in MODELS.values())


def test_by_provider_reads_like_the_dict_it_replaces() -> None:
    from provcat_catalog.inventory import MODEL_INDEX, MODELS, PARTS

    assert sorted(MODELS) == sorted(PARTS) and len(MODELS) == len(PARTS)
    assert "deepseek" in MODELS and "no-such-provider" not in MODELS
    assert MODELS.get("no-such-provider") is None
    with pytest.raises(KeyError):
        MODEL_INDEX["no-such-provider"]
    models = MODELS["deepseek"]
    assert {m["model"] for m in models} <= set(MODEL_INDEX["deepseek"].values())


def test_docs_index_links_one_page_per_provider() -> None:
    from provcat_catalog.inventory import PARTS

    index = (GENERATED / "docs" / "models.md").read_text()
    pages = sorted(p.stem for p in (GENERATED / "docs" / "models").glob("*.md"))
    assert pages == sorted(PARTS)
    for key in pages:
        assert f"(models/{key}.md)" in index
        assert f"# Models of `{key}`" in (GENERATED / "docs" / "models" / f"{key}.md").read_text()
