"""Render plain data as a Python literal: deterministic, readable, one entry a line when long."""

from __future__ import annotations

from collections.abc import Callable
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


def measured(entry: Any, step: int = 4) -> tuple[int, str]:
    """An entry of a long sequence: the length of its one-line form and its text one level in
    (what ``entries`` needs of it, and what a cache may keep of it)."""
    renderer = _Renderer(step)
    return len(renderer.flat(entry)), renderer.render(entry, step)


def entries(
    value: tuple[Any, ...] | list[Any],
    step: int = 4,
    measure: Callable[[Any], tuple[int, str]] | None = None,
) -> str:
    """``literal(value, 0, step)`` of a tuple or list, from each entry's ``measured`` form (given
    by ``measure``, e.g. from a cache: a long sequence of unchanged entries is not walked again).
    A sequence whose one-line form fits is rendered by ``literal``."""
    forms = [(measure or (lambda e: measured(e, step)))(entry) for entry in value]
    width = 2 + sum(n for n, _ in forms) + 2 * max(len(forms) - 1, 0)
    width += 1 if isinstance(value, tuple) and len(forms) == 1 else 0
    if not forms or width <= WIDTH - 8:
        return literal(value, 0, step)
    opener, closer = ("(", ")") if isinstance(value, tuple) else ("[", "]")
    pad = " " * step
    return "\n".join([opener, *(f"{pad}{text}," for _, text in forms), closer])
