"""The quick schema test never calls valid what jsonschema (the reference) rejects.

Every bundled provider file, and thousands of variants of them with one node broken (a wrong
type, a missing required field, an unknown field, an empty string, a bad pattern, a negative
number, a duplicate list item), are judged by both: where the quick test answers True or False,
jsonschema must agree; None is allowed (it only means "ask jsonschema").
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.loader import load_file
from generator.schema_check import quick, validator
from tests.conftest import ROOT
from tests.scale.trees import node_paths, replaced

SCHEMA = "provider.schema.json"
FILES = sorted((ROOT / "catalog" / "providers").glob("*.yaml"))


def _documents() -> list[tuple[str, Any]]:
    found = []
    for path in FILES:
        doc, _ = load_file(path, path.name)
        assert doc is not None
        found.append((path.name, doc.data))
    return found


def _variants(data: Any) -> Iterator[Any]:
    for path in node_paths(data):
        node = data
        for step in path:
            node = node[step]
        for new in ("", "x y", -1, 1.5, True, None, [], {}, ["a", "a"], {"zz_unknown": 1}):
            if new != node or type(new) is not type(node):
                yield replaced(data, path, new)
        if isinstance(node, dict):
            for key in list(node)[:4]:
                yield replaced(data, path, {k: v for k, v in node.items() if k != key})
            yield replaced(data, path, {**node, "zz_unknown": 1})
        if isinstance(node, list) and node:
            yield replaced(data, path, [*node, node[0]])


def test_the_bundled_files_are_proven_valid_quickly() -> None:
    check = quick(SCHEMA)
    for name, data in _documents():
        assert not list(validator(SCHEMA).iter_errors(data)), name
        assert check(data) is True, name


@pytest.mark.parametrize("name", [p.name for p in FILES[:5]])
def test_every_quick_verdict_agrees_with_jsonschema(name: str) -> None:
    check = quick(SCHEMA)
    full = validator(SCHEMA)
    data = dict(_documents())[name]
    judged = invalid = 0
    for variant in _variants(data):
        verdict = check(variant)
        if verdict is None:
            continue
        judged += 1
        valid = not any(True for _ in full.iter_errors(variant))
        invalid += not valid
        assert verdict is valid, (name, variant)
    assert judged and invalid  # the variants did reach both answers


def test_an_unknown_keyword_never_proves_anything(tmp_path: Path) -> None:
    from generator.schema_fast import compile_schema

    assert compile_schema({"type": "string", "format": "email"})("a") is None
    assert compile_schema({"type": "string", "format": "email"})(1) is False
    assert compile_schema({"not": {"format": "email"}})("a") is None
    assert compile_schema({"oneOf": [{"type": "string"}, {"dependentRequired": {}}]})("a") is None


def test_unevaluated_properties_beside_an_all_of_agree_with_jsonschema() -> None:
    """The price sets take one shared block of fields by $ref (inlined: an allOf member) and
    close with unevaluatedProperties: the quick test must still decide them."""
    from jsonschema import Draft202012Validator

    from generator.schema_fast import compile_schema

    schema = {
        "type": "object",
        "properties": {"t": {"type": "integer"}},
        "allOf": [{"properties": {"a": {"type": "string"}}}],
        "unevaluatedProperties": False,
    }
    cases = [({"t": 1, "a": "x"}, True), ({"t": 1}, True), ({"a": "x", "b": 1}, False)]
    cases += [({"a": 1}, False), ({}, True)]
    for document, valid in cases:
        assert Draft202012Validator(schema).is_valid(document) is valid, document
        assert compile_schema(schema)(document) is valid, document
    # a member that may evaluate a property some other way: no verdict, jsonschema decides
    other = {**schema, "allOf": [{"anyOf": [{"properties": {"a": {}}}]}]}
    assert compile_schema(other)({"a": 1}) is None
