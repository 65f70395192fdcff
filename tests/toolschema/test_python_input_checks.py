"""compile_tool and check refuse, through the public API, what `provcat tool check` refuses, with
the same messages (issue #25): the command line is the reference each expectation is read from,
run on the same input as a file. A tool in OpenAI's or Anthropic's own shape is refused with the
exact change that makes it canonical; nothing given is changed."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from provcat.toolschema import CanonicalTool, InvalidToolError, check, compile_tool

WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
}


def cli_problems(tool: Any, tmp_path: Path) -> list[str]:
    """What `provcat tool check` prints for ``tool`` as a file, without the file's name."""
    path = tmp_path / "tool.json"
    path.write_text(json.dumps(tool), encoding="utf-8")
    run = CliRunner().invoke(main, ["tool", "check", str(path), "--targets", "openai"])
    assert run.exit_code == 2, run.output
    lines = [
        line for line in run.output.splitlines() if line.split(": ", 1)[0].endswith("tool.json")
    ]
    return [line.split(": ", 1)[1] for line in lines]


def refused(tool: Any) -> tuple[str, ...]:
    with pytest.raises(InvalidToolError) as compile_error:
        compile_tool(tool, "openai", allow_lossy=True)
    with pytest.raises(InvalidToolError) as check_error:
        check(tool, "gemini")
    assert compile_error.value.problems == check_error.value.problems
    return compile_error.value.problems


def test_a_misspelt_type_and_a_required_naming_no_property_are_refused(tmp_path: Path) -> None:
    tool = {
        "name": "get_weather",
        "inputSchema": {
            "type": "object",
            "properties": {"city": {"type": "strin"}},
            "required": ["city", "country"],
        },
    }
    before = copy.deepcopy(tool)
    problems = refused(tool)
    assert sorted(problems) == sorted(cli_problems(tool, tmp_path))
    assert "unknown type 'strin' (did you mean 'string'?) at inputSchema.properties.city.type" in (
        problems
    )
    assert "`required` names 'country', which is not a property at inputSchema.required" in (
        problems
    )
    assert tool == before  # nothing given is changed
    # the same through a CanonicalTool, which pydantic alone lets through
    assert refused(CanonicalTool.model_validate(tool)) == problems


@pytest.mark.parametrize(
    ("tool", "fix"),
    [
        (
            {
                "type": "function",
                "function": {"name": "get_weather", "parameters": WEATHER, "strict": True},
            },
            '"inputSchema": <function.parameters>',
        ),
        (
            {"type": "function", "name": "get_weather", "parameters": WEATHER, "strict": True},
            "rename `parameters` to `inputSchema` and drop `type`, `strict`",
        ),
        ({"name": "get_weather", "parameters": WEATHER}, "rename `parameters` to `inputSchema`"),
        (
            {"name": "get_weather", "input_schema": WEATHER, "cache_control": {"type": "x"}},
            "rename `input_schema` to `inputSchema` and drop `cache_control`",
        ),
        (
            {"functionDeclarations": [{"name": "get_weather", "parameters": WEATHER}]},
            # found by a new user: renamed as told, the OpenAPI types were then refused
            "give each declaration as its own tool, with `parameters` (or `parametersJsonSchema`)"
            " renamed to `inputSchema`; `parameters` is Gemini's OpenAPI form: write its types in "
            'lower case (`OBJECT` as `object`) and `nullable: true` as "null" in `type`',
        ),
    ],
    ids=["openai-chat", "openai-responses", "functions", "anthropic", "gemini"],
)
def test_a_vendor_shaped_tool_is_refused_with_the_exact_fix(
    tool: dict[str, Any], fix: str, tmp_path: Path
) -> None:
    (problem,) = refused(tool)
    assert fix in problem
    assert cli_problems(tool, tmp_path) == [problem]


def test_the_fix_applied_compiles(tmp_path: Path) -> None:
    """Following the message for an Anthropic tool gives a tool that compiles."""
    anthropic = {"name": "get_weather", "description": "Weather.", "input_schema": WEATHER}
    refused(anthropic)
    fixed = {"name": "get_weather", "description": "Weather.", "inputSchema": WEATHER}
    assert compile_tool(fixed, "anthropic").ok


def test_an_unknown_field_gets_a_did_you_mean(tmp_path: Path) -> None:
    tool = {"name": "t", "descripton": "x", "inputSchema": {"type": "object"}}
    (problem,) = refused(tool)
    assert problem == (
        "`descripton` is not a field of a tool (name, description, inputSchema); "
        "did you mean 'description'?"
    )
    assert cli_problems(tool, tmp_path) == [problem]


def test_not_a_mapping_is_refused() -> None:
    with pytest.raises(InvalidToolError, match="a tool must be a mapping"):
        compile_tool(["get_weather"], "openai")  # type: ignore[arg-type]


def test_what_a_target_diagnoses_stays_a_diagnostic() -> None:
    """A dangling `$ref` is each target's to judge (SchemaPort's fixtures compile such tools):
    no exception, a refused or warned compile."""
    tool = {
        "name": "t",
        "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/Nope"}}},
    }
    result = compile_tool(tool, "gemini")
    assert not result.ok
    assert result.diagnostics


def test_a_valid_tool_compiles_again_after_an_invalid_one_with_the_same_name() -> None:
    bad = {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "x"}}}}
    refused(bad)
    good = {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    assert compile_tool(good, "openai", allow_lossy=True).output is not None


def test_a_keyword_value_json_schema_forbids_is_refused_not_sent(tmp_path: Path) -> None:
    # JSON Schema 2020-12 validation: minLength/maxItems are non-negative integers (6.3, 6.4),
    # minimum a number (6.2), format and description strings (7.2, 9.1), anyOf a non-empty
    # array (core 10.2.1.2); OpenAPI 3.0's nullable a boolean. Each was once sent to the vendor
    # as given (google-genai's own FunctionDeclaration refuses it: tests/toolschema/test_sdk_rules.py)
    tool = {
        "name": "lookup",
        "inputSchema": {
            "type": "object",
            "properties": {
                "a": {"type": "string", "minLength": 2.5, "format": 7, "description": 7},
                "b": {"type": "array", "maxItems": -1, "items": {"type": "string"}},
                "c": {"type": "integer", "minimum": True, "nullable": [1]},
                "d": {"anyOf": {"type": "string"}},
            },
        },
    }
    before = copy.deepcopy(tool)
    problems = refused(tool)
    assert sorted(problems) == sorted(cli_problems(tool, tmp_path))
    assert sorted(problems) == [
        "`anyOf` must be a non-empty list of subschemas at inputSchema.properties.d.anyOf",
        "`description` must be a string at inputSchema.properties.a.description",
        "`format` must be a string at inputSchema.properties.a.format",
        "`maxItems` must be a non-negative integer at inputSchema.properties.b.maxItems",
        "`minLength` must be a non-negative integer at inputSchema.properties.a.minLength",
        "`minimum` must be a number at inputSchema.properties.c.minimum",
        "`nullable` must be true or false at inputSchema.properties.c.nullable",
    ]
    assert tool == before
    # a whole number written as 2.0 is an integer to JSON Schema: accepted
    fine = {
        "name": "lookup",
        "inputSchema": {
            "type": "object",
            "properties": {"s": {"type": "string", "maxLength": 2.0}},
        },
    }
    assert compile_tool(fine, "openai", allow_lossy=True).ok


def test_an_upper_case_type_name_is_told_its_lower_case() -> None:
    (problem,) = refused({"name": "t", "inputSchema": {"type": "OBJECT"}})
    assert problem == (
        "unknown type 'OBJECT' (did you mean 'object'? type names are lower case) at "
        "inputSchema.type"
    )
