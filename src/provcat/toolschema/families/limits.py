"""Limits: how deep the input nests (every target), and the sizes a target's ``limit`` rules
bound (properties, depth, enum values, characters of names and values, optional properties,
unions)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from provcat.toolschema.core import (
    LIST_SLOTS,
    MAP_SLOTS,
    MAX_NESTING,
    SINGLE_SLOTS,
    join_path,
    json_nesting,
    not_compilable,
)
from provcat.toolschema.run_state import Run
from provcat.toolschema.types import Diagnostic

NESTING_CODE = "core/schema-nesting-too-deep"

# the count each limit measure reads (any other measure: characters)
_COUNTED = {
    "property-count": "properties",
    "depth": "depth",
    "enum-value-count": "values",
    "optional-property-count": "optional",
    "union-property-count": "unions",
}


def too_deep(run: Run, schema: Any, message: str, *, canonical: bool = False) -> bool:
    """Refuse (with ``NESTING_CODE``) a schema nested past ``MAX_NESTING``: no target accepts
    it, and the walk never recurses that deep. For the ``canonical`` schema of a target with
    ``limit`` rules, the same pass counts what those rules read (kept in ``run.measures``)."""
    if canonical and run.rules.fires("limit"):
        nesting, run.measures = measure(schema)
    else:
        nesting = json_nesting(schema)
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


_SLOTS = {
    **dict.fromkeys(MAP_SLOTS, "map"),
    **dict.fromkeys(LIST_SLOTS, "list"),
    **dict.fromkeys(SINGLE_SLOTS, "single"),
}


def measure(root: dict[str, Any]) -> tuple[int, dict[str, int]]:
    """How deeply ``root`` nests as JSON (:func:`json_nesting`, which stops past
    ``MAX_NESTING``), and what the limit rules read of it: properties, depth (the root is 1),
    enum values, the largest enum, the characters of property and definition names, string
    enum values and string consts, the properties their object's ``required`` leaves out, and
    the unions (:func:`_is_union`). One pass over the subschemas; a value that is no subschema
    adds its own nesting."""
    properties = depth = values = largest_enum = chars = nesting = optional = unions = 0
    stack: list[tuple[dict[str, Any], int, int]] = [(root, 1, 1)]  # (subschema, depth, nesting)
    while stack:
        s, at, json_at = stack.pop()
        if at > depth:
            depth = at
        if json_at > nesting:
            nesting = json_at
            if nesting > MAX_NESTING:
                break
        props = s.get("properties")
        if isinstance(props, dict) and props:
            required = s.get("required")
            listed = (
                {r for r in required if isinstance(r, str)} if isinstance(required, list) else set()
            )
            optional += sum(1 for name in props if name not in listed)
        if _is_union(s):
            unions += 1
        for key, value in s.items():
            slot = _SLOTS.get(key)
            if slot == "single" and isinstance(value, dict):
                stack.append((value, at + 1, json_at + 1))
                continue
            if (slot == "map" and isinstance(value, dict)) or (
                slot == "list" and isinstance(value, list)
            ):
                if json_at + 1 > nesting:
                    nesting = json_at + 1
                children: Iterable[Any] = value
                if isinstance(value, dict):
                    chars += sum(map(len, value))
                    if key == "properties":
                        properties += len(value)
                    children = value.values()
                for child in children:
                    if isinstance(child, dict):
                        stack.append((child, at + 1, json_at + 2))
                    elif isinstance(child, list):
                        nesting = max(nesting, json_at + 1 + json_nesting(child))
                continue
            if isinstance(value, (dict, list)):
                nesting = max(nesting, json_at + json_nesting(value))
                if key == "enum" and isinstance(value, list):
                    values += len(value)
                    if len(value) > largest_enum:
                        largest_enum = len(value)
                    chars += sum(len(v) for v in value if isinstance(v, str))
            elif key == "const" and isinstance(value, str):
                chars += len(value)
    return nesting, {
        "properties": properties,
        "depth": depth,
        "values": values,
        "largest_enum": largest_enum,
        "chars": chars,
        "optional": optional,
        "unions": unions,
    }


def _is_union(s: dict[str, Any]) -> bool:
    """Whether subschema ``s`` is a union: `anyOf` or `oneOf` branches, a `type` list of two or
    more names, or `nullable: true` (which the strict targets write as a type list)."""
    if isinstance(s.get("anyOf"), list) or isinstance(s.get("oneOf"), list):
        return True
    types = s.get("type")
    if isinstance(types, list) and len({t for t in types if isinstance(t, str)}) > 1:
        return True
    return s.get("nullable") is True


def limit_rules(run: Run) -> None:
    """Fire every ``limit`` rule whose measure the canonical schema exceeds."""
    pairs = run.rules.fires("limit")
    if not pairs:
        return
    counts = run.measures if run.measures is not None else measure(run.root)[1]
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
