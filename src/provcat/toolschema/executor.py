"""``run(tool, target)``: check and compile one tool for one target in one run.

The diagnostics, the compiled output and the transformation records come from the same walk, so
``check`` and ``compile`` can never disagree. A run: refuse input nested too deep; the tool-level
rules; ``$ref`` inlining (targets without references); the walk (``walk.rewrite``, or
``walk.verbatim`` for targets that send the schema as written); the root's fixes and the closing
steps; the target's envelope. Every vendor fact comes from the target record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from provcat.toolschema.envelope import envelope
from provcat.toolschema.families import limits, names, objects, patterns, refs, types
from provcat.toolschema.policy import finalize_records
from provcat.toolschema.records import DiagnosticRecord, TransformationRecord
from provcat.toolschema.rules import rules_for
from provcat.toolschema.run_state import Run
from provcat.toolschema.survey import Survey, survey
from provcat.toolschema.targets import Target, get_target
from provcat.toolschema.types import CanonicalTool, CompileResult
from provcat.toolschema.values import MAX_NESTING
from provcat.toolschema.walk import rewrite, verbatim

__all__ = ["NESTING_CODE", "Outcome", "compiled", "run"]

NESTING_CODE = limits.NESTING_CODE


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one run found: diagnostic records (unsorted), transformation records in order, the
    output (None when the input was refused before the walk)."""

    diagnostics: list[DiagnosticRecord]
    transformations: list[TransformationRecord]
    output: dict[str, Any] | None


def _tool_rules(run: Run) -> None:
    """The rules that look at the tool as a whole, in a fixed order."""
    names.tool_name(run)
    names.description(run)
    objects.root_rules(run)
    limits.limit_rules(run)
    names.dialect(run)
    names.property_names(run)
    names.header_keywords(run)
    refs.all_of_refs(run)
    patterns.pattern_syntax(run)


def run(tool: CanonicalTool, target: Target, surveyed: Survey | None = None) -> Outcome:
    """Check and compile ``tool`` for ``target`` (``surveyed``: the survey of its schema, when
    worked out already)."""
    rules = rules_for(target)
    root = tool.input_schema
    state = Run(rules, tool, root, surveyed or survey(root))
    if limits.too_deep(
        state,
        f"The input schema nests more than {MAX_NESTING} levels deep; "
        "no target accepts it and provcat does not walk it.",
    ):
        return Outcome(state.diagnostics, [], None)
    lead: list[TransformationRecord] = []
    omit = False
    schema: Any = None
    if not target.rewrites:
        schema = verbatim(state)
        _tool_rules(state)
        state.step("rename-input-schema", "inputSchema", lead)
        state.step("enable-strict", "inputSchema", lead)
    else:
        _tool_rules(state)
        resolved: Any = state.root
        if rules.inlines and state.survey.refs:
            drops: list[str] = []
            resolved = refs.inline(state, state.root, "inputSchema", drops)
            for where in drops:
                keyword = where.rsplit(".", 1)[-1]
                state.step("drop-inlined-definitions", where, state.before, keyword=keyword)
            if limits.too_deep(
                state,
                "With its references inlined the input schema nests more "
                f"than {MAX_NESTING} levels deep.",
                resolved,
            ):
                return Outcome(state.diagnostics, state.before, None)
        omit = isinstance(resolved, dict) and objects.is_empty(state, resolved)
        if omit:
            for rule, _ in target.fires("empty-schema"):
                state.record(rule, "inputSchema", into=lead)
            state.step("enable-strict", "inputSchema", lead)
        else:
            schema = rewrite(state, resolved, "inputSchema")
            if isinstance(schema, dict):
                refs.rename_refs(state, schema)
            state.step("rename-input-schema", "inputSchema", lead)
            state.step("enable-strict", "inputSchema", lead)
    if isinstance(schema, dict):
        schema = objects.root_type_actions(state, schema, lead)
    tail = types.closing_steps(state)
    if rules.inlines:
        steps = [*state.before, *state.changes, *lead, *state.after, *tail]
    else:
        steps = [*lead, *state.before, *state.changes, *state.after, *tail]
    output = envelope(
        target.output["envelope"],
        tool,
        schema,
        omit_schema=omit,
        describe_empty=target.output.get("description") == "when-defined",
    )
    return Outcome(state.diagnostics, steps, output)


def compiled(
    tool: CanonicalTool,
    target: str | Target,
    allow_lossy: bool,
    surveyed: Survey | None = None,
) -> CompileResult:
    """``compile_tool`` of a validated tool: the run made into its result."""
    resolved = get_target(target)
    outcome = run(tool, resolved, surveyed)
    return finalize_records(
        provider_id=resolved.id,
        tool_name=tool.name,
        output=outcome.output,
        transformations=outcome.transformations,
        diagnostics=outcome.diagnostics,
        allow_lossy=allow_lossy,
        sort=True,
    )
