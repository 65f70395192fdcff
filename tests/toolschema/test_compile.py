"""The shared fixtures compile to the documented outputs; the contract's shapes and policy."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from provcat.toolschema import (
    CanonicalTool,
    check,
    collect_schemas,
    compile_tool,
    finalize_compile,
    get_target,
    join_path,
    list_targets,
    stable_stringify,
    target_for_provider,
)
from provcat.toolschema.types import Diagnostic, Transformation
from tests.toolschema.conftest import FIXTURES, TARGETS, obj, tool


def _codes(items: Any) -> list[str]:
    return [x.code for x in items]


def test_openai_refund_order_is_the_documented_output() -> None:
    result = compile_tool(FIXTURES["refund_order"], "openai")
    assert result.ok
    assert result.output == {
        "type": "function",
        "name": "refund_order",
        "description": "Refunds all or part of an order",
        "parameters": {
            "type": "object",
            "properties": {
                "orderId": {"type": "string", "description": "The order to refund"},
                "amount": {
                    "type": ["number", "null"],
                    "description": "Amount to refund. Omit to refund the full order.",
                    "minimum": 0,
                },
            },
            "required": ["orderId", "amount"],
            "additionalProperties": False,
        },
        "strict": True,
    }
    assert _codes(result.transformations)[:2] == [
        "renamed-input-schema-to-parameters",
        "enabled-strict-mode",
    ]
    assert _codes(result.diagnostics) == ["openai/nullable-instead-of-omitted"]


def test_openai_chat_wraps_the_same_parameters() -> None:
    chat = compile_tool(FIXTURES["refund_order"], "openai-chat")
    responses = compile_tool(FIXTURES["refund_order"], "openai")
    assert chat.output is not None and responses.output is not None
    assert list(chat.output) == ["type", "function"]
    assert chat.output["function"]["parameters"] == responses.output["parameters"]
    assert chat.output["function"]["strict"] is True


def test_minimal_tool_everywhere() -> None:
    ping = FIXTURES["ping"]
    openai = compile_tool(ping, "openai")
    assert openai.output == {
        "type": "function",
        "name": "ping",
        "parameters": {
            "type": "object",
            "properties": {},
            "required": [],
            "additionalProperties": False,
        },
        "strict": True,
    }
    assert compile_tool(ping, "gemini").output == {"name": "ping"}
    assert compile_tool(ping, "anthropic").output == {
        "name": "ping",
        "input_schema": {"type": "object", "properties": {}},
    }
    assert compile_tool(ping, "mcp").output == {
        "name": "ping",
        "inputSchema": {"type": "object", "properties": {}},
    }


def test_gemini_union_and_constraints() -> None:
    result = compile_tool(FIXTURES["set_limit"], "gemini")
    assert result.ok and result.output is not None
    assert result.output["parameters"]["properties"]["limit"] == {
        "type": "NUMBER",
        "nullable": True,
        "minimum": 1,
    }
    ticket = compile_tool(FIXTURES["create_ticket"], "gemini")
    assert ticket.ok and ticket.output is not None
    props = ticket.output["parameters"]["properties"]
    assert props["title"] == {"type": "STRING", "minLength": "1", "maxLength": "200"}
    assert props["priority"] == {
        "type": "STRING",
        "format": "enum",
        "enum": ["low", "medium", "high"],
    }
    assert "int64-constraint-as-string" in _codes(ticket.transformations)
    assert "normalized-type-case" in _codes(ticket.transformations)


@pytest.mark.parametrize(
    ("name", "target", "ok_without_lossy"),
    [
        ("refund_order", "openai", True),
        ("create_ticket", "openai", False),
        ("tag_resource", "openai", False),
        ("tag_resource", "gemini", False),
        ("schedule_job", "gemini", False),
        ("schedule_job", "anthropic", True),
        ("schedule_job", "mcp", True),
        ("record_payment", "gemini", True),
        ("render_tree", "gemini", False),
        ("render_tree", "openai", True),
        ("ship_parcel", "gemini", False),
    ],
)
def test_fixture_verdicts(name: str, target: str, ok_without_lossy: bool) -> None:
    assert compile_tool(FIXTURES[name], target).ok is ok_without_lossy


def test_lossy_refusal_names_what_would_weaken_and_allow_lossy_accepts() -> None:
    refused = compile_tool(FIXTURES["tag_resource"], "openai")
    assert not refused.ok and refused.output is None
    last = refused.diagnostics[-1]
    assert last.code == "core/lossy-transformation-refused"
    assert "dropped-additional-properties-schema at inputSchema.properties.tags" in last.message
    assert last.docs_url is None
    allowed = compile_tool(FIXTURES["tag_resource"], "openai", allow_lossy=True)
    assert allowed.ok and allowed.lossy


def test_unresolvable_refusal_wins_over_lossy_refusal() -> None:
    bad = tool(obj(a={"type": "string", "minLength": 1}), name="bad.name")
    result = compile_tool(bad, "openai")
    assert "core/lossy-transformation-refused" not in _codes(result.diagnostics)
    assert "openai/tool-name-invalid-characters" in _codes(result.diagnostics)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_byte_identical_across_runs(name: str, target: str) -> None:
    first = compile_tool(FIXTURES[name], target, allow_lossy=True)
    second = compile_tool(json.loads(json.dumps(FIXTURES[name])), target, allow_lossy=True)
    dump = json.dumps(first.model_dump(mode="json", by_alias=True), ensure_ascii=False)
    assert dump == json.dumps(second.model_dump(mode="json", by_alias=True), ensure_ascii=False)


def test_json_shape_is_schemaports() -> None:
    result = compile_tool(FIXTURES["tag_resource"], "openai")
    data = result.model_dump(mode="json", by_alias=True)
    assert list(data) == ["providerId", "toolName", "ok", "transformations", "diagnostics"]
    diag = check(FIXTURES["tag_resource"], "openai")[0].model_dump(mode="json", by_alias=True)
    assert list(diag) == [
        "providerId",
        "toolName",
        "severity",
        "code",
        "message",
        "path",
        "compile",
        "docsUrl",
    ]
    assert list(diag["compile"]) == ["supported", "lossy", "detail"]
    assert list(data["transformations"][0]) == ["code", "path", "detail", "lossy"]
    assert "docsUrl" not in data["diagnostics"][-1]  # the core refusal has no docs page
    ok = compile_tool(FIXTURES["ping"], "mcp").model_dump(mode="json", by_alias=True)
    assert list(ok) == ["providerId", "toolName", "ok", "output", "transformations", "diagnostics"]


def test_diagnostics_sorted_by_severity_path_code() -> None:
    found = check(FIXTURES["create_ticket"], "openai")
    rank = {"error": 0, "warning": 1, "info": 2}
    keys = [(rank[d.severity], d.path, d.code) for d in found]
    assert keys == sorted(keys)


def test_finalize_compile_policy() -> None:
    canonical = CanonicalTool(name="t", input_schema={"type": "object"})
    warning = Diagnostic(
        provider_id="x",
        tool_name="t",
        severity="warning",
        code="x/w",
        message="m",
        path="inputSchema",
        compile={"supported": False, "lossy": False, "detail": "d"},
    )
    resolved = warning.model_copy(
        update={
            "severity": "error",
            "code": "x/e",
            "compile": warning.compile.model_copy(update={"supported": True}),
        }
    )
    lossy = Transformation(code="c", path="p", detail="d", lossy=True)
    result = finalize_compile(
        provider_id="x",
        tool=canonical,
        output={"a": 1},
        transformations=[lossy, lossy],
        diagnostics=[resolved, warning],
        allow_lossy=True,
    )
    assert result.ok and len(result.transformations) == 1
    assert _codes(result.diagnostics) == ["x/w"]  # the warning survives, the resolved error not
    refused = finalize_compile(
        provider_id="x", tool=canonical, output={}, transformations=[lossy], diagnostics=[]
    )
    assert not refused.ok and _codes(refused.diagnostics) == ["core/lossy-transformation-refused"]


def test_join_path_and_collect_schemas() -> None:
    assert (
        join_path("inputSchema", "properties", "order id") == 'inputSchema.properties["order id"]'
    )
    assert join_path("inputSchema", "properties", "x-trace") == 'inputSchema.properties["x-trace"]'
    assert join_path("inputSchema", "properties", "9lives") == 'inputSchema.properties["9lives"]'
    # JavaScript's `/^[A-Za-z_$][A-Za-z0-9_$]*$/` rejects a final newline (Python's `$` would not)
    assert join_path("inputSchema", "properties", "abc\n") == 'inputSchema.properties["abc\\n"]'
    assert join_path("inputSchema", "anyOf", 0, "$ref") == "inputSchema.anyOf[0].$ref"
    paths = [p for _, p in collect_schemas(FIXTURES["set_limit"]["inputSchema"])]
    assert paths == [
        "inputSchema",
        "inputSchema.properties.limit",
        "inputSchema.properties.limit.anyOf[0]",
        "inputSchema.properties.limit.anyOf[1]",
    ]


def test_join_path_writes_each_key_as_schemaports_join_path_does() -> None:
    # identifier or JSON string, as SchemaPort's joinPath writes them; ints as indexes
    expected = {
        "limit": ".limit",
        "$ref": ".$ref",
        "order id": '["order id"]',
        "x-trace": '["x-trace"]',
        "9lives": '["9lives"]',
        "café": '["café"]',
        "abc\n": '["abc\\n"]',
        7: "[7]",
    }
    for key, segment in expected.items():
        assert join_path("", key) == segment
        assert join_path("inputSchema", key) == "inputSchema" + segment
    # ``True`` and ``1`` are one dict key but two segments
    assert join_path("", True) == "[True]" and join_path("", 1) == "[1]"
    assert join_path("a", "properties", "order id", 0) == 'a.properties["order id"][0]'


def test_stable_stringify() -> None:
    assert stable_stringify({"b": 1, "a": "é"}) == '{\n  "b": 1,\n  "a": "é"\n}\n'


def test_targets_and_provider_mapping() -> None:
    assert [t.id for t in list_targets()] == sorted(TARGETS)
    openai = get_target("openai")
    assert date.fromisoformat(openai.rules_reviewed_at) <= date.today()  # a day, not a promise
    assert openai.api_key_env == "OPENAI_API_KEY"
    assert get_target("mcp").probe is None
    assert target_for_provider("groq").id == "openai-chat"
    assert target_for_provider("Claude-Code").id == "mcp"
    # an endpoint with its own target (any spelling), and one that has none (the provider's)
    assert target_for_provider("xai", "responses").id == "openai"
    assert target_for_provider("perplexity", "agent").id == "openai"
    assert target_for_provider("perplexity", "chat").id == "openai-chat"
    with pytest.raises(KeyError, match="did you mean 'responses'"):
        target_for_provider("xai", "respnses")
    with pytest.raises(KeyError):
        get_target("nope")
    with pytest.raises(KeyError):
        target_for_provider("nope")


@pytest.mark.parametrize("target", ["openai", "openai-chat"])
@pytest.mark.parametrize(
    "optional",
    [
        {"enum": ["asc", "desc"]},
        {"const": 5},
        {"enum": [1, 2, "x"]},
        {"anyOf": [{"type": "integer"}, {"type": "string"}], "description": "either"},
    ],
)
def test_an_optional_property_without_a_type_can_still_be_left_out(
    target: str, optional: dict[str, Any]
) -> None:
    """OpenAI's strict mode requires every property; an optional one is emulated "using a union
    type with null" (https://developers.openai.com/api/docs/guides/structured-outputs).
    A property with no `type` must accept null too, or the model can never leave it out while
    the record says it may."""
    schema = {
        "type": "object",
        "properties": {"q": {"type": "string"}, "o": optional},
        "required": ["q"],
    }
    result = compile_tool(tool(schema), target, allow_lossy=True)
    assert result.output is not None
    params = result.output.get("parameters") or result.output["function"]["parameters"]
    assert params["required"] == ["q", "o"]
    Draft202012Validator(params).validate({"q": "x", "o": None})
    assert "converted-optional-property-to-nullable" in {t.code for t in result.transformations}


@pytest.mark.parametrize("target", ["openai", "openai-chat"])
@pytest.mark.parametrize(
    ("prop", "where"),
    [
        ({"type": "array"}, ".items"),  # a tuple's prefixItems alone leave no items either
        ({"type": "array", "items": {}}, ".items"),  # pydantic's bare `list`
        ({}, ""),  # pydantic's `Any`
        ({"description": "free-form"}, ""),
        ({"allOf": [{"type": "integer"}, {"minimum": 1}]}, ""),  # `allOf` dropped: nothing left
    ],
)
def test_a_subschema_strict_mode_cannot_type_is_refused(
    target: str, prop: dict[str, Any], where: str
) -> None:
    """OpenAI answers 400 for a subschema without a type ("schema must have a 'type' key") and
    an array without `items` ("array schema missing items"): the errors the API returns, as
    reported in https://github.com/pydantic/pydantic-ai/pull/4756. No compile can express "any
    value" in strict mode, so the tool is refused even with `allow_lossy`."""
    result = compile_tool(tool(obj(a=prop)), target, allow_lossy=True)
    assert not result.ok and result.output is None
    (found,) = [d for d in result.diagnostics if d.code == f"{target}/schema-without-type"]
    assert found.path == "inputSchema.properties.a" + where


@pytest.mark.parametrize("target", ["openai", "openai-chat"])
def test_an_all_of_of_one_reference_is_merged_as_openai_python_does(target: str) -> None:
    """pydantic before 2.9 wrote a described reference as `allOf: [{"$ref": ...}]`; strict mode
    refuses `allOf`, and openai-python's `to_strict_json_schema` merges an `allOf` of one entry
    into its schema (src/openai/lib/_pydantic.py). Merged where the two share no keyword, so
    nothing is overridden; otherwise dropped as before (lossy), which leaves it untyped here."""
    defs = {"A": obj(x={"type": "string"}) | {"additionalProperties": False}}
    described = {"allOf": [{"$ref": "#/$defs/A"}], "description": "the a"}
    schema = obj(a=described) | {"$defs": defs, "additionalProperties": False}
    result = compile_tool(tool(schema), target)
    assert result.ok and not result.lossy and result.output is not None
    params = result.output.get("parameters") or result.output["function"]["parameters"]
    assert params["properties"]["a"] == {**defs["A"], "description": "the a"}
    assert "merged-single-all-of" in {t.code for t in result.transformations}
    # shared annotations do not stop it: the property's description stays, as the field's own
    both = {"allOf": [{"type": "string", "description": "in"}], "description": "out"}
    merged = compile_tool(tool(obj(a=both) | {"additionalProperties": False}), target)
    params = merged.output and (
        merged.output.get("parameters") or merged.output["function"]["parameters"]
    )
    assert params and params["properties"]["a"] == {"type": "string", "description": "out"}
    clash = {"allOf": [{"type": "integer", "maximum": 10}], "maximum": 5}
    refused = compile_tool(tool(obj(a=clash)), target, allow_lossy=True)
    assert "merged-single-all-of" not in {t.code for t in refused.transformations}
