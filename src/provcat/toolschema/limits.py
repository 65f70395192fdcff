"""The ``limit`` rules: sizes of the whole schema against the target's maxima."""

from __future__ import annotations

from provcat.toolschema.core import (
    join_path,
    walk_schema,
)
from provcat.toolschema.run_state import RunState
from provcat.toolschema.tally import _Tally


class LimitChecks(RunState):
    """Fires every ``limit`` rule whose measure the schema exceeds."""

    def limits(self) -> None:
        pairs = self.plan.limit_rules
        if not pairs:
            return
        tally = self.tally
        if tally is None:
            tally = _Tally()
            for s, depth in self.lean_nodes():
                tally.node(s, depth)
        for rule, kind, most, given, threshold in self.plan.limits:
            if kind == "large-enum-chars":
                if tally.largest_enum <= threshold:
                    continue
                for n in walk_schema(self.root):
                    values = n.schema.get("enum")
                    if isinstance(values, list) and len(values) > threshold:
                        chars = sum(len(v) for v in values if isinstance(v, str))
                        if chars > most:
                            self.fire(
                                rule,
                                join_path(n.path, "enum"),
                                count=chars,
                                max=most,
                                threshold=threshold,
                            )
                continue
            count = (
                tally.properties
                if kind == "property-count"
                else tally.depth
                if kind == "depth"
                else tally.values
                if kind == "enum-value-count"
                else tally.chars
            )
            if count > most:
                self.fire(rule, "inputSchema", count=count, max=most, threshold=given)
