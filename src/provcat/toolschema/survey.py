"""What a tool's schema holds, whatever the target: how deeply it nests, whether it holds
references (and which of them lead into a loop that never descends into a property or an item),
and the sizes the targets' ``limit`` rules bound.

None of it depends on the target, so it is worked out in one pass and kept with the tool's
input check (:mod:`provcat.toolschema.api`): a tool compiled again, for another target or on the
next request, is not surveyed again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from provcat.toolschema.refs import resolve_ref
from provcat.toolschema.subschemas import LIST_SLOTS, MAP_SLOTS, SINGLE_SLOTS, schema_nodes
from provcat.toolschema.values import MAX_NESTING, json_nesting

__all__ = ["Survey", "every_subschema", "survey"]

_SLOTS = {
    **dict.fromkeys(MAP_SLOTS, "map"),
    **dict.fromkeys(LIST_SLOTS, "list"),
    **dict.fromkeys(SINGLE_SLOTS, "single"),
}
# a schema holding none of these in any subschema has nothing to inline
_REF_KEYS = frozenset({"$ref", "$defs", "definitions"})
# Every keyword whose value holds subschemas, as `_SLOTS` says it (JSON Schema 2020-12's, and the
# older drafts' `dependencies` and `additionalItems`; `items` may be a list of them, as it once
# was). The pass below walks `_SLOTS` alone, the ones the limit rules count; in the value of
# any other of these it gathers the `$ref`s of the subschemas while it measures the nesting.
_SUBSCHEMAS: Mapping[str, str] = {
    **_SLOTS,
    **dict.fromkeys(("patternProperties", "dependentSchemas", "dependencies"), "map"),
    **dict.fromkeys(
        (
            "if",
            "then",
            "else",
            "contains",
            "propertyNames",
            "unevaluatedProperties",
            "unevaluatedItems",
            "additionalItems",
        ),
        "single",
    ),
}
# every keyword of `_SUBSCHEMAS` as a `schema_nodes` slot (a list under a keyword of one
# subschema is a list of them, as `items` once was)
_MAPS = tuple(k for k, role in _SUBSCHEMAS.items() if role == "map")
_LISTS = tuple(k for k, role in _SUBSCHEMAS.items() if role != "map")
_SINGLES = tuple(k for k, role in _SUBSCHEMAS.items() if role == "single")


def every_subschema(root: Any) -> list[tuple[dict[str, Any], str, int]]:
    """:func:`~provcat.toolschema.subschemas.schema_nodes` under every keyword that holds subschemas
    (``if``, ``patternProperties``, ``contains``, ... as well as the slots the walk enters)."""
    return schema_nodes(root, maps=_MAPS, lists=_LISTS, singles=_SINGLES)


# what a value found under one of `_SUBSCHEMAS` is: a subschema, an object or a list of them, or
# data (an `enum`, a `default`, ...)
_SCHEMA, _MANY, _DATA = 0, 1, 2
# JSON Schema 2020-12 core 10.2, "Keywords for Applying Subschemas in Place" (beside `$ref`):
# each applies its subschemas to the same instance as the schema holding it
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")


@dataclass(frozen=True, slots=True)
class Survey:
    """``nesting``: how deeply the schema nests as JSON (counting stops past ``MAX_NESTING``);
    ``refs``: whether a subschema holds ``$ref``, ``$defs`` or ``definitions``; ``counts``: what
    the limit rules read (``properties``, ``depth`` with the root at 1, enum ``values``,
    ``largest_enum``, the ``chars`` of property and definition names, string enum values and
    string consts, the ``optional`` properties their object's ``required`` leaves out, and the
    ``unions``); ``loops``: each reference that leads into a loop, a cycle of references that
    comes back to the same subschema through ``$ref`` and in-place applicators alone (``allOf``,
    ``anyOf``, ``oneOf``, ``not``, ``if``/``then``/``else``, ``dependentSchemas``, or a
    ``$ref`` beside other keywords), never descending into a property or an item, with the
    references it follows up to the first that reaches a schema again (``#/$defs/A``,
    ``#/$defs/B``, ``#/$defs/A``); see :func:`_ref_loops`."""

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
    # subschema before it holds a `$ref`), so a schema without references pays nothing more;
    # `hidden`: those in subschemas under keywords this pass does not walk (`if`, `contains`, ...)
    targets: set[str] = set()
    hidden: set[str] = set()
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
                role = _SUBSCHEMAS.get(key)
                inner = (
                    json_nesting(value) if role is None else _nesting_and_refs(value, role, hidden)
                )
                nesting = max(nesting, json_at + inner)
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
    targets |= hidden
    loops = _ref_loops(root, targets) if targets and nesting <= MAX_NESTING else {}
    return Survey(nesting=nesting, refs=refs, counts=counts, loops=loops)


def _kind(role: str, value: Any) -> int:
    """What the value of a keyword of ``role`` (in :data:`_SUBSCHEMAS`) is."""
    if isinstance(value, dict):
        return _MANY if role == "map" else _SCHEMA if role == "single" else _DATA
    return _DATA if role == "map" else _MANY


def _nesting_and_refs(value: dict[str, Any] | list[Any], role: str, refs: set[str]) -> int:
    """:func:`~provcat.toolschema.values.json_nesting` of ``value``, the value of a keyword of
    ``role`` the pass does not walk, with the ``$ref`` strings of the subschemas in it added to
    ``refs`` on the way (one traversal)."""
    deepest = 0
    stack: list[tuple[Any, int, int]] = [(value, 1, _kind(role, value))]
    while stack:
        item, depth, kind = stack.pop()
        if depth > deepest:
            deepest = depth
            if depth > MAX_NESTING:
                return depth
        if kind == _SCHEMA:
            ref = item.get("$ref")
            if isinstance(ref, str):
                refs.add(ref)
            for key, child in item.items():
                if isinstance(child, (dict, list)):
                    inner = _SUBSCHEMAS.get(key)
                    stack.append(
                        (child, depth + 1, _DATA if inner is None else _kind(inner, child))
                    )
            continue
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, dict):
                stack.append((child, depth + 1, _SCHEMA if kind == _MANY else _DATA))
            elif isinstance(child, list):
                stack.append((child, depth + 1, _DATA))
    return deepest


def _resolver(root: dict[str, Any]) -> Callable[[str], dict[str, Any] | None]:
    """``ref`` -> the object schema it points at in ``root`` (None: anything else), each
    reference resolved once; a plain-name fragment (``#node``) is looked up in one index of the
    schema's ``$anchor``s, built on first use, so resolving stays linear in the schema's size."""
    cache: dict[str, dict[str, Any] | None] = {}
    anchors: dict[str, dict[str, Any]] | None = None

    def resolve(ref: str) -> dict[str, Any] | None:
        nonlocal anchors
        if ref in cache:
            return cache[ref]
        fragment = unquote(ref[1:]) if ref.startswith("#") else ""
        if fragment and not fragment.startswith("/"):  # a plain name, not a JSON pointer
            if anchors is None:  # the first match in walk order, as resolve_ref takes it
                anchors = {}
                for s, _, _ in schema_nodes(root):
                    anchor = s.get("$anchor")
                    if isinstance(anchor, str):
                        anchors.setdefault(anchor, s)
            found: dict[str, Any] | None = anchors.get(fragment)
        else:
            status, target = resolve_ref(root, ref)
            found = target if status == "ok" and isinstance(target, dict) else None
        cache[ref] = found
        return found

    return resolve


def _in_place(
    s: dict[str, Any], resolve: Callable[[str], dict[str, Any] | None]
) -> list[tuple[dict[str, Any], str | None]]:
    """The schemas applied to the same instance as ``s`` (``$ref``'s target, with the reference,
    first; then ``allOf``, ``anyOf``, ``oneOf``, ``not``, ``if``, ``then``/``else`` where ``if``
    lets them be reached, ``dependentSchemas``); boolean subschemas end every path."""
    out: list[tuple[dict[str, Any], str | None]] = []
    ref = s.get("$ref")
    if isinstance(ref, str):
        target = resolve(ref)
        if target is not None:
            out.append((target, ref))
    for key in _IN_PLACE_LISTS:
        branches = s.get(key)
        if isinstance(branches, list):
            out += [(b, None) for b in branches if isinstance(b, dict)]
    for key in ("not", "if"):
        child = s.get(key)
        if isinstance(child, dict):
            out.append((child, None))
    if "if" in s:  # without `if`, `then` and `else` are ignored (10.2.2.2, 10.2.2.3)
        condition = s["if"]
        for key, never in (("then", False), ("else", True)):
            child = s.get(key)
            if isinstance(child, dict) and condition is not never:
                out.append((child, None))
    dependent = s.get("dependentSchemas")
    if isinstance(dependent, dict):
        out += [(d, None) for d in dependent.values() if isinstance(d, dict)]
    return out


def _ref_loops(root: dict[str, Any], refs: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Each of ``refs`` (the references in ``root``) that leads into a loop, with its chain.

    A loop is a cycle of schemas each applied to the same instance as the one before it: through
    ``$ref`` and the in-place applicators of :func:`_in_place`, never through ``properties``,
    ``items`` or another keyword that descends into a part of the instance. A validator
    checking a value that reaches the cycle applies the same schemas to that same value again
    and again, without end (JSON Schema 2020-12 core 9.4.1: "A schema MUST NOT be run into an
    infinite loop against an instance ... Schemas SHOULD NOT make use of infinite recursive
    nesting like this"; jsonschema raises ``RecursionError``). A value may stop short of the
    cycle: one that fails the ``type`` beside a ``$ref`` (jsonschema stops at a first error), or
    (since jsonschema stops at a first match) matches an ``anyOf`` branch before the one that
    loops, or has no property that brings in a ``dependentSchemas`` entry; the schema still
    loops for the values that do reach the cycle, and an ``anyOf`` whose branches are all
    examined (as 10.2.1.2 requires when annotations are collected) reaches every branch. Only
    ``then`` under ``if: false`` and ``else`` under ``if: true`` (and either without ``if``) are
    never reached, so they are no step.

    One graph search for all of ``refs`` (Tarjan's strongly connected components, iterative),
    from the schemas they point at: each schema and each step is looked at once, so the work is
    linear in the schema's size; a chain is then as long as the references it names.
    """
    resolve = _resolver(root)
    leads = _leads(resolve, (t for t in map(resolve, refs) if t is not None))
    loops: dict[str, tuple[str, ...]] = {}
    for ref in sorted(refs):
        target = resolve(ref)
        if target is not None and leads[id(target)] is not None:
            loops[ref] = _chain(ref, target, leads)
    return loops


# one step from a schema to one applied to the same instance: the schema and the reference
# followed to it (None: a subschema of an in-place applicator)
_Step = tuple[dict[str, Any], str | None]


def _leads(
    resolve: Callable[[str], dict[str, Any] | None], starts: Iterable[dict[str, Any]]
) -> dict[int, _Step | None]:
    """For every schema reached in place from ``starts`` (by ``id``): the step toward a cycle
    (within the cycle, for a schema on one), or None when no cycle is reached from it."""
    steps: dict[int, list[_Step]] = {}
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    leads: dict[int, _Step | None] = {}
    for start in starts:
        if id(start) in index:
            continue
        work: list[tuple[dict[str, Any], int]] = [(start, 0)]
        index[id(start)] = low[id(start)] = len(index)
        steps[id(start)] = _in_place(start, resolve)
        stack.append(id(start))
        on_stack.add(id(start))
        while work:
            node, at = work[-1]
            key = id(node)
            out = steps[key]
            if at < len(out):
                work[-1] = (node, at + 1)
                child = id(out[at][0])
                if child not in index:
                    index[child] = low[child] = len(index)
                    steps[child] = _in_place(out[at][0], resolve)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((out[at][0], 0))
                elif child in on_stack and index[child] < low[key]:
                    low[key] = index[child]
                continue
            work.pop()
            if work and low[key] < low[id(work[-1][0])]:
                low[id(work[-1][0])] = low[key]
            if low[key] != index[key]:
                continue
            members: list[int] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                members.append(member)
                if member == key:
                    break
            inside = set(members)
            cyclic = len(members) > 1 or any(id(t) == key for t, _ in out)
            for member in members:
                if cyclic:
                    leads[member] = next(s for s in steps[member] if id(s[0]) in inside)
                else:  # every step leads to a schema whose component is finished
                    leads[member] = next((s for s in steps[member] if leads[id(s[0])]), None)
    return leads


def _chain(ref: str, target: dict[str, Any], leads: Mapping[int, _Step | None]) -> tuple[str, ...]:
    """The references followed from ``ref`` (which points at ``target``) along the steps toward
    the cycle, up to the first one that points at a schema a reference on the chain reached
    already."""
    chain = [ref]
    reached = {id(target)}
    node = target
    while True:
        step = leads[id(node)]
        assert step is not None  # every schema on the way reaches the cycle
        node, via = step
        if via is not None:
            chain.append(via)
            if id(node) in reached:
                return tuple(chain)
            reached.add(id(node))


def _is_union(s: dict[str, Any]) -> bool:
    """Whether subschema ``s`` is a union: `anyOf` or `oneOf` branches, a `type` list of two or
    more names, or `nullable: true` (which the strict targets write as a type list)."""
    if isinstance(s.get("anyOf"), list) or isinstance(s.get("oneOf"), list):
        return True
    types = s.get("type")
    if isinstance(types, list) and len({t for t in types if isinstance(t, str)}) > 1:
        return True
    return s.get("nullable") is True
