"""A small subschema rewritten once per target and replayed where it repeats changes nothing.

Each case compiles a tool twice: cold (the target's memo emptied first) and warm (the memo filled
by another tool holding the same small subschemas at other paths and depths). Both must dump
alike, and the limit measures a replay stands for (depth, enum values) must be the counts worked
out by hand from the schema as written.
"""

from __future__ import annotations

import enum
from typing import Any

import pytest

from provcat.toolschema import check, compile_tool, list_targets
from provcat.toolschema.plan import plan_for
from provcat.toolschema.targets import get_target
from tests.toolschema.conftest import tool

# arrays of arrays of strings: three subschema levels, small enough to be remembered
_NESTED_ARRAY = {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}
_ENUM = {"type": "string", "enum": ["a", "b", "c", "d", "e"]}
# the targets that rewrite the schema (the others copy it as written and remember nothing)
REWRITING = [t.id for t in list_targets() if t.rewrites]


def _objects(levels: int, inner: dict[str, Any]) -> dict[str, Any]:
    """``levels`` objects, each the only property of the one above, with ``inner`` at the bottom."""
    node: dict[str, Any] = {"type": "object", "properties": {"x": inner}, "required": ["x"]}
    for _ in range(levels - 1):
        node = {"type": "object", "properties": {"x": node}, "required": ["x"]}
    return node


def _dumps(raw: dict[str, Any], target: str) -> list[Any]:
    return [
        compile_tool(raw, target, allow_lossy=True).model_dump(mode="json", by_alias=True),
        compile_tool(raw, target).model_dump(mode="json", by_alias=True),
        [d.model_dump(mode="json", by_alias=True) for d in check(raw, target)],
    ]


def _cold_and_warm(raw: dict[str, Any], warmer: dict[str, Any], target: str) -> list[Any]:
    memo = plan_for(get_target(target)).subschemas
    memo.clear()
    cold = _dumps(raw, target)
    memo.clear()
    _dumps(warmer, target)
    assert any(memo.values()), "the warming tool left nothing to replay"
    warm = _dumps(raw, target)
    assert warm == cold
    return cold


@pytest.mark.parametrize("target", REWRITING)
def test_a_subschema_replayed_deeper_gives_the_cold_outcome(target: str) -> None:
    shallow = tool({"type": "object", "properties": {"a": _NESTED_ARRAY}, "required": ["a"]})
    deep = tool(_objects(8, _NESTED_ARRAY))
    _cold_and_warm(deep, shallow, target)


def test_a_replayed_subschema_counts_its_depth_where_it_stands() -> None:
    """OpenAI's structured-outputs guide allows 10 levels of nesting. Eight objects (levels 1 to
    8) and the array of arrays of strings below them (levels 9, 10 and 11) make 11."""
    shallow = tool({"type": "object", "properties": {"a": _NESTED_ARRAY}, "required": ["a"]})
    deep = tool(_objects(8, _NESTED_ARRAY))
    compiled, _, checked = _cold_and_warm(deep, shallow, "openai")
    assert not compiled["ok"]
    too_deep = [d for d in checked if d["code"] == "openai/schema-too-deep"]
    assert [d["message"] for d in too_deep] == [
        "The schema nests 11 levels deep; strict mode allows at most 10."
    ]


def test_replayed_enums_add_up_to_the_enum_value_limit() -> None:
    """OpenAI allows 1,000 enum values in a schema: 201 properties with the same five-value enum
    hold 1,005, each enum after the first a replay."""
    props = {f"p{i}": dict(_ENUM) for i in range(201)}
    raw = tool({"type": "object", "properties": props, "required": sorted(props)})
    warmer = tool({"type": "object", "properties": {"e": dict(_ENUM)}, "required": ["e"]})
    _, _, checked = _cold_and_warm(raw, warmer, "openai")
    counted = [d["message"] for d in checked if d["code"] == "openai/too-many-enum-values"]
    assert counted == [
        "The schema's enums hold 1005 values in total; strict mode allows at most 1000."
    ]


@pytest.mark.parametrize("target", ["openai", "gemini", "anthropic-strict"])
def test_a_replay_past_the_nesting_limit_is_refused_like_a_fresh_walk(target: str) -> None:
    """The same small subschema at the top and 125 ``items`` levels down: the deep one passes
    the 128 levels provcat walks, so the tool is refused for nesting, warm or cold."""
    chain: dict[str, Any] = dict(_NESTED_ARRAY)
    for _ in range(125):
        chain = {"type": "array", "items": chain}
    raw = tool({"type": "object", "properties": {"a": chain}, "required": ["a"]})
    shallow = tool({"type": "object", "properties": {"a": _NESTED_ARRAY}, "required": ["a"]})
    compiled, _, checked = _cold_and_warm(raw, shallow, target)
    assert not compiled["ok"]
    assert [d["code"] for d in checked] == ["core/schema-nesting-too-deep"]


class _Color(enum.StrEnum):
    RED = "red"
    BLUE = "blue"


@pytest.mark.parametrize("target", ["openai", "gemini"])
def test_values_that_are_not_plain_json_data_are_rewritten_not_remembered(target: str) -> None:
    """A ``str`` subclass (an enum member) is written like its text but is not plain JSON data:
    the subschema holding it is rewritten each time, never remembered."""
    memo = plan_for(get_target(target)).subschemas
    memo.clear()
    raw = tool(
        {
            "type": "object",
            "properties": {"c": {"type": "string", "enum": [_Color.RED, _Color.BLUE]}},
            "required": ["c"],
        }
    )
    first = compile_tool(raw, target, allow_lossy=True)
    assert first.ok
    assert not any(memo.values())
    assert compile_tool(raw, target, allow_lossy=True) == first


@pytest.mark.parametrize("target", REWRITING)
def test_a_small_subschema_with_a_reference_is_rewritten_every_time(target: str) -> None:
    """A reference's verdict depends on the document it is in: the same small array of
    references, once resolvable and once dangling, is judged in each tool on its own."""
    refs = {"type": "array", "items": {"$ref": "#/$defs/A"}}
    found = tool(
        {
            "type": "object",
            "properties": {"a": refs},
            "required": ["a"],
            "$defs": {"A": {"type": "string"}},
        }
    )
    dangling = tool({"type": "object", "properties": {"a": refs}, "required": ["a"]})
    _cold_and_warm(dangling, found, target)
    _cold_and_warm(found, dangling, target)


def test_clear_caches_forgets_and_changes_no_result() -> None:
    """After clear_caches() a compile starts from nothing (as a fresh process would) and gives
    the same result as one answered from what earlier compiles remembered."""
    from provcat.toolschema import clear_caches, compile_tool
    from provcat.toolschema.plan import _PLANS

    tool = {
        "name": "t",
        "inputSchema": {
            "type": "object",
            "properties": {
                "a": {"type": "string"},
                "b": {"type": "string"},
                "n": {"type": "integer", "format": "int64"},
            },
        },
    }
    warm = compile_tool(tool, "openai", allow_lossy=True)
    warm_again = compile_tool(tool, "openai", allow_lossy=True)
    assert _PLANS
    clear_caches()
    assert not _PLANS
    cold = compile_tool(tool, "openai", allow_lossy=True)
    for result in (warm_again, cold):
        assert result.model_dump(mode="json") == warm.model_dump(mode="json")
