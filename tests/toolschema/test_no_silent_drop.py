"""No keyword leaves a compiled schema unrecorded: for every keyword of JSON Schema 2020-12's
vocabularies (https://json-schema.org/draft/2020-12/json-schema-core and -validation), OpenAPI's
``nullable`` and the draft-07 ``definitions``, on a property of a tool, each target either writes
the keyword, or a record (a transformation or a diagnostic) names it. A target that dropped
``not`` or ``prefixItems`` without a word passed every other test."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provcat.toolschema import compile_tool
from tests.toolschema.conftest import TARGETS, tool

# each keyword with a value it may take on a string, number, array or object property
KEYWORDS: dict[str, tuple[str, Any]] = {
    # applicators
    "allOf": ("integer", [{"minimum": 1}]),
    "anyOf": ("integer", [{"minimum": 1}, {"maximum": -1}]),
    "oneOf": ("integer", [{"minimum": 1}, {"maximum": -1}]),
    "not": ("integer", {"const": 0}),
    "if": ("integer", {"minimum": 10}),
    "then": ("integer", {"multipleOf": 2}),
    "else": ("integer", {"multipleOf": 3}),
    "dependentSchemas": ("object", {"a": {"required": ["b"]}}),
    "prefixItems": ("array", [{"type": "integer"}, {"type": "string"}]),
    "items": ("array", {"type": "integer"}),
    "contains": ("array", {"type": "integer"}),
    "patternProperties": ("object", {"^x-": {"type": "string"}}),
    "propertyNames": ("object", {"maxLength": 8}),
    "unevaluatedItems": ("array", False),
    "unevaluatedProperties": ("object", False),
    # validation
    "const": ("integer", 3),
    "enum": ("string", ["a", "b"]),
    "multipleOf": ("integer", 5),
    "maximum": ("integer", 9),
    "exclusiveMaximum": ("integer", 9),
    "minimum": ("integer", 1),
    "exclusiveMinimum": ("integer", 1),
    "maxLength": ("string", 9),
    "minLength": ("string", 2),
    "pattern": ("string", "^[a-z]+$"),
    "maxItems": ("array", 3),
    "minItems": ("array", 2),
    "uniqueItems": ("array", True),
    "maxContains": ("array", 2),
    "minContains": ("array", 2),
    "maxProperties": ("object", 3),
    "minProperties": ("object", 2),
    "dependentRequired": ("object", {"a": ["b"]}),
    # format, content, meta-data
    "format": ("string", "date-time"),
    "contentEncoding": ("string", "base64"),
    "contentMediaType": ("string", "image/png"),
    "title": ("string", "A title"),
    "default": ("string", "x"),
    "deprecated": ("string", True),
    "readOnly": ("string", True),
    "writeOnly": ("string", True),
    "examples": ("string", ["x"]),
    "$comment": ("string", "why"),
    # other dialects
    "nullable": ("string", True),
}


def _records(result: Any) -> str:
    """Every record of a compile as one text: paths, codes, details and messages."""
    parts = [json.dumps(t.model_dump(), ensure_ascii=False) for t in result.transformations]
    parts += [json.dumps(d.model_dump(), ensure_ascii=False) for d in result.diagnostics]
    return "\n".join(parts)


def _written(output: Any, keyword: str) -> bool:
    """Whether ``keyword`` is a key anywhere in the compiled ``output``."""
    if isinstance(output, dict):
        return keyword in output or any(_written(v, keyword) for v in output.values())
    if isinstance(output, list):
        return any(_written(v, keyword) for v in output)
    return False


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("keyword", sorted(KEYWORDS))
def test_every_keyword_is_written_or_recorded(target: str, keyword: str) -> None:
    kind, value = KEYWORDS[keyword]
    prop: dict[str, Any] = {"type": kind, keyword: value}
    if kind == "object":
        prop |= {"properties": {"a": {"type": "string"}}, "required": ["a"]}
        prop.setdefault("additionalProperties", False)
    if kind == "array" and keyword != "items":
        prop.setdefault("items", {"type": "integer"} if keyword != "prefixItems" else {})
    schema = {
        "type": "object",
        "properties": {"p": prop},
        "required": ["p"],
        "additionalProperties": False,
    }
    result = compile_tool(tool(schema), target, allow_lossy=True)
    records = _records(result)
    assert _written(result.output, keyword) or keyword in records, (keyword, result.output)
