"""References and definitions: inlined on targets without references, checked where they stand
on the others, legacy ``definitions`` renamed or dropped; a reference that leads into a loop (the
survey finds them) is reported wherever it stands, the same on every target."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.families.unions import single_all_of
from provcat.toolschema.paths import join_path
from provcat.toolschema.refs import resolve_ref
from provcat.toolschema.run_state import INLINE_BUDGET, Run
from provcat.toolschema.subschemas import LIST_SLOTS, MAP_SLOTS, SINGLE_SLOTS, walk_schema
from provcat.toolschema.survey import every_subschema
from provcat.toolschema.values import code, json_equal
from provcat.toolschema.vocabulary import ANNOTATION_KEYWORDS

_INLINE_CHAIN = 32


# ``{cause}`` of the ``ref`` rules: why the reference cannot stay or be written out, and what
# to change, in words that hold on every target (the rule's own words say what the target is)
_EXTERNAL = (
    "it points outside this schema (nothing is fetched); copy the schema it names into the "
    "root's `$defs` and point the reference at that entry (`#/$defs/<name>`)"
)
_NOWHERE = (
    "it points at nothing in this schema; correct the pointer so that it names a schema the "
    "document holds, such as an entry of the root's `$defs`"
)
_TOO_DEEP = (
    f"writing it out would nest more than {_INLINE_CHAIN} references inside one another; let "
    "fewer definitions refer to one another in a row"
)
_TOO_MANY = (
    f"writing out every reference of this schema would take more than {INLINE_BUDGET:,} "
    "copies of definitions; let fewer definitions refer to one another"
)


def _recursive_cause(cycle: tuple[str, ...]) -> str:
    """``{cause}`` of a recursive reference, ``cycle`` the references from it back to it."""
    return (
        f"it is recursive ({code(' -> '.join(cycle))}: the schema it points at refers to it "
        "again) and this target cannot express recursion; give the recursion a fixed depth "
        "(one definition per level, the deepest without the property that recurses) or "
        "compile for a target that takes recursive references"
    )


def inline(run: Run, s: Any, path: str, drops: list[str], chain: tuple[str, ...] = ("#",)) -> Any:
    """``s`` with every resolvable, non-recursive reference replaced by what it points at; the
    paths of the definitions left out are added to ``drops``. A reference that leads into a
    loop stays as it is (:func:`all_of_refs` reports it, wherever it stands). ``chain`` holds the
    references being written out around ``s``; the walk starts inside the root, so a reference
    to the root (``#``) is recursive where it stands, not after a copy of the root."""
    if not isinstance(s, dict):
        return s
    if "$ref" in s:
        ref = s["$ref"]
        status, found = resolve_ref(run.root, ref)
        if status == "ok" and ref in run.survey.loops:
            return s
        case: str | None = None
        cause = ""
        if status == "external":
            case, cause = "external", _EXTERNAL
        elif status != "ok":
            case, cause = "unresolvable", _NOWHERE
        elif ref in chain:
            case, cause = "recursive", _recursive_cause((*chain[chain.index(ref) :], ref))
        elif len(chain) > _INLINE_CHAIN:  # ``chain`` holds the root's ``#`` too
            case, cause = "unresolvable", _TOO_DEEP
        elif run.inline_budget <= 0:
            case, cause = "unresolvable", _TOO_MANY
        where = join_path(path, "$ref")
        if case is not None:
            for rule, trig in run.rules.fires("ref"):
                if trig["case"] == case:
                    run.fire(rule, where, ref=code(ref), cause=cause)
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
    (lossy: only the sibling's value is kept); ``$defs`` and ``definitions`` hold definitions,
    not constraints, and the referenced schema's stay where the reference found them."""
    for _ in range(_INLINE_CHAIN):
        found = _written_out_target(run, s)
        if found is None:
            break
        ref = s["$ref"]
        siblings = {k: v for k, v in s.items() if k != "$ref"}
        clashes = sorted(
            k
            for k, v in siblings.items()
            if k in found
            and not json_equal(found[k], v)
            and k not in ANNOTATION_KEYWORDS
            and k not in ("$defs", "definitions")
        )
        where = join_path(path, "$ref")
        for rule in run.rules.sibling_ref_rules:
            run.fire(rule, where, ref=code(ref))
            run.record(rule, path, ref=code(ref))
            for key in clashes:
                run.record(rule, join_path(path, key), which="conflict", ref=code(ref), keyword=key)
        s = {**found, **siblings}
    return s


def _written_out_target(run: Run, s: dict[str, Any]) -> dict[str, Any] | None:
    """What the reference of ``s`` points at, when ``s`` is a reference beside other keywords
    that resolves to an object outside a loop; else None."""
    ref = s.get("$ref")
    if ref is None or len(s) < 2:
        return None
    status, found = resolve_ref(run.root, ref)
    if status != "ok" or not isinstance(found, dict) or ref in run.survey.loops:
        return None
    return found


def written_root(run: Run) -> dict[str, Any]:
    """The root as the walk writes it, without records: on a target that writes a reference
    with siblings out, a root ``$ref`` beside ``$defs`` (what pydantic gives for a model that
    refers to itself) becomes the object it points at, as openai-python's
    ``to_strict_json_schema`` does; the root rules judge that object."""
    root = run.root
    if run.rules.merges_all_of:  # as the walk does first: `allOf: [{"$ref": ...}]` at the root
        root = single_all_of(root) or root
    if run.rules.sibling_ref_rules:
        for _ in range(_INLINE_CHAIN):
            found = _written_out_target(run, root)
            if found is None:
                break
            root = {**found, **{k: v for k, v in root.items() if k != "$ref"}}
    return root


def check_ref(run: Run, ref: Any, path: str) -> None:
    """Fire the ``ref`` rules of a target that keeps references: external, unresolvable or
    (when a rule asks) recursive; a resolvable reference is fine as it is, and one that leads
    into a loop is the loop rules' (:func:`all_of_refs`). A reference that is the root (a
    pydantic model that refers to itself) only enters its recursion: that is reported once,
    at the reference inside what it points at that recurses."""
    status, _ = resolve_ref(run.root, ref)
    case = {"external": "external", "ok": None}.get(status, "unresolvable")
    cause = _EXTERNAL if case == "external" else _NOWHERE
    pairs = run.rules.kept_ref_rules
    if case is None and ref in run.survey.loops:
        return
    if case is None and path != "inputSchema" and any(t["case"] == "recursive" for _, t in pairs):
        cycle = _recursion(run, ref)
        if cycle:
            case, cause = "recursive", _recursive_cause(cycle)
    if case:
        for rule, trig in pairs:
            if trig["case"] == case:
                run.fire(rule, join_path(path, "$ref"), ref=code(ref), cause=cause)


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
    for s, path, _ in every_subschema(run.root):
        ref = s.get("$ref")
        if isinstance(ref, str) and ref in loops:
            values = {"ref": code(ref), "chain": code(" -> ".join(loops[ref]))}
            for rule in rules:
                run.fire(rule, join_path(path, "$ref"), **values)


def all_of_refs(run: Run) -> None:
    """The tool-level reference rules: the loop rules at every reference that leads into a loop
    (:func:`_reference_loops`), then the all-of-ref rules at each ``allOf`` branch that is a
    reference (``$ref`` directly in the branch), wherever the ``allOf`` stands, but for an
    ``allOf`` the walk merges into the schema holding it (:func:`single_all_of`): that reference
    stands outside ``allOf`` in the output."""
    _reference_loops(run)
    pairs = run.rules.fires("all-of-ref")
    if not pairs:
        return
    for s, path, _ in run.nodes():
        branches = s.get("allOf")
        if not isinstance(branches, list):
            continue
        if run.rules.merges_all_of and single_all_of(s) is not None:
            continue
        for i, branch in enumerate(branches):
            if isinstance(branch, dict) and "$ref" in branch:
                where = join_path(path, "allOf", i, "$ref")
                for rule, _ in pairs:
                    run.fire(rule, where, ref=code(branch["$ref"]))


def _recursion(run: Run, ref: Any) -> tuple[str, ...]:
    """How what ``ref`` points at reaches ``ref`` again through references: the references from
    ``ref`` back to it (``ref`` first and last), or () when it never does."""
    came_from: dict[str, str] = {}
    stack = [ref]
    while stack:
        at = stack.pop()
        status, found = resolve_ref(run.root, at)
        if status != "ok" or not isinstance(found, dict):
            continue
        for node in walk_schema(found):
            inner = node.schema.get("$ref")
            if not isinstance(inner, str):
                continue
            if inner == ref:
                back = [at]
                while back[-1] != ref:
                    back.append(came_from[back[-1]])
                return (*reversed(back), ref)
            if inner not in came_from:
                came_from[inner] = at
                stack.append(inner)
    return ()


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
