"""Render plain data as a Python literal: deterministic, readable, one entry a line when long."""

from __future__ import annotations

from typing import Any

WIDTH = 100
_SCALARS = frozenset({str, int, float, bool, type(None)})  # exact types: repr is their literal


def literal(value: Any, indent: int = 0, step: int = 4) -> str:
    """``value`` (dict, list, tuple, str, int, float, bool, None) as Python source."""
    return _Renderer(step).render(value, indent)


class _Renderer:
    """One rendering: each node's one-line form is computed once (a long literal nests deeply,
    and every level asks whether its children fit on a line)."""

    def __init__(self, step: int) -> None:
        self.step = step
        self.inline: dict[int, str] = {}

    def flat(self, value: Any) -> str:
        if type(value) in _SCALARS:
            return repr(value)
        if isinstance(value, bool) or value is None or isinstance(value, (int, float, str)):
            return repr(value)
        found = self.inline.get(id(value))
        if found is not None:
            return found
        flat = self.flat
        scalars = _SCALARS
        if isinstance(value, dict):
            text = "{" + ", ".join(
                [
                    f"{repr(k) if type(k) in scalars else flat(k)}: "
                    f"{repr(v) if type(v) in scalars else flat(v)}"
                    for k, v in value.items()
                ]
            )
            text += "}"
        elif isinstance(value, (list, tuple)):
            items = ", ".join([repr(v) if type(v) in scalars else flat(v) for v in value])
            if isinstance(value, tuple):
                text = "(" + items + ("," if len(value) == 1 else "") + ")"
            else:
                text = "[" + items + "]"
        else:
            raise TypeError(f"cannot render {type(value).__name__} as a literal")
        self.inline[id(value)] = text
        return text

    def render(self, value: Any, indent: int) -> str:
        if type(value) in _SCALARS:
            return repr(value)
        inline = self.flat(value)
        if isinstance(value, bool) or value is None or isinstance(value, (int, float, str)):
            return inline
        if len(inline) + indent <= WIDTH - 8 and "\n" not in inline:
            return inline
        inner = indent + self.step
        pad = " " * inner
        render, flat, scalars = self.render, self.flat, _SCALARS
        if isinstance(value, dict):
            opener, closer = "{", "}"
            lines = [opener]
            lines += [
                f"{pad}{repr(key) if type(key) in scalars else flat(key)}: "
                f"{repr(val) if type(val) in scalars else render(val, inner)},"
                for key, val in value.items()
            ]
        else:
            opener, closer = ("(", ")") if isinstance(value, tuple) else ("[", "]")
            lines = [opener]
            lines += [
                f"{pad}{repr(entry) if type(entry) in scalars else render(entry, inner)},"
                for entry in value
            ]
        lines.append(" " * indent + closer)
        return "\n".join(lines)
