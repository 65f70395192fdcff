"""The single pass must decide exactly what the full run decides: same output, records,
diagnostics and refusals. It measures the limits and the nesting while it rewrites (or copies,
for targets that send the schema as written), so every place a value can hide is tried here."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from benchmarks.bench_toolschema import corpus
from provcat.toolschema import check, compile_tool
from provcat.toolschema.api import as_tool
from provcat.toolschema.core import finalize_records
from provcat.toolschema.executor import Outcome, _Run, run
from provcat.toolschema.plan import plan_for
from provcat.toolschema.targets import get_target, list_targets
from provcat.toolschema.types import CanonicalTool, plain_parts, plain_tool
from provcat.toolschema.values import _Bail
from tests.toolschema.conftest import FIXTURES, obj, tool

SINGLE = [t.id for t in list_targets() if plan_for(t).single_pass]
EXAMPLES = Path(__file__).resolve().parent / "examples"


def test_every_bundled_target_takes_the_single_pass() -> None:
    assert set(SINGLE) == {t.id for t in list_targets()}


def _dump(outcome: Outcome, target: str, name: str, allow_lossy: bool) -> Any:
    result = finalize_records(
        provider_id=target,
        tool_name=name,
        output=outcome.output,
        transformations=outcome.transformations,
        diagnostics=sorted(outcome.diagnostics, key=lambda r: (r[0], r[1], r[2])),
        allow_lossy=allow_lossy,
    )
    return result.model_dump(mode="json", by_alias=True)


def _both(raw: dict[str, Any], target: str) -> bool:
    """Assert the single pass (when it does not hand over) and the public path both give the
    full run's answer; True when the single pass answered itself."""
    canonical = as_tool(raw)
    resolved = get_target(target)
    full = _Run(resolved, canonical, canonical.input_schema).execute(one_walk=False)
    try:
        attempt = _Run(resolved, canonical, canonical.input_schema)
        single: Outcome | None = attempt.execute(one_walk=True)
    except _Bail:  # too deep, or references to inline: the full run answers
        single = None
    for outcome in (single, run(canonical, resolved)):
        if outcome is None:
            continue
        for allow_lossy in (False, True):
            assert _dump(outcome, target, canonical.name, allow_lossy) == _dump(
                full, target, canonical.name, allow_lossy
            ), json.dumps(raw)[:400]
    return single is not None


def _random_schema(rng: random.Random, depth: int) -> Any:
    scalars: dict[str, Any] = {
        "description": "d",
        "title": "T",
        "minLength": 1,
        "maxLength": 9,
        "format": rng.choice(["date", "uri", "email"]),
        "minimum": 0,
        "default": rng.choice([None, 1, {"a": [1]}]),
        "nullable": rng.choice([True, False]),
        "const": rng.choice(["c", 1, {"k": 1}]),
        "enum": rng.choice([["a", "b"], [1, None], [{"x": 1}]]),
        "x-extra": {"k": [1]},
        "examples": [[1], {"a": 2}],
        "x-mcp-header": rng.choice(["X-Region", "x-region", "bad header"]),
        "$schema": "http://json-schema.org/draft-07/schema#",
    }
    r = rng.random()
    if depth > 3 or r < 0.3:
        node: dict[str, Any] = {
            "type": rng.choice(["string", "integer", "array", "object", ["string", "null"]])
        }
        for k in rng.sample(sorted(scalars), rng.randint(0, 3)):
            node[k] = scalars[k]
        return node
    if r < 0.6:
        props = {f"p{i}": _random_schema(rng, depth + 1) for i in range(rng.randint(0, 4))}
        node = {"type": "object", "properties": props}
        if rng.random() < 0.7:
            node["required"] = [k for k in props if rng.random() < 0.5]
        node["additionalProperties"] = rng.choice([True, False, {"type": "string"}, None])
        if node["additionalProperties"] is None:
            del node["additionalProperties"]
        return node
    if r < 0.75:
        key = rng.choice(["anyOf", "oneOf", "allOf", "prefixItems"])
        return {key: [_random_schema(rng, depth + 1) for _ in range(rng.randint(1, 3))]}
    if r < 0.85:
        return {"type": "array", "items": _random_schema(rng, depth + 1), "not": {"enum": ["z"]}}
    if r < 0.9:
        return rng.choice([True, False, 3, [1]])
    return {"$ref": rng.choice(["#/$defs/A", "#/definitions/B", "#/$defs/Missing"])}


def _random_tools(count: int) -> list[dict[str, Any]]:
    rng = random.Random(28)
    tools = []
    for i in range(count):
        root = _random_schema(rng, 0)
        if not isinstance(root, dict):
            root = {"type": "object", "properties": {"v": root}}
        if rng.random() < 0.3:
            root[rng.choice(["$defs", "definitions"])] = {"A": {"type": "string"}, "B": obj()}
        tools.append(tool(root, name=rng.choice([f"t{i}", f"bad name {i}", "x" * 70])))
    return tools


@pytest.mark.parametrize("target", SINGLE)
def test_single_pass_matches_the_full_run_on_fixtures_examples_and_random_tools(
    target: str,
) -> None:
    tools: list[dict[str, Any]] = list(FIXTURES.values())
    for path in sorted(EXAMPLES.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data if isinstance(data, list) else data.get("tools", [data])
        tools += [t for t in items if isinstance(t, dict) and "inputSchema" in t]
    tools += _random_tools(400)
    answered = sum(_both(raw, target) for raw in tools)
    # the single pass itself answered a good share (for gemini, tools with references go on)
    assert answered > len(tools) // 3


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


def _chain(key: str, levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {key: [node]} if key in ("allOf", "anyOf", "oneOf") else {key: node}
    return node


# Deep input hidden where the single pass does not descend (values it copies or drops whole) and
# where it does (chains of subschemas through each slot): each must give the one nesting
# diagnostic the full run gives, never a RecursionError.
DEEP = {
    "default value": obj(a={"type": "string", "default": _deep(200)}),
    "enum value": obj(a={"type": "string", "enum": [_deep(200)]}),
    "const value": obj(a={"const": _deep(200)}),
    "unknown keyword": obj(a={"x-deep": _deep(200)}),
    "annotation": obj(a={"type": "string", "examples": _deep(200)}),
    "type value": obj(a={"type": _deep(200)}),
    "dropped allOf": obj(a=_chain("allOf", 100)),
    "dropped not": obj(a=_chain("not", 200)),
    "anyOf chain": obj(a=_chain("anyOf", 100)),
    "items chain": obj(a=_chain("items", 200)),
    "additionalProperties chain": obj(a=_chain("additionalProperties", 200)),
    "non-schema subschema": obj(a=_deep(200)),
    "properties as a list": {"type": "object", "properties": _deep(200)},
    # root, properties, a, then the list levels: 3 + 125 = MAX_NESTING exactly, then one past it
    "at exactly the limit": obj(a={"type": "string", "default": _deep(125)}),
    "one past the limit": obj(a={"type": "string", "default": _deep(126)}),
}


@pytest.mark.parametrize("target", SINGLE)
@pytest.mark.parametrize("where", sorted(DEEP))
def test_deep_input_anywhere_gets_the_full_runs_answer(target: str, where: str) -> None:
    raw = tool(DEEP[where])
    _both(raw, target)
    codes = [d.code for d in check(raw, target)]
    if where == "at exactly the limit":
        assert "core/schema-nesting-too-deep" not in codes
        assert compile_tool(raw, target, allow_lossy=True).ok
    else:
        assert codes == ["core/schema-nesting-too-deep"]


@pytest.mark.parametrize("target", [t for t in SINGLE if get_target(t).fires("limit")])
def test_limits_count_subschemas_the_single_pass_drops(target: str) -> None:
    many = {f"p{i}": {"type": "string"} for i in range(5001)}
    hidden = obj(a={"allOf": [{"type": "object", "properties": many}]})
    codes = {d.code for d in check(tool(hidden), target)}
    assert f"{target}/too-many-properties" in codes
    deep = obj(a=_chain("not", 12))
    assert f"{target}/schema-too-deep" in {d.code for d in check(tool(deep), target)}
    values = obj(a={"not": {"enum": [f"v{i}" for i in range(1001)]}})
    assert f"{target}/too-many-enum-values" in {d.code for d in check(tool(values), target)}
    _both(tool(hidden), target)
    _both(tool(deep), target)
    _both(tool(values), target)


@pytest.mark.parametrize(
    "schema",
    [
        obj(a={"$ref": "#/$defs/A"}) | {"$defs": {"A": {"type": "string"}}},
        obj(a={"allOf": [{"$ref": "#/$defs/A"}]}) | {"$defs": {"A": {"type": "string"}}},
        obj(a={"not": {"properties": {"b": {"$ref": "#/definitions/A"}}}}),
        obj(a={"additionalProperties": {"$defs": {"B": {}}}}),
        obj(a={"anyOf": [{"type": "object", "$defs": {"A": {}}}, {"type": "null"}]}),
    ],
)
def test_references_hidden_anywhere_go_to_the_full_run_for_gemini(schema: dict[str, Any]) -> None:
    assert not _both(tool(schema), "gemini")


def test_a_collapsed_union_counts_the_levels_it_hides() -> None:
    # root, properties, a, anyOf, the branch, then the list levels: 5 + 124 = one past the limit
    deep = obj(a={"anyOf": [{"type": "string", "default": _deep(124)}, {"type": "null"}]})
    assert [d.code for d in check(tool(deep), "gemini")] == ["core/schema-nesting-too-deep"]
    _both(tool(deep), "gemini")
    fits = obj(a={"anyOf": [{"type": "string", "default": _deep(123)}, {"type": "null"}]})
    assert compile_tool(tool(fits), "gemini", allow_lossy=True).ok
    assert _both(tool(fits), "gemini")


@pytest.mark.parametrize(
    "raw",
    [
        {"name": "t", "inputSchema": {"type": "object"}},
        {"name": "t", "description": None, "inputSchema": {}},
        {"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "", "description": "", "inputSchema": {"a": [1, {"b": 2}]}},
    ],
)
def test_a_plain_tool_skips_pydantic_and_equals_its_validation(raw: dict[str, Any]) -> None:
    fast = plain_tool(raw)
    assert fast is not None
    slow = CanonicalTool.model_validate(dict(raw))
    assert fast == slow
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump(mode="json", by_alias=True) == slow.model_dump(
        mode="json", by_alias=True
    )
    assert fast.input_schema is not raw["inputSchema"]  # a copy, as pydantic makes
    parts = plain_parts(raw)  # what compile_tool reads instead, without the model
    assert parts is not None
    assert (parts.name, parts.description, parts.input_schema) == (
        slow.name,
        slow.description,
        slow.input_schema,
    )


@pytest.mark.parametrize(
    "raw",
    [
        {"name": 5, "inputSchema": {}},
        {"name": "t", "description": 3, "inputSchema": {}},
        {"name": "t", "inputSchema": []},
        {"name": "t", "inputSchema": {1: "x"}},
        {"name": "t", "inputSchema": {}, "extra": 1},
        {"name": "t", "input_schema": {}},
        {"inputSchema": {}},
    ],
)
def test_anything_else_goes_through_pydantic(raw: dict[str, Any]) -> None:
    assert plain_tool(raw) is None
    assert plain_parts(raw) is None
    try:
        expected = CanonicalTool.model_validate(dict(raw))
    except ValidationError:
        with pytest.raises(ValidationError):
            as_tool(raw)
    else:
        assert as_tool(raw) == expected


# Schema-shaped JSON from the whole keyword vocabulary, for the property below.
_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 300),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(["", "a", "date", "email", "x-y", "#/$defs/A", "#/definitions/B", "#"]),
)
_JSON = st.recursive(
    _VALUES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)
_KEYWORDS = sorted(
    {kw for target in list_targets() for values in target.keywords.values() for kw in values}
    | {"type", "enum", "const", "nullable", "x-mcp-header", "x-other", "if", "contains"}
)
_TYPES = st.sampled_from(
    ["string", "integer", "number", "boolean", "array", "object", "null", "int"]
)


def _schemas() -> st.SearchStrategy[Any]:
    def node(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        slot_values = {
            "properties": st.dictionaries(
                st.sampled_from(["a", "b c", "ok_1"]), children, max_size=3
            ),
            "$defs": st.dictionaries(st.sampled_from(["A", "B"]), children, max_size=2),
            "definitions": st.dictionaries(st.sampled_from(["A", "B"]), children, max_size=2),
            "anyOf": st.lists(children, max_size=3),
            "oneOf": st.lists(children, max_size=2),
            "allOf": st.lists(children, max_size=2),
            "prefixItems": st.lists(children, max_size=2),
            "items": children,
            "not": children,
            "additionalProperties": children,
            "type": _TYPES | st.lists(_TYPES, max_size=3),
            "required": st.lists(st.sampled_from(["a", "b c", "zz"]), max_size=3),
            "enum": st.lists(_JSON, max_size=3),
            "$ref": st.sampled_from(["#/$defs/A", "#/definitions/B", "#/$defs/Z", "http://x/y"]),
        }
        keyword = st.sampled_from(sorted(set(_KEYWORDS) | set(slot_values)))
        pair = keyword.flatmap(lambda k: slot_values.get(k, _JSON).map(lambda v: (k, v)))
        return st.lists(pair, max_size=5).map(dict)

    return st.recursive(st.builds(dict) | st.booleans() | _VALUES, node, max_leaves=12)


@settings(
    max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(schema=_schemas(), name=st.sampled_from(["t", "bad name", "x" * 70]))
def test_every_target_gives_the_full_runs_answer_for_any_schema_shaped_input(
    schema: Any, name: str
) -> None:
    root = schema if isinstance(schema, dict) else {"type": "object", "properties": {"v": schema}}
    for target in SINGLE:
        _both(tool(root, name=name), target)


@pytest.mark.parametrize("target", [t.id for t in list_targets() if t.rewrites])
def test_what_compiles_remember_gives_the_outcome_a_fresh_process_gives(target: str) -> None:
    """Each tool compiled with every cache emptied first, then all again with the caches warm from
    every earlier tool (equal records and verdicts at other paths): the same dumps."""
    from provcat.toolschema import clear_caches

    resolved = get_target(target)
    tools = list(FIXTURES.values()) + _random_tools(300) + corpus(300)

    def dump(raw: dict[str, Any]) -> Any:
        canonical = as_tool(raw)
        outcome = run(canonical, resolved)
        return [_dump(outcome, target, canonical.name, lossy) for lossy in (False, True)]

    cold = []
    for raw in tools:
        clear_caches()
        cold.append(dump(raw))
    assert [dump(raw) for raw in tools] == cold


@pytest.mark.parametrize("target", [t.id for t in list_targets()])
def test_a_plain_dict_compiles_as_its_validated_tool_and_is_left_unchanged(target: str) -> None:
    """compile_tool reads a plain dict as it is, without copying it into a CanonicalTool: the
    result must equal the validated tool's, and the dict (schemas included) stay as given."""
    raws = [*FIXTURES.values(), *corpus(150, seed=11)]
    for raw in raws:
        before = json.dumps(raw)
        validated = CanonicalTool.model_validate(raw)
        for lossy in (False, True):
            fast = compile_tool(raw, target, allow_lossy=lossy)
            slow = compile_tool(validated, target, allow_lossy=lossy)
            assert fast.model_dump(mode="json", by_alias=True) == slow.model_dump(
                mode="json", by_alias=True
            )
        assert json.dumps(raw) == before


def test_no_root_type_case_hits_a_root_typed_object() -> None:
    """tool_rules skips the root-type rules for a root whose type is "object": no case of any
    bundled target's root-type trigger may hit it (a new case that does must drop the skip)."""
    from provcat.toolschema.tool_checks import _root_type_hit

    cases = {case for t in list_targets() for _, case in plan_for(t).root_type_rules}
    assert cases  # the bundled targets have root-type rules
    for case in cases:
        root = {"type": "object", "properties": {}}
        assert not _root_type_hit(case, root, "object", ["object"]), case
    # while a root of another type is a case of some rule (the question is asked for it)
    assert any(
        _root_type_hit(case, {"type": ["object", "null"]}, ["object", "null"], ["object", "null"])
        for case in cases
    )
