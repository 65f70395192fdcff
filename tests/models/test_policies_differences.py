"""generated/docs/policies.md's "Differences from lionagi 0.36.0" lists every model alias whose
target is not lionagi's (tester's finding 10: `pi` was unlisted)."""

from __future__ import annotations

from pathlib import Path

import provcat_catalog
import pytest

from provcat import parse_model_spec

PAGE = Path(__file__).resolve().parents[2] / "generated" / "docs" / "policies.md"

# lionagi 0.36.0's BACKENDS (../shared/spec/lionagi-inventory.md, section 5)
LIONAGI_ALIASES = {
    "claude": "claude_code/sonnet",
    "claude-code": "claude_code/sonnet",
    "claude_code": "claude_code/sonnet",
    "codex": "codex/gpt-5.3-codex-spark",
    "gemini-code": "gemini_code/gemini-4-argon",
    "gemini_code": "gemini_code/gemini-4-argon",
    "gemini-cli": "gemini_code/gemini-4-argon",
    "gemini_cli": "gemini_code/gemini-4-argon",
    "pi": "pi/gemini-2.5-flash",
    "pi-code": "pi/gemini-2.5-flash",
    "pi_code": "pi/gemini-2.5-flash",
}


def _differences() -> str:
    return PAGE.read_text(encoding="utf-8").split("## Differences from lionagi 0.36.0", 1)[1]


def test_the_catalog_has_every_lionagi_alias() -> None:
    assert set(LIONAGI_ALIASES) <= set(provcat_catalog.MODEL_ALIAS_INDEX)


@pytest.mark.parametrize("alias", sorted(LIONAGI_ALIASES))
def test_an_alias_with_another_target_than_lionagis_is_listed(alias: str) -> None:
    ours = parse_model_spec(alias).model
    if ours == LIONAGI_ALIASES[alias]:
        return
    section = _differences()
    assert f"`{alias}`" in section, alias
    assert f"`{ours}`" in section and f"`{LIONAGI_ALIASES[alias]}`" in section
