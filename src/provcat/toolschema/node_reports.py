"""Per-subschema reports of what a target ignores or does not enforce, made as the subschema is
written (nothing is rebuilt here)."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import (
    join_path,
    walk_schema,
)
from provcat.toolschema.plan import (
    _Reports,
)
from provcat.toolschema.refs import resolve_ref
from provcat.toolschema.run_state import RunState
from provcat.toolschema.values import (
    _STRINGS,
    _code,
    _js,
)


class NodeReports(RunState):
    """Fires the rules that report a subschema without changing it."""

    def report_shape(self, s: dict[str, Any], path: str, found: _Reports) -> None:
        """Fire the rules that report subschema ``s`` as it is: the keyword reports (per keyword,
        in the subschema's order), the constraints reports, then the ones that read a value.
        What the keys alone decide was worked out for the subschema's shape (``found``)."""
        append, fired = self.diagnostics.append, self.fired
        for segment, values, heads in found.keywords:
            where = path + segment
            for rank, code, supported, rule in heads:
                append((rank, where, code, supported, (rule, values)))
                fired.add(code)
        keep = self.keep_resolved
        for rank, code, supported, rule, values in found.constraints:
            if rank or not supported or keep:  # what ``fire`` appends
                append((rank, path, code, supported, (rule, values)))
            fired.add(code)
        if found.values:
            self.report_values(s, path)

    def report_values(self, s: dict[str, Any], path: str) -> None:
        """The reports that read a keyword's value: formats outside a rule's list, and
        ``minItems`` outside a rule's values."""
        plan = self.plan
        if plan.format_keep:
            value = s.get("format")
            if isinstance(value, str):
                for rule, allowed in plan.format_keep:
                    if value not in allowed:
                        self.fire(rule, path + ".format", format=value, keyword="format")
        for rule, trig in plan.min_items if "minItems" in s else ():
            if s["minItems"] not in trig["values"]:
                self.fire(rule, path + ".minItems", value=_js(s["minItems"]), keyword="minItems")

    def ref_rules(self, ref: Any, path: str) -> None:
        """Fire the ``ref`` rules of a target that keeps references: external, unresolvable or
        (when a rule asks) recursive; a resolvable reference is fine as it is."""
        status, _ = resolve_ref(self.root, ref)
        case = {"external": "external", "ok": None}.get(status, "unresolvable")
        if case is None and self.plan.recursive_ref_rules and self.recursive(ref):
            case = "recursive"
        if case:
            for rule, trig in self.plan.kept_ref_rules:
                if trig["case"] == case:
                    self.fire(rule, join_path(path, "$ref"), ref=_code(ref))

    def recursive(self, ref: Any) -> bool:
        """Whether what ``ref`` points at reaches ``ref`` again through references."""
        seen: set[str] = set()
        stack = [ref]
        while stack:
            status, found = resolve_ref(self.root, stack.pop())
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

    def ap_state(self, s: dict[str, Any]) -> str | None:
        if "additionalProperties" in s:
            ad = s["additionalProperties"]
            if ad is True:
                return "true"
            if ad is False:
                return "false"
            return "schema"
        t = s.get("type")
        if (
            t == "object"
            or (t.__class__ is list and "object" in t)
            or "properties" in s
            or "required" in s
        ):
            return "missing"
        return None

    def enum_rules(self, values: list[Any], path: str, *, drop_allowed: bool) -> bool:
        """Fire enum-values rules; True when one of them drops the enum."""
        dropped = False
        # all plain strings (the usual enum): neither case can hit, asked in C
        strings = _STRINGS.issuperset(map(type, values))
        for rule, trig in self.plan.enum_values:
            if strings:
                continue
            case = trig["case"]
            if case == "non-primitive":
                hit = any(isinstance(v, (dict, list)) for v in values)
            else:
                hit = any(not isinstance(v, str) for v in values)
            if hit:
                self.fire(rule, path + ".enum", keyword="enum")
                if drop_allowed and rule.action == "drop-keyword":
                    self.record(rule, path + ".enum", keyword="enum")
                    dropped = True
        return dropped

    def nullable_rules(self, s: dict[str, Any], path: str, out: dict[str, Any] | None) -> bool:
        """Fire nullable rules; True when the keyword is consumed (converted or dropped)."""
        value = s["nullable"]
        consumed = False
        for rule, want in self.plan.nullable_rules:
            hit = (
                want == "any"
                or (want == "true" and value is True)
                or (want == "other" and value is not True)
            )
            if not hit:
                continue
            where = path + ".nullable"  # ``join_path(path, "nullable")``
            self.fire(rule, where, keyword="nullable")
            if out is None:
                continue
            if rule.action == "nullable-to-type-union":
                consumed = True
                self.record(rule, where, keyword="nullable")
                current = out.get("type")
                if isinstance(current, str) and current != "null":
                    out["type"] = [current, "null"]
                elif isinstance(current, list) and "null" not in current:
                    out["type"] = [*current, "null"]
                if isinstance(out.get("enum"), list) and None not in out["enum"]:
                    out["enum"] = [*out["enum"], None]
            elif rule.action == "drop-annotation":
                consumed = True
                self.record(rule, where, keyword="nullable")
        return consumed
