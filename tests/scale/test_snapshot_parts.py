"""The generated inventory is split per provider: a lookup imports that provider's data alone,
and the docs are an index with one page per provider."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

GENERATED = ROOT / "generated"


def test_a_first_lookup_imports_one_providers_module() -> None:
    code = (
        "import sys, json, provcat\n"
        "provcat.get_model('deepseek', 'deepseek-v4-pro')\n"
        "first = sorted(m for m in sys.modules if m.startswith('provcat_catalog.models.'))\n"
        "n = len(provcat.list_models())\n"
        "every = sorted(m for m in sys.modules if m.startswith('provcat_catalog.models.'))\n"
        "print(json.dumps([first, n, every]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    first, count, every = json.loads(out.stdout)
    assert len(first) == 1 and first[0].startswith("provcat_catalog.models.p_deepseek_")
    parts = sorted((GENERATED / "provcat_catalog" / "models").glob("p_*.py"))
    assert len(every) == len(parts) and count > len(parts)


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
