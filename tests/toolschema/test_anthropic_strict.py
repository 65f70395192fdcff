"""The ``anthropic-strict`` target against Anthropic's strict-tool-use page and SDK types.

``DOCUMENTED_TOOL`` is the ``get_weather`` tool of the strict tool use page
(https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use): a tool with
``strict: true`` and a closed object schema, sent as written. The limitations come from the JSON
Schema limitations section of the structured outputs page.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from provcat.toolschema import compile_tool
from tests.toolschema.conftest import obj, tool

DOCUMENTED_TOOL: dict[str, Any] = {
    "name": "get_weather",
    "description": "Get the current weather in a given location",
    "strict": True,
    "input_schema": {
        "type": "object",
        "properties": {
            "location": {
                "type": "string",
                "description": "The city and state, e.g. San Francisco, CA",
            },
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        },
        "required": ["location"],
        "additionalProperties": False,
    },
}


def _canonical(documented: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": documented["name"],
        "description": documented["description"],
        "inputSchema": copy.deepcopy(documented["input_schema"]),
    }


def test_the_documented_strict_tool_is_emitted_exactly() -> None:
    result = compile_tool(_canonical(DOCUMENTED_TOOL), "anthropic-strict")
    assert result.ok
    assert result.output == DOCUMENTED_TOOL
    assert [d.severity for d in result.diagnostics] == []


def test_an_open_object_is_closed_safely() -> None:
    open_schema = copy.deepcopy(DOCUMENTED_TOOL)
    del open_schema["input_schema"]["additionalProperties"]
    result = compile_tool(_canonical(open_schema), "anthropic-strict")
    assert result.ok and not result.lossy
    assert result.output == DOCUMENTED_TOOL


def test_the_output_is_the_anthropic_sdks_tool_type() -> None:
    pydantic = pytest.importorskip("pydantic")
    types = pytest.importorskip("anthropic.types")
    adapter = pydantic.TypeAdapter(types.ToolParam)
    output = compile_tool(_canonical(DOCUMENTED_TOOL), "anthropic-strict").output
    assert adapter.validate_python(output) == output


@pytest.mark.parametrize(
    ("schema", "lost"),
    [
        (obj(n={"type": "integer", "minimum": 1, "maximum": 5}), "dropped-unsupported-constraint"),
        (obj(s={"type": "string", "maxLength": 9}), "dropped-unsupported-constraint"),
        (obj(m={"type": "object", "additionalProperties": {"type": "string"}}), None),
    ],
)
def test_documented_limitations_are_lossy_and_refused_without_allow_lossy(
    schema: dict[str, Any], lost: str | None
) -> None:
    strict = compile_tool(tool(schema), "anthropic-strict")
    assert not strict.ok and strict.output is None
    lossy = compile_tool(tool(schema), "anthropic-strict", allow_lossy=True)
    assert lossy.ok and lossy.lossy
    if lost is not None:
        assert lost in {t.code for t in lossy.transformations if t.lossy}


@pytest.mark.parametrize(
    ("schema", "code"),
    [
        (
            {**obj(n={"$ref": "#/$defs/N"}), "$defs": {"N": obj(k={"$ref": "#/$defs/N"})}},
            "anthropic-strict/unsupported-reference",
        ),
        (obj(x={"$ref": "https://example.com/x.json"}), "anthropic-strict/unsupported-reference"),
        (obj(a={"type": "array", "items": {"type": "string"}, "minItems": 2}), None),
    ],
)
def test_what_the_subset_cannot_express_is_refused_even_when_lossy(
    schema: dict[str, Any], code: str | None
) -> None:
    result = compile_tool(tool(schema), "anthropic-strict", allow_lossy=True)
    assert not result.ok and result.output is None
    errors = {d.code for d in result.diagnostics if d.severity == "error"}
    assert (code or "anthropic-strict/min-items-above-one") in errors


def test_a_non_recursive_reference_is_kept() -> None:
    schema = {**obj(a={"$ref": "#/$defs/A"}), "$defs": {"A": {"type": "string"}}}
    result = compile_tool(tool(schema), "anthropic-strict")
    assert result.ok
    assert result.output["input_schema"]["properties"]["a"] == {"$ref": "#/$defs/A"}
