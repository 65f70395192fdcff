"""References and definitions: inlined on targets without references, checked where they stand
on the others, legacy ``definitions`` renamed or dropped; a reference that leads into a loop (the
survey finds them) is reported wherever it stands, the same on every target."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import (
    LIST_SLOTS,
    MAP_SLOTS,
    SINGLE_SLOTS,
    join_path,
    walk_schema,
)
from provcat.toolschema.refs import resolve_ref
from provcat.toolschema.run_state import Run
from provcat.toolschema.survey import subschemas
from provcat.toolschema.values import code, json_equal
from provcat.toolschema.vocabulary import ANNOTATION_KEYWORDS

_INLINE_CHAIN = 32


def inline(run: Run, s: Any, path: str, drops: list[str], chain: tuple[str, ...] = ()) -> Any:
    """``s`` with every resolvable, non-recursive reference replaced by what it points at; the
    paths of the definitions left out are added to ``drops``. A reference that leads into a
    loop stays as it is (:func:`all_of_refs` reports it, wherever it stands)."""
    if not isinstance(s, dict):
        return s
    if "$ref" in s:
        ref = s["$ref"]
        status, found = resolve_ref(run.root, ref)
        if status == "ok" and ref in run.survey.loops:
            return s
        case: str | None = None
        if status == "external":
            case = "external"
        elif status != "ok":
            case = "unresolvable"
        elif ref in chain:
            case = "recursive"
        elif len(chain) >= _INLINE_CHAIN or run.inline_budget <= 0:
            case = "unresolvable"
        where = join_path(path, "$ref")
        if case is not None:
            for rule, trig in run.rules.fires("ref"):
                if trig["case"] == case:
                    run.fire(rule, where, ref=code(ref))
            return s
        run.inline_budget -= 1
        for rule, trig in run.rules.fires("ref"):
            if trig["case"] == "resolvable":
                run.fire(rule, where, ref=code(ref))
                if rule.action == "inline-ref":
                    run.record(rule, path, into=run.before, ref=code(ref))
        siblings = {k: v for k, v in s.items() if k != "$ref"}
        if isinstance(found, dict):
            merged: Any = {**found, **siblings}
        elif found is True:
            merged = siblings if siblings else True
        else:
            merged = False
        return inline(run, merged, path, drops, (*chain, str(ref)))
    out: dict[str, Any] = {}
    for key, value in s.items():
        if key in ("$defs", "definitions"):
            drops.append(join_path(path, key))
            continue
        if key in MAP_SLOTS and isinstance(value, dict):
            out[key] = {
                k: inline(run, v, join_path(path, key, k), drops, chain) for k, v in value.items()
            }
        elif key in LIST_SLOTS and isinstance(value, list):
            out[key] = [
                inline(run, v, join_path(path, key, i), drops, chain) for i, v in enumerate(value)
            ]
        elif key in SINGLE_SLOTS and isinstance(value, dict):
            out[key] = inline(run, value, join_path(path, key), drops, chain)
        else:
            out[key] = value
    return out


def inline_sibling_ref(run: Run, s: dict[str, Any], path: str) -> dict[str, Any]:
    """``s`` (a ``$ref`` beside other keywords, on a target that keeps references) with what the
    reference points at written in its place, the siblings winning where both hold a keyword,
    as openai-python's ``to_strict_json_schema`` does; repeated while the result is again a
    reference with siblings (at most ``_INLINE_CHAIN`` times). A reference that does not
    resolve to an object, or that leads into a loop, stays, for the other ``ref`` rules (or the
    loop rules of :func:`all_of_refs`) to judge. Where a sibling replaces
    a different constraint of the referenced schema, the rule's ``conflict`` record says so
    (lossy: only the sibling's value is kept)."""
    for _ in range(_INLINE_CHAIN):
        ref = s.get("$ref")
        if ref is None or len(s) < 2:
            break
        status, found = resolve_ref(run.root, ref)
        if status != "ok" or not isinstance(found, dict) or ref in run.survey.loops:
            break
        siblings = {k: v for k, v in s.items() if k != "$ref"}
        clashes = sorted(
            k
            for k, v in siblings.items()
            if k in found and not json_equal(found[k], v) and k not in ANNOTATION_KEYWORDS
        )
        where = join_path(path, "$ref")
        for rule in run.rules.sibling_ref_rules:
            run.fire(rule, where, ref=code(ref))
            run.record(rule, path, ref=code(ref))
            for key in clashes:
                run.record(rule, join_path(path, key), which="conflict", ref=code(ref), keyword=key)
        s = {**found, **siblings}
    return s


def check_ref(run: Run, ref: Any, path: str) -> None:
    """Fire the ``ref`` rules of a target that keeps references: external, unresolvable or
    (when a rule asks) recursive; a resolvable reference is fine as it is, and one that leads
    into a loop is the loop rules' (:func:`all_of_refs`)."""
    status, _ = resolve_ref(run.root, ref)
    case = {"external": "external", "ok": None}.get(status, "unresolvable")
    pairs = run.rules.kept_ref_rules
    if case is None and ref in run.survey.loops:
        return
    if case is None and any(t["case"] == "recursive" for _, t in pairs) and _recursive(run, ref):
        case = "recursive"
    if case:
        for rule, trig in pairs:
            if trig["case"] == case:
                run.fire(rule, join_path(path, "$ref"), ref=code(ref))


def _reference_loops(run: Run) -> None:
    """Fire the loop rules at every ``$ref`` that leads into a loop (the survey's ``loops``),
    wherever it stands: in the slots the walk enters, under a keyword it does not (``if``,
    ``dependentSchemas``, ``patternProperties``, ...), in a keyword the target drops or in
    definitions it inlines and leaves out. A loop no property reaches is still a schema no value
    can be checked against, and the same diagnostics come from every target."""
    loops = run.survey.loops
    if not loops:
        return
    rules = [rule for rule, trig in run.rules.fires("ref") if trig["case"] == "loop"]
    for s, path in subschemas(run.root):
        ref = s.get("$ref")
        if isinstance(ref, str) and ref in loops:
            values = {"ref": code(ref), "chain": code(" -> ".join(loops[ref]))}
            for rule in rules:
                run.fire(rule, join_path(path, "$ref"), **values)


def all_of_refs(run: Run) -> None:
    """The tool-level reference rules: the loop rules at every reference that leads into a loop
    (:func:`_reference_loops`), then the all-of-ref rules at each ``allOf`` branch that is a
    reference (``$ref`` directly in the branch), wherever the ``allOf`` stands."""
    _reference_loops(run)
    pairs = run.rules.fires("all-of-ref")
    if not pairs:
        return
    for s, path, _ in run.nodes():
        branches = s.get("allOf")
        if not isinstance(branches, list):
            continue
        for i, branch in enumerate(branches):
            if isinstance(branch, dict) and "$ref" in branch:
                where = join_path(path, "allOf", i, "$ref")
                for rule, _ in pairs:
                    run.fire(rule, where, ref=code(branch["$ref"]))


def _recursive(run: Run, ref: Any) -> bool:
    """Whether what ``ref`` points at reaches ``ref`` again through references."""
    seen: set[str] = set()
    stack = [ref]
    while stack:
        status, found = resolve_ref(run.root, stack.pop())
        if status != "ok" or not isinstance(found, dict):
            continue
        for node in walk_schema(found):
            inner = node.schema.get("$ref")
            if not isinstance(inner, str):
                continue
            if inner == ref:
                return True
            if inner not in seen:
                seen.add(inner)
                stack.append(inner)
    return False


def definitions_key(run: Run, s: dict[str, Any], path: str, where: str) -> str:
    """Where ``definitions`` of ``s`` (at ``where``) go in the output: "definitions", "$defs"
    (renamed) or "" (dropped), as the definitions rules say."""
    case = "conflicting" if "$defs" in s else "legacy"
    target_key = "definitions"
    for rule, trig in run.rules.fires("definitions"):
        if trig["case"] != case:
            continue
        run.fire(rule, where, keyword="definitions")
        if rule.action == "drop-keyword":
            run.record(rule, where, keyword="definitions")
            target_key = ""
        elif rule.action == "rename-definitions":
            run.record(rule, where, keyword="definitions")
            target_key = "$defs"
            if path == "inputSchema":
                run.rename_rule = rule
    return target_key


def rename_refs(run: Run, schema: Any) -> None:
    """After the root's ``definitions`` became ``$defs``: every reference into them follows."""
    rule = run.rename_rule
    if rule is None:
        return
    for node in walk_schema(schema, "inputSchema"):
        ref = node.schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/definitions/"):
            node.schema["$ref"] = "#/$defs/" + ref[len("#/definitions/") :]
            run.record(
                rule, join_path(node.path, "$ref"), into=run.after, which="reference", ref=code(ref)
            )
