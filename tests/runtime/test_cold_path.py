"""The cold path's one coarse guard: ``import provcat`` + the first ``match_endpoint`` of a
registered endpoint builds it from the snapshot without the heavy parts a caller did not ask for.

``make bench BENCH=resolution`` times the cold path against its budget; this test only keeps whole
subsystems off it (the promise in docs/architecture.md), not a list of modules.
"""

from __future__ import annotations

import json
import subprocess
import sys


def _modules(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


def _under(modules: set[str], *roots: str) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in roots or m.startswith(roots))


def test_the_first_match_endpoint_imports_no_compiler_no_vendor_model_and_no_build_tool() -> None:
    cold = _modules("import provcat\nprovcat.match_endpoint('openai', 'chat')")
    assert "provcat_catalog" in cold  # it did read the snapshot
    # the tool-schema compiler, a vendor's request model, the hub, the generator's tools
    assert _under(cold, "provcat.toolschema", "provcat.endpoints.protocols.", "provcat.hub") == []
    assert _under(cold, "generator", "yaml", "jsonschema", "jinja2", "httpx") == []
    # nor the model inventory, read when a model is named or looked up (docs/architecture.md)
    assert _under(cold, "provcat_catalog.inventory", "provcat_catalog.models") == []


def test_a_first_model_lookup_reads_that_providers_models_alone() -> None:
    """The inventory is split per provider so start-up stays flat however many providers the
    catalog holds: the first lookup imports its provider's part and no other."""
    cold = _modules("import provcat\nprovcat.get_model('deepseek', 'deepseek-v4-pro')")
    parts = _under(cold, "provcat_catalog.models.")
    assert len(parts) == 1 and "deepseek" in parts[0], parts


def test_resolving_a_record_imports_no_pydantic_and_no_provider() -> None:
    cold = _modules("import provcat\nprovcat.resolve('openai', 'chat')")
    assert _under(cold, "pydantic", "pydantic_core", "provcat.providers") == []
