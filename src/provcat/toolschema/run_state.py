"""The state every part of a run shares, and the three ways a run records what it found."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import (
    DiagnosticRecord,
    TransformationRecord,
    schema_nodes,
    schemas_with_depth,
)
from provcat.toolschema.plan import (
    _RANK,
    _Plan,
)
from provcat.toolschema.tally import _Tally
from provcat.toolschema.targets import Rule, Target
from provcat.toolschema.tool_program import ToolProgram, program_for
from provcat.toolschema.types import CanonicalTool, PlainTool

_INLINE_BUDGET = 10_000
# what a run's unfilled record lists read as until a part makes its own (never appended to)
_NONE: Any = ()


class RunState:
    """One check-and-compile run of one tool for one target: the records it gathers and the
    per-run memos. Records are made by ``fire``, ``record`` and ``step``, and on the hot paths
    (per-node reports, closing strict objects, the root steps) from the plan's prepared heads;
    ``finalize_records`` decides what survives (a resolved error a hot path recorded although
    ``keep_resolved`` is off is dropped there).

    The lists and sets are made per run; the counters, flags and memos start as the class's
    values below and become the run's own when first set (most runs never set most of them)."""

    type_names: int = 0
    int64_values: int = 0
    renamed_definitions: bool = False
    rename_rule: Rule | None = None
    unresolved: bool = False
    inline_budget: int = _INLINE_BUDGET
    lean: list[tuple[dict[str, Any], int]] | None = None
    pathed: list[tuple[dict[str, Any], str, int]] | None = None
    tally: _Tally | None = None  # set by the one-walk run, which measures as it walks
    # made by the parts that fill them (``$ref`` inlining, int64 strings, renamed references):
    # most runs never do, and read them empty
    pre: list[TransformationRecord] = _NONE
    post: list[TransformationRecord] = _NONE
    drops: list[str] = _NONE
    int64_seen: frozenset[str] | set[str] = frozenset()

    def __init__(
        self,
        target: Target,
        tool: CanonicalTool | PlainTool,
        root: dict[str, Any],
        keep_resolved: bool = True,
        program: ToolProgram | None = None,
    ) -> None:
        # ``program``: the target's, when the caller looked it up already
        program = program_for(target) if program is None else program
        self.target = target
        self.tool = tool
        self.root = root
        # whether errors the compile resolves (severity error, compile supported) are recorded:
        # ``check`` reports them, ``compile_tool`` drops them (their transformations stand for
        # them)
        self.keep_resolved = keep_resolved
        self.program = program
        self.plan: _Plan = program.plan
        self.diagnostics: list[DiagnosticRecord] = []
        self.dfs: list[TransformationRecord] = []
        self.fired: set[str] = set()

    def fire(self, rule: Rule, path: str, **values: Any) -> None:
        rank, supported = _RANK[rule.severity], rule.action != "unsupported"
        if rank or not supported or self.keep_resolved:
            self.diagnostics.append((rank, path, rule.code, supported, (rule, values)))
        self.fired.add(rule.code)

    def record(
        self,
        rule: Rule,
        path: str,
        into: list[TransformationRecord] | None = None,
        which: str = "transformation",
        **values: Any,
    ) -> None:
        if which == "transformation":
            spec = rule.transformation
            lossy = rule.lossy
        else:
            spec = rule.extra.get(which)
            lossy = which != "reference"
        if spec is None:
            return
        (self.dfs if into is None else into).append(
            (spec["code"], path, lossy, (spec["detail"], values))
        )

    def step(self, name: str, path: str, into: list[TransformationRecord], **values: Any) -> bool:
        spec = self.target.steps.get(name)
        if spec is None:
            return False
        into.append((spec["code"], path, False, (spec["detail"], values)))
        return True

    def root_step(self, name: str, into: list[TransformationRecord]) -> bool:
        """``step(name, "inputSchema", into)`` for a step recorded without values: its record,
        worded once per target, shared by every run."""
        record = self.plan.root_steps.get(name)
        if record is None:
            return self.step(name, "inputSchema", into)
        into.append(record)
        return True

    def lean_nodes(self) -> list[tuple[dict[str, Any], int]]:
        """The canonical root's subschemas with their depths (computed once per run)."""
        if self.lean is None:
            if self.pathed is not None:
                self.lean = [(s, d) for s, _, d in self.pathed]
            else:
                self.lean = schemas_with_depth(self.root)
        return self.lean

    def pathed_nodes(self) -> list[tuple[dict[str, Any], str, int]]:
        """The canonical root's subschemas with paths and depths (computed once per run)."""
        if self.pathed is None:
            self.pathed = schema_nodes(self.root)
        return self.pathed
