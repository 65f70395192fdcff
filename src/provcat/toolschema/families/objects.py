"""Objects: ``additionalProperties`` closed or reported, optional properties made required and
nullable, the empty schema, and the root's type."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.families.refs import written_root
from provcat.toolschema.paths import path_segment
from provcat.toolschema.records import TransformationRecord
from provcat.toolschema.run_state import Run
from provcat.toolschema.subschemas import schema_types
from provcat.toolschema.values import code, shown

# the keywords an empty schema may hold (anything else makes it a schema to walk)
_EMPTY_KEYS = frozenset(
    {"type", "title", "description", "properties", "required", "propertyOrdering"}
)


def ap_state(s: dict[str, Any]) -> str | None:
    """The ``additionalProperties`` state of ``s`` as the rules name it: "true", "false",
    "schema", "missing" (an object without the keyword) or None (not an object)."""
    if "additionalProperties" in s:
        ad = s["additionalProperties"]
        return "true" if ad is True else "false" if ad is False else "schema"
    t = s.get("type")
    if (
        t == "object"
        or (isinstance(t, list) and "object" in t)
        or "properties" in s
        or "required" in s
    ):
        return "missing"
    return None


# keywords whose subschemas say what a root without a type accepts: closed beside no properties
# of its own, such a root would accept only {} (additionalProperties sees only its siblings)
_COMPOSED = frozenset({"$ref", "$dynamicRef", "anyOf", "oneOf", "allOf", "not", "if"})


def empty_root_typed(run: Run, root: dict[str, Any]) -> bool:
    """Whether ``root`` composes no subschema (``{}``, annotations, ``$defs``) and a root-type
    rule that fired adds ``type: "object"`` to it: it is then written as an object without
    properties, and the object rules (closing it) apply to it too. A root holding a ``$ref`` or
    a union is left as it is."""
    return _COMPOSED.isdisjoint(root) and any(
        rule.action == "add-type-object" and rule.code in run.fired
        for rule, _ in run.rules.fires("root-type")
    )


def _bare(s: dict[str, Any], path: str) -> bool:
    """Whether ``s`` is an object below the root that declares no property (a free-form map:
    closed, it accepts only ``{}``; at the root, a tool without arguments)."""
    return path != "inputSchema" and not s.get("properties")


def report_ap(run: Run, s: dict[str, Any], path: str) -> None:
    """Fire the rules that only report ``s``'s ``additionalProperties`` state."""
    state = ap_state(s)
    if state is None:
        return
    for rule, bare in run.rules.ap_by_state[state]:
        if rule.action == "keep" and (not bare or _bare(s, path)):
            run.fire(
                rule, path + ".additionalProperties", value=state, keyword="additionalProperties"
            )


def close_object(run: Run, s: dict[str, Any], path: str, out: dict[str, Any], state: str) -> None:
    """The object ``s`` (its :func:`ap_state` ``state``) written as ``out``: its
    ``additionalProperties`` rules applied, then (on a target that closes objects) every
    optional property made required and nullable."""
    rules = run.rules
    where = path + ".additionalProperties"
    matched = False
    for rule, bare in rules.ap_by_state[state]:
        if bare and not _bare(s, path):
            continue
        run.fire(rule, where, value=state, keyword="additionalProperties")
        if rule.action == "keep":
            continue
        matched = True
        run.record(rule, where, value=state)
        if rule.action == "close-object":
            out["additionalProperties"] = False
        elif rule.action == "drop-keyword":
            out.pop("additionalProperties", None)
    if state == "true" and not matched and rules.has_step("drop-open-additional-properties"):
        run.step("drop-open-additional-properties", where)
        out.pop("additionalProperties", None)
    if not rules.closing:
        return
    canonical = s.get("properties")
    if not isinstance(canonical, dict):
        canonical = {}
    required = s.get("required")
    if not isinstance(required, list):
        required = []
    written: dict[str, Any] = out.get("properties") or {}
    base = path + ".properties"
    for name in canonical:
        if name in required:
            continue
        where = base + path_segment(name)
        for rule in rules.optional:
            run.fire(rule, where, property=name)
        for rule in rules.optional:
            if rule.action == "required-nullable":
                run.record(rule, where, property=name)
        written[name] = with_null(run, written.get(name, {}))
    out["properties"] = written
    out["required"] = list(canonical)


# without a type, the keywords that may refuse null (a reference, or every branch, or the negation)
_NULL_REFUSERS = frozenset({"$ref", "allOf", "not", "const"})


def with_null(run: Run, schema: Any) -> Any:
    """``schema`` (an output the walk made, not shared, in the target's key order) also
    accepting null: values of keys it holds are replaced, so it stays in order."""
    if not isinstance(schema, dict):
        return schema
    t = schema.get("type")
    if isinstance(t, str):
        if t != "null":
            schema["type"] = [t, "null"]
    elif isinstance(t, list):
        if "null" not in t:
            schema["type"] = [*t, "null"]
    elif isinstance(branches := schema.get("anyOf"), list):
        if not any(isinstance(b, dict) and b.get("type") == "null" for b in branches):
            schema["anyOf"] = [*branches, {"type": "null"}]
        return schema
    elif isinstance(schema.get("enum"), list):
        pass  # no type: the values alone say what is accepted (null added below)
    elif not _NULL_REFUSERS.isdisjoint(schema):
        branch = {k: v for k, v in schema.items() if k != "description"}
        wrapped: dict[str, Any] = {}
        if "description" in schema:
            wrapped["description"] = schema["description"]
        wrapped["anyOf"] = [branch, {"type": "null"}]
        return run.rules.order(wrapped)
    else:
        return schema  # no keyword that could refuse null: null is accepted already
    if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
        schema["enum"] = [*schema["enum"], None]
    return schema


def is_empty(run: Run, resolved: dict[str, Any]) -> bool:
    """Whether the root is an empty schema a rule leaves out of the output (the rules fire)."""
    pairs = run.rules.fires("empty-schema")
    if not pairs:
        return False
    props, req = resolved.get("properties"), resolved.get("required")
    if (isinstance(props, dict) and props) or (isinstance(req, list) and req):
        return False
    # `additionalProperties: false` on an object without properties says "no arguments" too
    rest = (
        resolved.keys() - {"additionalProperties"}
        if resolved.get("additionalProperties") is False
        else resolved.keys()
    )
    if not _EMPTY_KEYS.issuperset(rest):
        return False
    for rule, _ in pairs:
        run.fire(rule, "inputSchema")
    return True


def _root_type_hit(case: str, root: dict[str, Any], raw: Any, types: list[str]) -> bool:
    """Whether the root's ``type`` is a ``root-type`` trigger's case."""
    if case == "not-exactly-object":
        return types != ["object"]
    if case == "present-not-object":
        return bool(types) and types != ["object"]
    if case == "missing":
        return "type" not in root
    if case == "object-list":
        return isinstance(raw, list) and raw == ["object"]
    if case == "object-union":
        return isinstance(raw, list) and "object" in raw and len(set(raw)) > 1
    if case == "excludes-object":
        return "type" in root and "object" not in types
    return False


def type_shown(s: dict[str, Any]) -> str:
    """``{type}`` of a rule on ``s``: its ``type`` as written, or what ``s`` is without one (a
    reference, or a schema without ``type``), in words that follow "not"."""
    if "type" in s:
        return shown(s["type"])
    ref = s.get("$ref")
    if isinstance(ref, str):
        return f"a reference ({code(ref)}) without `type`"
    return "a schema without `type`"


def _root_shown(run: Run, root: dict[str, Any]) -> str:
    """:func:`type_shown` of the root the rules judge, naming the reference it was written out
    from (the input's root has no ``type`` of its own then)."""
    ref = run.root.get("$ref")
    if root is run.root or not isinstance(ref, str):
        return type_shown(root)
    return f"{type_shown(root)}, what the root's {code(ref)} points at"


def root_rules(run: Run) -> None:
    """Fire the rules on the root object: its type, keywords it may not hold, and whether it
    constrains anything."""
    root = written_root(run)
    raw = root.get("type")
    if not (isinstance(raw, str) and raw == "object"):  # no case hits a root typed "object"
        types = schema_types(root)
        for rule, trig in run.rules.fires("root-type"):
            if _root_type_hit(str(trig["case"]), root, raw, types):
                run.fire(rule, "inputSchema.type", type=_root_shown(run, root))
    for rule, trig in run.rules.fires("root-keyword"):
        keyword = trig["keyword"]
        if keyword in root:
            run.fire(rule, "inputSchema" + path_segment(keyword), keyword=keyword)
    constrained = run.rules.fires("root-constrained")
    if constrained:
        props, req = root.get("properties"), root.get("required")
        if (isinstance(props, dict) and props) or (isinstance(req, list) and req):
            for rule, _ in constrained:
                run.fire(rule, "inputSchema")


def root_type_actions(
    run: Run, schema: dict[str, Any], into: list[TransformationRecord]
) -> dict[str, Any]:
    """The written root with the fixes of the root-type rules that fired."""
    for rule, _ in run.rules.fires("root-type"):
        if rule.code not in run.fired:
            continue
        where = "inputSchema.type"
        if rule.action == "add-type-object":
            schema = {"type": "object", **{k: v for k, v in schema.items() if k != "type"}}
            run.record(rule, where, into=into, type=type_shown(run.root))
        elif rule.action in ("normalize-type-object", "narrow-type-object"):
            schema = {k: ("object" if k == "type" else v) for k, v in schema.items()}
            run.record(rule, where, into=into, type=type_shown(run.root))
    return schema
