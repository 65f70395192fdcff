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


@pytest.mark.parametrize("bad", ['"2026-13-01"', '"2026-12-1"', '"yesterday"', "20261201"])
def test_a_malformed_reviewed_at_is_a_schema_violation(workspace: Workspace, bad: str) -> None:
    workspace.edit("beta.yaml", "display_name: Beta\n", f"display_name: Beta\nreviewed_at: {bad}\n")
    run = workspace.fails(("schema_violation", "beta.yaml", 4, 14))
    assert "reviewed_at" in run.json["diagnostics"][0]["message"]


def test_every_bundled_provider_was_reviewed_and_the_review_is_recorded() -> None:
    text = REVIEWS.read_text(encoding="utf-8")
    recorded = set(re.findall(r"^### `([a-z0-9_]+)` .*reviewed (\d{4}-\d{2}-\d{2})", text, re.M))
    for provider in provcat_catalog.PROVIDERS:
        assert provider["reviewed_at"], f"{provider['provider']} has no reviewed_at"
        assert (provider["provider"], provider["reviewed_at"]) in recorded, (
            f"catalog/REVIEWS.md has no '### `{provider['provider']}` ... reviewed "
            f"{provider['reviewed_at']}' section"
        )
