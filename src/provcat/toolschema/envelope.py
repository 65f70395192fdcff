"""The output envelope: the compiled schema placed in the target's tool shape."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import (
    TransformationRecord,
)
from provcat.toolschema.run_state import RunState
from provcat.toolschema.tool_program import Envelope
from provcat.toolschema.values import (
    _clone,
    _js,
)

# the keywords an empty schema may hold (anything else makes it a schema to walk)
_EMPTY_KEYS = frozenset(
    {"type", "title", "description", "properties", "required", "propertyOrdering"}
)


class Output(RunState):
    """The compiled tool around the schema: root type fixes, the empty-schema case, the run's
    closing steps and the target's envelope."""

    def root_type_actions(
        self, schema: dict[str, Any], into: list[TransformationRecord]
    ) -> dict[str, Any]:
        for rule, _case in self.plan.root_type_rules:
            if rule.code not in self.fired:
                continue
            where = "inputSchema.type"
            shown = _js(self.root.get("type")) if "type" in self.root else "`undefined`"
            if rule.action == "add-type-object":
                schema = {"type": "object", **{k: v for k, v in schema.items() if k != "type"}}
                self.record(rule, where, into=into, type=shown)
            elif rule.action in ("normalize-type-object", "narrow-type-object"):
                schema = {k: ("object" if k == "type" else v) for k, v in schema.items()}
                self.record(rule, where, into=into, type=shown)
        return schema

    def empty_schema(self, resolved: dict[str, Any]) -> bool:
        if not self.plan.empty_rules:
            return False
        props, req = resolved.get("properties"), resolved.get("required")
        if (isinstance(props, dict) and props) or (isinstance(req, list) and req):
            return False
        if not _EMPTY_KEYS.issuperset(resolved):
            return False
        for rule, _ in self.target.fires("empty-schema"):
            self.fire(rule, "inputSchema")
        return True

    def tail(self) -> list[TransformationRecord]:
        """The steps recorded once per run after the walk (type case, int64 strings): what
        ``step`` records for each, from the plan's step heads."""
        tail: list[TransformationRecord] = []
        heads = self.plan.step_heads
        if self.type_names and (head := heads.get("uppercase-types")) is not None:
            tail.append((head[0], "inputSchema", False, (head[1], {"count": self.type_names})))
        if self.int64_values and (head := heads.get("int64-as-string")) is not None:
            seen = self.int64_seen
            if len(seen) == 1:  # the usual case: that keyword's name as code
                keywords = f"`{next(iter(seen))}`"
            else:
                keywords = ", ".join([quoted for k, quoted in self.plan.int64_shown if k in seen])
            values = {"count": self.int64_values, "keywords": keywords}
            tail.append((head[0], "inputSchema", False, (head[1], values)))
        return tail

    def envelope(self, template: Envelope, schema: Any, omit_schema: bool) -> dict[str, Any]:
        """The target's output envelope with the tool's name, description and schema in it."""
        out = template.placed.copy()  # every key in its place; a key left out is deleted in place
        tool = self.tool
        if not template.single:
            desc = tool.description
            show = desc is not None and (template.describe_empty or bool(desc))
            return self.filled(out, template.filled, schema, omit_schema, show)
        key = template.name
        if key is not None:
            out[key] = tool.name
        key = template.description
        if key is not None:
            desc = tool.description
            if desc is not None and (template.describe_empty or desc):
                out[key] = desc
            else:
                del out[key]
        key = template.schema
        if key is not None:
            if not omit_schema:
                out[key] = schema
            else:
                del out[key]
        if template.nested:
            for key, nested in template.nested:
                out[key] = self.envelope(nested, schema, omit_schema)
        return out

    def filled(
        self,
        out: dict[str, Any],
        filled: tuple[tuple[str, str, Any], ...],
        schema: Any,
        omit_schema: bool,
        show: bool,
    ) -> dict[str, Any]:
        """``out`` (an envelope's keys in place) filled from its recipe, key by key."""
        for key, kind, value in filled:
            if kind == "$name":
                out[key] = self.tool.name
            elif kind == "$description":
                if show:
                    out[key] = self.tool.description
                else:
                    del out[key]
            elif kind == "$schema":
                if not omit_schema:
                    out[key] = schema
                else:
                    del out[key]
            elif kind == "nested":
                out[key] = self.filled(value[0].copy(), value[1], schema, omit_schema, show)
            else:
                out[key] = _clone(value)
        return out
