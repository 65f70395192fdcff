"""The one recursive walk: every subschema rebuilt in the target's form, each keyword handed to
its rule family (``families/``), with the run's state passed along.

Targets that send the schema as written (``schema_style: verbatim``) take :func:`verbatim`
instead: a copy, with each subschema reported in walk order.
"""

from __future__ import annotations

from typing import Any

from provcat.toolschema.families import keywords, objects, refs, types, unions
from provcat.toolschema.paths import path_segment
from provcat.toolschema.rules import COPY, DROP, SPECIAL, UNKNOWN
from provcat.toolschema.run_state import Run
from provcat.toolschema.values import clone

ROOT = "inputSchema"  # the path the walk starts from; the root's type is the root rules' concern

# the keywords holding a list of subschemas that the walk writes as a list
_LISTS = ("anyOf", "allOf", "prefixItems")


def rewrite(run: Run, s: Any, path: str) -> Any:
    """The subschema ``s`` found at ``path``, written for the run's target."""
    if not isinstance(s, dict):
        return types.non_object(run, s, path)
    if "allOf" in s and run.rules.merges_all_of:
        s = _merged_all_of(run, s, path)
    if "$ref" in s and len(s) > 1 and run.rules.sibling_ref_rules:
        s = refs.inline_sibling_ref(run, s, path)
    if "anyOf" in s:
        merged = unions.collapse_nullable(run, s, path)
        if merged is not s and "anyOf" not in merged:
            return rewrite(run, merged, path)  # written as the subschema it now is
        s = merged
    rules = run.rules
    if not rules.report_keys.isdisjoint(s):
        keywords.report(run, s, path)
    fates, other = rules.fates, rules.other_fate
    out: dict[str, Any] = {}
    const_enum: list[Any] | None = None
    one_of: list[Any] | None = None
    nullable_from_type = False
    for key, value in s.items():
        fate = fates.get(key, other)
        if fate == COPY:
            out[key] = clone(value) if isinstance(value, (dict, list, tuple)) else value
        elif fate == DROP:
            keywords.drop(run, key, path + path_segment(key))
        elif fate == UNKNOWN:
            keywords.unknown(run, key, value, path + path_segment(key), out)
        elif key == "type":
            plain = rules.plain_types
            if (
                isinstance(value, str)
                and (plain is None or value in plain)
                and "anyOf" not in s
                and "oneOf" not in s
            ):  # one name no type rule acts on (the common case): what type_rules gives, sooner
                out["type"] = types.type_name(run, value)
                continue
            kept = types.type_rules(run, s, value, path + ".type", out)
            if kept is not None:
                names, nullable_from_type = kept
                if len(names) == 1:
                    out["type"] = names[0]
                elif names:
                    out["type"] = names
        elif key == "properties" or key == "$defs" or key == "definitions":
            where = path + path_segment(key)
            children = (
                {k: rewrite(run, v, where + path_segment(k)) for k, v in value.items()}
                if isinstance(value, dict)
                else clone(value)
            )
            written_as = refs.definitions_key(run, s, path, where) if key == "definitions" else key
            if written_as:
                out[written_as] = children
        elif key == "required":
            out[key] = clone(value)
        elif key == "items" or key == "not":
            out[key] = rewrite(run, value, path + path_segment(key))
        elif key in _LISTS or key == "oneOf":
            where = path + path_segment(key)
            branches = (
                [rewrite(run, v, f"{where}[{i}]") for i, v in enumerate(value)]
                if isinstance(value, list)
                else clone(value)
            )
            if key == "oneOf" and unions.one_of(run, where, value):
                one_of = branches
            else:
                out[key] = branches
        elif key == "additionalProperties":
            if isinstance(value, dict) and not rules.replaces_map:
                out[key] = rewrite(run, value, path + ".additionalProperties")
            else:
                out[key] = clone(value)
        elif key == "enum":
            if not (
                isinstance(value, list)
                and keywords.enum_values(run, value, path, drop_allowed=True)
            ):
                out[key] = clone(value)
        elif key == "format":
            if not (
                isinstance(value, str) and keywords.format_dropped(run, value, path + ".format")
            ):
                out[key] = value
        elif key == "const":
            const_enum = types.const_rules(run, s, value, path + ".const", out)
        elif key == "$ref":
            if rules.kept_ref_rules:
                refs.check_ref(run, value, path)
            out[key] = value
        # ``nullable`` is read after the loop, once the type is written
    if one_of is not None and "anyOf" not in out:
        out["anyOf"] = one_of  # beside an `anyOf`, the oneOf constraint is dropped (lossy)
    if const_enum is not None:
        out["enum"] = const_enum
    nullable_kept = "nullable" in s and fates.get("nullable") == SPECIAL
    if nullable_kept and not types.nullable_rules(run, s, path, out):
        out["nullable"] = s["nullable"]
    if nullable_from_type:
        out["nullable"] = True
    if rules.untyped and path != ROOT:
        types.untyped(run, path, out)
    state = objects.ap_state(s)
    if state is None and path == ROOT and objects.empty_root_typed(run, s):
        state = "missing"  # an empty root is written as an object: closed as one
    if state is not None:
        objects.close_object(run, s, path, out, state)
    types.finish(run, out, path)
    if "anyOf" in out and isinstance(s.get("type"), list) and "anyOf" not in s and "oneOf" not in s:
        types.into_branches(run, out)  # the type list became the branches (no oneOf or anyOf)
    return rules.order(out)


def _merged_all_of(run: Run, s: dict[str, Any], path: str) -> dict[str, Any]:
    """``s`` with its ``allOf`` of one subschema merged in (:func:`unions.single_all_of`), or
    ``s`` as it is."""
    merged = unions.single_all_of(s)
    if merged is None:
        return s
    run.step("merge-single-all-of", path + ".allOf")
    return merged


def verbatim(run: Run) -> dict[str, Any]:
    """A copy of the run's canonical schema as written, with every subschema reported on the way
    (in ``schema_nodes`` order): the keywords and constraints the target does not enforce, enum
    values, kept references, ``additionalProperties`` states a rule reports, ``nullable``."""
    rules = run.rules
    for s, path, _ in run.nodes():
        keywords.report(run, s, path)
        if isinstance(s.get("enum"), list):
            keywords.enum_values(run, s["enum"], path, drop_allowed=False)
        if "$ref" in s and rules.kept_ref_rules:
            refs.check_ref(run, s["$ref"], path)
        objects.report_ap(run, s, path)
        if "nullable" in s:
            types.nullable_rules(run, s, path, None)
    copied: dict[str, Any] = clone(run.root)
    return copied
