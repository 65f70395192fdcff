"""Header keywords checked against where they sit and what they may carry: a header annotation
must be reachable from the root through a chain of ``properties`` alone (a client finds it there;
one under ``items``, ``anyOf`` or ``$defs`` makes a conforming client drop the tool), and an
integer header's values must lie within the safe integer range of an IEEE 754 double,
±(2^53 - 1), which the transport can carry exactly."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from provcat.toolschema.paths import path_segment
from provcat.toolschema.run_state import Run
from provcat.toolschema.subschemas import schema_types
from provcat.toolschema.values import shown

__all__ = ["HEADER_CHECKS", "SAFE_INTEGER"]

SAFE_INTEGER = 2**53 - 1


def _by_properties(root: Any) -> set[str]:
    """The paths of the subschemas reachable from ``root`` through ``properties`` alone (paths,
    not objects: one dict used at two places is reachable at one of them only)."""
    found: set[str] = set()
    stack = [(root, "inputSchema")]
    while stack:
        node, path = stack.pop()
        if not isinstance(node, dict):  # (a schema nested past MAX_NESTING never gets here)
            continue
        found.add(path)
        props = node.get("properties")
        if isinstance(props, dict):
            base = path + ".properties"
            stack.extend((child, base + path_segment(name)) for name, child in props.items())
    return found


Check = Callable[[Run, Any, Mapping[str, Any], dict[str, Any], str, Any, dict[str, Any]], None]


def reachable(
    run: Run,
    rule: Any,
    trig: Mapping[str, Any],
    s: dict[str, Any],
    path: str,
    value: Any,
    context: dict[str, Any],
) -> None:
    """Fire when the annotated subschema is not on a chain of ``properties`` from the root
    (``context`` keeps the reachable set for the rest of this tool's header checks)."""
    reach = context.get("reach")
    if reach is None:
        reach = context["reach"] = _by_properties(run.root)
    keyword = trig["keyword"]
    if path[: len(path) - len(path_segment(keyword))] not in reach:
        run.fire(rule, path, keyword=keyword, value=shown(value))


def _integer_values(s: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    for name in ("default", "const", "minimum", "maximum"):
        if name in s:
            yield name, s[name]
    for name in ("enum", "examples"):
        if isinstance(s.get(name), list):
            for item in s[name]:
                yield name, item


def integer_range(
    run: Run,
    rule: Any,
    trig: Mapping[str, Any],
    s: dict[str, Any],
    path: str,
    value: Any,
    context: dict[str, Any],
) -> None:
    """Fire for each value of an integer header schema outside ±(2^53 - 1)."""
    if schema_types(s) != ["integer"]:
        return
    for name, item in _integer_values(s):
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            continue
        if abs(item) > SAFE_INTEGER:
            run.fire(rule, path, keyword=trig["keyword"], value=shown(item), type=name)


HEADER_CHECKS: dict[str, Check] = {
    "reachable": reachable,
    "integer-range": integer_range,
}
