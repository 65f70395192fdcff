"""JSON values as the compiler handles them: copied, compared, measured (how deeply they nest),
shown in messages and written out as text."""

from __future__ import annotations

import json
from typing import Any

# Deepest JSON nesting (objects and arrays) a tool schema may have. Deeper input gets one clear
# diagnostic instead of a RecursionError; no provider accepts anything near it.
MAX_NESTING = 128


def shown(value: Any) -> str:
    """``value`` as JSON in backticks, cut to 80 characters (how a message quotes a value)."""
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > 80:
        text = text[:77] + "..."
    return f"`{text}`"


def code(value: Any) -> str:
    """A string in backticks as it is, anything else as :func:`shown` writes it."""
    return f"`{value}`" if isinstance(value, str) else shown(value)


SCALARS = frozenset({str, int, float, bool, type(None)})


def clone(value: Any) -> Any:
    """A deep copy of JSON data: dicts and lists (tuples become lists) rebuilt, leaves shared."""
    if isinstance(value, dict):
        return {k: v if v.__class__ in SCALARS else clone(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [v if v.__class__ in SCALARS else clone(v) for v in value]
    return value


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality, all the way down: ``true`` is not ``1`` (Python's ``==`` says it is),
    ``1`` is ``1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(v, b[k]) for k, v in a.items())
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(map(json_equal, a, b))
    return bool(a == b)


def json_nesting(value: Any, limit: int = MAX_NESTING) -> int:
    """How deeply objects and arrays nest in ``value`` (stops counting past ``limit``)."""
    if not isinstance(value, (dict, list)):
        return 0
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > deepest:
            deepest = depth
            if depth > limit:
                return depth
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
    return deepest


def stable_stringify(value: Any) -> str:
    """2-space JSON in insertion order with a trailing newline; non-ASCII kept as is."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
