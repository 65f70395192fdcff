"""What a compile does with its input: deep input anywhere gets one clear refusal, never a
RecursionError; limits count every subschema, dropped ones too; the caller's dict is left as
given and the output shares nothing with it; a tool not in the plain JSON shape goes through
pydantic's validation."""

from __future__ import annotations

import json
from typing import Any

import pytest

from benchmarks.bench_toolschema import corpus
from provcat.toolschema import (
    CanonicalTool,
    InvalidToolError,
    as_tool,
    check,
    compile_tool,
    get_target,
    list_targets,
)
from tests.toolschema.conftest import FIXTURES, obj, tool

TARGETS = [t.id for t in list_targets()]


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


# Deep input where the walk does not descend (values it copies or drops whole) and where it does
# (chains of subschemas through each slot)
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


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("where", sorted(DEEP))
def test_deep_input_anywhere_gets_one_nesting_diagnostic(target: str, where: str) -> None:
    raw = tool(DEEP[where])
    codes = [d.code for d in check(raw, target)]
    if where == "at exactly the limit":
        assert "core/schema-nesting-too-deep" not in codes
        assert compile_tool(raw, target, allow_lossy=True).ok
    else:
        assert codes == ["core/schema-nesting-too-deep"]
        assert not compile_tool(raw, target, allow_lossy=True).ok


@pytest.mark.parametrize("target", ["openai", "anthropic", "gemini"])
def test_input_nested_thousands_deep_gets_the_nesting_diagnostic(target: str) -> None:
    # deeper than Python's marshal writes (2,000 levels): still the one nesting diagnostic, not
    # "not plain JSON data"
    raw = tool(obj(a=_chain("items", 3000)))
    assert [d.code for d in check(raw, target)] == ["core/schema-nesting-too-deep"]
    assert not compile_tool(raw, target, allow_lossy=True).ok


@pytest.mark.parametrize("levels", [0, 70])  # 70: nested past the targets' limit, not marshal's
def test_a_value_that_is_not_json_data_is_refused_as_such(levels: int) -> None:
    from decimal import Decimal

    raw = tool(obj(a={"type": "number", "default": Decimal("1.5")}))
    for _ in range(levels):
        raw = tool(obj(a=raw["inputSchema"]))
    where = "inputSchema" + ".properties.a" * (levels + 1) + ".default"
    with pytest.raises(InvalidToolError, match="plain JSON data") as raised:
        compile_tool(raw, "openai")
    assert f"{where} is a Python Decimal value, which JSON has no form for" in str(raised.value)


def test_a_value_that_is_not_json_data_is_named_where_it_is_first_found() -> None:
    from decimal import Decimal

    # one subschema used at two places: the first place is named
    shared = {"type": "object", "properties": {"when": {"type": "number", "default": Decimal(1)}}}
    raw = tool(obj(a=shared, b=shared))
    with pytest.raises(InvalidToolError, match="plain JSON data") as raised:
        compile_tool(raw, "openai")
    assert "inputSchema.properties.a.properties.when.default is a Python Decimal value" in str(
        raised.value
    )


def test_a_tool_edited_after_a_compile_is_counted_anew() -> None:
    # the same tool object compiled, then grown past a limit in place: the second compile sees
    # the new size
    raw = tool(obj(a={"type": "string", "enum": ["a", "b"]}))
    assert "openai/too-many-enum-values" not in {d.code for d in check(raw, "openai")}
    raw["inputSchema"]["properties"]["a"]["enum"] = [f"v{i}" for i in range(1001)]
    assert "openai/too-many-enum-values" in {d.code for d in check(raw, "openai")}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("key", [1, None, (1, 2)])
def test_a_schema_key_that_is_no_string_is_refused_as_such(target: str, key: Any) -> None:
    # found by a tester: `properties: {1: ...}` raised TypeError (object of type 'int' has no
    # len(), or expected string) from inside the compiler, for every target
    raw = tool({"type": "object", "properties": {key: {"type": "string"}}})
    said = f"inputSchema.properties has the key {key!r} (a Python {type(key).__name__})"
    with pytest.raises(InvalidToolError, match="whose keys are strings") as raised:
        compile_tool(raw, target)
    assert said in str(raised.value)
    with pytest.raises(InvalidToolError, match="whose keys are strings"):
        check(raw, target)


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ({"a"}, "is a Python set value"),
        (frozenset({1}), "is a Python frozenset value"),
        (b"ab", "is a Python bytes value"),
        (1j, "is a Python complex value"),
        (float("nan"), "is NaN"),
        (float("inf"), "is Infinity"),
        (float("-inf"), "is -Infinity"),
    ],
)
def test_a_value_json_cannot_hold_is_refused_though_python_can_copy_it(
    value: Any, said: str
) -> None:
    # RFC 8259, section 6: no NaN or infinity; a set, bytes or a complex number has no JSON form
    # either (json.dumps of the output raised TypeError, or wrote NaN that parsers refuse)
    raw = tool(obj(a={"type": "number", "default": value}))
    for target in TARGETS:
        with pytest.raises(InvalidToolError, match="which JSON has no form for") as raised:
            compile_tool(raw, target)
        assert f"inputSchema.properties.a.default {said}" in str(raised.value)
    with pytest.raises(InvalidToolError, match="which JSON has no form for"):
        as_tool(raw)


def test_a_mapping_of_another_class_is_json_data() -> None:
    # an OrderedDict is a mapping JSON writes as an object: it compiles as the dict would
    from collections import OrderedDict

    plain = tool(obj(a={"type": "string"}))
    ordered = OrderedDict(
        name=plain["name"],
        description=plain["description"],
        inputSchema=OrderedDict(plain["inputSchema"]),
    )
    assert (
        compile_tool(ordered, "openai").model_dump() == compile_tool(plain, "openai").model_dump()
    )


def test_a_target_list_is_refused_with_what_to_do() -> None:
    with pytest.raises(TypeError, match="compile for each in turn"):
        check(tool(obj(a={"type": "string"})), ["openai", "gemini"])  # type: ignore[arg-type]


def test_one_subschema_object_used_at_two_places_is_judged_at_each() -> None:
    # found by a tester: the same dict under `properties` and under `items` hid the header that
    # `items` makes unreachable; equal JSON must get the same verdict whatever objects hold it
    header = {"type": "string", "x-mcp-header": "X-Region"}
    shared = tool(obj(region=header, many={"type": "array", "items": header}))
    copied = json.loads(json.dumps(shared))
    codes = [(d.code, d.path) for d in check(shared, "mcp")]
    assert codes == [(d.code, d.path) for d in check(copied, "mcp")]
    assert (
        "mcp/x-mcp-header-unreachable",
        'inputSchema.properties.many.items["x-mcp-header"]',
    ) in (codes)


def _measures(target: str) -> set[str]:
    return {trig["measure"] for _, trig in get_target(target).fires("limit")}


@pytest.mark.parametrize("target", [t for t in TARGETS if "property-count" in _measures(t)])
def test_limits_count_subschemas_a_compile_drops(target: str) -> None:
    many = {f"p{i}": {"type": "string"} for i in range(5001)}
    hidden = obj(a={"allOf": [{"type": "object", "properties": many}]})
    assert f"{target}/too-many-properties" in {d.code for d in check(tool(hidden), target)}
    deep = obj(a=_chain("not", 12))
    assert f"{target}/schema-too-deep" in {d.code for d in check(tool(deep), target)}
    values = obj(a={"not": {"enum": [f"v{i}" for i in range(1001)]}})
    assert f"{target}/too-many-enum-values" in {d.code for d in check(tool(values), target)}


@pytest.mark.parametrize("target", [t for t in TARGETS if "union-property-count" in _measures(t)])
def test_union_and_optional_limits_count_subschemas_anywhere(target: str) -> None:
    # what `$defs` and `allOf` hold counts as much as what the root's properties hold
    unions = {f"u{i}": {"anyOf": [{"type": "string"}, {"type": "integer"}]} for i in range(17)}
    defs = {"U": {"type": "object", "properties": unions}}  # no `required`: 17 optional
    hidden = {**obj(a={"allOf": [{"type": "object", "properties": unions}]}), "$defs": defs}
    codes = {d.code for d in check(tool(hidden), target)}
    assert {
        f"{target}/too-many-union-properties",
        f"{target}/too-many-optional-properties",
    } <= codes


def test_a_merged_union_counts_the_levels_it_hides() -> None:
    # root, properties, a, anyOf, the branch, then the list levels: 5 + 124 = one past the limit
    deep = obj(a={"anyOf": [{"type": "string", "default": _deep(124)}, {"type": "null"}]})
    assert [d.code for d in check(tool(deep), "gemini")] == ["core/schema-nesting-too-deep"]
    fits = obj(a={"anyOf": [{"type": "string", "default": _deep(123)}, {"type": "null"}]})
    assert compile_tool(tool(fits), "gemini", allow_lossy=True).ok


def _shares(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` share a container anywhere."""
    if isinstance(a, (dict, list)) and a is b:
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return any(_shares(a[k], b[k]) for k in a if k in b)
    if isinstance(a, list) and isinstance(b, list):
        return any(_shares(x, y) for x, y in zip(a, b, strict=False))
    return False


_SCHEMA_KEYS = ("parameters", "input_schema", "inputSchema", "parametersJsonSchema")


def _schema_of(output: dict[str, Any]) -> Any:
    """The schema in a target's envelope (nested under ``function`` for Chat Completions)."""
    for key in _SCHEMA_KEYS:
        if key in output:
            return output[key]
    function = output.get("function")
    return _schema_of(function) if isinstance(function, dict) else None


@pytest.mark.parametrize("target", TARGETS)
def test_the_callers_dict_is_left_as_given_and_the_output_shares_nothing(target: str) -> None:
    raws = [*FIXTURES.values(), *corpus(100, seed=11)]
    verbatim = not get_target(target).rewrites
    for raw in raws:
        before = json.dumps(raw)
        validated = CanonicalTool.model_validate(raw)
        for lossy in (False, True):
            plain = compile_tool(raw, target, allow_lossy=lossy)
            assert plain == compile_tool(validated, target, allow_lossy=lossy)
            if plain.output is not None:
                schema = _schema_of(plain.output)
                if schema is None:  # an empty schema some targets leave out
                    continue
                assert not _shares(schema, raw["inputSchema"])
                if verbatim:  # sent as written
                    assert schema == raw["inputSchema"]
        assert json.dumps(raw) == before


@pytest.mark.parametrize(
    "raw",
    [
        {"name": 5, "inputSchema": {}},
        {"name": "t", "description": 3, "inputSchema": {}},
        {"name": "t", "inputSchema": []},
        {"name": "t", "inputSchema": {}, "extra": 1},
        {"name": "t", "input_schema": {}},
        {"inputSchema": {}},
    ],
)
def test_anything_but_a_canonical_tool_is_refused_by_validation(raw: dict[str, Any]) -> None:
    with pytest.raises(InvalidToolError) as refused:
        compile_tool(raw, "openai")
    assert refused.value.problems


def test_every_enum_holding_an_array_or_object_is_reported_where_it_is() -> None:
    """Anthropic reports an enum holding an array or an object, wherever it stands."""
    schema = {
        "type": "object",
        "properties": {
            "plain_enum": {"type": "string", "enum": ["a", "b"]},
            "array_enum": {"enum": [["a"], "b"]},
            "object_enum": {"type": "string", "enum": ["a", {"b": 1}], "description": "x"},
            "number_enum": {"enum": [1, "a"]},
            "optional_enum": {"anyOf": [{"enum": [[1]]}, {"type": "null"}], "maxItems": 2},
            "list": {"type": "array", "items": {"type": "integer"}, "maxItems": 4},
            "odd": {"items": [{"type": "string"}], "not": True},
            "nested": {
                "type": "object",
                "properties": {"x y": {"enum": [{"a": 1}]}, "z": {"minimum": 1}},
                "additionalProperties": {"type": "string", "format": "date"},
            },
        },
    }
    enums = {
        d.path
        for d in check(tool(schema), "anthropic")
        if d.code.endswith("/enum-non-primitive-value")
    }
    assert enums == {
        "inputSchema.properties.array_enum.enum",
        "inputSchema.properties.object_enum.enum",
        "inputSchema.properties.optional_enum.anyOf[0].enum",
        'inputSchema.properties.nested.properties["x y"].enum',
    }
