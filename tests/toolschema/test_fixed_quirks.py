"""The reference's quirks 1-4 and 6 (rules reference section 9), fixed, each proved."""

from __future__ import annotations

from provcat.toolschema import check, compile_tool
from tests.toolschema.conftest import obj, tool


def test_1_const_beside_enum_does_not_widen() -> None:
    inside = compile_tool(
        tool(obj(a={"type": "string", "enum": ["x", "y"], "const": "x"})), "openai"
    )
    assert inside.ok and inside.output is not None
    assert inside.output["parameters"]["properties"]["a"]["enum"] == ["x"]
    assert not inside.lossy
    outside = compile_tool(tool(obj(a={"type": "string", "enum": ["x"], "const": "z"})), "openai")
    assert not outside.ok  # the conflict is recorded as lossy, so it is refused
    assert "widened-const-outside-enum" in {t.code for t in outside.transformations}
    gemini = compile_tool(
        tool(obj(a={"type": "string", "enum": ["x", "y"], "const": "y"})), "gemini"
    )
    assert gemini.output is not None
    assert gemini.output["parameters"]["properties"]["a"]["enum"] == ["y"]


def test_2_root_one_of_is_refused_for_openai() -> None:
    schema = {"type": "object", "oneOf": [obj(a={"type": "string"}), obj(b={"type": "string"})]}
    result = compile_tool(tool(schema), "openai", allow_lossy=True)
    assert not result.ok
    assert "openai/root-schema-oneof" in {d.code for d in result.diagnostics}


def test_3_optional_ref_keeps_its_siblings() -> None:
    schema = {
        "type": "object",
        "$defs": {"Money": {"type": "number"}},
        "properties": {"fee": {"$ref": "#/$defs/Money", "description": "The fee"}},
    }
    result = compile_tool(tool(schema), "openai")
    assert result.ok and result.output is not None
    # strict mode refuses a `$ref` beside other keywords, so the reference is written out (as
    # openai-python's to_strict_json_schema does) and the sibling stays on what replaces it
    assert result.output["parameters"]["properties"]["fee"] == {
        "type": ["number", "null"],
        "description": "The fee",
    }


def test_4_non_schema_subschema_is_never_dropped_silently() -> None:
    bad = tool({"type": "object", "properties": {"x": "string", "y": {"type": "string"}}})
    codes = {d.code for d in check(bad, "gemini")}
    assert "gemini/non-schema-subschema" in codes
    refused = compile_tool(bad, "gemini")
    assert not refused.ok
    allowed = compile_tool(bad, "gemini", allow_lossy=True)
    assert allowed.output is not None
    assert allowed.output["parameters"]["properties"]["x"] == {}
    assert "widened-invalid-subschema" in {t.code for t in allowed.transformations}


def test_6_gemini_resolves_any_non_recursive_local_pointer() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "minLength": 2},
            "b": {"$ref": "#/properties/a"},
            "c": {"$ref": "#"},
        },
        "required": ["a"],
    }
    result = check(tool(schema), "gemini")
    paths = {d.path for d in result if d.code == "gemini/unresolvable-schema-reference"}
    # `#` recurses (reported where the recursion closes); the pointer to a property resolves
    assert paths and all(p.startswith("inputSchema.properties.c.") for p in paths)
    only_pointer = dict(
        schema, properties={k: v for k, v in schema["properties"].items() if k != "c"}
    )
    compiled = compile_tool(tool(only_pointer), "gemini")
    assert compiled.ok and compiled.output is not None
    assert compiled.output["parameters"]["properties"]["b"] == {"type": "STRING", "minLength": "2"}
    anchored = {
        "type": "object",
        "$defs": {"A": {"$anchor": "money", "type": "number"}},
        "properties": {"m": {"$ref": "#money"}},
    }
    out = compile_tool(tool(anchored), "gemini", allow_lossy=True)
    assert out.ok and out.output is not None
    assert out.output["parameters"]["properties"]["m"]["type"] == "NUMBER"
