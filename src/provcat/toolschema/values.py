"""JSON values as the compiler handles them: copied, compared and shown in messages."""

from __future__ import annotations

import json
from typing import Any


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
