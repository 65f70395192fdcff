"""JSON values as the compiler handles them: copied, compared and shown in messages."""

from __future__ import annotations

import json
from typing import Any


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _js(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > 80:
        text = text[:77] + "..."
    return f"`{text}`"


def _code(value: Any) -> str:
    return f"`{value}`" if isinstance(value, str) else _js(value)


_ATOMS = frozenset({str, int, float, bool, type(None)})
# the one class of an all-plain-strings list (``_STRINGS.issuperset(map(type, values))``)
_STRINGS = frozenset({str})
# the values of a step recorded without any (read-only, shared)
_NO_VALUES: dict[str, Any] = {}


class _Bail(Exception):
    """The single pass met what only the full run handles: input nested past ``MAX_NESTING``,
    or references to inline first."""


def _clone(value: Any) -> Any:
    """A deep copy of JSON data: dicts and lists (tuples become lists) rebuilt, leaves shared."""
    cls = value.__class__
    if cls in _ATOMS:
        return value
    if isinstance(value, dict):
        return {k: v if v.__class__ in _ATOMS else _clone(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [v if v.__class__ in _ATOMS else _clone(v) for v in value]
    return value


def _clone_within(value: Any, room: int) -> Any:
    """:func:`_clone` of a container that may nest ``room`` levels at most (itself included);
    raises ``_Bail`` when it nests deeper."""
    if room < 1:
        raise _Bail
    if value.__class__ is list and _ATOMS.issuperset(map(type, value)):
        return value.copy()  # a list of scalars (``required``, most enums): copied in C
    room -= 1
    if isinstance(value, dict):
        return {k: v if v.__class__ in _ATOMS else _clone_within(v, room) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [v if v.__class__ in _ATOMS else _clone_within(v, room) for v in value]
    return value


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)
