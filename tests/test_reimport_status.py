"""A re-import replaces the values the importer itself wrote and keeps what a maintainer changed
(generator/importers/merge.py), and its change list names every status change the source made."""

from __future__ import annotations

from typing import Any

from generator.importers.merge import Change, merge_provider


def _source(status: str | None) -> dict[str, Any]:
    model: dict[str, Any] = {"name": "Alpha One", "context_window": 8192}
    if status is not None:
        model["status"] = status
    return {"provider": "acme", "display_name": "Acme", "models": {"alpha-1": model}}


def _status_changes(changes: list[Change]) -> list[tuple[str, Any, Any]]:
    return [(c.kind, c.old, c.new) for c in changes if c.field == "status"]


def test_first_import_records_what_it_wrote() -> None:
    doc, _ = merge_provider(None, _source("preview"))
    assert doc["models"]["alpha-1"]["status"] == "preview"
    assert doc["models"]["alpha-1"]["imported"] == {"status": "preview"}
    doc, _ = merge_provider(None, _source(None))
    assert "status" not in doc["models"]["alpha-1"]
    assert doc["models"]["alpha-1"]["imported"] == {"status": "active"}


def test_unedited_status_follows_the_source() -> None:
    first, _ = merge_provider(None, _source("preview"))  # models.dev: beta
    second, changes = merge_provider(first, _source("deprecated"))
    model = second["models"]["alpha-1"]
    assert model["status"] == "deprecated" and model["imported"] == {"status": "deprecated"}
    assert _status_changes(changes) == [("changed", "preview", "deprecated")]
    # deprecated back to GA: the source states no status, so the model is active again
    third, changes = merge_provider(second, _source(None))
    assert "status" not in third["models"]["alpha-1"]
    assert _status_changes(changes) == [("changed", "deprecated", "active")]


def test_edited_status_is_kept_and_the_source_change_is_named() -> None:
    first, _ = merge_provider(None, _source("preview"))
    first["models"]["alpha-1"]["status"] = "active"  # a maintainer read the vendor's GA notice
    second, changes = merge_provider(first, _source("deprecated"))
    model = second["models"]["alpha-1"]
    assert model["status"] == "active"
    assert model["imported"] == {"status": "deprecated"}
    assert _status_changes(changes) == [("kept", "active", "deprecated")]
    # the same snapshot again: nothing new to say, nothing changes
    third, changes = merge_provider(second, _source("deprecated"))
    assert third == second and _status_changes(changes) == []


def test_a_status_without_a_record_is_the_maintainers() -> None:
    # a file written before the record existed, or by hand: its status is not replaced
    old = {"provider": "acme", "models": {"alpha-1": {"name": "Alpha One", "status": "active"}}}
    doc, changes = merge_provider(old, _source("deprecated"))
    assert doc["models"]["alpha-1"]["status"] == "active"
    assert _status_changes(changes) == [("kept", "active", "deprecated")]
    # an empty one is filled, as before
    old = {"provider": "acme", "models": {"alpha-1": {"name": "Alpha One"}}}
    doc, changes = merge_provider(old, _source("deprecated"))
    assert doc["models"]["alpha-1"]["status"] == "deprecated"
    assert _status_changes(changes) == [("added", None, "deprecated")]


def test_the_record_alone_does_not_keep_a_model_the_source_dropped() -> None:
    first, _ = merge_provider(None, _source("preview"))
    gone = {"provider": "acme", "display_name": "Acme"}
    doc, changes = merge_provider(first, gone)
    assert "models" not in doc
    assert ("acme", "alpha-1", None, "removed") in [
        (c.provider, c.model, c.field, c.kind) for c in changes
    ]
