"""Per target, what a run does once per tool besides the walk, worked out once: the quick tests
that tell a tool no rule of a tool-level group fires on it, the root steps recorded without
values, and the output envelope as a template.

A quick test is only ever a condition every rule of its group needs to fire, so a tool that
passes it skips the group's loop and nothing changes: a tool that fails it takes the loop as
before. ``program_for`` finds a target's program by the id it was asked for (or the ``Target``
itself) and makes it again whenever the target's plan was made again (``clear_caches``).
"""

from __future__ import annotations

import sys
from typing import Any

from provcat.toolschema.core import TransformationRecord
from provcat.toolschema.plan import _PLANS, _TALLIED, _Plan, _Recipe, plan_for
from provcat.toolschema.targets import Target, get_target

__all__ = ["Envelope", "ToolProgram", "program_for"]


class Envelope:
    """An output envelope (``_Plan.recipe``) as a template: its keys in order with the literal
    scalars in place (``placed``), and the key the name, description and schema go to when the
    envelope has one of each, at most (``single``); any other envelope is filled from its recipe
    (``filled``). ``nested``: (key, envelope) per nested object."""

    __slots__ = (
        "describe_empty",
        "description",
        "filled",
        "name",
        "nested",
        "placed",
        "schema",
        "single",
    )

    def __init__(self, recipe: _Recipe, describe_empty: bool) -> None:
        placed, filled = recipe
        # whether an empty description is written (``output.description: when-defined``)
        self.describe_empty = describe_empty
        self.placed = placed
        self.filled = filled
        kinds = [kind for _, kind, _ in filled]
        self.single = all(kinds.count(k) <= 1 for k in ("$name", "$description", "$schema")) and (
            "value" not in kinds
        )
        keys = {kind: key for key, kind, _ in filled}
        self.name: str | None = keys.get("$name")
        self.description: str | None = keys.get("$description")
        self.schema: str | None = keys.get("$schema")
        self.nested = tuple(
            (key, Envelope(value, describe_empty))
            for key, kind, value in filled
            if kind == "nested"
        )


class ToolProgram:
    """One target's per-tool work apart from the walk, prepared from its plan (``plan``)."""

    __slots__ = (
        "blank_counts",
        "described",
        "entry",
        "envelope",
        "header_keywords",
        "id",
        "key",
        "lead",
        "most_chars",
        "most_depth",
        "most_largest_enum",
        "most_properties",
        "most_values",
        "name_hi",
        "name_lo",
        "name_regexes",
        "named",
        "passing_names",
        "plan",
        "root_keywords",
        "root_type_codes",
        "strict",
        "target",
    )

    def __init__(self, target: Target, plan: _Plan, entry: Any) -> None:
        self.target = target
        self.plan = plan
        # the plan's cache entry: the program stands while the plan cache holds this entry
        self.entry = entry
        self.key = id(target)  # the plan cache's key
        self.id = target.id
        # tool-name rules: a name no rule fires on matches every pattern and is within every
        # length bound (``skip_if`` only ever leaves a rule out)
        self.named = bool(plan.name_rules)
        self.name_regexes = tuple(rx for _, _, rx, _, _, _ in plan.name_rules if rx is not None)
        self.name_lo: int = max(
            (lo for _, _, _, lo, _, _ in plan.name_rules if lo is not None), default=0
        )
        self.name_hi: int = min(
            (hi for _, _, _, _, hi, _ in plan.name_rules if hi is not None), default=sys.maxsize
        )
        # missing-description rules: a description with text (non-blank when a rule counts
        # blank as missing) fires none
        self.described = bool(plan.description_rules)
        self.blank_counts = any(blank for _, blank in plan.description_rules)
        # root-keyword rules: a root holding none of their keywords fires none
        self.root_keywords = frozenset(keyword for _, keyword, _ in plan.root_keyword_rules)
        # limit rules: each fires only past its bound (a count past its maximum; an enum's
        # characters only in an enum past the threshold), the lowest bound per count
        bounds = dict.fromkeys(_TALLY_COUNTS, sys.maxsize)
        for _, measure, most, _, threshold, counted in plan.limits:
            count = "largest_enum" if counted is None else _TALLIED.get(measure, "chars")
            bounds[count] = min(bounds[count], threshold if counted is None else most)
        self.most_properties = bounds["properties"]
        self.most_depth = bounds["depth"]
        self.most_values = bounds["values"]
        self.most_largest_enum = bounds["largest_enum"]
        self.most_chars = bounds["chars"]
        # top-level property names no top-level-property-name rule fires on, as met (bounded)
        self.passing_names: set[str] = set()
        # the keywords the header-keyword rules look for
        self.header_keywords = frozenset(trig["keyword"] for _, trig in plan.header_rules)
        # the root-type rules, whose actions apply only where one fired
        self.root_type_codes = frozenset(rule.code for rule, _ in plan.root_type_rules)
        # the root steps taken without values (rename, then strict), when each is worded once per
        # target (``_Plan.root_steps``); None: one of them is recorded per run (``root_step``)
        self.lead = self._steps(("rename-input-schema", "enable-strict"))
        self.strict = self._steps(("enable-strict",))
        self.envelope = Envelope(plan.recipe, plan.describe_empty)

    def _steps(self, names: tuple[str, ...]) -> tuple[TransformationRecord, ...] | None:
        steps = self.target.steps
        found = [self.plan.root_steps.get(name) for name in names if name in steps]
        if None in found:
            return None
        return tuple(record for record in found if record is not None)


# what a ``_Tally`` counts
_TALLY_COUNTS = ("properties", "depth", "values", "largest_enum", "chars")
_PROGRAMS: dict[Any, ToolProgram] = {}


def program_for(target: str | Target) -> ToolProgram:
    """The program of ``target`` (an id or a :class:`Target`), made on first use and again
    whenever its plan is (``plan_for``)."""
    program = _PROGRAMS.get(target if target.__class__ is str else id(target))
    if (
        program is not None
        and _PLANS.get(program.key) is program.entry
        and (target.__class__ is str or program.target is target)
    ):
        return program
    resolved = get_target(target)
    plan = plan_for(resolved)
    program = ToolProgram(resolved, plan, _PLANS[id(resolved)])
    _PROGRAMS[target if target.__class__ is str else id(target)] = program
    return program
