"""Render plain data as a Python literal: deterministic, readable, one entry a line when long."""

from __future__ import annotations

from typing import Any

WIDTH = 100


def literal(value: Any, indent: int = 0, step: int = 4) -> str:
    """``value`` (dict, list, tuple, str, int, float, bool, None) as Python source."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, float, str)):
        return repr(value)
    if isinstance(value, dict):
        items = [f"{literal(k)}: {literal(v)}" for k, v in value.items()]
        opener, closer, trailing = "{", "}", ""
        multi = [(k, v) for k, v in value.items()]
    elif isinstance(value, (list, tuple)):
        items = [literal(v) for v in value]
        is_tuple = isinstance(value, tuple)
        opener, closer = ("(", ")") if is_tuple else ("[", "]")
        trailing = "," if is_tuple and len(value) == 1 else ""
        multi = list(value)
    else:
        raise TypeError(f"cannot render {type(value).__name__} as a literal")
    inline = opener + ", ".join(items) + trailing + closer
    if len(inline) + indent <= WIDTH - 8 and "\n" not in inline:
        return inline
    pad = " " * (indent + step)
    lines = [opener]
    for entry in multi:
        if isinstance(value, dict):
            key, val = entry
            lines.append(f"{pad}{literal(key)}: {literal(val, indent + step, step)},")
        else:
            lines.append(f"{pad}{literal(entry, indent + step, step)},")
    lines.append(" " * indent + closer)
    return "\n".join(lines)
