"""`inventory_only`: a provider listed for its models alone, with no endpoints (and only then)."""

from __future__ import annotations

from pathlib import Path

from generator.pipeline import run
from tests.conftest import SCHEMA_LINE

BASE = SCHEMA_LINE + "provider: acme\ndisplay_name: Acme\n"
MODELS = "models:\n  m1: {context_window: 1000}\n"
ENDPOINTS = (
    "defaults: {base_url: 'https://api.acme.test/v1', auth_type: bearer, api_key_env: ACME_KEY}\n"
    "endpoints:\n  chat/completions: {type: api, protocol: openai-chat}\n"
)


def _build(tmp_path: Path, text: str) -> list[tuple[str, int, int]]:
    (tmp_path / "catalog" / "providers").mkdir(parents=True)
    (tmp_path / "catalog" / "providers" / "acme.yaml").write_text(text)
    result = run(tmp_path / "catalog")
    return [(d.code, d.line, d.column) for d in result.diagnostics]


def test_inventory_only_provider_builds_and_the_docs_say_why(tmp_path: Path) -> None:
    (tmp_path / "catalog" / "providers").mkdir(parents=True)
    text = BASE + "inventory_only: no protocol for its API\n" + MODELS
    (tmp_path / "catalog" / "providers" / "acme.yaml").write_text(text)
    result = run(tmp_path / "catalog")
    assert result.ok, [d.as_text() for d in result.diagnostics]
    assert result.files is not None
    assert "Inventory only: no protocol for its API." in result.files["docs/providers.md"]


def test_no_endpoints_without_the_marker_is_a_missing_field(tmp_path: Path) -> None:
    assert _build(tmp_path, BASE + MODELS) == [("missing_field", 2, 1)]


def test_the_marker_with_endpoints_is_refused(tmp_path: Path) -> None:
    text = BASE + "inventory_only: no protocol\n" + ENDPOINTS + MODELS
    assert [code for code, _, _ in _build(tmp_path, text)] == ["schema_violation"]
