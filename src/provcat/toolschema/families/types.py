"""Type names, ``const``, ``nullable``, int64 keywords written as strings, boolean and
non-schema subschemas, and the steps a run closes with (type case, int64 strings)."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.records import TransformationRecord
from provcat.toolschema.run_state import Run
from provcat.toolschema.values import clone, json_equal, shown


def non_object(run: Run, s: Any, path: str) -> Any:
    """A subschema that is not an object: a boolean schema, or not a schema at all."""
    if s is True or s is False:
        for rule, trig in run.rules.fires("boolean-subschema"):
            if trig["value"] is s:
                run.fire(rule, path, value=shown(s))
                if rule.action == "replace-with-empty":
                    run.record(rule, path, value=shown(s))
                    return {}
                return s
        if s is True and run.step("true-subschema-to-empty", path):
            return {}
        return s
    for rule, _ in run.rules.fires("non-schema-subschema"):
        run.fire(rule, path, value=shown(s))
        run.record(rule, path, value=shown(s))
        return {}
    return s


def type_name(run: Run, name: str) -> str:
    """``name`` in the target's type case (upper-case names are counted for the closing step)."""
    if run.rules.upper:
        run.type_names += 1
        return name.upper()
    return name


def type_rules(
    run: Run, s: dict[str, Any], value: Any, where: str, out: dict[str, Any]
) -> tuple[list[str], bool] | None:
    """The type names to write for ``type: value`` of ``s``, and whether ``null`` moved to
    ``nullable``; None when ``value`` names no type. A type list may become an ``anyOf`` in
    ``out`` (then no names are written)."""
    names = [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []
    if not names:
        return None
    type_pairs = run.rules.fires("type")
    for rule, trig in type_pairs:
        if trig["case"] != "unknown":
            continue
        allowed = trig.get("allowed") or ()
        for name in list(names):
            if name not in allowed:
                run.fire(rule, where, type=shown(name), keyword="type")
                if rule.action == "drop-type":
                    run.record(rule, where, type=shown(name))
                    names.remove(name)
    nullable = False
    if run.rules.keyword_style and "null" in names and len(names) > 1:
        names = [n for n in names if n != "null"]
        nullable = True
        run.step("null-type-to-nullable", where)
    non_null = [n for n in names if n != "null"]
    if len(non_null) > 1:
        for rule, trig in type_pairs:
            if trig["case"] != "multi":
                continue
            run.fire(rule, where, type=shown(names), keyword="type")
            if rule.action == "type-array-to-any-of" and "anyOf" not in s and "oneOf" not in s:
                run.record(rule, where, type=shown(names))
                out["anyOf"] = [{"type": type_name(run, n)} for n in names]
                return [], nullable
    if len(non_null) == 1 and ("oneOf" in s or isinstance(s.get("anyOf"), list)):
        for rule, trig in type_pairs:
            if trig["case"] != "with-any-of":
                continue
            run.fire(rule, where, type=shown(value), keyword="type")
            if rule.action == "drop-type":
                run.record(rule, where, type=shown(value))
                return [], nullable
    return [type_name(run, n) for n in names], nullable


# the keywords that constrain the values of one type only (JSON Schema 2020-12 validation,
# 6.2-6.5, and Gemini's propertyOrdering): where a type list becomes `anyOf` branches, each goes
# into its type's branch, as a Schema object holds `items` for an ARRAY and `properties` for an
# OBJECT only (the same values are accepted: the keyword never constrained the other types)
_OWN_KEYWORDS: dict[str, tuple[str, ...]] = {
    "array": (
        "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains",
        "maxContains",
    ),
    "object": (
        "properties", "required", "additionalProperties", "minProperties", "maxProperties",
        "patternProperties", "propertyNames", "propertyOrdering",
    ),
    "string": ("minLength", "maxLength", "pattern", "format"),
    "number": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
}  # fmt: skip
_OWN_KEYWORDS["integer"] = _OWN_KEYWORDS["number"]


def into_branches(run: Run, out: dict[str, Any]) -> None:
    """``out``, whose type list the walk wrote as ``anyOf`` branches, with each keyword that
    constrains one type's values moved into that type's branch (kept in the target's key
    order); a keyword of both ``number`` and ``integer`` goes into both."""
    moved: set[str] = set()
    branches = []
    for branch in out["anyOf"]:
        kind = str(branch.get("type", "")).lower()
        for key in _OWN_KEYWORDS.get(kind, ()):
            if key in out:
                branch[key] = clone(out[key]) if key in moved else out[key]
                moved.add(key)
        branches.append(run.rules.order(branch))
    for key in moved:
        del out[key]
    out["anyOf"] = branches


def const_rules(
    run: Run, s: dict[str, Any], value: Any, where: str, out: dict[str, Any]
) -> list[Any] | None:
    """Fire the const rules; the enum a rule turns ``const`` into, if any (a ``const`` kept is
    written to ``out``)."""
    result: list[Any] | None = None
    pairs = run.rules.fires("const")
    if not pairs:
        out["const"] = clone(value)
    for rule, trig in pairs:
        value_shown = shown(value)
        run.fire(rule, where, value=value_shown, keyword="const")
        if rule.action != "const-to-enum":
            out["const"] = clone(value)
            continue
        if trig.get("convertible", "any") != "any" and not isinstance(value, str):
            run.record(rule, where, which="unconvertible", value=value_shown)
            continue
        enum = s.get("enum")
        if isinstance(enum, list) and not any(json_equal(value, e) for e in enum):
            run.record(rule, where, which="conflict", value=value_shown)
        else:
            run.record(rule, where, value=value_shown)
        result = [clone(value)]
    return result


def nullable_rules(run: Run, s: dict[str, Any], path: str, out: dict[str, Any] | None) -> bool:
    """Fire the nullable rules ``s`` meets; True when the keyword is consumed (turned into a
    type union or dropped from ``out``; ``out`` None: only report)."""
    value = s["nullable"]
    consumed = False
    for rule, want in run.rules.nullable_rules:
        hit = (
            want == "any"
            or (want == "true" and value is True)
            or (want == "other" and value is not True)
        )
        if not hit:
            continue
        where = path + ".nullable"
        run.fire(rule, where, keyword="nullable")
        if out is None:
            continue
        if rule.action == "nullable-to-type-union":
            consumed = True
            run.record(rule, where, keyword="nullable")
            current = out.get("type")
            if isinstance(current, str) and current != "null":
                out["type"] = [current, "null"]
            elif isinstance(current, list) and "null" not in current:
                out["type"] = [*current, "null"]
            if isinstance(out.get("enum"), list) and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        elif rule.action == "drop-annotation":
            consumed = True
            run.record(rule, where, keyword="nullable")
    return consumed


def finish(run: Run, out: dict[str, Any], path: str) -> None:
    """A written subschema's last changes: an enum of strings gets ``format: enum`` (when the
    target has that step), int64 keywords become strings."""
    values = out.get("enum")
    if (
        run.rules.enum_format
        and isinstance(values, list)
        and values
        and all(isinstance(v, str) for v in values)
        and "format" not in out
    ):
        run.step("add-enum-format", path + ".format")
        out["format"] = "enum"
    for key in run.rules.int64 if not run.rules.int64_set.isdisjoint(out) else ():
        v = out.get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out[key] = str(int(v)) if float(v).is_integer() else str(v)
            run.int64_values += 1
            run.int64_seen.add(key)


def closing_steps(run: Run) -> list[TransformationRecord]:
    """The steps recorded once per run after the walk: type names upper-cased, int64 keywords
    written as strings (each with its count)."""
    tail: list[TransformationRecord] = []
    if run.type_names:
        run.step("uppercase-types", "inputSchema", tail, count=run.type_names)
    if run.int64_values:
        keywords = ", ".join(f"`{k}`" for k in run.rules.int64 if k in run.int64_seen)
        run.step("int64-as-string", "inputSchema", tail, count=run.int64_values, keywords=keywords)
    return tail


# what makes a subschema say something of its values' type, beside `type`
_TYPING = frozenset({"type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const", "not"})


def untyped(run: Run, path: str, out: dict[str, Any]) -> None:
    """Fire the ``type`` rules of case ``missing`` on ``out``, a subschema below the root as
    written for the target, when it says nothing of its values' type (a keyword the target
    drops may have said it), and on an array's absent ``items``."""
    rules = run.rules.untyped
    if _TYPING.isdisjoint(out):
        for rule in rules:
            run.fire(rule, path, type="none", keyword="type")
    elif "items" not in out and out.get("type") == "array":
        for rule in rules:
            run.fire(rule, path + ".items", type="none", keyword="items")
