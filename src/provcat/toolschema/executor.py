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
    finalize_owned,
    json_nesting,
    not_compilable,
)
from provcat.toolschema.envelope import Output
from provcat.toolschema.inlining import RefInlining
from provcat.toolschema.plan import _PLANS
from provcat.toolschema.rewrite import RewriteWalk
from provcat.toolschema.tally import _UNMEASURED, _Tally
from provcat.toolschema.targets import Target
from provcat.toolschema.tool_checks import ToolChecks
from provcat.toolschema.tool_program import _PROGRAMS, program_for
from provcat.toolschema.types import CanonicalTool, CompileResult, Diagnostic, PlainTool, _new
from provcat.toolschema.values import _Bail
from provcat.toolschema.verbatim import VerbatimWalk

__all__ = ["NESTING_CODE", "Outcome", "compiled", "run"]

NESTING_CODE = "core/schema-nesting-too-deep"

# what a run finds: (diagnostic records, transformation records, output)
_Parts = tuple[list[DiagnosticRecord], list[TransformationRecord], dict[str, Any] | None]


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

    def lead_steps(
        self, lead: tuple[TransformationRecord, ...] | None
    ) -> list[TransformationRecord]:
        """The root's renaming and strict-mode steps: the target's prepared records when it has
        them, else each worded by ``root_step``."""
        if lead is not None:
            return [*lead]
        steps: list[TransformationRecord] = []
        self.root_step("rename-input-schema", steps)
        self.root_step("enable-strict", steps)
        return steps

    def execute(self, *, one_walk: bool) -> Outcome:
        """Check and compile the tool. ``one_walk``: measure while walking (may raise ``_Bail``);
        otherwise check the nesting first and inline references before the walk."""
        return Outcome(*self.outcome(one_walk))

    def outcome(self, one_walk: bool) -> _Parts:
        """What :meth:`execute` finds, as (diagnostics, transformations, output)."""
        plan = self.plan
        program = self.program
        rewrites = plan.rewrites
        if not one_walk:
            if self.too_deep(
                self.root,
                f"The input schema nests more than {MAX_NESTING} levels deep; "
                "no target accepts it and provcat does not walk it.",
            ):
                return self.diagnostics, [], None
            if rewrites:
                self.tool_rules()
        elif rewrites:
            # only a target with limit rules reads what the walk measures
            self.tally = _Tally() if plan.measures else _UNMEASURED
        steps: list[TransformationRecord]
        omit = False
        schema: Any = None
        if not rewrites:
            if plan.reads_nodes:  # the subschemas as walked, for a check after the walk
                self.pathed = []
            schema = self.verbatim_walk(self.root, "inputSchema", 1, 1)
            self.tool_rules()
            steps = self.lead_steps(program.lead)
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
                    return self.diagnostics, self.pre, None
            omit = (
                bool(plan.empty_rules)
                and isinstance(resolved, dict)
                # a root with properties is not empty (``empty_schema``'s first question)
                and not ((props := resolved.get("properties")).__class__ is dict and props)
                and self.empty_schema(resolved)
            )
            if not omit:
                # the root by its shape's function when the walk writes them, as ``node``
                # would call it (it measures its own depth), else by ``node``
                code = (
                    plan.codes.get(tuple(resolved))
                    if one_walk and plan.writing and resolved.__class__ is dict
                    else None
                )
                if (
                    code is None
                    or (schema := code(self, resolved, "inputSchema", None, 1, 1)) is None
                ):
                    schema = self.node(resolved, "inputSchema")
            elif one_walk:
                self.nesting(resolved, 0)  # nothing to inline in an empty schema
            if one_walk:
                self.tool_rules()
            if omit:
                steps = []
                for rule, _ in self.target.fires("empty-schema"):
                    self.record(rule, "inputSchema", into=steps)
                self.root_step("enable-strict", steps)
            else:
                if self.renamed_definitions and isinstance(schema, dict):
                    self.rewrite_refs(schema)
                steps = self.lead_steps(program.lead)
        if (
            plan.root_type_rules
            and isinstance(schema, dict)
            and not self.fired.isdisjoint(program.root_type_codes)
        ):
            schema = self.root_type_actions(schema, steps)
        tail = self.tail() if self.type_names or self.int64_values else ()
        pre, post = self.pre, self.post
        if pre or post or tail:
            if plan.inlines:
                steps = [*pre, *self.dfs, *steps, *post, *tail]
            else:
                steps = [*steps, *pre, *self.dfs, *post, *tail]
        elif plan.inlines:
            steps = self.dfs + steps
        else:
            steps += self.dfs
        return self.diagnostics, steps, self.envelope(program.envelope, schema, omit)


def run(tool: CanonicalTool | PlainTool, target: Target, *, keep_resolved: bool = True) -> Outcome:
    """Check and compile ``tool`` for ``target``: in one walk when the plan allows, else in
    full. ``keep_resolved``: record the errors compiling resolves too (a compile drops them,
    so it need not record them; every other record is the same)."""
    program = program_for(target)
    if program.plan.single_pass:
        try:
            return _Run(target, tool, tool.input_schema, keep_resolved, program).execute(
                one_walk=True
            )
        except _Bail:
            pass  # nested too deep, or references to inline: the full run handles it
    return _Run(target, tool, tool.input_schema, keep_resolved, program).execute(one_walk=False)


def compiled(
    tool: CanonicalTool | PlainTool, target: str | Target, allow_lossy: bool
) -> CompileResult:
    """``compile_tool`` of a tool already read: ``run(tool, target, keep_resolved=False)`` made
    into its result, without the steps between (the target looked up by its id first, the run
    started without the constructor's lookups, no :class:`Outcome` made and taken apart)."""
    program = _PROGRAMS.get(target) if target.__class__ is str else None
    if program is None or _PLANS.get(program.key) is not program.entry:
        program = program_for(target)
    plan = program.plan
    root = tool.input_schema
    if plan.single_pass:
        one = _new(_Run)
        one.target = program.target
        one.tool = tool
        one.root = root
        one.keep_resolved = False
        one.program = program
        one.plan = plan
        one.diagnostics = []
        one.dfs = []
        one.fired = set()
        try:
            diagnostics, transformations, output = one.outcome(True)
        except _Bail:  # nested too deep, or references to inline: the full run handles it
            diagnostics, transformations, output = _Run(
                program.target, tool, root, False, program
            ).outcome(False)
    else:
        diagnostics, transformations, output = _Run(
            program.target, tool, root, False, program
        ).outcome(False)
    # the run's output is its own: the result keeps it without a copy
    return finalize_owned(
        program.id, tool.name, output, transformations, diagnostics, allow_lossy, True
    )
