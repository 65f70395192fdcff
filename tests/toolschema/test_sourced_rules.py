"""Rules taken from the vendors' own statements (issue #27), each with the bad input it refuses.

MCP 2026-07-28 (server/tools, x-mcp-header): a header annotation only on a property reached
through a chain of `properties` (a conforming client drops the tool otherwise) and integer values
within ±(2^53-1). google-genai's `FunctionDeclaration.name`: starts with a letter or an
underscore. Exa (exa-py's DeepOutputSchema): an object outputSchema nests at most 2 levels and
holds at most 10 properties. And where no vendor page says what its API does, JSON Schema itself:
a `$ref` that resolves to nothing leaves no schema to apply (2020-12 core 8.2.3.1), an error on
`openai`, `openai-chat` and `anthropic` as on the other targets (a warning on `mcp`).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError
from referencing.exceptions import Unresolvable

from provcat.providers.exa.search import ExaSearchRequest
from provcat.toolschema import check, compile_tool, list_targets

SAFE = 2**53 - 1


def _tool(schema: dict[str, Any], name: str = "lookup") -> dict[str, Any]:
    return {"name": name, "description": "Look something up.", "inputSchema": schema}


def _codes(tool: dict[str, Any], target: str) -> list[tuple[str, str, str]]:
    return [(d.code, d.severity, d.path) for d in check(tool, target)]


def test_header_under_items_is_refused() -> None:
    tool = _tool(
        {
            "type": "object",
            "properties": {
                "regions": {"type": "array", "items": {"type": "string", "x-mcp-header": "Region"}}
            },
        }
    )
    assert _codes(tool, "mcp") == [
        (
            "mcp/x-mcp-header-unreachable",
            "error",
            'inputSchema.properties.regions.items["x-mcp-header"]',
        )
    ]
    assert not compile_tool(tool, "mcp").ok


@pytest.mark.parametrize(
    "schema",
    [
        {
            "type": "object",
            "anyOf": [{"properties": {"r": {"type": "string", "x-mcp-header": "R"}}}],
        },
        {
            "type": "object",
            "properties": {"r": {"$ref": "#/$defs/region"}},
            "$defs": {"region": {"type": "string", "x-mcp-header": "R"}},
        },
    ],
)
def test_header_outside_a_properties_chain_is_refused(schema: dict[str, Any]) -> None:
    assert [c for c, _, _ in _codes(_tool(schema), "mcp")] == ["mcp/x-mcp-header-unreachable"]


def test_header_on_a_nested_properties_chain_passes() -> None:
    schema = {
        "type": "object",
        "properties": {
            "where": {
                "type": "object",
                "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
            }
        },
    }
    assert _codes(_tool(schema), "mcp") == []


@pytest.mark.parametrize(
    ("extra", "bad"),
    [
        ({"default": 2**53}, "default `9007199254740992`"),
        ({"default": -(2**53)}, "default `-9007199254740992`"),
        ({"enum": [1, 2**60]}, "enum `1152921504606846976`"),
        ({"maximum": 2**53}, "maximum `9007199254740992`"),
    ],
)
def test_integer_header_values_beyond_the_safe_range(extra: dict[str, Any], bad: str) -> None:
    prop = {"type": "integer", "x-mcp-header": "Count", **extra}
    found = check(_tool({"type": "object", "properties": {"count": prop}}), "mcp")
    assert [(d.code, d.severity) for d in found] == [("mcp/x-mcp-header-unsafe-integer", "error")]
    assert bad in found[0].message


def test_integer_header_at_the_safe_bounds_passes() -> None:
    prop = {"type": "integer", "x-mcp-header": "Count", "minimum": -SAFE, "maximum": SAFE}
    prop["default"] = SAFE
    assert _codes(_tool({"type": "object", "properties": {"count": prop}}), "mcp") == []


@pytest.mark.parametrize("target", ["gemini", "gemini-json-schema", "gemini-openai"])
def test_gemini_function_name_must_start_with_a_letter_or_underscore(target: str) -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    found = [d for d in check(_tool(schema, "1tool"), target) if d.severity == "error"]
    assert [d.code for d in found] == [f"{target}/function-name-leading-character"]
    assert "`1tool`" in found[0].message
    assert not compile_tool(_tool(schema, "1tool"), target).ok
    assert [d for d in check(_tool(schema, "_tool.v1:x-2"), target) if d.severity == "error"] == []


def test_every_rule_names_the_statement_it_enforces() -> None:
    for target in list_targets():
        for rule in target.rules:
            assert rule.source.startswith("https://"), (target.id, rule.code)


def _exa(schema: dict[str, Any]) -> ExaSearchRequest:
    return ExaSearchRequest.model_validate({"query": "q", "type": "deep", "outputSchema": schema})


def test_exa_output_schema_three_levels_deep_is_refused() -> None:
    deep = {
        "type": "object",
        "properties": {
            "a": {
                "type": "object",
                "properties": {"b": {"type": "object", "properties": {"c": {"type": "string"}}}},
            }
        },
    }
    with pytest.raises(ValidationError, match="nests objects 3 levels deep; Exa allows at most 2"):
        _exa(deep)


def test_exa_output_schema_with_eleven_properties_is_refused() -> None:
    props = {f"p{i}": {"type": "string"} for i in range(11)}
    with pytest.raises(ValidationError, match="11 properties in all; Exa allows at most 10"):
        _exa({"type": "object", "properties": props})


def test_exa_output_schema_within_the_limits_passes() -> None:
    props: dict[str, Any] = {f"p{i}": {"type": "string"} for i in range(8)}
    props["o"] = {"type": "object", "properties": {"x": {"type": "integer"}}}
    assert _exa({"type": "object", "properties": props}).output_schema is not None
    assert _exa({"type": "text", "description": "a summary"}).output_schema is not None


# ---- Anthropic strict tool use, rules review of 2026-12-05: the structured-outputs page's JSON
# Schema limitations (`allOf` with `$ref`, regular-expression features) and schema complexity
# limits (24 optional and 16 union-typed parameters across a request's strict schemas).
# https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations


def _strict(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    schema["required"] = list(properties) if required is None else required
    return _tool(schema)


def _strict_errors(tool: dict[str, Any]) -> list[tuple[str, str]]:
    return [(d.code, d.path) for d in check(tool, "anthropic-strict") if d.severity == "error"]


def test_anthropic_strict_refuses_all_of_over_a_reference() -> None:
    tool = _strict({"a": {"allOf": [{"$ref": "#/$defs/x"}, {"description": "an x"}]}})
    tool["inputSchema"]["$defs"] = {"x": {"type": "string"}}
    assert _strict_errors(tool) == [
        ("anthropic-strict/all-of-ref", "inputSchema.properties.a.allOf[0].$ref")
    ]
    assert not compile_tool(tool, "anthropic-strict", allow_lossy=True).ok
    # the same schema written out, or the reference outside allOf, is fine
    inline = _strict({"a": {"allOf": [{"type": "string"}, {"description": "an x"}]}})
    assert _strict_errors(inline) == []
    plain = _strict({"a": {"$ref": "#/$defs/x"}})
    plain["inputSchema"]["$defs"] = {"x": {"type": "string"}}
    assert _strict_errors(plain) == []


def test_anthropic_strict_merges_an_all_of_of_one_reference() -> None:
    """pydantic before 2.9 wrote a described model field as `allOf: [{"$ref": ...}]`. An `allOf`
    of one subschema accepts what that subschema accepts, and the SDKs merge it into the schema
    holding it: openai-python's `_ensure_strict_json_schema` (src/openai/lib/_pydantic.py: "if
    len(all_of) == 1: json_schema.update(...)") and pydantic-ai's `JsonSchemaTransformer`
    (`_handle_union`: a union of one member is that member, merged with the holder's keys). So
    `anthropic-strict` merges it as `openai` does: the reference then stands outside `allOf`,
    which the page supports; it used to refuse the tool (`all-of-ref`)."""
    tool = _strict({"a": {"allOf": [{"$ref": "#/$defs/x"}], "description": "an x"}})
    tool["inputSchema"]["$defs"] = {"x": {"type": "string"}}
    assert _strict_errors(tool) == []
    result = compile_tool(tool, "anthropic-strict")
    assert result.ok and not result.lossy and result.output is not None
    assert result.output["input_schema"]["properties"]["a"] == {
        "$ref": "#/$defs/x",
        "description": "an x",
    }
    merged = [(t.code, t.path) for t in result.transformations if t.code == "merged-single-all-of"]
    assert merged == [("merged-single-all-of", "inputSchema.properties.a.allOf")]
    # at the root too (merged before the root rules judge it)
    root = _tool({"allOf": [{"$ref": "#/$defs/R"}], "$defs": {"R": _strict({})["inputSchema"]}})
    assert "anthropic-strict/all-of-ref" not in {d.code for d in check(root, "anthropic-strict")}
    # an `allOf` the target does not merge (its parts share a constraint) is still refused
    clash = _strict({"a": {"allOf": [{"$ref": "#/$defs/x"}], "$ref": "#/$defs/x"}})
    clash["inputSchema"]["$defs"] = {"x": {"type": "string"}}
    assert ("anthropic-strict/all-of-ref", "inputSchema.properties.a.allOf[0].$ref") in (
        _strict_errors(clash)
    )


@pytest.mark.parametrize(
    ("pattern", "feature"),
    [
        (r"^(a+)-\1$", "backreference"),
        (r"^(?P<w>a)(?P=w)$", "backreference"),
        (r"^(?=.*\d)\w+$", "lookaround"),
        (r"(?<!x)y", "lookaround"),
        (r"\bword\b", "word-boundary"),
        (r"a\B", "word-boundary"),
    ],
)
def test_anthropic_strict_refuses_an_unsupported_regex_feature(pattern: str, feature: str) -> None:
    tool = _strict({"code": {"type": "string", "pattern": pattern}})
    found = [d for d in check(tool, "anthropic-strict") if d.severity == "error"]
    assert [(d.code, d.path) for d in found] == [
        ("anthropic-strict/unsupported-pattern-syntax", "inputSchema.properties.code.pattern")
    ]
    assert found[0].message.endswith(f"does not support: {feature}.")
    assert not compile_tool(tool, "anthropic-strict").ok


@pytest.mark.parametrize(
    "pattern",
    [r"^\d{3}-[a-z]+$", r"^[\b]+$", r"^a\\b$", r"^(?:ab)+\.(x|y)$", r"^[]\b]$"],
)
def test_anthropic_strict_keeps_a_simple_pattern(pattern: str) -> None:
    tool = _strict({"code": {"type": "string", "pattern": pattern}})
    assert _strict_errors(tool) == []
    output = compile_tool(tool, "anthropic-strict").output
    assert output is not None
    assert output["input_schema"]["properties"]["code"]["pattern"] == pattern


def test_anthropic_strict_refuses_25_optional_parameters() -> None:
    props = {f"p{i}": {"type": "string"} for i in range(25)}
    found = [d for d in check(_strict(props, required=[]), "anthropic-strict")]
    assert [(d.code, d.path) for d in found if d.severity == "error"] == [
        ("anthropic-strict/too-many-optional-properties", "inputSchema")
    ]
    assert "25 optional properties" in found[0].message
    # 24 pass; a nested object's optional properties count too
    assert _strict_errors(_strict(dict(list(props.items())[:24]), required=[])) == []
    nested = dict(list(props.items())[:24])
    nested["n"] = {
        "type": "object",
        "properties": {"x": {"type": "string"}},
        "additionalProperties": False,
    }
    assert [c for c, _ in _strict_errors(_strict(nested, required=["n"]))] == [
        "anthropic-strict/too-many-optional-properties"
    ]


def test_anthropic_strict_refuses_17_union_typed_parameters() -> None:
    kinds: list[dict[str, Any]] = [
        {"type": ["string", "null"]},
        {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        {"type": "string", "nullable": True},
    ]
    props = {f"p{i}": kinds[i % 4] for i in range(17)}
    code = "anthropic-strict/too-many-union-properties"
    found = [d for d in check(_strict(props), "anthropic-strict") if d.code == code]
    assert [(d.severity, d.path) for d in found] == [("error", "inputSchema")]
    assert "17 union-typed parameters" in found[0].message
    del props["p16"]
    assert code not in {d.code for d in check(_strict(props), "anthropic-strict")}


def test_anthropic_reports_pattern_as_documented() -> None:
    # the non-strict target: `pattern` is on Anthropic's supported list (simple regular
    # expressions), so it is no longer reported as on neither list
    tool = _tool({"type": "object", "properties": {"c": {"type": "string", "pattern": "^a$"}}})
    assert "anthropic/keyword-not-documented" not in {d.code for d in check(tool, "anthropic")}


def test_pattern_features_know_escapes_and_character_classes() -> None:
    from provcat.toolschema.families.patterns import features

    assert features(r"(?<w>a)\k<w>") == ["backreference"]  # ECMA named group, as sent
    assert features(r"(a)\1(?=b)\b") == ["backreference", "lookaround", "word-boundary"]
    assert features(r"[\b\1]\\b\\1") == []  # in a class, or an escaped backslash
    assert features(r"[^]\B]x") == []  # `]` right after `[^` is a literal


# ---- Request models: limits the vendors document on a field (rules review of 2026-12-05)


def _messages(tools: list[dict[str, Any]]) -> Any:
    from provcat.endpoints.protocols.anthropic_messages import MessagesRequest

    return MessagesRequest.model_validate(
        {"model": "claude-haiku-4-5", "max_tokens": 16, "messages": [], "tools": tools}
    )


def _anthropic_tool(i: int, *, strict: bool) -> dict[str, Any]:
    schema = {"type": "object", "properties": {}, "additionalProperties": False}
    return {"name": f"t{i}", "input_schema": schema, "strict": strict}


def test_anthropic_messages_refuses_21_strict_tools() -> None:
    # https://platform.claude.com/docs/en/build-with-claude/structured-outputs#schema-complexity-limits
    with pytest.raises(
        ValidationError, match="21 tools have strict: true; Anthropic allows at most 20"
    ):
        _messages([_anthropic_tool(i, strict=True) for i in range(21)])


def test_anthropic_messages_counts_only_strict_tools() -> None:
    tools = [_anthropic_tool(i, strict=True) for i in range(20)]
    tools += [_anthropic_tool(100 + i, strict=False) for i in range(30)]
    assert len(_messages(tools).tools) == 50


def _agent(skills: list[dict[str, Any]]) -> Any:
    from provcat.providers.perplexity.agent import PerplexityAgentRequest

    return PerplexityAgentRequest.model_validate({"input": "q", "skills": skills})


def _skill(description: str = "d", instructions: str = "i") -> dict[str, Any]:
    return {"type": "inline", "name": "s", "description": description, "instructions": instructions}


def test_perplexity_inline_skill_description_past_1024_bytes_is_refused() -> None:
    # perplexityai 0.46.1 SkillInlineSkill.description: "limited to 1,024 UTF-8 bytes"; bytes,
    # not characters: 342 three-byte characters are 1,026 bytes
    with pytest.raises(ValidationError, match=r"skills\[0\].description has 1026 UTF-8 bytes"):
        _agent([_skill(description="€" * 342)])
    assert _agent([_skill(description="€" * 341)]).skills is not None


def test_perplexity_inline_skill_instructions_per_skill_and_in_all() -> None:
    # "limited to 65,536 UTF-8 bytes per skill and 262,144 bytes across the request"
    with pytest.raises(ValidationError, match=r"skills\[1\].instructions has 65537 UTF-8 bytes"):
        _agent([_skill(), _skill(instructions="x" * 65_537)])
    five = [_skill(instructions="x" * 65_536) for _ in range(5)]
    with pytest.raises(
        ValidationError, match="327680 UTF-8 bytes in all; Perplexity allows at most 262144"
    ):
        _agent(five)
    assert _agent([*five[:4], {"type": "builtin", "name": "office"}]).skills is not None


# ---- OpenAI strict mode: a `$ref` with sibling keywords is refused by the API ("$ref cannot have
# keywords {'description'}"); openai-python's to_strict_json_schema unravels such a reference
# (src/openai/lib/_pydantic.py), and so does the openai target (rules review of 2026-12-05)


def _with_sibling_ref(extra: dict[str, Any]) -> dict[str, Any]:
    money = {
        "type": "object",
        "properties": {"amount": {"type": "number"}},
        "required": ["amount"],
        "additionalProperties": False,
    }
    schema = {
        "type": "object",
        "properties": {"total": {"$ref": "#/$defs/Money", **extra}},
        "required": ["total"],
        "additionalProperties": False,
        "$defs": {"Money": money},
    }
    return _tool(schema)


@pytest.mark.parametrize("target", ["openai", "openai-chat"])
def test_openai_writes_out_a_reference_with_sibling_keywords(target: str) -> None:
    tool = _with_sibling_ref({"description": "The amount received"})
    assert [(d.code, d.severity, d.path) for d in check(tool, target)] == [
        (f"{target}/ref-with-sibling-keywords", "error", "inputSchema.properties.total.$ref")
    ]
    result = compile_tool(tool, target)
    assert result.ok
    assert result.output is not None
    params = (
        result.output["parameters"]
        if target == "openai"
        else result.output["function"]["parameters"]
    )
    total = params["properties"]["total"]
    assert "$ref" not in total
    assert total["description"] == "The amount received"
    assert total["properties"] == {"amount": {"type": "number"}}
    assert total["additionalProperties"] is False
    # a reference alone stays a reference
    alone = compile_tool(_with_sibling_ref({}), target).output
    assert alone is not None
    params = alone["parameters"] if target == "openai" else alone["function"]["parameters"]
    assert params["properties"]["total"] == {"$ref": "#/$defs/Money"}


@pytest.mark.parametrize("target", ["openai", "openai-chat"])
def test_openai_writes_out_a_root_reference_as_openai_python_does(target: str) -> None:
    # pydantic's schema of a model that refers to itself is a root `$ref` beside `$defs`; the
    # API wants an object at the root, and openai-python's to_strict_json_schema writes the
    # referenced object there (its "$ref with other properties" unravelling), keeping `$defs`
    from openai.lib._pydantic import to_strict_json_schema
    from pydantic import BaseModel

    class Node(BaseModel):
        name: str
        children: list[Node]

    Node.model_rebuild()
    schema = Node.model_json_schema()
    assert set(schema) == {"$ref", "$defs"}
    assert [d.code for d in check(_tool(schema), target) if d.path == "inputSchema.$ref"] == [
        f"{target}/ref-with-sibling-keywords"
    ]
    result = compile_tool(_tool(schema), target, allow_lossy=True)
    assert result.ok and result.output is not None
    params = (
        result.output["parameters"]
        if target == "openai"
        else result.output["function"]["parameters"]
    )
    sdk = to_strict_json_schema(Node)
    assert "$ref" not in params and "$ref" not in sdk
    for key in ("type", "required", "additionalProperties"):
        assert params[key] == sdk[key]
    assert params["properties"].keys() == sdk["properties"].keys()
    assert params["properties"]["children"]["items"] == sdk["properties"]["children"]["items"]
    assert params["$defs"].keys() == sdk["$defs"].keys() == {"Node"}
    # a root reference that cannot be written out is still refused, saying what to do
    looping = {"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}}
    assert not compile_tool(_tool(looping), target, allow_lossy=True).ok


@pytest.mark.parametrize("target", ["openai", "openai-chat"])
def test_openai_merges_a_root_all_of_one_reference_as_openai_python_does(target: str) -> None:
    # openai-python merges an `allOf` of one subschema into its holder, then writes the `$ref`
    # out: `{"allOf": [{"$ref": "#/$defs/Node"}], "$defs": ...}` has an object at the root
    from openai.lib._pydantic import _ensure_strict_json_schema

    node = {
        "type": "object",
        "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
        "required": ["kids"],
        "additionalProperties": False,
    }
    schema = {"allOf": [{"$ref": "#/$defs/Node"}], "$defs": {"Node": node}}
    sdk = _ensure_strict_json_schema(json.loads(json.dumps(schema)), path=(), root=schema)
    result = compile_tool(_tool(schema), target)
    assert result.ok and result.output is not None
    params = (
        result.output["parameters"]
        if target == "openai"
        else result.output["function"]["parameters"]
    )
    assert "allOf" not in params and "$ref" not in params
    assert {k: v for k, v in params.items() if k != "$defs"} == {
        k: v for k, v in sdk.items() if k != "$defs"
    }


def test_openai_a_sibling_that_replaces_a_referenced_constraint_is_lossy() -> None:
    schema = {
        "type": "object",
        "properties": {"code": {"$ref": "#/$defs/Code", "enum": ["a"]}},
        "required": ["code"],
        "additionalProperties": False,
        "$defs": {"Code": {"type": "string", "enum": ["a", "b"]}},
    }
    result = compile_tool(_tool(schema), "openai")
    assert not result.ok  # refused without --allow-lossy
    lossy = compile_tool(_tool(schema), "openai", allow_lossy=True)
    assert ("replaced-referenced-constraint", "inputSchema.properties.code.enum", True) in {
        (t.code, t.path, t.lossy) for t in lossy.transformations
    }
    assert lossy.output is not None
    assert lossy.output["parameters"]["properties"]["code"] == {"type": "string", "enum": ["a"]}


def test_openai_a_sibling_differs_from_the_referenced_constraint_as_json_does() -> None:
    # `[1]` is not `[true]` in JSON, though Python's == says it is: the sibling replaces a
    # different constraint, so the compile is lossy
    schema = {
        "type": "object",
        "properties": {"flag": {"$ref": "#/$defs/Flag", "enum": [1]}},
        "required": ["flag"],
        "additionalProperties": False,
        "$defs": {"Flag": {"enum": [True]}},
    }
    lossy = compile_tool(_tool(schema), "openai", allow_lossy=True)
    assert ("replaced-referenced-constraint", "inputSchema.properties.flag.enum", True) in {
        (t.code, t.path, t.lossy) for t in lossy.transformations
    }
    same = {**schema, "$defs": {"Flag": {"enum": [1.0]}}}  # 1 and 1.0 are one JSON number
    kept = compile_tool(_tool(same), "openai", allow_lossy=True)
    assert "replaced-referenced-constraint" not in {t.code for t in kept.transformations}


def test_a_const_outside_its_enum_is_judged_as_json_compares() -> None:
    # const {"on": true} is not the enum's {"on": 1}: nothing was accepted, the enum widened
    schema = {
        "type": "object",
        "properties": {"mode": {"const": {"on": True}, "enum": [{"on": 1}]}},
        "required": ["mode"],
        "additionalProperties": False,
    }
    result = compile_tool(_tool(schema), "openai", allow_lossy=True)
    assert "widened-const-outside-enum" in {t.code for t in result.transformations}
    inside = {**schema, "properties": {"mode": {"const": {"on": 1}, "enum": [{"on": 1.0}]}}}
    kept = compile_tool(_tool(inside), "openai", allow_lossy=True)
    assert "widened-const-outside-enum" not in {t.code for t in kept.transformations}


def _dangling(**beside: Any) -> dict[str, Any]:
    schema = {
        "type": "object",
        "properties": {"coupon": {"$ref": "#/$defs/Discount", **beside}},
        "required": ["coupon"],
        "additionalProperties": False,
        "$defs": {"Coupon": {"type": "string"}},
    }
    return _tool(schema)


@pytest.mark.parametrize("target", ["openai", "openai-chat", "anthropic"])
@pytest.mark.parametrize("beside", [{}, {"description": "The coupon"}])
def test_a_reference_that_points_nowhere_is_refused(target: str, beside: dict[str, Any]) -> None:
    # JSON Schema 2020-12 core 8.2.3.1: a `$ref` resolves to "the URI of the schema to apply";
    # this one resolves to nothing, and jsonschema cannot check a value against it
    tool = _dangling(**beside)
    with pytest.raises(Unresolvable):
        Draft202012Validator(tool["inputSchema"]).is_valid({"coupon": "SAVE10"})
    errors = [(c, p) for c, sev, p in _codes(tool, target) if sev == "error"]
    assert errors == [(f"{target}/unresolvable-ref", "inputSchema.properties.coupon.$ref")]
    result = compile_tool(tool, target, allow_lossy=True)
    assert not result.ok and result.output is None
    diag = next(d for d in result.diagnostics if d.code == f"{target}/unresolvable-ref")
    assert (
        diag.message == "`$ref` `#/$defs/Discount` does not resolve to a schema in this document."
    )
    assert not diag.compile.supported
    # pointed at the definition that is there, it compiles as before
    fixed = json.loads(json.dumps(tool).replace("#/$defs/Discount", "#/$defs/Coupon"))
    assert compile_tool(fixed, target, allow_lossy=True).ok


@pytest.mark.parametrize("target", [t.id for t in list_targets()])
def test_every_target_reports_a_reference_that_points_nowhere(target: str) -> None:
    found = [(c, sev) for c, sev, p in _codes(_dangling(), target) if p.endswith("coupon.$ref")]
    assert found, target
    severity = "warning" if target == "mcp" else "error"  # MCP: clients cannot resolve it
    assert {sev for _, sev in found} == {severity}


def test_anthropic_strict_closes_a_root_it_types_as_an_object() -> None:
    # "additionalProperties must be set to false" on every object under strict tool use
    # (https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations):
    # a root written without a type, which the target types as an object, is closed too
    for root in ({}, {"$schema": "http://json-schema.org/draft-07/schema#"}, {"$comment": "c"}):
        result = compile_tool(_tool(root, "ping"), "anthropic-strict", allow_lossy=True)
        assert result.output is not None, result
        schema = result.output["input_schema"]
        assert (schema["type"], schema["additionalProperties"]) == ("object", False), root
    assert "anthropic-strict/object-not-closed" in [
        c for c, _, _ in _codes(_tool({}), "anthropic-strict")
    ]


@pytest.mark.parametrize(
    "root",
    [
        {
            "$ref": "#/$defs/M",
            "$defs": {
                "M": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
            },
        },
        {
            "anyOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]},
            ]
        },
    ],
    ids=["ref", "anyOf"],
)
def test_anthropic_strict_leaves_a_root_reference_or_union_open_to_its_arguments(
    root: dict[str, Any],
) -> None:
    # closing such a root beside no properties would make it accept only {} (JSON Schema
    # 2020-12 core 10.3.2.3: additionalProperties sees only the properties beside it)
    result = compile_tool(_tool(root), "anthropic-strict", allow_lossy=True)
    assert result.output is not None
    schema = result.output["input_schema"]
    assert Draft202012Validator(schema).is_valid({"a": "x"})
