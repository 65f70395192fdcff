"""`oneOf` emitted as `anyOf` is safe exactly where no value can match two branches: then both
accept the same values. The verdicts here follow from JSON Schema's own semantics, and each
"lossy" case names a value that matches two branches (checked with jsonschema)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel, Field

from provcat.toolschema import compile_tool

ONE_OF_TARGETS = ("openai", "anthropic-strict", "gemini")  # each emits `oneOf` as `anyOf`


class Cat(BaseModel):
    kind: Literal["cat"]
    meows: int


class Dog(BaseModel):
    kind: Literal["dog"]
    barks: bool


class Adopt(BaseModel):
    pet: Annotated[Cat | Dog, Field(discriminator="kind")]


def _tool(schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": "t", "description": "d", "inputSchema": schema}


def _union(*branches: dict[str, Any]) -> dict[str, Any]:
    return _tool(
        {"type": "object", "properties": {"u": {"oneOf": list(branches)}}, "required": ["u"]}
    )


def _tagged(tag: dict[str, Any], required: bool = True, kind: str | None = "object") -> dict:
    branch: dict[str, Any] = {"properties": {"k": tag, "v": {"type": "string"}}}
    if kind is not None:
        branch["type"] = kind
    if required:
        branch["required"] = ["k"]
    return branch


def _one_of_lossy(tool: dict[str, Any], target: str) -> bool:
    records = [
        r
        for r in compile_tool(tool, target, allow_lossy=True).transformations
        if r.code == "converted-one-of-to-any-of"
    ]
    assert records, "the target emits oneOf as anyOf"
    return any(r.lossy for r in records)


@pytest.mark.parametrize("target", ONE_OF_TARGETS)
def test_a_pydantic_discriminated_union_compiles_without_allow_lossy(target: str) -> None:
    """Before, every pydantic discriminated union (`Field(discriminator=...)`, tagged by
    `Literal` fields) was refused on these targets unless the caller passed allow_lossy."""
    tool = _tool(Adopt.model_json_schema())
    result = compile_tool(tool, target)
    assert result.ok and not result.lossy and result.output is not None
    assert not _one_of_lossy(tool, target)


SAFE = {
    "types of their own": _union({"type": "string"}, {"type": "integer"}, {"type": "boolean"}),
    "required constants": _union(_tagged({"const": "a"}), _tagged({"const": "b"})),
    "required one-value enums": _union(_tagged({"enum": ["a"]}), _tagged({"enum": ["b"]})),
}

# each with a value two branches accept: `anyOf` accepts it, `oneOf` did not
LOSSY = {
    "integer and number": (_union({"type": "integer"}, {"type": "number"}), 1),
    "one type twice": (_union({"type": "string"}, {"type": "string", "maxLength": 3}), "ab"),
    "the same constant": (
        _union(_tagged({"const": "a"}), _tagged({"const": "a"})),
        {"k": "a", "v": "x"},
    ),
    "tags not required": (
        _union(_tagged({"const": "a"}, required=False), _tagged({"const": "b"}, required=False)),
        {"v": "x"},
    ),
    "a branch not held to objects": (
        _union(_tagged({"const": "a"}, kind=None), _tagged({"const": "b"}, kind=None)),
        "not an object",
    ),
}


@pytest.mark.parametrize("target", ONE_OF_TARGETS)
@pytest.mark.parametrize("case", sorted(SAFE))
def test_branches_no_value_can_share_are_emitted_safely(case: str, target: str) -> None:
    assert not _one_of_lossy(SAFE[case], target)


@pytest.mark.parametrize("target", ONE_OF_TARGETS)
@pytest.mark.parametrize("case", sorted(LOSSY))
def test_branches_a_value_can_share_stay_lossy(case: str, target: str) -> None:
    tool, shared = LOSSY[case]
    branches = tool["inputSchema"]["properties"]["u"]["oneOf"]
    matching = [b for b in branches if Draft202012Validator(b).is_valid(shared)]
    assert len(matching) >= 2, "the value matches two branches"
    assert _one_of_lossy(tool, target)
