"""What a tool's schema holds, whatever the target: how deeply it nests, whether it holds
references (and which of them loop through references alone), and the sizes the targets'
``limit`` rules bound.

None of it depends on the target, so it is worked out in one pass and kept with the tool's
input check (:mod:`provcat.toolschema.api`): a tool compiled again, for another target or on the
next request, is not surveyed again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from provcat.toolschema.core import (
    LIST_SLOTS,
    MAP_SLOTS,
    MAX_NESTING,
    SINGLE_SLOTS,
    json_nesting,
)
from provcat.toolschema.refs import resolve_ref
from provcat.toolschema.vocabulary import ANNOTATION_KEYWORDS

__all__ = ["Survey", "survey"]

_SLOTS = {
    **dict.fromkeys(MAP_SLOTS, "map"),
    **dict.fromkeys(LIST_SLOTS, "list"),
    **dict.fromkeys(SINGLE_SLOTS, "single"),
}
# a schema holding none of these in any subschema has nothing to inline
_REF_KEYS = frozenset({"$ref", "$defs", "definitions"})
# what a schema may hold beside `$ref` and still say nothing a value is checked against
_NO_CONTENT = frozenset({"$ref", "$defs", "definitions", *ANNOTATION_KEYWORDS})


@dataclass(frozen=True, slots=True)
class Survey:
    """``nesting``: how deeply the schema nests as JSON (counting stops past ``MAX_NESTING``);
    ``refs``: whether a subschema holds ``$ref``, ``$defs`` or ``definitions``; ``counts``: what
    the limit rules read (``properties``, ``depth`` with the root at 1, enum ``values``,
    ``largest_enum``, the ``chars`` of property and definition names, string enum values and
    string consts, the ``optional`` properties their object's ``required`` leaves out, and the
    ``unions``); ``loops``: each reference whose chain of references comes back to a schema
    already on it without reaching one with content (a ``$ref`` beside annotations only), with
    that chain (``#/$defs/A``, ``#/$defs/B``, ``#/$defs/A``)."""

    nesting: int
    refs: bool
    counts: Mapping[str, int]
    loops: Mapping[str, tuple[str, ...]]


def survey(root: dict[str, Any]) -> Survey:
    """One pass over the subschemas of ``root``; a value that is no subschema adds its own
    nesting. Stops once the nesting passes ``MAX_NESTING`` (such a schema is refused)."""
    properties = depth = values = largest_enum = chars = nesting = optional = unions = 0
    refs = False
    # the `$ref` strings, gathered from the first subschema holding one of `_REF_KEYS` on (no
    # subschema before it holds a `$ref`), so a schema without references pays nothing more
    targets: set[str] = set()
    stack: list[tuple[dict[str, Any], int, int]] = [(root, 1, 1)]  # (subschema, depth, nesting)
    while stack:
        s, at, json_at = stack.pop()
        if at > depth:
            depth = at
        if json_at > nesting:
            nesting = json_at
            if nesting > MAX_NESTING:
                break
        if refs or not _REF_KEYS.isdisjoint(s):
            refs = True
            ref = s.get("$ref")
            if isinstance(ref, str):
                targets.add(ref)
        props = s.get("properties")
        if isinstance(props, dict) and props:
            required = s.get("required")
            listed = (
                {r for r in required if isinstance(r, str)} if isinstance(required, list) else set()
            )
            optional += sum(1 for name in props if name not in listed)
        if _is_union(s):
            unions += 1
        for key, value in s.items():
            slot = _SLOTS.get(key)
            if slot == "single" and isinstance(value, dict):
                stack.append((value, at + 1, json_at + 1))
                continue
            if (slot == "map" and isinstance(value, dict)) or (
                slot == "list" and isinstance(value, list)
            ):
                if json_at + 1 > nesting:
                    nesting = json_at + 1
                children: Iterable[Any] = value
                if isinstance(value, dict):
                    chars += sum(map(len, value))
                    if key == "properties":
                        properties += len(value)
                    children = value.values()
                for child in children:
                    if isinstance(child, dict):
                        stack.append((child, at + 1, json_at + 2))
                    elif isinstance(child, list):
                        nesting = max(nesting, json_at + 1 + json_nesting(child))
                continue
            if isinstance(value, (dict, list)):
                nesting = max(nesting, json_at + json_nesting(value))
                if key == "enum" and isinstance(value, list):
                    values += len(value)
                    if len(value) > largest_enum:
                        largest_enum = len(value)
                    chars += sum(len(v) for v in value if isinstance(v, str))
            elif key == "const" and isinstance(value, str):
                chars += len(value)
    counts = {
        "properties": properties,
        "depth": depth,
        "values": values,
        "largest_enum": largest_enum,
        "chars": chars,
        "optional": optional,
        "unions": unions,
    }
    loops = _ref_loops(root, targets) if nesting <= MAX_NESTING else {}
    return Survey(nesting=nesting, refs=refs, counts=counts, loops=loops)


def _ref_loops(root: dict[str, Any], refs: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Each of ``refs`` (references in ``root``) that leads only to references and back (JSON
    Schema 2020-12 core, 9.4.1: such a schema runs a validator into an infinite loop), with its
    chain."""
    loops: dict[str, tuple[str, ...]] = {}
    for ref in refs:
        chain = _loop(root, ref)
        if chain:
            loops[ref] = chain
    return loops


def _loop(root: dict[str, Any], ref: str) -> tuple[str, ...] | None:
    """The references followed from ``ref`` until one comes back to a schema already reached,
    or None when a schema on the way has content (or a reference does not resolve)."""
    chain = [ref]
    seen: set[int] = set()
    while True:
        status, found = resolve_ref(root, ref)
        if status != "ok" or not isinstance(found, dict) or not _NO_CONTENT.issuperset(found):
            return None
        following = found.get("$ref")
        if not isinstance(following, str):
            return None
        if id(found) in seen:
            return tuple(chain)
        seen.add(id(found))
        ref = following
        chain.append(ref)


def _is_union(s: dict[str, Any]) -> bool:
    """Whether subschema ``s`` is a union: `anyOf` or `oneOf` branches, a `type` list of two or
    more names, or `nullable: true` (which the strict targets write as a type list)."""
    if isinstance(s.get("anyOf"), list) or isinstance(s.get("oneOf"), list):
        return True
    types = s.get("type")
    if isinstance(types, list) and len({t for t in types if isinstance(t, str)}) > 1:
        return True
    return s.get("nullable") is True
