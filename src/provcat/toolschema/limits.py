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
        for rule, _kind, most, given, threshold, counted in self.plan.limits:
            if counted is None:  # "large-enum-chars": per enum, over the enums past a threshold
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
            count = counted(tally)
            if count > most:
                self.fire(rule, "inputSchema", count=count, max=most, threshold=given)
