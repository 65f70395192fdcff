"""The per-keyword rewrite actions of one subschema: types, const, format, objects, nullability,
references."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import (
    join_path,
    walk_schema,
)
from provcat.toolschema.plan import (
    _segment,
)
from provcat.toolschema.run_state import RunState
from provcat.toolschema.values import (
    _NO_VALUES,
    _STRINGS,
    _as_dict,
    _as_list,
    _clone,
    _code,
    _equal,
    _js,
)

_NULL_SCHEMA = {"type": "null"}  # compared with, never handed out


def nullable_merged(
    s: dict[str, Any], branches: list[Any]
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """``s`` with its union ``branches`` merged in as ``nullable: true`` when exactly one of two
    branches is ``{"type": "null"}`` and the other a schema without a reference (its keys after
    ``s``'s own, which win), with that other branch; None for any other union."""
    if len(branches) != 2:
        return None
    first, second = branches
    first_null = first == _NULL_SCHEMA
    if first_null == (second == _NULL_SCHEMA):
        return None
    other = second if first_null else first
    if not isinstance(other, dict) or "$ref" in other:
        return None
    merged = {k: v for k, v in s.items() if k != "anyOf"}
    for k, v in other.items():
        merged.setdefault(k, v)
    merged["nullable"] = True
    return merged, other


class NodeRules(RunState):
    """What the rewrite walk does to one keyword of one subschema."""

    def non_object(self, s: Any, path: str) -> Any:
        """A subschema that is not an object: a boolean schema, or not a schema at all."""
        if s is True or s is False:
            for rule, trig in self.target.fires("boolean-subschema"):
                if trig["value"] is s:
                    self.fire(rule, path, value=_js(s))
                    if rule.action == "replace-with-empty":
                        self.record(rule, path, value=_js(s))
                        return {}
                    return s
            if s is True and self.step("true-subschema-to-empty", path, self.dfs):
                return {}
            return s
        for rule, _ in self.target.fires("non-schema-subschema"):
            self.fire(rule, path, value=_js(s))
            self.record(rule, path, value=_js(s))
            return {}
        return s

    def collapse_nullable(self, s: dict[str, Any], path: str) -> dict[str, Any]:
        branches = s.get("anyOf")
        if "collapse-nullable-any-of" not in self.target.steps or not isinstance(branches, list):
            return s
        found = nullable_merged(s, branches)
        if found is None:
            return s
        merged = found[0]
        code, detail = self.plan.step_heads["collapse-nullable-any-of"]  # ``step``, inline
        self.dfs.append((code, path, False, (detail, _NO_VALUES)))
        return merged

    def type_rules(
        self, s: dict[str, Any], value: Any, where: str, out: dict[str, Any]
    ) -> tuple[list[str], bool] | None:
        names = (
            [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []
        )
        if not names:
            return None
        for rule, trig in self.target.fires("type"):
            if trig["case"] != "unknown":
                continue
            allowed = trig.get("allowed") or ()
            for name in list(names):
                if name not in allowed:
                    self.fire(rule, where, type=_js(name), keyword="type")
                    if rule.action == "drop-type":
                        self.record(rule, where, type=_js(name))
                        names.remove(name)
        nullable = False
        keyword_style = self.plan.keyword_style
        if keyword_style and "null" in names and len(names) > 1:
            names = [n for n in names if n != "null"]
            nullable = True
            self.step("null-type-to-nullable", where, self.dfs)
        non_null = [n for n in names if n != "null"]
        if len(non_null) > 1:
            for rule, trig in self.target.fires("type"):
                if trig["case"] != "multi":
                    continue
                self.fire(rule, where, type=_js(names), keyword="type")
                if rule.action == "type-array-to-any-of" and "anyOf" not in s and "oneOf" not in s:
                    self.record(rule, where, type=_js(names))
                    out["anyOf"] = [{"type": self.type_name(n)} for n in names]
                    return [], nullable
        if len(non_null) == 1 and (
            "oneOf" in s or (isinstance(s.get("anyOf"), list) and "anyOf" in s)
        ):
            for rule, trig in self.target.fires("type"):
                if trig["case"] != "with-any-of":
                    continue
                self.fire(rule, where, type=_js(value), keyword="type")
                if rule.action == "drop-type":
                    self.record(rule, where, type=_js(value))
                    return [], nullable
        return [self.type_name(n) for n in names], nullable

    def type_name(self, name: str) -> str:
        if self.plan.upper:
            self.type_names += 1
            return name.upper()
        return name

    def const_rules(
        self, s: dict[str, Any], value: Any, where: str, out: dict[str, Any]
    ) -> list[Any] | None:
        result: list[Any] | None = None
        for rule, trig in self.target.fires("const"):
            shown = _js(value)
            self.fire(rule, where, value=shown, keyword="const")
            if rule.action != "const-to-enum":
                out["const"] = _clone(value)
                continue
            convertible = trig.get("convertible", "any") == "any" or isinstance(value, str)
            if not convertible:
                self.record(rule, where, which="unconvertible", value=shown)
                continue
            enum = s.get("enum")
            if isinstance(enum, list) and not any(_equal(value, e) for e in enum):
                self.record(rule, where, which="conflict", value=shown)
            else:
                self.record(rule, where, value=shown)
            result = [_clone(value)]
        if not self.target.fires("const"):
            out["const"] = _clone(value)
        return result

    def format_drop(self, value: str, where: str) -> bool:
        dropped = False
        for rule, allowed in self.plan.format_drop:
            if allowed is not None and value in allowed:
                continue
            self.fire(rule, where, format=value, keyword="format")
            self.record(rule, where, format=value)
            dropped = True
        return dropped

    def close_object(self, s: dict[str, Any], path: str, out: dict[str, Any]) -> None:
        if "additionalProperties" in s:
            ad = s["additionalProperties"]
            state = "true" if ad is True else "false" if ad is False else "schema"
        else:
            t = s.get("type")
            if (
                t == "object"
                or (isinstance(t, list) and "object" in t)
                or "properties" in s
                or "required" in s
            ):
                state = "missing"
            else:
                return
        plan = self.plan
        where = path + ".additionalProperties"
        matched = False
        diagnostics, dfs, fired = self.diagnostics, self.dfs, self.fired
        drop = not self.keep_resolved
        fire_values, record_values = plan.ap_values[state]
        # what fire() and record() append, per rule, in rule order
        for rule, rank, code, supported, action, change, settled in plan.ap_heads_by_state[state]:
            if not (settled and drop):
                diagnostics.append((rank, where, code, supported, (rule, fire_values)))
            fired.add(code)
            if action == "keep":
                continue
            matched = True
            if change is not None:
                changed, lossy, detail = change
                dfs.append((changed, where, lossy, (detail, record_values)))
            if action == "close-object":
                out["additionalProperties"] = False
            elif action == "drop-keyword":
                out.pop("additionalProperties", None)
        if state == "true" and not matched and plan.drop_open:
            self.step("drop-open-additional-properties", where, self.dfs)
            out.pop("additionalProperties", None)
        if not plan.closing:
            return
        canonical = s.get("properties")
        if canonical.__class__ is not dict:
            canonical = _as_dict(canonical)
        out["properties"] = self.close_optional(
            canonical, s.get("required"), out.get("properties"), path
        )
        out["required"] = list(canonical)

    def close_optional(
        self, canonical: dict[str, Any], required: Any, props: Any, path: str
    ) -> dict[str, Any]:
        """Make every property of ``canonical`` (the input's ``properties``) that ``required``
        (the input's) leaves out nullable in ``props`` (the walk's output, changed in place),
        recording each; the properties to write (``props``, or a new map when it is empty)."""
        if required.__class__ is not list:
            required = _as_list(required)
        plan = self.plan
        written: dict[str, Any] = props or {}
        base = path + ".properties"
        diagnostics, dfs = self.diagnostics, self.dfs
        # what fire() and record() append per optional property, per rule, in rule order: the
        # diagnostics first, then the transformations (they go to separate lists)
        heads = plan.optional_diagnostics if self.keep_resolved else plan.optional_unsettled
        changes = plan.optional_changes
        optional = False
        for name in canonical:
            if name in required:
                continue
            optional = True
            where = base + _segment(name)
            values = {"property": name}  # read-only, shared by this property's records
            for rank, code, supported, rule in heads:
                diagnostics.append((rank, where, code, supported, (rule, values)))
            for code, lossy, detail in changes:
                dfs.append((code, where, lossy, (detail, values)))
            # the property's output is this walk's own fresh dict: made nullable in place
            child: Any = written.get(name, {})
            named = child.get("type") if child.__class__ is dict else None
            if named.__class__ is str and named != "null" and "enum" not in child:
                child["type"] = [named, "null"]  # the usual case of ``with_null``
            else:
                written[name] = self.with_null(child)
        if optional:
            self.fired.update(plan.optional_codes)
        return written

    def with_null(self, schema: Any) -> Any:
        """``schema`` (an output the walk made, not shared, in the target's key order) also
        accepting null: values of keys it holds are replaced, so it stays in order."""
        if not isinstance(schema, dict):
            return schema
        out = schema
        t = out.get("type")
        if isinstance(t, str):
            if t != "null":
                out["type"] = [t, "null"]
        elif isinstance(t, list):
            if "null" not in t:
                out["type"] = [*t, "null"]
        elif isinstance(branches := out.get("anyOf"), list):
            for b in branches:  # a null branch already there: as it is
                if isinstance(b, dict) and b.get("type") == "null":
                    return out
            out["anyOf"] = [*branches, {"type": "null"}]
            return out
        elif "$ref" in out:
            branch = {k: v for k, v in out.items() if k != "description"}
            wrapped: dict[str, Any] = {}
            if "description" in out:
                wrapped["description"] = out["description"]
            wrapped["anyOf"] = [branch, {"type": "null"}]
            return self.plan.order(wrapped)
        else:
            return out
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out

    def finish_node(self, out: dict[str, Any], path: str) -> None:
        plan = self.plan
        values = out.get("enum") if plan.enum_format else None
        if (
            isinstance(values, list)
            and values
            and (_STRINGS.issuperset(map(type, values)) or all(isinstance(v, str) for v in values))
            and "format" not in out
        ):
            code, detail = plan.step_heads["add-enum-format"]  # ``step``, inline
            self.dfs.append((code, path + ".format", False, (detail, _NO_VALUES)))
            out["format"] = "enum"
        int64 = plan.int64_set
        if int64.isdisjoint(out):
            return
        # the node's own keys (a few) rather than every int64 keyword: each conversion stands
        # alone (counted, its keyword noted in a set), so the order they are met in is no matter
        for key in [k for k in out if k in int64]:
            v = out[key]
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                out[key] = str(int(v)) if float(v).is_integer() else str(v)
                self.int64_values += 1
                seen = self.int64_seen
                if seen.__class__ is not set:
                    seen = self.int64_seen = set()
                seen.add(key)

    def rewrite_refs(self, schema: Any) -> None:
        rule = getattr(self, "rename_rule", None)
        if not self.renamed_definitions or rule is None:
            return
        if not self.post:
            self.post = []
        for node in walk_schema(schema, "inputSchema"):
            ref = node.schema.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/definitions/"):
                node.schema["$ref"] = "#/$defs/" + ref[len("#/definitions/") :]
                self.record(
                    rule,
                    join_path(node.path, "$ref"),
                    into=self.post,
                    which="reference",
                    ref=_code(ref),
                )
