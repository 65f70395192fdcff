"""The one comparison engine: a request model's field facts against an SDK's, difference by
difference, minus the deviations the model records."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from provcat.endpoints.request import SdkDeviation

from .facts import FieldFacts

__all__ = ["Difference", "compare", "split_recorded"]


@dataclass(frozen=True, order=True)
class Difference:
    """One way a request model and an SDK disagree about one field."""

    field: str
    aspect: str  # missing | extra | required | values | bounds
    ours: str
    sdk: str

    def line(self, where: str, sdk_label: str) -> str:
        return (
            f"{where} field {self.field!r} [{self.aspect}]: model says {self.ours}; "
            f"{sdk_label} says {self.sdk}"
        )


def _req(facts: FieldFacts) -> str:
    return "required" if facts.required else "optional"


def _bounds(bounds: Mapping[str, float]) -> str:
    return ", ".join(f"{k}={bounds[k]!r}" for k in sorted(bounds)) or "no bound"


def _pair(ours: Mapping[str, FieldFacts], sdk_name: str, sdk: FieldFacts) -> FieldFacts | None:
    for facts in ours.values():
        if facts.spellings & sdk.spellings:
            return facts
    return ours.get(sdk_name)


def compare(
    ours: Mapping[str, FieldFacts],
    sdk: Mapping[str, FieldFacts],
    ignore: Iterable[str] = (),
) -> list[Difference]:
    """Every difference between two sides' facts, sorted; ``ignore`` names SDK-only call options
    (timeouts, extra headers) that are not request fields."""
    skipped = set(ignore)
    diffs: list[Difference] = []
    matched: set[str] = set()
    for name in sorted(sdk):
        if name in skipped:
            continue
        theirs = sdk[name]
        mine = _pair(ours, name, theirs)
        if mine is None:
            diffs.append(Difference(name, "missing", "no such field", f"{_req(theirs)} field"))
            continue
        matched.add(mine.name)
        if mine.required != theirs.required:
            diffs.append(Difference(name, "required", _req(mine), _req(theirs)))
        if theirs.values.literals:
            missing = theirs.values.literals - mine.values.literals
            extra = mine.values.literals - theirs.values.literals
            both_closed = mine.values.closed and theirs.values.closed
            looser = theirs.values.closed and mine.values.open and not mine.values.literals
            if (mine.values.closed and missing) or (both_closed and extra) or looser:
                diffs.append(Difference(name, "values", mine.values.show(), theirs.values.show()))
        stated = {k: v for k, v in theirs.bounds.items()}
        if stated and {k: mine.bounds.get(k) for k in stated} != stated:
            diffs.append(Difference(name, "bounds", _bounds(mine.bounds), _bounds(stated)))
    for name in sorted(set(ours) - matched):
        if ours[name].spellings & skipped:
            continue
        diffs.append(Difference(name, "extra", f"{_req(ours[name])} field", "no such field"))
    return sorted(diffs)


def split_recorded(
    diffs: Iterable[Difference], sdk: str, deviations: Iterable[SdkDeviation]
) -> tuple[list[Difference], set[SdkDeviation]]:
    """The differences no deviation of ``sdk`` accounts for, and the deviations that were used."""
    recorded = {(d.field, d.aspect): d for d in deviations if d.sdk == sdk}
    unrecorded: list[Difference] = []
    used: set[SdkDeviation] = set()
    for diff in diffs:
        deviation = recorded.get((diff.field, diff.aspect))
        if deviation is None:
            unrecorded.append(diff)
        else:
            used.add(deviation)
    return unrecorded, used
