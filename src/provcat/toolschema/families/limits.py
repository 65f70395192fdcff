"""Limits: how deep the input nests (every target), and the sizes a target's ``limit`` rules
bound (properties, depth, enum values, characters of names and values, optional properties,
unions), as the tool's survey (:mod:`provcat.toolschema.survey`) counted them."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.paths import join_path
from provcat.toolschema.policy import not_compilable
from provcat.toolschema.run_state import Run
from provcat.toolschema.types import Diagnostic
from provcat.toolschema.values import MAX_NESTING, json_nesting

NESTING_CODE = "core/schema-nesting-too-deep"

# the count each limit measure reads (any other measure: characters)
_COUNTED = {
    "property-count": "properties",
    "depth": "depth",
    "enum-value-count": "values",
    "optional-property-count": "optional",
    "union-property-count": "unions",
}


def too_deep(run: Run, message: str, schema: Any = None) -> bool:
    """Refuse (with ``NESTING_CODE``) a schema nested past ``MAX_NESTING``: no target accepts
    it, and the walk never recurses that deep. ``schema``: another than the canonical one (whose
    nesting the run's survey holds)."""
    nesting = run.survey.nesting if schema is None else json_nesting(schema)
    if nesting <= MAX_NESTING:
        return False
    refused = Diagnostic(
        provider_id=run.rules.target.id,
        tool_name=run.tool.name,
        severity="error",
        code=NESTING_CODE,
        message=message,
        path="inputSchema",
        compile=not_compilable("Refused: flatten the schema."),
        docs_url=None,
    )
    run.diagnostics.append((0, "inputSchema", NESTING_CODE, False, refused))
    return True


def limit_rules(run: Run) -> None:
    """Fire every ``limit`` rule whose measure the canonical schema exceeds."""
    pairs = run.rules.fires("limit")
    if not pairs:
        return
    counts = run.survey.counts
    for rule, trig in pairs:
        kind, most = trig["measure"], trig["max"]
        if kind == "large-enum-chars":  # per enum, over the enums past a threshold
            threshold = trig.get("threshold", 0)
            if counts["largest_enum"] <= threshold:
                continue
            for s, path, _ in run.nodes():
                values = s.get("enum")
                if isinstance(values, list) and len(values) > threshold:
                    chars = sum(len(v) for v in values if isinstance(v, str))
                    if chars > most:
                        run.fire(
                            rule,
                            join_path(path, "enum"),
                            count=chars,
                            max=most,
                            threshold=threshold,
                        )
            continue
        count = counts[_COUNTED.get(kind, "chars")]
        if count > most:
            run.fire(rule, "inputSchema", count=count, max=most, threshold=trig.get("threshold"))
