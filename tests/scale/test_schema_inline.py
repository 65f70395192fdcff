"""The inlined provider schema gives the same diagnostics as the schema with its ``$ref``s, on
every bundled provider file and on thousands of broken variants of them."""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator

from generator.loader import Document, load_file
from generator.schema_check import SCHEMA_DIR, _explain
from generator.schema_inline import inline_refs
from tests.conftest import ROOT
from tests.scale.trees import node_paths, replaced

WRONG: tuple[Any, ...] = (12345, "not-a-thing", [], {}, None, -1, "0.1e3", True)


def _diagnostics(validator: Draft202012Validator, doc: Document) -> list[str]:
    found = [d.as_text() for e in validator.iter_errors(doc.data) for d in _explain(doc, e)]
    return sorted(found)


def test_same_diagnostics_with_and_without_refs() -> None:
    schema = json.loads((SCHEMA_DIR / "provider.schema.json").read_text())
    with_refs = Draft202012Validator(schema)
    inlined = Draft202012Validator(inline_refs(schema))
    assert "$ref" not in json.dumps(inline_refs(schema)["properties"])
    compared = 0
    for path in sorted((ROOT / "catalog" / "providers").glob("*.yaml")):
        doc, problems = load_file(path, path.name)
        assert doc is not None, problems
        assert _diagnostics(inlined, doc) == _diagnostics(with_refs, doc) == []
        for i, node_path in enumerate(p for p in node_paths(doc.data) if p):  # not the root
            wrong = WRONG[i % len(WRONG)]
            broken = Document(doc.file, replaced(doc.data, node_path, wrong), doc.positions)
            assert _diagnostics(inlined, broken) == _diagnostics(with_refs, broken), node_path
            compared += 1
    assert compared > 1000


def test_an_all_of_beside_a_ref_keeps_both() -> None:
    """Found in review: the inlined definition replaced an allOf written beside the $ref. JSON
    Schema 2020-12 applies $ref and its sibling keywords together, so the inlined form must
    accept exactly what the original accepts."""
    schema = {
        "$defs": {"name": {"type": "string", "minLength": 2}},
        "type": "object",
        "properties": {"n": {"$ref": "#/$defs/name", "allOf": [{"maxLength": 4}]}},
    }
    inlined = inline_refs(schema)
    for value, ok in (("ab", True), ("a", False), ("abcde", False), (3, False)):
        doc = {"n": value}
        assert Draft202012Validator(schema).is_valid(doc) is ok
        assert Draft202012Validator(inlined).is_valid(doc) is ok
