"""Unions: a nullable ``anyOf`` merged into one nullable subschema, ``oneOf`` turned into
``anyOf`` (safe where no value can match two branches)."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.refs import resolve_ref
from provcat.toolschema.run_state import Run
from provcat.toolschema.values import json_equal
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


def one_of(run: Run, where: str, branches: Any) -> bool:
    """Fire the one-of rules at ``where``; True when one turns ``oneOf`` into ``anyOf``. Where
    no value can match two of ``branches`` (the canonical ones), ``anyOf`` accepts exactly what
    ``oneOf`` did: the rule's safe ``disjoint`` record, not its lossy transformation."""
    converted = False
    for rule, _ in run.rules.fires("one-of"):
        run.fire(rule, where, keyword="oneOf")
        if rule.action == "one-of-to-any-of":
            safe = exclusive(run.root, branches)
            run.record(rule, where, which="disjoint" if safe else "transformation", keyword="oneOf")
            converted = True
    return converted


def exclusive(root: Any, branches: Any) -> bool:
    """Whether no value can match two of ``branches`` (a local ``$ref`` read once): each an
    object that requires one property held to a constant of its own (a pydantic discriminated
    union, tagged by ``Literal`` fields), or each of one type of its own (``integer`` and
    ``number`` overlap). False when neither is shown."""
    if not isinstance(branches, list) or len(branches) < 2:
        return False
    schemas = [_read(root, b) for b in branches]
    if any(s is None for s in schemas):
        return False
    found = [s for s in schemas if s is not None]
    types = [s.get("type") for s in found]
    if all(isinstance(t, str) for t in types) and len(set(types)) == len(types):
        return not {"integer", "number"} <= set(types)
    for name in found[0].get("required") or ():
        tags = [_tag(s, name) for s in found]
        if all(t is not None for t in tags) and all(
            not json_equal(a, b) for i, a in enumerate(tags) for b in tags[i + 1 :]
        ):
            return True
    return False


def _read(root: Any, branch: Any) -> dict[str, Any] | None:
    """``branch`` as a schema object: what its ``$ref`` points at (a branch holds no more than
    what that accepts), or itself; None for anything else."""
    if isinstance(branch, dict) and "$ref" in branch:
        status, branch = resolve_ref(root, branch["$ref"])
        if status != "ok":
            return None
    return branch if isinstance(branch, dict) and "$ref" not in branch else None


def _tag(s: dict[str, Any], name: str) -> tuple[Any] | None:
    """The one value an object schema ``s`` requires its property ``name`` to hold, in a tuple;
    None unless ``s`` accepts objects only and holds it to one value."""
    if s.get("type") != "object" or name not in (s.get("required") or ()):
        return None
    prop = (s.get("properties") or {}).get(name)
    if not isinstance(prop, dict):
        return None
    if "const" in prop:
        return (prop["const"],)
    enum = prop.get("enum")
    return (enum[0],) if isinstance(enum, list) and len(enum) == 1 else None


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
