"""The three Gemini targets, against what Google documents and what the SDKs accept.

Expected outputs here are written from the vendors' pages, not from provcat:

- ``FUNCTION_DECLARATION_EXAMPLE`` is the example schema of ``FunctionDeclaration.parametersJsonSchema``
  in the Gemini API reference (https://ai.google.dev/api/caching#FunctionDeclaration, also in the
  google-genai SDKs' docstrings): a JSON Schema that ``parametersJsonSchema`` takes as written.
- ``COMPAT_GUIDE_TOOL`` is the ``get_weather`` tool of Google's OpenAI-compatibility guide
  (https://ai.google.dev/gemini-api/docs/openai#function-calling), sent to the Chat Completions
  endpoint exactly so.
- The Chat Completions envelope is checked against the openai SDK's own request type.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from provcat.toolschema import check, compile_tool
from tests.toolschema.conftest import tool

FUNCTION_DECLARATION_EXAMPLE: dict[str, Any] = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "additionalProperties": False,
    "required": ["name", "age"],
    "propertyOrdering": ["name", "age"],
}
COMPAT_GUIDE_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the weather in a given location",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {
                    "type": "string",
                    "description": "The city and state, e.g. Chicago, IL",
                },
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["location"],
        },
    },
}
JSON_SCHEMA_TARGETS = ("gemini-json-schema", "gemini-openai")
RECURSIVE: dict[str, Any] = {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/node"}},
    "required": ["root"],
    "$defs": {
        "node": {
            "type": "object",
            "properties": {
                "value": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
            },
        }
    },
}


def test_the_documented_parameters_json_schema_example_goes_through_as_written() -> None:
    canonical = tool(copy.deepcopy(FUNCTION_DECLARATION_EXAMPLE), name="register_person")
    result = compile_tool(canonical, "gemini-json-schema")
    assert result.ok
    assert result.output == {
        "name": "register_person",
        "description": "d",
        "parametersJsonSchema": FUNCTION_DECLARATION_EXAMPLE,
    }
    assert [d.code for d in result.diagnostics] == []


def test_the_compatibility_guide_tool_is_emitted_exactly() -> None:
    function = COMPAT_GUIDE_TOOL["function"]
    canonical = {
        "name": function["name"],
        "description": function["description"],
        "inputSchema": copy.deepcopy(function["parameters"]),
    }
    result = compile_tool(canonical, "gemini-openai")
    assert result.ok
    assert result.output == COMPAT_GUIDE_TOOL
    assert [d.code for d in result.diagnostics] == []


def test_the_chat_completions_envelope_is_the_openai_sdks_tool_type() -> None:
    pydantic = pytest.importorskip("pydantic")
    chat = pytest.importorskip("openai.types.chat")
    adapter = pydantic.TypeAdapter(chat.ChatCompletionToolParam)
    canonical = tool(copy.deepcopy(FUNCTION_DECLARATION_EXAMPLE), name="register_person")
    output = compile_tool(canonical, "gemini-openai").output
    assert adapter.validate_python(output) == output


def test_valid_for_json_schema_but_lossy_for_the_openapi_subset() -> None:
    schema = {
        "type": "object",
        "properties": {
            "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}]},
            "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "required": ["point"],
        "additionalProperties": False,
    }
    canonical = tool(schema)
    original = copy.deepcopy(canonical)
    strict = compile_tool(canonical, "gemini")
    assert not strict.ok and strict.output is None
    lossy = compile_tool(canonical, "gemini", allow_lossy=True)
    assert lossy.ok
    lost = {t.code for t in lossy.transformations if t.lossy}
    assert {"dropped-prefix-items", "dropped-additional-properties"} <= lost
    for target in JSON_SCHEMA_TARGETS:
        result = compile_tool(canonical, target)
        assert result.ok
        assert not [t for t in result.transformations if t.lossy]
        assert [d for d in result.diagnostics if d.severity == "error"] == []
    assert canonical == original  # nothing compiled in place


@pytest.mark.parametrize("target", ["gemini", *JSON_SCHEMA_TARGETS])
def test_recursive_refs_on_each_gemini_target(target: str) -> None:
    canonical = tool(copy.deepcopy(RECURSIVE))
    result = compile_tool(canonical, target, allow_lossy=True)
    if target == "gemini":
        # the Schema object has no references; a recursive one cannot be written out
        assert not result.ok and result.output is None
        assert "gemini/unresolvable-schema-reference" in {d.code for d in result.diagnostics}
        return
    # JSON Schema support covers `$ref` for recursive schemas: sent as written
    assert result.ok
    sent = result.output.get("parametersJsonSchema") or result.output["function"]["parameters"]
    assert sent == RECURSIVE


@pytest.mark.parametrize("target", JSON_SCHEMA_TARGETS)
@pytest.mark.parametrize("ref", ["#/$defs/missing", "https://example.com/schema.json"])
def test_references_outside_the_schema_are_refused(target: str, ref: str) -> None:
    schema = {"type": "object", "properties": {"x": {"$ref": ref}}}
    result = compile_tool(tool(schema), target, allow_lossy=True)
    assert not result.ok and result.output is None
    codes = {d.code for d in result.diagnostics}
    assert f"{target}/unresolvable-schema-reference" in codes


@pytest.mark.parametrize("target", JSON_SCHEMA_TARGETS)
def test_the_function_name_limit(target: str) -> None:
    at_limit = compile_tool(tool({"type": "object"}, name="f" * 128), target)
    assert at_limit.ok
    over = compile_tool(tool({"type": "object"}, name="f" * 129), target, allow_lossy=True)
    assert not over.ok and over.output is None
    assert [d.code for d in over.diagnostics if d.severity == "error"] == [
        f"{target}/invalid-function-name"
    ]
    odd = compile_tool(tool({"type": "object"}, name="ns:tool.v1-x"), target)
    assert odd.ok  # colons and dots are allowed in Gemini function names


@pytest.mark.parametrize("target", ["gemini", *JSON_SCHEMA_TARGETS])
@pytest.mark.parametrize(
    "root", [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]
)
def test_parameters_must_describe_an_object(target: str, root: dict[str, Any]) -> None:
    """A function declaration's parameters are an object's properties, each key a parameter's
    name (https://ai.google.dev/api/caching#FunctionDeclaration)."""
    result = compile_tool(tool(root), target, allow_lossy=True)
    assert not result.ok and result.output is None
    assert f"{target}/parameters-not-object" in {d.code for d in result.diagnostics}


@pytest.mark.parametrize("target", JSON_SCHEMA_TARGETS)
def test_keywords_outside_the_documented_subset_are_warned_and_kept(target: str) -> None:
    schema = {
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]{3}$", "format": "uuid"},
            "when": {"type": "string", "format": "date-time"},
            "n": {"type": "integer", "minimum": 1, "maximum": 9},
        },
    }
    result = compile_tool(tool(copy.deepcopy(schema)), target)
    assert result.ok
    sent = result.output.get("parametersJsonSchema") or result.output["function"]["parameters"]
    assert sent == schema
    warned = {(d.code, d.path) for d in check(tool(schema), target) if d.severity == "warning"}
    assert warned == {
        (f"{target}/keyword-not-supported", "inputSchema.properties.code.pattern"),
        (f"{target}/string-format-not-supported", "inputSchema.properties.code.format"),
    }


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {}},
        # zod's z.object({}) and many MCP servers' no-argument tools
        {"type": "object", "properties": {}, "additionalProperties": False},
    ],
)
def test_a_tool_without_arguments_is_sent_without_parameters(schema: dict[str, Any]) -> None:
    """Gemini refuses an OBJECT with no properties ("should be non-empty for OBJECT type"); a
    function that takes no arguments leaves `parameters` out, as the js-genai SDK does. Closing an
    object that has no properties adds nothing, so it is no loss."""
    result = compile_tool(tool(schema, name="ping"), "gemini")
    assert result.ok and not result.lossy
    assert result.output == {"name": "ping", "description": "d"}
    assert "omitted-empty-parameters" in {t.code for t in result.transformations}


def test_a_type_lists_keywords_go_into_their_types_branches() -> None:
    """Found by a new user: `{"type": ["string", "array"], "items": ...}` became `anyOf` branches
    with `items` left beside them, on a Schema object without a type; Gemini's Schema holds
    `items` for Type.ARRAY and `properties` for Type.OBJECT only
    (https://ai.google.dev/api/caching#Schema), and the API refuses `properties` elsewhere
    ("properties: only allowed for OBJECT type")."""
    schema = {
        "type": "object",
        "properties": {
            "x": {
                "type": ["string", "array"],
                "description": "A name or several.",
                "maxLength": 20,
                "items": {"type": "string"},
                "minItems": 1,
            },
            "y": {
                "type": ["object", "integer"],
                "properties": {"a": {"type": "string"}},
                "required": ["a"],
                "minimum": 0,
            },
        },
        "required": ["x", "y"],
    }
    result = compile_tool({"name": "t", "inputSchema": schema}, "gemini")
    assert result.ok and not result.lossy
    written = result.output["parameters"]["properties"]
    assert written["x"] == {
        "description": "A name or several.",
        "anyOf": [
            {"type": "STRING", "maxLength": "20"},  # int64 values as strings, as elsewhere
            {"type": "ARRAY", "items": {"type": "STRING"}, "minItems": "1"},
        ],
    }
    assert written["y"] == {
        "anyOf": [
            {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}, "required": ["a"]},
            {"type": "INTEGER", "minimum": 0},
        ]
    }


def test_a_one_ofs_branches_keep_their_own_keywords_beside_a_type_list() -> None:
    """Found in review of the test above's fix: beside a `oneOf` (written as `anyOf`), the type
    list is no branches of its own, so nothing of the parent moves into the oneOf's branches."""
    schema = {
        "type": ["object", "null"],
        "properties": {"a": {"type": "string"}},
        "oneOf": [{"type": "object", "properties": {"b": {"type": "integer"}}}, {"type": "null"}],
    }
    result = compile_tool(
        {"name": "t", "inputSchema": {"type": "object", "properties": {"x": schema}}},
        "gemini",
        allow_lossy=True,
    )
    written = result.output["parameters"]["properties"]["x"]
    assert written["properties"] == {"a": {"type": "STRING"}}
    assert written["anyOf"][0]["properties"] == {"b": {"type": "INTEGER"}}
