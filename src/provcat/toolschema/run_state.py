"""The state of one check-and-compile run, passed to every rule family, and the three ways a run
records what it found: ``fire`` (a diagnostic), ``record`` (a rule's transformation) and
``step`` (one of the target's fixed steps)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from provcat.toolschema.records import SEVERITY_RANK, DiagnosticRecord, TransformationRecord
from provcat.toolschema.rules import Rules
from provcat.toolschema.subschemas import schema_nodes
from provcat.toolschema.survey import Survey
from provcat.toolschema.targets import Rule
from provcat.toolschema.types import CanonicalTool
from provcat.toolschema.vocabulary import SAFE_EXTRA_RECORDS

# how many references one run may write out in all
INLINE_BUDGET = 10_000


@dataclass(slots=True)
class Run:
    """One run of one tool for one target: what it found so far and the counts its closing
    steps report. ``changes`` holds the walk's transformations; ``before`` the ones made before
    the walk (``$ref`` inlining) and ``after`` the ones made after it (renamed references)."""

    rules: Rules
    tool: CanonicalTool
    root: dict[str, Any]
    survey: Survey  # what the canonical schema holds, whatever the target
    diagnostics: list[DiagnosticRecord] = field(default_factory=list)
    changes: list[TransformationRecord] = field(default_factory=list)
    before: list[TransformationRecord] = field(default_factory=list)
    after: list[TransformationRecord] = field(default_factory=list)
    fired: set[str] = field(default_factory=set)
    type_names: int = 0  # type names written in upper case
    int64_values: int = 0  # int64 keywords written as strings ...
    int64_seen: set[str] = field(default_factory=set)  # ... and which keywords they were
    rename_rule: Rule | None = None  # the rule that renamed the root's ``definitions``
    inline_budget: int = INLINE_BUDGET  # references ``$ref`` inlining may still replace
    walked: list[tuple[dict[str, Any], str, int]] | None = None  # ``nodes()``, once walked

    def nodes(self) -> list[tuple[dict[str, Any], str, int]]:
        """Every subschema of the canonical schema with its path and depth
        (:func:`~provcat.toolschema.subschemas.schema_nodes`), walked once per run for all the rules
        that read them."""
        if self.walked is None:
            self.walked = schema_nodes(self.root)
        return self.walked

    def fire(self, rule: Rule, path: str, **values: Any) -> None:
        """Record that ``rule`` fired at ``path`` (its wording filled from ``values`` later)."""
        supported = rule.action != "unsupported"
        self.diagnostics.append(
            (SEVERITY_RANK[rule.severity], path, rule.code, supported, (rule, values))
        )
        self.fired.add(rule.code)

    def record(
        self,
        rule: Rule,
        path: str,
        into: list[TransformationRecord] | None = None,
        which: str = "transformation",
        **values: Any,
    ) -> None:
        """Record the change ``rule`` made at ``path``: its transformation, or one of its
        ``extra`` ones (``which``), when it declares it."""
        if which == "transformation":
            spec = rule.transformation
            lossy = rule.lossy
        else:
            spec = rule.extra.get(which)
            lossy = which not in SAFE_EXTRA_RECORDS
        if spec is not None:
            (self.changes if into is None else into).append(
                (spec["code"], path, lossy, (spec["detail"], values))
            )

    def step(
        self, name: str, path: str, into: list[TransformationRecord] | None = None, **values: Any
    ) -> bool:
        """Record the target's step ``name`` at ``path``; False when the target has no such step."""
        spec = self.rules.target.steps.get(name)
        if spec is None:
            return False
        (self.changes if into is None else into).append(
            (spec["code"], path, False, (spec["detail"], values))
        )
        return True
