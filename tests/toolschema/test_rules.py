"""One case per rule of every target, asserting its code; and a check that no rule is untested."""

from __future__ import annotations

import re
from typing import Any

import provcat_catalog.targets
import pytest

from provcat.toolschema import InvalidToolError, check, compile_tool
from tests.toolschema.conftest import obj, tool

S = {"type": "string"}
# a definition that refers only to itself (tests/toolschema/test_reference_loops.py has the rest)
LOOP = tool({**obj(a={"$ref": "#/$defs/A"}), "$defs": {"A": {"$ref": "#/$defs/A"}}})


def _deep(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels - 1):
        node = obj(x=node)
    return node


OPENAI: dict[str, dict[str, Any]] = {
    "tool-name-invalid-characters": tool(obj(), name="bad.name"),
    "tool-name-too-long": tool(obj(), name="a" * 65),
    "missing-tool-description": tool(obj(), description=None),
    "root-schema-not-object": tool({"type": "string"}),
    "root-schema-anyof": tool({"type": "object", "anyOf": [obj(a=S), obj(b=S)]}),
    "root-schema-oneof": tool({"type": "object", "oneOf": [obj(a=S), obj(b=S)]}),
    "too-many-properties": tool(obj(**{f"p{i}": S for i in range(5001)})),
    "schema-too-deep": tool(_deep(11)),
    "too-many-enum-values": tool(obj(e={"type": "string", "enum": [str(i) for i in range(1001)]})),
    "large-enum-too-long": tool(
        obj(e={"type": "string", "enum": [f"{i:03d}" + "x" * 60 for i in range(251)]})
    ),
    "schema-too-large": tool(obj(**{"a" * 60001: S, "b" * 60001: S})),
    "boolean-subschema": tool(obj(x=False)),
    "true-subschema": tool(obj(x=True)),
    "non-schema-subschema": tool(obj(x="string")),
    "strict-optional-property": tool({"type": "object", "properties": {"a": S}}),
    "nullable-instead-of-omitted": tool({"type": "object", "properties": {"a": S}}),
    "object-missing-additional-properties": tool({"type": "object"}),
    "additional-properties-true": tool({**obj(a=S), "additionalProperties": True}),
    "extra-properties-no-longer-accepted": tool({**obj(a=S), "additionalProperties": True}),
    "additional-properties-schema": tool(obj(m={"type": "object", "additionalProperties": S})),
    "unsupported-keyword": tool(obj(a={"allOf": [S, {"minLength": 1}]})),  # one entry is merged
    "undocumented-constraint-keyword": tool(obj(a={"type": "string", "minLength": 1})),
    "unknown-keyword": tool(obj(a={"type": "string", "x-foo": 1})),
    "unsupported-string-format": tool(obj(a={"type": "string", "format": "uri"})),
    "one-of-converted-to-any-of": tool(obj(a={"oneOf": [S, {"type": "integer"}]})),
    "unresolvable-ref": tool(obj(a={"$ref": "#/$defs/Nope"})),
    "reference-loop-without-content": LOOP,
    "ref-with-sibling-keywords": tool(
        {**obj(a={"$ref": "#/$defs/A", "description": "an A"}), "$defs": {"A": S}}
    ),
    "conflicting-definitions-keywords": tool(
        {**obj(a={"$ref": "#/$defs/A"}), "$defs": {"A": S}, "definitions": {"B": S}}
    ),
    "legacy-definitions-keyword": tool(
        {**obj(a={"$ref": "#/definitions/A"}), "definitions": {"A": S}}
    ),
    "const-converted-to-enum": tool(obj(a={"type": "string", "const": "x"})),
    "nullable-keyword-converted": tool(obj(a={"type": "string", "nullable": True})),
    "annotation-keyword-dropped": tool(obj(a={"type": "string", "title": "A"})),
    "default-keyword-dropped": tool(obj(a={"type": "string", "default": "x"})),
    "schema-without-type": tool(obj(a={"type": "array", "description": "no items"})),
    "free-form-object-closed": tool(obj(m={"type": "object", "description": "any pairs"})),
}
ANTHROPIC: dict[str, dict[str, Any]] = {
    "invalid-tool-name": tool(obj(), name="bad.name"),
    "input-schema-not-object": tool({"type": "string"}),
    "missing-input-schema-type": tool({"properties": {}}),
    "schema-not-enforced": tool(obj(a=S)),
    "constraint-not-enforced": tool(obj(a={"type": "number", "minimum": 1})),
    "keyword-not-documented": tool(obj(a={"type": "array", "items": S, "prefixItems": [S]})),
    "undocumented-string-format": tool(obj(a={"type": "string", "format": "color"})),
    "enum-non-primitive-value": tool(obj(a={"enum": [{"x": 1}]})),
    "unresolvable-ref": tool(obj(a={"$ref": "#/$defs/Nope"})),
    "reference-loop-without-content": LOOP,
    "external-ref": tool(obj(a={"$ref": "https://example.com/a.json"})),
    "missing-tool-description": tool(obj(), description=" "),
}
ANTHROPIC_STRICT: dict[str, dict[str, Any]] = {
    "free-form-object-closed": tool(obj(m={"type": "object", "additionalProperties": True})),
    "invalid-tool-name": tool(obj(), name="bad.name"),
    "missing-tool-description": tool(obj(), description=" "),
    "input-schema-not-object": tool({"type": "string"}),
    "missing-input-schema-type": tool({"properties": {}}),
    "object-not-closed": tool(obj(a=S)),
    "additional-properties-schema": tool(obj(m={"type": "object", "additionalProperties": S})),
    "unsupported-constraint": tool(obj(a={"type": "number", "minimum": 1})),
    "min-items-above-one": tool(obj(a={"type": "array", "items": S, "minItems": 2})),
    # an `allOf` of one subschema is merged (merge-single-all-of); of several, it stays
    "all-of-ref": tool(
        {**obj(a={"allOf": [{"$ref": "#/$defs/A"}, {"maxLength": 9}]}), "$defs": {"A": S}}
    ),
    "unsupported-pattern-syntax": tool(obj(a={"type": "string", "pattern": r"(a)\1"})),
    "too-many-optional-properties": tool(
        {"type": "object", "properties": {f"p{i}": S for i in range(25)}}
    ),
    "too-many-union-properties": tool(
        obj(**{f"p{i}": {"type": ["string", "null"]} for i in range(17)})
    ),
    "reference-loop-without-content": LOOP,
    "unsupported-reference": tool(
        {**obj(a={"$ref": "#/$defs/N"}), "$defs": {"N": obj(kid={"$ref": "#/$defs/N"})}}
    ),
    "complex-enum-value": tool(obj(a={"enum": [{"x": 1}]})),
    "enum-values-differ-only-in-case": tool(obj(a={"type": "string", "enum": ["Open", "open"]})),
    "unsupported-string-format": tool(obj(a={"type": "string", "format": "color"})),
    "one-of-converted-to-any-of": tool(obj(a={"oneOf": [S, {"type": "integer"}]})),
    "nullable-keyword-converted": tool(obj(a={"type": "string", "nullable": True})),
    "nullable-false-dropped": tool(obj(a={"type": "string", "nullable": False})),
    "annotation-keyword-dropped": tool(obj(a={"type": "string", "title": "A"})),
    "unsupported-keyword": tool(obj(a={"type": "string", "x-foo": 1})),
    "false-subschema": tool(obj(a=False)),
    "true-subschema": tool(obj(a=True)),
    "non-schema-subschema": tool(obj(a="string")),
}
GEMINI: dict[str, dict[str, Any]] = {
    "parameters-not-object": tool({"type": "array", "items": S}),
    "invalid-function-name": tool(obj(), name="bad name"),
    "function-name-leading-character": tool(obj(), name="9lives"),
    "missing-function-description": tool(obj(a=S), description=None),
    "parameter-name-charset": tool(obj(**{"x-trace": S})),
    "unresolvable-schema-reference": tool(obj(a={"$ref": "https://example.com/a.json"})),
    "reference-loop-without-content": LOOP,
    "unsupported-schema-reference": tool({**obj(a={"$ref": "#/$defs/A"}), "$defs": {"A": S}}),
    "boolean-subschema": tool(obj(a=False)),
    "non-schema-subschema": tool(obj(a="string")),
    "unsupported-additional-properties": tool({**obj(a=S), "additionalProperties": False}),
    "unsupported-one-of": tool(obj(a={"oneOf": [S, {"type": "integer"}]})),
    "unsupported-all-of": tool(obj(a={"allOf": [S]})),
    "unsupported-not": tool(obj(a={"not": S})),
    "unsupported-multiple-of": tool(obj(a={"type": "integer", "multipleOf": 2})),
    "unsupported-exclusive-minimum": tool(obj(a={"type": "number", "exclusiveMinimum": 0})),
    "unsupported-exclusive-maximum": tool(obj(a={"type": "number", "exclusiveMaximum": 9})),
    "unsupported-unique-items": tool(obj(a={"type": "array", "items": S, "uniqueItems": True})),
    "unsupported-prefix-items": tool(obj(a={"type": "array", "prefixItems": [S]})),
    "unsupported-const": tool(obj(a={"type": "string", "const": "x"})),
    "non-string-enum-values": tool(obj(a={"type": "integer", "enum": [1, 2]})),
    "unsupported-type": tool(obj(a={"type": "date"})),
    "type-with-any-of": tool(
        obj(a={"type": "string", "anyOf": [{"minLength": 1}, {"maxLength": 3}]})
    ),
    "multi-type-union": tool(obj(a={"type": ["string", "integer"]})),
    "unsupported-keyword": tool(obj(a={"type": "string", "x-foo": 1})),
    "dropped-annotation-keyword": tool(obj(a={"type": "string", "examples": ["x"]})),
    "constraint-not-enforced": tool(obj(a={"type": "number", "minimum": 1})),
    "format-not-enforced": tool(obj(a={"type": "string", "format": "date"})),
    "default-not-enforced": tool(obj(a={"type": "string", "default": "x"})),
    "empty-parameters-omitted": tool({"type": "object", "properties": {}}),
}
GEMINI_JSON_SCHEMA: dict[str, dict[str, Any]] = {
    "invalid-function-name": tool(obj(), name="bad name"),
    "function-name-leading-character": tool(obj(), name="9lives"),
    "missing-function-description": tool(obj(a=S), description=None),
    "parameters-not-object": tool({"type": "array", "items": S}),
    "reference-loop-without-content": LOOP,
    "unresolvable-schema-reference": tool(obj(a={"$ref": "#/$defs/Nope"})),
    "keyword-not-supported": tool(obj(a={"type": "string", "minLength": 1})),
    "string-format-not-supported": tool(obj(a={"type": "string", "format": "email"})),
}
HEADER = "x-mcp-header"
MCP: dict[str, dict[str, Any]] = {
    "tool-name-length": tool(obj(), name="a" * 129),
    "tool-name-characters": tool(obj(), name="bad:name"),
    "input-schema-missing-type": tool({"properties": {}}),
    "input-schema-type-not-literal-object": tool({"type": ["object"]}),
    "input-schema-type-union": tool({"type": ["object", "null"]}),
    "input-schema-not-object": tool({"type": "string"}),
    "reference-loop-without-content": LOOP,
    "unresolvable-ref": tool(obj(a={"$ref": "#/$defs/Nope"})),
    "external-ref": tool(obj(a={"$ref": "https://example.com/a.json"})),
    "non-default-schema-dialect": tool(
        {**obj(), "$schema": "http://json-schema.org/draft-07/schema#"}
    ),
    "x-mcp-header-invalid": tool(obj(a={"type": "string", HEADER: "bad header"})),
    "x-mcp-header-duplicate": tool(
        obj(a={"type": "string", HEADER: "X-Id"}, b={"type": "string", HEADER: "x-id"})
    ),
    "x-mcp-header-unsupported-type": tool(obj(a={"type": "object", HEADER: "X-Id"})),
    "x-mcp-header-unreachable": tool(
        obj(a={"type": "array", "items": {"type": "string", HEADER: "X-Id"}})
    ),
    "x-mcp-header-unsafe-integer": tool(
        obj(a={"type": "integer", HEADER: "X-N", "default": 2**53})
    ),
    "nullable-keyword-ignored": tool(obj(a={"type": "string", "nullable": True})),
}
CASES: dict[str, dict[str, dict[str, Any]]] = {
    "openai": OPENAI,
    "openai-chat": OPENAI,
    "anthropic": ANTHROPIC,
    "anthropic-strict": ANTHROPIC_STRICT,
    "gemini": GEMINI,
    "gemini-json-schema": GEMINI_JSON_SCHEMA,
    "gemini-openai": GEMINI_JSON_SCHEMA,
    "mcp": MCP,
}
PARAMS = [(t, name) for t, table in CASES.items() for name in table]


@pytest.mark.parametrize(("target", "rule"), PARAMS, ids=[f"{t}/{n}" for t, n in PARAMS])
def test_rule_fires_with_its_code(target: str, rule: str) -> None:
    code = f"{target}/{rule}"
    if rule == "unsupported-type":
        # an unknown type name is refused before any target sees it (issue #25: the Python API
        # checks its input as `provcat tool check` does), so this rule no longer fires
        with pytest.raises(InvalidToolError, match="unknown type 'date'"):
            check(CASES[target][rule], target)
        return
    found = check(CASES[target][rule], target)
    assert code in {d.code for d in found}, [d.code for d in found]
    diag = next(d for d in found if d.code == code)
    assert diag.docs_url and diag.docs_url.startswith("https://")
    assert diag.message and re.search(r"\{[a-z_]+\}", diag.message) is None


def test_every_rule_of_every_target_has_a_case() -> None:
    codes = {r["code"] for t in provcat_catalog.targets.TARGETS for r in t["rules"]}
    tested = {f"{t}/{name}" for t, name in PARAMS}
    assert codes == tested


def test_severity_wording_and_docs_come_from_the_snapshot() -> None:
    record = next(t for t in provcat_catalog.targets.TARGETS if t["id"] == "openai")
    rule = next(r for r in record["rules"] if r["code"] == "openai/unsupported-keyword")
    (diag,) = [d for d in check(OPENAI["unsupported-keyword"], "openai") if d.code == rule["code"]]
    assert diag.severity == rule["severity"]
    assert diag.docs_url == rule["docs_url"]
    assert diag.message == rule["message"].replace("{keyword}", "allOf")


@pytest.mark.parametrize("target", ["openai", "gemini"])
def test_limit_rules_at_the_limit_are_silent(target: str) -> None:
    at_limit = [
        tool(obj(**{f"p{i}": S for i in range(5000)})),
        tool(_deep(10)),
        tool(obj(e={"type": "string", "enum": [str(i) for i in range(1000)]})),
        tool(obj(e={"type": "string", "enum": [f"{i:03d}" + "x" * 57 for i in range(250)]})),
    ]
    limit_codes = {
        "openai/too-many-properties",
        "openai/schema-too-deep",
        "openai/too-many-enum-values",
        "openai/large-enum-too-long",
        "openai/schema-too-large",
    }
    for case in at_limit:
        assert not limit_codes & {d.code for d in check(case, "openai")}


def test_large_enum_and_total_chars_exactly_at_the_limit() -> None:
    # 250 values is not "more than 250": silent however long
    long_values = [f"{i:03d}" + "x" * 100 for i in range(250)]
    assert "openai/large-enum-too-long" not in {
        d.code for d in check(tool(obj(e={"enum": long_values})), "openai")
    }
    exact = tool(obj(**{"a" * 60000: S, "b" * 60000: S}))
    assert "openai/schema-too-large" not in {d.code for d in check(exact, "openai")}
    past = tool(obj(**{"a" * 60000: S, "b" * 60001: S}))
    assert "openai/schema-too-large" in {d.code for d in check(past, "openai")}


def test_name_lengths_at_and_past_each_limit() -> None:
    def codes(name: str, target: str) -> set[str]:
        return {d.code for d in check(tool(obj(), name=name), target)}

    assert "openai/tool-name-too-long" not in codes("a" * 64, "openai")
    assert "openai/tool-name-too-long" in codes("a" * 65, "openai")
    assert "anthropic/invalid-tool-name" not in codes("a" * 64, "anthropic")
    assert "anthropic/invalid-tool-name" in codes("a" * 65, "anthropic")
    assert "anthropic-strict/invalid-tool-name" not in codes("a" * 64, "anthropic-strict")
    assert "anthropic-strict/invalid-tool-name" in codes("a" * 65, "anthropic-strict")
    assert "gemini/invalid-function-name" not in codes("a" * 128, "gemini")
    assert "gemini/invalid-function-name" in codes("a" * 129, "gemini")
    for target in ("gemini-json-schema", "gemini-openai"):
        assert f"{target}/invalid-function-name" not in codes("a" * 128, target)
        assert f"{target}/invalid-function-name" in codes("a" * 129, target)
    assert "mcp/tool-name-length" not in codes("a" * 128, "mcp")
    assert "mcp/tool-name-length" in codes("a" * 129, "mcp")
    assert "mcp/tool-name-length" in codes("", "mcp")


def test_refused_errors_cannot_be_allowed_away() -> None:
    result = compile_tool(OPENAI["root-schema-not-object"], "openai", allow_lossy=True)
    assert not result.ok and result.output is None
    assert "openai/root-schema-not-object" in {d.code for d in result.diagnostics}


def test_equal_leaves_each_count_towards_the_size_limit() -> None:
    # two equal const leaves of 60,001 characters: 120,002 in all, past OpenAI's 120,000
    leaf = {"type": "string", "const": "c" * 60001}
    found = {d.code for d in check(tool(obj(a=dict(leaf), b=dict(leaf))), "openai")}
    assert "openai/schema-too-large" in found
    single = {d.code for d in check(tool(obj(a=dict(leaf))), "openai")}
    assert "openai/schema-too-large" not in single


@pytest.mark.parametrize("target", ["openai", "anthropic-strict"])
def test_a_free_form_object_is_warned_below_the_root_only(target: str) -> None:
    """Closing an object that declares no property leaves it accepting only `{}` (strict mode
    requires `additionalProperties: false` on every object); at the root that is a tool without
    arguments, which is what it says."""
    codes = {d.code for d in check(tool({"type": "object"}), target)}
    assert f"{target}/free-form-object-closed" not in codes
    declared = check(tool(obj(m=obj(k={"type": "string"}))), target)
    assert f"{target}/free-form-object-closed" not in {d.code for d in declared}
