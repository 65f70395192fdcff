"""Every bad input the issue lists gets a clear answer: a validation issue or a diagnostic."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provcat.toolschema import check, compile_tool, validate_canonical_tool
from tests.toolschema.conftest import TARGETS, obj, tool


def _issues(value: Any) -> list[str]:
    return [f"{i.path}: {i.message}" for i in validate_canonical_tool(value)]


@pytest.mark.parametrize("value", [None, [], "tool", 3, True])
def test_non_object_tools(value: Any) -> None:
    assert _issues(value) == [": a tool must be a JSON object"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"inputSchema": {"type": "object"}}, "name: `name` is missing or empty"),
        ({"name": "", "inputSchema": {"type": "object"}}, "name: `name` is missing or empty"),
        ({"name": "a b", "inputSchema": {"type": "object"}}, "name: `name` must be 1 to 128"),
        ({"name": "a" * 129, "inputSchema": {"type": "object"}}, "name: `name` must be 1 to 128"),
        ({"name": "t", "description": 3, "inputSchema": {"type": "object"}}, "description:"),
        ({"name": "t"}, "inputSchema: `inputSchema` must be a JSON object"),
        ({"name": "t", "inputSchema": {"type": "string"}}, "inputSchema.type: the root schema"),
        ({"name": "t", "inputSchema": {"type": ["object", "null"]}}, "inputSchema.type: the root"),
    ],
)
def test_bad_tools(value: dict[str, Any], expected: str) -> None:
    assert any(i.startswith(expected) for i in _issues(value)), _issues(value)


def test_name_at_the_limit_is_fine() -> None:
    assert _issues({"name": "a" * 128, "inputSchema": {"type": "object"}}) == []
    assert _issues({"name": "t", "inputSchema": {"type": ["object"]}}) == []


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        (obj(a={"type": "date"}), "unknown type 'date'"),
        (obj(a={"type": 3}), "`type` must be a string"),
        (obj(a={"type": "string", "pattern": "(unclosed"}), "`pattern` is not a valid"),
        (obj(a={"type": "string", "pattern": 5}), "`pattern` must be a string"),
        (obj(a={"$ref": "https://example.com/x.json"}), "is external"),
        (obj(a={"$ref": "#/$defs/Nope"}), "points at no schema"),
        (obj(a={"$ref": "#/required"}), "points at no schema"),
        (obj(a={"$ref": "#/a/~2"}), "is not a valid reference"),
        (obj(a={"$ref": 5}), "is not a valid reference"),
        (obj(a={"enum": []}), "`enum` must be a non-empty list"),
        (obj(a={"type": "string", "minLength": "1"}), "`minLength` must be a non-negative integer"),
        (obj(a={"type": "string", "minLength": 2.5}), "`minLength` must be a non-negative integer"),
        (obj(a={"type": "array", "maxItems": -1}), "`maxItems` must be a non-negative integer"),
        (obj(a={"type": "integer", "minimum": True}), "`minimum` must be a number"),
        (obj(a={"type": "string", "format": 7}), "`format` must be a string"),
        (obj(a={"type": "string", "nullable": [1]}), "`nullable` must be true or false"),
        ({"type": "object", "properties": {"a": {}}, "required": ["b"]}, "names 'b'"),
        (obj(a=False), "a boolean subschema is not allowed here"),
        (obj(a="string"), "a subschema must be a JSON object"),
        (obj(a={"type": "integer", "minimum": 5, "const": 3}), "`const` does not fit"),
    ],
)
def test_bad_subschemas(schema: dict[str, Any], expected: str) -> None:
    issues = _issues(tool(schema))
    assert any(expected in i for i in issues), issues


def test_recursive_refs_are_valid_canonical_input() -> None:
    schema = {
        "type": "object",
        "$defs": {"N": {"type": "object", "properties": {"c": {"$ref": "#/$defs/N"}}}},
        "properties": {"root": {"$ref": "#/$defs/N"}},
    }
    assert _issues(tool(schema)) == []


def _nested(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "object", "properties": {"x": node}}
    return node


@pytest.mark.parametrize("target", TARGETS)
def test_200_deep_nesting_is_a_clear_diagnostic(target: str) -> None:
    deep = tool(_nested(200))
    assert any("nests deeper" in i for i in _issues(deep))
    found = check(deep, target)
    assert [d.code for d in found] == ["core/schema-nesting-too-deep"]
    result = compile_tool(deep, target, allow_lossy=True)
    assert not result.ok


@pytest.mark.parametrize("target", TARGETS)
def test_a_10_mb_schema_compiles_or_refuses_without_crashing(target: str) -> None:
    props = {
        f"property_{i:06d}": {"type": "string", "description": "x" * 60} for i in range(110_000)
    }
    big = tool({"type": "object", "properties": props, "required": []})
    assert len(json.dumps(big)) > 10_000_000
    result = compile_tool(big, target, allow_lossy=True)
    if target.startswith("openai"):
        assert not result.ok
        assert f"{target}/too-many-properties" in {d.code for d in result.diagnostics}
    elif target == "anthropic-strict":  # 110,000 optional properties; the limit is 24
        assert not result.ok
        assert f"{target}/too-many-optional-properties" in {d.code for d in result.diagnostics}
    else:
        assert result.ok


@pytest.mark.parametrize(
    ("ref", "case"),
    [
        ("https://example.com/x.json", "external"),
        ("#/$defs/Nope", "dangling"),
        ("#/$defs/A/~9", "malformed"),
    ],
)
def test_bad_refs_for_gemini_are_refused_for_mcp_warned(ref: str, case: str) -> None:
    schema = {
        "type": "object",
        "$defs": {"A": {"type": "string"}},
        "properties": {"a": {"$ref": ref}},
    }
    gemini = compile_tool(tool(schema), "gemini", allow_lossy=True)
    assert not gemini.ok
    assert "gemini/unresolvable-schema-reference" in {d.code for d in gemini.diagnostics}
    mcp = compile_tool(tool(schema), "mcp")
    assert mcp.ok  # MCP passes references through and only warns
    expected = "mcp/external-ref" if case == "external" else "mcp/unresolvable-ref"
    assert expected in {d.code for d in mcp.diagnostics}


def test_a_default_outside_its_schema_is_an_annotation_not_an_issue() -> None:
    """`default` is an annotation (JSON Schema 2020-12 validation, 9.2: it is RECOMMENDED, not
    required, that it validate); pydantic writes `default: null` for `limit: int = None`."""
    assert _issues(tool(obj(a={"type": "integer", "default": None}))) == []
    assert _issues(tool(obj(a={"type": "string", "default": 3}))) == []
