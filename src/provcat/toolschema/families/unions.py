"""Unions: a nullable ``anyOf`` merged into one nullable subschema, ``oneOf`` turned into
``anyOf``."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.run_state import Run
from provcat.toolschema.vocabulary import ANNOTATION_KEYWORDS

_NULL_SCHEMA = {"type": "null"}  # compared with, never handed out


def collapse_nullable(run: Run, s: dict[str, Any], path: str) -> dict[str, Any]:
    """``s`` with its union merged in as ``nullable: true`` when exactly one of two branches is
    ``{"type": "null"}`` and the other a schema without a reference (its keys after ``s``'s
    own, which win); ``s`` itself for any other union or target."""
    branches = s.get("anyOf")
    if not run.rules.has_step("collapse-nullable-any-of") or not isinstance(branches, list):
        return s
    if len(branches) != 2:
        return s
    first, second = branches
    first_null = first == _NULL_SCHEMA
    if first_null == (second == _NULL_SCHEMA):
        return s
    other = second if first_null else first
    if not isinstance(other, dict) or "$ref" in other:
        return s
    merged = {k: v for k, v in s.items() if k != "anyOf"}
    for k, v in other.items():
        merged.setdefault(k, v)
    merged["nullable"] = True
    run.step("collapse-nullable-any-of", path)
    return merged


def one_of(run: Run, where: str) -> bool:
    """Fire the one-of rules at ``where``; True when one turns ``oneOf`` into ``anyOf``."""
    converted = False
    for rule, _ in run.rules.fires("one-of"):
        run.fire(rule, where, keyword="oneOf")
        if rule.action == "one-of-to-any-of":
            run.record(rule, where, keyword="oneOf")
            converted = True
    return converted


def single_all_of(s: dict[str, Any]) -> dict[str, Any] | None:
    """``s`` with an ``allOf`` of one subschema merged into it, where the two share no keyword
    but annotations (the holder's win: a property's description over its type's), so the same
    values are accepted; None when it holds no such ``allOf``."""
    branches = s.get("allOf")
    if not (isinstance(branches, list) and len(branches) == 1 and isinstance(branches[0], dict)):
        return None
    rest = {k: v for k, v in s.items() if k != "allOf"}
    if not (rest.keys() & branches[0].keys()) <= ANNOTATION_KEYWORDS:
        return None
    return {**branches[0], **rest}
