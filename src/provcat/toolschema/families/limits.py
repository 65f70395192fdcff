"""Limits: how deep the input nests (every target), and the sizes a target's ``limit`` rules
bound (properties, depth, enum values, characters of names and values)."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import (
    MAX_NESTING,
    join_path,
    json_nesting,
    not_compilable,
    schema_nodes,
    subschemas,
)
from provcat.toolschema.run_state import Run
from provcat.toolschema.types import Diagnostic

NESTING_CODE = "core/schema-nesting-too-deep"

# the count each limit measure reads (any other measure: characters)
_COUNTED = {"property-count": "properties", "depth": "depth", "enum-value-count": "values"}


def too_deep(run: Run, schema: Any, message: str) -> bool:
    """Refuse (with ``NESTING_CODE``) a schema nested past ``MAX_NESTING``: no target accepts
    it, and the walk never recurses that deep."""
    if json_nesting(schema) <= MAX_NESTING:
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


def _measure(root: dict[str, Any]) -> dict[str, int]:
    """What the limit rules read of the canonical schema: properties, depth (the root is 1),
    enum values, the largest enum, and the characters of property and definition names, string
    enum values and string consts."""
    properties = depth = values = largest_enum = chars = 0
    for s, at in subschemas(root):
        if at > depth:
            depth = at
        props = s.get("properties")
        if isinstance(props, dict):
            chars += sum(map(len, props))
            properties += len(props)
        for slot in ("$defs", "definitions"):
            entries = s.get(slot)
            if isinstance(entries, dict):
                chars += sum(map(len, entries))
        enum = s.get("enum")
        if isinstance(enum, list):
            values += len(enum)
            largest_enum = max(largest_enum, len(enum))
            chars += sum(len(v) for v in enum if isinstance(v, str))
        const = s.get("const")
        if isinstance(const, str):
            chars += len(const)
    return {
        "properties": properties,
        "depth": depth,
        "values": values,
        "largest_enum": largest_enum,
        "chars": chars,
    }


def limit_rules(run: Run) -> None:
    """Fire every ``limit`` rule whose measure the canonical schema exceeds."""
    pairs = run.rules.fires("limit")
    if not pairs:
        return
    counts = _measure(run.root)
    for rule, trig in pairs:
        measure, most = trig["measure"], trig["max"]
        if measure == "large-enum-chars":  # per enum, over the enums past a threshold
            threshold = trig.get("threshold", 0)
            if counts["largest_enum"] <= threshold:
                continue
            for s, path, _ in schema_nodes(run.root):
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
        count = counts[_COUNTED.get(measure, "chars")]
        if count > most:
            run.fire(rule, "inputSchema", count=count, max=most, threshold=trig.get("threshold"))
