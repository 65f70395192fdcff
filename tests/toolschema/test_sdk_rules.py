"""The tool-schema targets against what the vendors' own SDKs do with a schema (issue #27, item 6).

- google-genai's ``FunctionDeclaration`` (pydantic, ``extra='forbid'``, camelCase aliases) is the
  SDK's own statement of the fields a Gemini function declaration and its ``Schema`` may hold:
  every tool the ``gemini`` target writes must validate as one, and every field the target
  writes must be a field of the SDK's ``Schema``.
- The anthropic SDK's ``transform_schema`` (``anthropic.lib._parse._transform``) is the SDK's
  rewrite of a JSON Schema into the subset strict tool use and structured outputs accept: what it
  keeps as a keyword, the ``anthropic-strict`` target keeps, and what it moves into the
  description, the target does not send as a keyword; the differences are listed below, each
  with its reason.

Both SDKs are pinned in the dev extra; moving a pin is how a change is found.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib._parse._transform import transform_schema
from google.genai import types as genai

from provcat.toolschema import InvalidToolError, compile_tool, list_targets

HERE = Path(__file__).parent


def _tools() -> list[dict[str, Any]]:
    """Every input of the recorded outputs: the SchemaPort fixtures, the examples, edge cases,
    deep schemas and a generated corpus."""
    recorded = json.loads((HERE / "recorded-outputs.json").read_text(encoding="utf-8"))
    return [case["input"] for group in recorded["groups"].values() for case in group]


def _compiled(tool: dict[str, Any], target: str) -> dict[str, Any] | None:
    """The target's tool, or None where the target (or the input check) refuses it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = compile_tool(tool, target, allow_lossy=True)
        except InvalidToolError:  # the edge cases include tools that are not valid input
            return None
    return result.output if result.ok else None


# ---- Gemini: google-genai's FunctionDeclaration


def test_every_field_the_gemini_target_writes_is_a_field_of_the_sdks_schema() -> None:
    (target,) = [t for t in list_targets() if t.id == "gemini"]
    sdk_fields = {field.alias or name for name, field in genai.Schema.model_fields.items()}
    written = set(target.output["key_order"])
    assert written, "the gemini target names the fields it writes"
    assert written <= sdk_fields, sorted(written - sdk_fields)


def test_every_tool_compiled_for_gemini_validates_as_the_sdks_function_declaration() -> None:
    outputs = [out for tool in _tools() if (out := _compiled(tool, "gemini")) is not None]
    assert len(outputs) >= 50  # tools of every shape; most compile
    for output in outputs:
        genai.FunctionDeclaration.model_validate(output)  # extra='forbid': no field unknown


def test_the_sdk_refuses_a_field_the_target_must_never_write() -> None:
    # the check above can fail: a JSON Schema keyword the Gemini Schema lacks is refused
    with pytest.raises(ValueError, match="exclusiveMinimum"):
        genai.FunctionDeclaration.model_validate(
            {
                "name": "t",
                "parameters": {
                    "type": "OBJECT",
                    "properties": {"n": {"type": "NUMBER", "exclusiveMinimum": 0}},
                },
            }
        )


# ---- Anthropic strict: the anthropic SDK's transform_schema

# one property schema per keyword (or keyword value) the SDK decides on
KEYWORD_CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "minimum": ("minimum", {"type": "integer", "minimum": 1}),
    "maximum": ("maximum", {"type": "integer", "maximum": 9}),
    "exclusiveMinimum": ("exclusiveMinimum", {"type": "number", "exclusiveMinimum": 0}),
    "exclusiveMaximum": ("exclusiveMaximum", {"type": "number", "exclusiveMaximum": 1}),
    "multipleOf": ("multipleOf", {"type": "integer", "multipleOf": 2}),
    "minLength": ("minLength", {"type": "string", "minLength": 1}),
    "maxLength": ("maxLength", {"type": "string", "maxLength": 5}),
    "pattern": ("pattern", {"type": "string", "pattern": "^a+$"}),
    "format email": ("format", {"type": "string", "format": "email"}),
    "format hostname": ("format", {"type": "string", "format": "hostname"}),
    "format duration": ("format", {"type": "string", "format": "duration"}),
    "format byte": ("format", {"type": "string", "format": "byte"}),
    "maxItems": ("maxItems", {"type": "array", "items": {"type": "string"}, "maxItems": 3}),
    "minItems 1": ("minItems", {"type": "array", "items": {"type": "string"}, "minItems": 1}),
    "uniqueItems": (
        "uniqueItems",
        {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    ),
    "minProperties": ("minProperties", {"type": "object", "properties": {}, "minProperties": 1}),
    "maxProperties": ("maxProperties", {"type": "object", "properties": {}, "maxProperties": 1}),
    "const": ("const", {"const": "a"}),
    "enum": ("enum", {"enum": ["a", "b"]}),
    "allOf": ("allOf", {"allOf": [{"type": "string"}]}),
    "default": ("default", {"type": "string", "default": "x"}),
    "title": ("title", {"type": "string", "title": "X"}),
}

# where the target and the SDK differ, and why
DIFFERENCES = {
    "pattern": (
        "Anthropic's JSON Schema limitations support `pattern` with simple regular expressions "
        "(https://platform.claude.com/docs/en/build-with-claude/structured-outputs"
        "#json-schema-limitations); the SDK moves every pattern into the description"
    ),
    "default": (
        "`default` is on the supported list of the same page (our rule review of 2026-12-01); "
        "the SDK moves it into the description"
    ),
    "title": (
        "an annotation the model does not need: the target drops annotations "
        "(keywords.annotations), the SDK keeps `title`"
    ),
    "allOf": (
        "an `allOf` of one subschema is merged into the schema holding it (step "
        "merge-single-all-of), as openai-python's `_ensure_strict_json_schema` and pydantic-ai's "
        "`JsonSchemaTransformer` do: the same values are accepted, and pydantic's "
        '`allOf: [{"$ref": ...}]` is then no `allOf` over a reference, which the page does not '
        "support; the SDK keeps the `allOf` as written"
    ),
}


def _kept(schema: dict[str, Any], key: str, expected: Any) -> bool:
    return key in schema and schema[key] == expected


@pytest.mark.parametrize("case", sorted(KEYWORD_CASES))
def test_anthropic_strict_keeps_what_the_sdks_transform_keeps(case: str) -> None:
    key, prop = KEYWORD_CASES[case]
    root = {"type": "object", "properties": {"x": prop}}
    sdk_keeps = _kept(transform_schema(root)["properties"]["x"], key, prop[key])
    output = _compiled({"name": "t", "description": "d", "inputSchema": root}, "anthropic-strict")
    assert output is not None, case
    ours_keeps = _kept(output["input_schema"]["properties"]["x"], key, prop[key])
    if case in DIFFERENCES:
        # a recorded difference still holds (when the SDK changes, this says to look again)
        assert ours_keeps != sdk_keeps, f"{case}: no longer differs; drop it from DIFFERENCES"
    else:
        assert ours_keeps == sdk_keeps, case


def test_both_refuse_or_rewrite_what_strict_mode_cannot_take() -> None:
    root = {
        "type": "object",
        "properties": {
            "many": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        },
    }
    sdk = transform_schema(root)["properties"]
    assert "minItems" not in sdk["many"]  # the SDK keeps only 0 and 1
    assert "anyOf" in sdk["either"] and "oneOf" not in sdk["either"]
    # the target refuses minItems above 1 (not lossy-droppable: the vendor refuses it) ...
    result = compile_tool(
        {"name": "t", "description": "d", "inputSchema": root}, "anthropic-strict"
    )
    assert not result.ok
    assert "anthropic-strict/min-items-above-one" in {d.code for d in result.diagnostics}
    # ... and writes oneOf as anyOf, as the SDK does
    del root["properties"]["many"]
    output = _compiled({"name": "t", "description": "d", "inputSchema": root}, "anthropic-strict")
    assert output is not None
    either = output["input_schema"]["properties"]["either"]
    assert "anyOf" in either and "oneOf" not in either
