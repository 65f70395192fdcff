"""The one executor: ``run(tool, target)`` checks and compiles a tool in one run.

The diagnostics, the compiled output and the transformation records come from the same walk, so
``check`` and ``compile`` can never disagree. Every vendor fact (which keyword, which limit, which
wording) comes from the target record; the parts of a run live in their own modules (the plan,
the tool-level checks and limits, the per-subschema reports, ``$ref`` inlining, the rewrite and
verbatim walks, the envelope) and meet here.

A run takes one walk when the target's plan allows it: the nesting check and the limit measures
ride along with the walk. Input that walk cannot take (nested past ``MAX_NESTING``, or references
to inline first) raises ``_Bail`` and the same executor runs again in full: the nesting checked
up front, references inlined, then the walk.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from provcat.toolschema.core import (
    MAX_NESTING,
    DiagnosticRecord,
    TransformationRecord,
    diagnostic_record,
    json_nesting,
    not_compilable,
)
from provcat.toolschema.envelope import Output
from provcat.toolschema.inlining import RefInlining
from provcat.toolschema.plan import plan_for
from provcat.toolschema.rewrite import RewriteWalk
from provcat.toolschema.tally import _Tally
from provcat.toolschema.targets import Target
from provcat.toolschema.tool_checks import ToolChecks
from provcat.toolschema.types import CanonicalTool, Diagnostic, PlainTool
from provcat.toolschema.values import _Bail
from provcat.toolschema.verbatim import VerbatimWalk

__all__ = ["NESTING_CODE", "Outcome", "run"]

NESTING_CODE = "core/schema-nesting-too-deep"


@dataclass(slots=True)
class Outcome:
    """What one run found: diagnostic records (unsorted), transformation records in order, the
    output. ``core.materialize_diagnostics`` and ``core.finalize_records`` turn them into the
    contract's types."""

    diagnostics: list[DiagnosticRecord]
    transformations: list[TransformationRecord]
    output: dict[str, Any] | None


class _Run(ToolChecks, RefInlining, RewriteWalk, VerbatimWalk, Output):
    """Every part of a run, over one shared state."""

    def too_deep(self, schema: Any, message: str) -> bool:
        """Refuse (with ``NESTING_CODE``) a schema nested past ``MAX_NESTING``."""
        if json_nesting(schema) <= MAX_NESTING:
            return False
        self.diagnostics.append(
            diagnostic_record(
                Diagnostic(
                    provider_id=self.target.id,
                    tool_name=self.tool.name,
                    severity="error",
                    code=NESTING_CODE,
                    message=message,
                    path="inputSchema",
                    compile=not_compilable("Refused: flatten the schema."),
                    docs_url=None,
                )
            )
        )
        return True

    def execute(self, *, one_walk: bool) -> Outcome:
        """Check and compile the tool. ``one_walk``: measure while walking (may raise ``_Bail``);
        otherwise check the nesting first and inline references before the walk."""
        rewrites = self.plan.rewrites
        if not one_walk:
            if self.too_deep(
                self.root,
                f"The input schema nests more than {MAX_NESTING} levels deep; "
                "no target accepts it and provcat does not walk it.",
            ):
                return Outcome(self.diagnostics, [], None)
            if rewrites:
                self.tool_rules()
        elif rewrites:
            self.tally = _Tally()
        steps: list[TransformationRecord] = []
        omit = False
        schema: Any = None
        plan = self.plan
        # the root steps recorded without values, worded once per target (``root_step``)
        root_steps = plan.root_steps
        if not rewrites:
            # the subschemas as walked, when a check reads them after the walk
            self.pathed = [] if plan.reads_nodes else None
            schema = self.verbatim_walk(self.root, "inputSchema", 1, 1)
            self.tool_rules()
            self.root_step("rename-input-schema", steps)
        else:
            resolved: Any = self.root
            if not one_walk and plan.inlines:
                self.pre, self.drops = [], []
                resolved = self.inline(self.root, "inputSchema", ())
                for where in self.drops:
                    keyword = where.rsplit(".", 1)[-1]
                    self.step("drop-inlined-definitions", where, self.pre, keyword=keyword)
                if self.too_deep(
                    resolved,
                    "With its references inlined the input schema nests more "
                    f"than {MAX_NESTING} levels deep.",
                ):
                    return Outcome(self.diagnostics, self.pre, None)
            omit = (
                bool(plan.empty_rules)
                and isinstance(resolved, dict)
                and self.empty_schema(resolved)
            )
            if not omit:
                schema = self.node(resolved, "inputSchema")
            elif one_walk:
                self.nesting(resolved, 0)  # nothing to inline in an empty schema
            if one_walk:
                self.tool_rules()
            if omit:
                for rule, _ in self.target.fires("empty-schema"):
                    self.record(rule, "inputSchema", into=steps)
            else:
                if self.renamed_definitions and isinstance(schema, dict):
                    self.rewrite_refs(schema)
                record = root_steps.get("rename-input-schema")
                if record is not None:
                    steps.append(record)
                else:
                    self.root_step("rename-input-schema", steps)
        record = root_steps.get("enable-strict")
        if record is not None:
            steps.append(record)
        else:
            self.root_step("enable-strict", steps)
        if plan.root_type_rules and isinstance(schema, dict):
            schema = self.root_type_actions(schema, steps)
        tail = self.tail() if self.type_names or self.int64_values else ()
        if plan.inlines:
            ordered = [*self.pre, *self.dfs, *steps, *self.post, *tail]
        else:
            ordered = [*steps, *self.pre, *self.dfs, *self.post, *tail]
        return Outcome(self.diagnostics, ordered, self.envelope(plan.recipe, schema, omit))


def run(tool: CanonicalTool | PlainTool, target: Target, *, keep_resolved: bool = True) -> Outcome:
    """Check and compile ``tool`` for ``target``: in one walk when the plan allows, else in
    full. ``keep_resolved``: record the errors compiling resolves too (a compile drops them,
    so it need not record them; every other record is the same)."""
    plan = plan_for(target)
    if plan.single_pass:
        try:
            return _Run(target, tool, tool.input_schema, keep_resolved, plan).execute(one_walk=True)
        except _Bail:
            pass  # nested too deep, or references to inline: the full run handles it
    return _Run(target, tool, tool.input_schema, keep_resolved=keep_resolved, plan=plan).execute(
        one_walk=False
    )
