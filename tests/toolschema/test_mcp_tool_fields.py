"""An MCP Tool's other fields (schema.ts of revision 2026-07-28, the one the `mcp` target names:
`Tool extends BaseMetadata, Icons` with `title`, `outputSchema`, `annotations`, `icons` and
`_meta` beside `name`, `description` and `inputSchema`) are written by `mcp` as given, and left
out by the targets whose tool shapes have no place for them.

The tools are the specification's own: its example "with output schema for structured content"
(schema/2026-07-28/examples/Tool/with-output-schema-for-structured-content.json) with the icon of
its `tools/list` example (examples/ListToolsResult/tools-list-with-cursor-and-ttl.json), every
ToolAnnotations hint and a `_meta` key in the reverse-DNS form its MetaObject describes; and its
example "with an array output schema" (examples/Tool/tool-with-array-output-schema.json)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provcat.toolschema import CanonicalTool, InvalidToolError, as_tool, compile_tool
from provcat.toolschema.intake import MCP_KEPT, mcp_fields
from tests.toolschema.conftest import TARGETS

WEATHER: dict[str, Any] = {
    "name": "get_weather_data",
    "title": "Weather Data Retriever",
    "description": "Get current weather data for a location",
    "inputSchema": {
        "type": "object",
        "properties": {"location": {"type": "string", "description": "City name or zip code"}},
        "required": ["location"],
    },
    "outputSchema": {
        "type": "object",
        "properties": {
            "temperature": {"type": "number", "description": "Temperature in celsius"},
            "conditions": {"type": "string", "description": "Weather conditions description"},
            "humidity": {"type": "number", "description": "Humidity percentage"},
        },
        "required": ["temperature", "conditions", "humidity"],
    },
    "annotations": {
        "title": "Weather",
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": True,
    },
    "icons": [
        {"src": "https://example.com/weather-icon.png", "mimeType": "image/png", "sizes": ["48x48"]}
    ],
    "_meta": {"com.example/region": "eu"},
}

LIST_USERS: dict[str, Any] = {
    "name": "list_users",
    "title": "User List",
    "description": "Returns a list of all users",
    "inputSchema": {"type": "object", "properties": {}},
    "outputSchema": {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "id": {"type": "string", "description": "User ID"},
                "name": {"type": "string", "description": "User name"},
                "email": {"type": "string", "description": "User email"},
            },
            "required": ["id", "name", "email"],
        },
    },
}

OTHER_FIELDS = ("title", "outputSchema", "annotations", "icons", "_meta")


def _containers(value: Any) -> list[int]:
    found: list[int] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (dict, list)):
            found.append(id(item))
            stack.extend(item.values() if isinstance(item, dict) else item)
    return found


@pytest.mark.parametrize("tool", [WEATHER, LIST_USERS], ids=["weather", "list_users"])
def test_mcp_writes_the_tool_as_the_specification_gives_it(tool: dict[str, Any]) -> None:
    before = json.dumps(tool)
    for given in (tool, as_tool(tool)):
        result = compile_tool(given, "mcp")
        assert result.ok and not result.transformations and not result.diagnostics
        assert json.dumps(result.output) == before  # every field, value and key order
        assert set(_containers(result.output)).isdisjoint(_containers(tool))
    assert json.dumps(tool) == before


def test_a_field_given_alone_is_written_alone_in_its_place() -> None:
    plain = {k: WEATHER[k] for k in ("name", "description", "inputSchema")}
    for key in OTHER_FIELDS:
        output = compile_tool({**plain, key: WEATHER[key]}, "mcp").output
        assert output == {k: v for k, v in WEATHER.items() if k in plain or k == key}
        assert list(output) == [k for k in WEATHER if k in plain or k == key]


@pytest.mark.parametrize("target", [t for t in TARGETS if t != "mcp"])
def test_the_other_targets_leave_them_out_and_compile_as_without_them(target: str) -> None:
    plain = {k: WEATHER[k] for k in ("name", "description", "inputSchema")}
    for lossy in (False, True):
        assert compile_tool(WEATHER, target, allow_lossy=lossy) == compile_tool(
            plain, target, allow_lossy=lossy
        )


def test_a_tool_without_them_is_written_as_before() -> None:
    plain = {k: WEATHER[k] for k in ("name", "description", "inputSchema")}
    assert compile_tool(plain, "mcp").output == plain


def test_execution_of_revision_2025_11_25_is_read_and_left_out() -> None:
    output = compile_tool({**WEATHER, "execution": {"taskSupport": "optional"}}, "mcp").output
    assert output == WEATHER


def test_null_is_taken_as_absent() -> None:
    nulls = dict.fromkeys(OTHER_FIELDS)
    plain = {k: WEATHER[k] for k in ("name", "description", "inputSchema")}
    assert compile_tool({**plain, **nulls}, "mcp").output == plain


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("title", 5, "`title` must be a string"),
        ("outputSchema", True, "`outputSchema` must be a JSON object"),
        ("outputSchema", "object", "`outputSchema` must be a JSON object"),
        ("annotations", [], "`annotations` must be a JSON object"),
        ("icons", {"src": "x"}, "`icons` must be a list"),
        ("_meta", "x", "`_meta` must be a JSON object"),
    ],
)
def test_a_field_of_another_json_type_is_refused(field: str, value: Any, problem: str) -> None:
    with pytest.raises(InvalidToolError) as caught:
        compile_tool({**WEATHER, field: value}, "openai")
    assert caught.value.problems == (problem,)


def test_a_field_nested_deeper_than_an_input_schema_may_is_refused() -> None:
    deep: dict[str, Any] = {}
    for _ in range(2000):  # deeper than the recursion a copy of it would need
        deep = {"a": deep}
    with pytest.raises(InvalidToolError) as caught:
        compile_tool({**WEATHER, "_meta": deep}, "mcp")
    assert caught.value.problems == ("`_meta` nests deeper than 128 levels",)


def test_a_canonical_tool_holds_each_field_under_its_mcp_name() -> None:
    held = CanonicalTool.model_validate(WEATHER)
    assert list(mcp_fields(held)) == list(MCP_KEPT) == list(OTHER_FIELDS)
    assert held.model_dump(mode="json", by_alias=True) == WEATHER
