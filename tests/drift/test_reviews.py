"""reviewed_at: when a provider was last checked against its vendor, and the record of it."""

from __future__ import annotations

import re

import provcat_catalog
import pytest

from tests.conftest import ROOT, Workspace

REVIEWS = ROOT / "catalog" / "REVIEWS.md"


def test_a_valid_reviewed_at_reaches_the_snapshot_and_the_docs(workspace: Workspace) -> None:
    workspace.edit(
        "beta.yaml", "display_name: Beta\n", 'display_name: Beta\nreviewed_at: "2026-12-01"\n'
    )
    run = workspace.run()
    assert run.exit_code == 0, run.stdout + run.stderr
    data = (workspace.out / "provcat_catalog" / "data.py").read_text(encoding="utf-8")
    assert "'reviewed_at': '2026-12-01'" in data
    docs = (workspace.out / "docs" / "providers.md").read_text(encoding="utf-8")
    assert "vendor's docs and SDK on 2026-12-01" in docs


@pytest.mark.parametrize(
    "bad", ['"2026-13-01"', '"2026-12-1"', '"yesterday"', "20261201", '"٢٠٢٦-12-07"']
)
def test_a_malformed_reviewed_at_is_a_schema_violation(workspace: Workspace, bad: str) -> None:
    workspace.edit("beta.yaml", "display_name: Beta\n", f"display_name: Beta\nreviewed_at: {bad}\n")
    run = workspace.fails(("schema_violation", "beta.yaml", 4, 14))
    assert "reviewed_at" in run.json["diagnostics"][0]["message"]


def recorded(text: str, provider: str, day: str) -> bool:
    """Whether REVIEWS.md text ``text`` has the section of ``provider``'s review on ``day``.
    Any provider key the catalog takes matches (the schema sets no pattern on it: it is the
    file's stem, hyphens and all, as importers write them: ``abliteration-ai``)."""
    heading = rf"^### `{re.escape(provider)}` .*reviewed {re.escape(day)}\b"
    return re.search(heading, text, re.M) is not None


@pytest.mark.parametrize("key", ["abliteration-ai", "claude_code", "x.ai", "mistral"])
def test_a_review_section_of_any_provider_key_is_found(key: str) -> None:
    text = f"## Reviews\n\n### `other` reviewed 2026-01-01\n\n### `{key}` reviewed 2026-12-01\n"
    assert recorded(text, key, "2026-12-01")
    assert not recorded(text, key, "2026-12-02")
    assert not recorded(text, key + "x", "2026-12-01")


def test_every_bundled_provider_was_reviewed_and_the_review_is_recorded() -> None:
    text = REVIEWS.read_text(encoding="utf-8")
    for provider in provcat_catalog.PROVIDERS:
        assert provider["reviewed_at"], f"{provider['provider']} has no reviewed_at"
        assert recorded(text, provider["provider"], provider["reviewed_at"]), (
            f"catalog/REVIEWS.md has no '### `{provider['provider']}` ... reviewed "
            f"{provider['reviewed_at']}' section"
        )
