"""The rewrite walk's shape programs (``plan._Leaf`` and ``plan._Object``, one per key shape and
target) must give what the general per-keyword loop gives: the same output, the same records in
the same order. Each case is compiled with the programs written as functions (``shape_code``),
with the programs interpreted, and with every shape sent to the general loop."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from benchmarks.bench_toolschema import corpus
from provcat.toolschema import check, clear_caches, compile_tool
from provcat.toolschema.plan import _Object, _Plan, plan_for
from provcat.toolschema.rewrite import RewriteWalk
from provcat.toolschema.targets import get_target
from tests.toolschema.conftest import FIXTURES, TARGETS, tool

# leaf-shaped subschemas of every kind the programs take or must refuse: dropped and unknown
# keywords, int64 values, enums (strings, mixed, empty), kept and dropped formats, non-scalar
# copied values, type names plain, unknown, upper-cased, "object" and lists
_LEAVES: list[Any] = [
    {"type": "string", "description": "plain"},
    {"type": "integer", "minimum": 0, "maximum": 9, "multipleOf": 3, "description": "d"},
    {"type": "string", "maxLength": 5, "minLength": 1, "pattern": "^a", "format": "email"},
    {"type": "string", "format": "uri", "description": "a format some targets drop"},
    {"type": "string", "format": "date-time"},
    {"type": "string", "format": 7},
    {"type": "string", "enum": ["a", "b"], "description": "d"},
    {"type": "string", "enum": ["a", "b"], "format": "enum"},
    {"type": "string", "enum": []},
    {"type": "integer", "enum": [1, 2, None]},
    {"enum": ["x", {"k": 1}]},
    {"type": "array", "maxItems": 3, "minItems": 1, "uniqueItems": True},
    {"type": "number", "exclusiveMinimum": 0, "examples": [1, [2, {"a": 3}]], "title": "t"},
    {"type": "string", "default": {"nested": ["v"]}, "deprecated": True, "$comment": "c"},
    {"type": "string", "x-vendor": {"a": 1}, "readOnly": True},
    {"type": "object"},
    {"type": "object", "description": "an object with nothing declared"},
    {"type": ["string", "null"], "description": "d"},
    {"type": "date"},
    {"type": "null"},
    {"description": "no type at all", "maxProperties": 2},
    {"const": "fixed", "description": "d"},
    {"nullable": True, "type": "string"},
    {"type": "integer", "maxLength": 4.0, "minProperties": 2.5},
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 1},
        "maxItems": 2,
        "uniqueItems": True,
    },
    {"uniqueItems": True, "items": {"type": "string", "format": "uri"}, "type": "array"},
    {"type": "array", "items": {"type": "array", "items": {"type": "string", "enum": ["a"]}}},
    {"type": "array", "items": True},
    {"type": "array", "items": False, "minItems": 0},
    {"type": "array", "items": [{"type": "string"}], "description": "tuple form"},
    {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}},
    {"not": {"type": "string"}, "description": "d"},
    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
    {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}},
    {"properties": {"a": {"type": "string"}}, "type": "object", "title": "T", "description": "d"},
    {"type": "object", "properties": {"a": {"enum": [1]}}, "required": "a", "examples": [{}]},
    {"type": "object", "properties": {}, "required": [], "minProperties": 1},
    {"type": "object", "properties": [], "required": ["x"]},
    {"type": ["object"], "properties": {"a": {"type": "string"}}},
    {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False},
    {"type": "object", "properties": {"a": {"type": "string"}}, "deprecated": True},
    {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}], "description": "d"},
    {"anyOf": [{"type": "null"}, {"type": "integer", "enum": [1, 2]}], "title": "t"},
    {"anyOf": [{"type": "null"}, {"anyOf": [{"type": "string"}, {"type": "null"}]}]},
    {"anyOf": [{"type": "null"}, {"type": "string", "nullable": False}]},
    {"anyOf": [{"$ref": "#/$defs/x"}, {"type": "null"}]},
    {"nullable": [1], "type": "string", "description": "d"},
    {"anyOf": [{"type": "string"}, {"type": "integer", "maxLength": 2}], "description": "d"},
    {"description": "d", "anyOf": {"type": "string"}},
    {"anyOf": "not a list", "title": "t"},
    {"allOf": [{"minimum": 1}, {"maximum": 3}], "anyOf": [{"enum": ["a"]}, True]},
    {"prefixItems": [{"type": "string"}, False], "items": False},
]


# keyword values the random subschemas are drawn from: what the programs check per value
# (type names, enums, formats, int64 keywords, scalars or not) and keywords dropped or unknown
_DRAWN: dict[str, list[Any]] = {
    "type": ["string", "integer", "number", "array", "boolean", "object", "null", "date", 3],
    "description": ["d", 7, None, ["x"]],
    "title": ["t", {"a": 1}],
    "enum": [["a", "b"], [], [1, "a"], ["x", None], "a"],
    "format": ["email", "uri", "date-time", "enum", 5],
    "minLength": [1, 2.0, 2.5, True, "3"],
    "maxLength": [9, 1e3],
    "minItems": [0, 1, 2.0, False],
    "maxItems": [3, 4.5],
    "minProperties": [1],
    "minimum": [0, -1.5],
    "maximum": [10],
    "pattern": ["^a"],
    "multipleOf": [2],
    "uniqueItems": [True],
    "default": ["x", {"k": [1]}],
    "examples": [[1, {"a": [2]}]],
    "deprecated": [True],
    "x-extra": [1, {"v": 2}],
    "nullable": [True, False, 1],
    "const": ["c", 1],
}


def _random_schema(rng: random.Random, depth: int) -> Any:
    """A subschema of a few keywords drawn at random, in random order, with subschemas under
    ``items``, ``anyOf`` (often a nullable union) and ``properties`` while ``depth`` lasts."""
    roll = rng.random()
    if roll < 0.03:
        return rng.choice([True, False, 3])
    node: dict[str, Any] = {}
    for key in rng.sample(sorted(_DRAWN), rng.randint(0, 4)):
        node[key] = rng.choice(_DRAWN[key])
    if depth > 0 and roll < 0.25:
        node["items"] = _random_schema(rng, depth - 1)
    elif depth > 0 and roll < 0.4:
        other = _random_schema(rng, depth - 1)
        pair = [other, {"type": "null"}]
        node["anyOf"] = pair if rng.random() < 0.5 else pair[::-1]
    elif depth > 0 and roll < 0.6:
        node["type"] = "object"
        names = [f"f{i}" for i in range(rng.randint(0, 4))]
        node["properties"] = {n: _random_schema(rng, depth - 1) for n in names}
        if rng.random() < 0.7:
            node["required"] = [n for n in names if rng.random() < 0.5]
    keys = list(node)
    rng.shuffle(keys)
    return {k: node[k] for k in keys}


def _random_tools(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` tools whose properties are random subschemas; each shape recurs across tools, so
    the shape functions are written early and then taken."""
    rng = random.Random(seed)
    tools = []
    for i in range(n):
        props = {f"p{j}": _random_schema(rng, 2) for j in range(rng.randint(1, 5))}
        required = [k for k in props if rng.random() < 0.5]
        tools.append(tool({"type": "object", "properties": props, "required": required}, f"r{i}"))
    return tools


def _cases() -> list[dict[str, Any]]:
    props = {f"p{i}": leaf for i, leaf in enumerate(_LEAVES)}
    cases = [
        tool({"type": "object", "properties": props, "required": ["p0", "p3"]}),
        tool({"type": "object", "properties": {"a": {"type": "array", "items": _LEAVES[6]}}}),
        tool({"anyOf": [_LEAVES[1], _LEAVES[3]], "description": "root union"}),
    ]
    cases += [tool(leaf) for leaf in _LEAVES]
    # each edge shape again, as a property and as items, once its function is written
    cases += [tool({"type": "object", "properties": {"a": leaf, "b": leaf}}) for leaf in _LEAVES]
    cases += [tool({"type": "array", "items": leaf}) for leaf in _LEAVES]
    cases += list(FIXTURES.values())
    cases += corpus(60, seed=23) + corpus(30, seed=29, distinct_names=True)
    cases += _random_tools(150, seed=31)
    return cases


def _results(target: str, cases: list[dict[str, Any]]) -> list[str]:
    """Every case's results as JSON text (key order counts, as it does on the wire)."""
    clear_caches()
    out: list[str] = []
    for case in cases:
        for lossy in (False, True):
            out.append(compile_tool(case, target, allow_lossy=lossy).model_dump_json(by_alias=True))
        out.append(
            json.dumps([d.model_dump(mode="json", by_alias=True) for d in check(case, target)])
        )
    return out


@pytest.mark.parametrize("target", TARGETS)
def test_leaf_programs_match_the_general_loop(target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = _cases()
    # a shape's function from the first tool on, and from the shape's second subschema
    monkeypatch.setattr(_Plan, "warm_walks", 1)
    monkeypatch.setattr(_Plan, "code_after", 1)
    with_functions = _results(target, cases)
    monkeypatch.setattr(_Plan, "writes_code", False)
    with_programs = _results(target, cases)
    monkeypatch.setattr(_Plan, "_is_leaf", lambda self, keys: False)
    monkeypatch.setattr(_Plan, "_is_object", lambda self, keys: False)
    general = _results(target, cases)
    clear_caches()
    assert with_programs == general
    assert with_functions == general


@pytest.mark.parametrize("target", ["gemini", "openai", "anthropic-strict"])
def test_shape_functions_are_written_and_taken(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The functions are not dead code: every program shape met often enough gets one, and the
    walk then calls it (counted here) instead of interpreting the program."""
    clear_caches()
    calls = 0
    for case in corpus(_Plan.warm_walks + 800, seed=3):  # the corpus's shapes recur that often
        compile_tool(case, target, allow_lossy=True)
    plan = plan_for(get_target(target))
    written = plan.codes
    assert ("type", "properties", "required") in written
    assert any(len(keys) > 2 and keys[0] == "type" and "enum" in keys for keys in written)
    if target == "gemini":  # it merges nullable unions: a recurring one has its own function
        union = written.get(("anyOf", "description"))
        assert union is not None and union is not RewriteWalk.collapsed
    for keys, code in list(written.items()):

        def counted(*args: Any, _code: Any = code) -> Any:
            nonlocal calls
            calls += 1
            return _code(*args)

        written[keys] = counted
    compile_tool(corpus(1, seed=4)[0], target, allow_lossy=True)
    clear_caches()
    assert calls > 3


def test_shape_functions_wait_for_a_warm_plan_and_recurring_shapes() -> None:
    """Nothing is written before the plan has walked ``_Plan.warm_walks`` tools, and then only
    for a shape met ``_Plan.code_after`` times: writing a function costs more than a few
    subschemas' walk saves."""
    clear_caches()
    leaf = {"type": "string", "maxLength": 3, "title": "once"}
    many = {f"p{i}": dict(leaf) for i in range(_Plan.code_after)}
    gemini = plan_for(get_target("gemini"))
    for _ in range(_Plan.warm_walks - 1):
        compile_tool(tool({"type": "object", "properties": many}), "gemini", allow_lossy=True)
    assert not gemini.writing and not gemini.codes and gemini.leaves
    compile_tool(tool({"type": "object", "properties": {"a": leaf}}), "gemini", allow_lossy=True)
    assert gemini.writing  # warm: the next shapes met often enough get their functions
    assert tuple(leaf) in gemini.leaves and tuple(leaf) not in gemini.codes
    compile_tool(tool({"type": "object", "properties": many}), "gemini", allow_lossy=True)
    assert tuple(leaf) in gemini.codes
    clear_caches()


def test_leaf_programs_are_taken() -> None:
    """The programs are not dead code: the corpus's leaves take them on a rewrite target."""
    clear_caches()
    for case in corpus(20, seed=3):
        compile_tool(case, "openai", allow_lossy=True)
    leaves = plan_for(get_target("openai")).leaves
    assert any(leaf is not None for leaf in leaves.values())
    assert ("type", "description") in leaves and leaves[("type", "description")] is not None
    assert leaves.get(("type", "properties", "required")).__class__ is _Object


# keyword names that would break generated source if they were pasted into it as text
_AWKWARD_KEYS = ["x'); raise SystemExit('", 'x"\n    raise SystemExit', "x\\", "ключ"]


@pytest.mark.parametrize("target", ["gemini", "openai", "anthropic-strict"])
def test_shape_functions_never_hold_input_text(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the catalog's keywords reach a shape's function (an unknown keyword sends its
    subschema to the general loop on every rewrite target), and only as quoted literals:
    awkward keyword names next to recurring shapes give what the interpreted programs give."""
    leaves = [{"type": "string", "description": "d", key: "v"} for key in _AWKWARD_KEYS]
    leaves += [{key: 1, "type": "integer", "maximum": 3} for key in _AWKWARD_KEYS]
    leaves += [
        {"type": "object", "properties": {"a": {"type": "string"}}, key: 2} for key in _AWKWARD_KEYS
    ]
    leaves += [{"type": "string", "description": "plain"}, {"type": "integer", "maximum": 3}]
    cases = [
        tool({"type": "object", "properties": {f"p{i}": leaf for i, leaf in enumerate(leaves)}})
        for _ in range(4)
    ]
    monkeypatch.setattr(_Plan, "warm_walks", 1)
    monkeypatch.setattr(_Plan, "code_after", 1)
    with_functions = _results(target, cases)
    written = plan_for(get_target(target)).codes
    assert ("type", "description") in written  # the plain leaves' shapes were written
    assert not any(key in shape for shape in written for key in _AWKWARD_KEYS)
    monkeypatch.setattr(_Plan, "writes_code", False)
    assert with_functions == _results(target, cases)
    clear_caches()
