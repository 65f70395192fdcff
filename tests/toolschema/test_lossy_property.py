"""Every compile marked not lossy accepts nothing the canonical schema rejects.

Argument values are generated from each *compiled* schema (hypothesis-jsonschema), read back the
documented way (OpenAI: null for an originally optional key means omitted; Gemini: upper-case
types, int64 strings, `nullable` and `format: enum` mapped back to JSON Schema) and validated
against the *canonical* schema with jsonschema.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import hypothesis_jsonschema._from_schema as _hjs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import utils as _cu
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

from provcat.toolschema import compile_tool, get_target, validate_canonical_tool
from provcat.toolschema.decode import decode_arguments, null_means_omitted
from tests.toolschema.conftest import FIXTURES, TARGETS


class _LegacyMany:
    """hypothesis-jsonschema 0.23 drives ``many`` with ``.more()``, which newer hypothesis
    replaced by a context-managed iterator; this adapter gives it the old interface."""

    def __init__(self, data: Any, **kwargs: Any) -> None:
        self._inner = _cu.many(data, **kwargs)
        self._inner.__enter__()
        self._steps = iter(self._inner)

    def more(self) -> bool:
        try:
            next(self._steps)
        except StopIteration:
            self._inner.__exit__(None)
            return False
        return True

    def reject(self, why: str | None = None) -> None:
        self._inner.reject(why)


if not hasattr(_cu.many, "more"):
    _hjs.cu = type("_CompatUtils", (), {"many": _LegacyMany})  # type: ignore[assignment]

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


def _schema_of(output: dict[str, Any]) -> dict[str, Any]:
    """The compiled schema inside the target's envelope."""
    for key in ("parameters", "parametersJsonSchema", "input_schema", "inputSchema"):
        if key in output:
            value: dict[str, Any] = output[key]
            return value
    if "function" in output:
        return _schema_of(output["function"])
    return {"type": "object", "properties": {}, "additionalProperties": False}


def to_json_schema(node: Any) -> Any:
    """An OpenAPI-style (Gemini) schema read back as JSON Schema."""
    if isinstance(node, list):
        return [to_json_schema(v) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "type" and isinstance(value, str):
            out["type"] = value.lower()
        elif key in (
            "minItems",
            "maxItems",
            "minLength",
            "maxLength",
            "minProperties",
            "maxProperties",
        ) and isinstance(value, str):
            out[key] = int(value)
        elif key == "format" and value == "enum":
            continue
        elif key in ("properties",):
            out[key] = {k: to_json_schema(v) for k, v in value.items()}
        elif key in ("items", "anyOf"):
            out[key] = to_json_schema(value)
        elif key in ("nullable", "propertyOrdering", "example"):
            continue
        else:
            out[key] = value
    if node.get("nullable") is True:
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
        if isinstance(out.get("enum"), list):
            out["enum"] = [*out["enum"], None]
    if "format" in out and out.get("format") not in ("date-time", "date", "time", "email", "uuid"):
        out.pop("format")
    return out


def _recursive(schema: Any) -> bool:
    return "$ref" in json.dumps(schema) and "$defs" in json.dumps(schema)


def _check_pair(canonical: dict[str, Any], target_id: str, data: st.DataObject) -> None:
    result = compile_tool(canonical, target_id, allow_lossy=True)
    if not result.ok or result.lossy or result.output is None:
        return
    target = get_target(target_id)
    compiled = _schema_of(result.output)
    if target.output["type_case"] == "upper":
        compiled = to_json_schema(compiled)
    if _recursive(compiled):
        return
    value = data.draw(from_schema(compiled))
    schema = canonical["inputSchema"]
    if null_means_omitted(target):
        value = decode_arguments(schema, value)
    errors = sorted(e.message for e in Draft202012Validator(schema).iter_errors(value))
    assert not errors, (target_id, value, errors)


# valid canonical fixtures (dangling and external refs are load errors); recursive schemas are
# beyond hypothesis-jsonschema
PAIRS = [
    (n, t)
    for n in sorted(FIXTURES)
    for t in TARGETS
    if not validate_canonical_tool(FIXTURES[n]) and "Node" not in json.dumps(FIXTURES[n])
]


@pytest.mark.parametrize(("name", "target"), PAIRS)
@SETTINGS
@given(data=st.data())
def test_fixture_compiles_marked_safe_accept_nothing_new(
    name: str, target: str, data: st.DataObject
) -> None:
    _check_pair(FIXTURES[name], target, data)


# ---- a generated corpus of canonical tools
_names = st.sampled_from(["a", "b", "c", "d", "e"])


def _leaf() -> st.SearchStrategy[dict[str, Any]]:
    string = st.fixed_dictionaries(
        {"type": st.just("string")},
        optional={
            "minLength": st.integers(0, 3),
            "maxLength": st.integers(3, 8),
            "enum": st.lists(
                st.sampled_from(["x", "yy", "zzz"]), min_size=1, max_size=3, unique=True
            ),
            "const": st.sampled_from(["x", "yy"]),
            "pattern": st.just("^[a-z]*$"),
            "format": st.sampled_from(["date", "email", "uri"]),
            "description": st.just("d"),
            "title": st.just("T"),
            "default": st.just("x"),
        },
    )
    integer = st.fixed_dictionaries(
        {"type": st.just("integer")},
        optional={
            "minimum": st.integers(-5, 0),
            "maximum": st.integers(1, 9),
            "multipleOf": st.sampled_from([2, 3]),
            "exclusiveMaximum": st.just(50),
            "enum": st.lists(st.integers(0, 4), min_size=1, max_size=3, unique=True),
        },
    )
    number = st.fixed_dictionaries(
        {"type": st.just("number")}, optional={"minimum": st.just(0), "maximum": st.just(10)}
    )
    boolean = st.just({"type": "boolean"})
    nullable = st.builds(lambda s: {"anyOf": [s, {"type": "null"}]}, string | integer)
    union = st.just({"type": ["string", "integer"]})
    one_of = st.just({"oneOf": [{"type": "string"}, {"type": "integer"}]})
    # a union tagged as pydantic tags a discriminated one: emitted as `anyOf`, marked safe
    tagged = st.just(
        {
            "oneOf": [
                {"type": "object", "properties": {"k": {"const": t}, "v": {"type": v}},
                 "required": ["k", "v"], "additionalProperties": False}
                for t, v in (("a", "string"), ("b", "integer"))
            ]
        }
    )  # fmt: skip
    return string | integer | number | boolean | nullable | union | one_of | tagged


def _object(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        props = draw(st.dictionaries(_names, children, max_size=3))
        required = [k for k in props if draw(st.booleans())]
        node: dict[str, Any] = {"type": "object", "properties": props}
        if required:
            node["required"] = required
        extra = draw(st.sampled_from([None, False, True, {"type": "string"}]))
        if extra is not None:
            node["additionalProperties"] = extra
        return node

    return build()


def _array(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(
        lambda items, lo, hi, unique: {
            "type": "array",
            "items": items,
            **({"minItems": lo} if lo is not None else {}),
            **({"maxItems": hi} if hi is not None else {}),
            **({"uniqueItems": True} if unique else {}),
        },
        children,
        st.none() | st.integers(0, 2),
        st.none() | st.integers(2, 4),
        st.booleans(),
    )


SCHEMAS = st.recursive(_leaf(), lambda inner: _object(inner) | _array(inner), max_leaves=6)
CANONICAL = _object(SCHEMAS).map(
    lambda s: {"name": "generated", "description": "g", "inputSchema": s}
)


@pytest.mark.parametrize("target", TARGETS)
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(canonical=CANONICAL, data=st.data())
def test_generated_corpus_compiles_marked_safe_accept_nothing_new(
    target: str, canonical: dict[str, Any], data: st.DataObject
) -> None:
    _check_pair(canonical, target, data)


@pytest.mark.parametrize("target", ["openai", "openai-chat", "anthropic-strict", "gemini"])
def test_a_discriminated_unions_discriminator_is_dropped_as_an_annotation(target: str) -> None:
    """Found by a new user: every pydantic discriminated union needed --allow-lossy, for the
    OpenAPI `discriminator` pydantic writes beside it. It names the property that tells the
    branches apart and constrains nothing: the branches' own `const`s do (OpenAPI 3.1,
    Discriminator Object: "a hint"; JSON Schema 2020-12 validates by the branches alone)."""
    branch = {
        "type": "object",
        "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}},
        "required": ["kind", "lives"],
    }
    other = copy.deepcopy(branch)
    other["properties"] = {"kind": {"const": "dog"}, "good": {"type": "boolean"}}
    other["required"] = ["kind", "good"]
    pet = {"anyOf": [branch, other], "discriminator": {"propertyName": "kind"}}
    schema = {"type": "object", "properties": {"pet": pet}, "required": ["pet"]}
    result = compile_tool({"name": "add_pet", "inputSchema": schema}, target)
    assert result.ok and not result.lossy, [d.message for d in result.diagnostics]
    assert "discriminator" not in json.dumps(result.output)
