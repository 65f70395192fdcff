"""The one recursive walk: every subschema rebuilt in the target's form, each keyword handed to
its rule family (``families/``), with the run's state passed along.

Targets that send the schema as written (``schema_style: verbatim``) take :func:`verbatim`
instead: a copy, with each subschema reported in walk order.
"""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import path_segment, schema_nodes
from provcat.toolschema.families import keywords, objects, refs, types, unions
from provcat.toolschema.rules import COPY, DROP, SPECIAL, UNKNOWN
from provcat.toolschema.run_state import Run
from provcat.toolschema.values import clone

# the keywords holding a list of subschemas that the walk writes as a list
_LISTS = ("anyOf", "allOf", "prefixItems")


def rewrite(run: Run, s: Any, path: str) -> Any:
    """The subschema ``s`` found at ``path``, written for the run's target."""
    if not isinstance(s, dict):
        return types.non_object(run, s, path)
    if "anyOf" in s:
        merged = unions.collapse_nullable(run, s, path)
        if merged is not s and "anyOf" not in merged:
            return rewrite(run, merged, path)  # written as the subschema it now is
        s = merged
    rules = run.rules
    keywords.report(run, s, path)
    out: dict[str, Any] = {}
    const_enum: list[Any] | None = None
    one_of: list[Any] | None = None
    nullable_from_type = False
    for key, value in s.items():
        fate = rules.fate(key)
        if fate == COPY:
            out[key] = clone(value)
            continue
        where = path + path_segment(key)
        if fate == DROP:
            keywords.drop(run, key, where)
        elif fate == UNKNOWN:
            keywords.unknown(run, key, value, where, out)
        elif key == "type" and _plain_type(run, s, value):
            out["type"] = types.type_name(run, value)  # what type_rules gives for it, sooner
        elif key == "type":
            kept = types.type_rules(run, s, value, where, out)
            if kept is not None:
                names, nullable_from_type = kept
                if len(names) == 1:
                    out["type"] = names[0]
                elif names:
                    out["type"] = names
        elif key in ("properties", "$defs", "definitions"):
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
        elif key in ("items", "not"):
            out[key] = rewrite(run, value, where)
        elif key in _LISTS or key == "oneOf":
            branches = (
                [rewrite(run, v, f"{where}[{i}]") for i, v in enumerate(value)]
                if isinstance(value, list)
                else clone(value)
            )
            if key == "oneOf" and unions.one_of(run, where):
                one_of = branches
            else:
                out[key] = branches
        elif key == "additionalProperties":
            if isinstance(value, dict) and not rules.replaces_map:
                out[key] = rewrite(run, value, where)
            else:
                out[key] = clone(value)
        elif key == "enum":
            if not (
                isinstance(value, list)
                and keywords.enum_values(run, value, path, drop_allowed=True)
            ):
                out[key] = clone(value)
        elif key == "format":
            if not (isinstance(value, str) and keywords.format_dropped(run, value, where)):
                out[key] = value
        elif key == "const":
            const_enum = types.const_rules(run, s, value, where, out)
        elif key == "$ref":
            if rules.kept_ref_rules:
                refs.check_ref(run, value, path)
            out[key] = value
        # ``nullable`` is read after the loop, once the type is written
    if one_of is not None and "anyOf" not in out:
        out["anyOf"] = one_of  # beside an `anyOf`, the oneOf constraint is dropped (lossy)
    if const_enum is not None:
        out["enum"] = const_enum
    nullable_kept = "nullable" in s and rules.fate("nullable") == SPECIAL
    if nullable_kept and not types.nullable_rules(run, s, path, out):
        out["nullable"] = s["nullable"]
    if nullable_from_type:
        out["nullable"] = True
    if objects.ap_state(s) is not None:
        objects.close_object(run, s, path, out)
    types.finish(run, out, path)
    return rules.order(out)


def _plain_type(run: Run, s: dict[str, Any], value: Any) -> bool:
    """Whether ``type: value`` of ``s`` is one name no type rule acts on (the common case)."""
    plain = run.rules.plain_types
    return (
        isinstance(value, str)
        and (plain is None or value in plain)
        and "anyOf" not in s
        and "oneOf" not in s
    )


def verbatim(run: Run, root: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``root`` as written, with every subschema reported on the way (in
    ``schema_nodes`` order): the keywords and constraints the target does not enforce, enum
    values, kept references, ``additionalProperties`` states a rule reports, ``nullable``."""
    rules = run.rules
    for s, path, _ in schema_nodes(root):
        keywords.report(run, s, path)
        if isinstance(s.get("enum"), list):
            keywords.enum_values(run, s["enum"], path, drop_allowed=False)
        if "$ref" in s and rules.kept_ref_rules:
            refs.check_ref(run, s["$ref"], path)
        objects.report_ap(run, s, path)
        if "nullable" in s:
            types.nullable_rules(run, s, path, None)
    copied: dict[str, Any] = clone(root)
    return copied
