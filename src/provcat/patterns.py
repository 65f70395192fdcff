"""Regular expressions read as JSON Schema and the vendors read them (ECMA-262).

The patterns of the tool-schema targets (tool names, property names, header tokens) and the
``pattern`` keywords of our JSON Schemas are JavaScript-style regular expressions, where ``$``
matches only at the very end of the text. Python's ``$`` also matches before a final newline,
so ``^[a-z]+$`` would pass ``"name\\n"``, which a vendor (or the JSON Schema meaning) refuses.
Each ``$`` that is an anchor (not escaped, not inside a class) becomes ``\\Z``.

The character classes are ECMA-262's too (what jsonschema_rs and the vendors use): ``\\d`` is
``[0-9]`` and ``\\w`` ``[A-Za-z0-9_]`` (``re.ASCII``; Python's own match any Unicode digit
or letter, so ``\\d{4}`` would pass ``"٢٠٢٦"``), ``\\b`` is the boundary of those words, and
``\\s`` is ECMA's white space and line terminators (the Unicode spaces, no ``\\x1c``-``\\x1f``
or ``\\x85``), ``\\S`` everything else, inside a bracket class too (``[^\\S\\r\\n]``, the
horizontal white space, holds ``\\u00a0``).

A pattern that is not a regular expression raises ``re.error`` (validation and use call this
one function, so they agree), its position in the pattern as written. Inline flags (``(?i)``,
``(?u)``, ``(?i:...)``) are Python's, not ECMA-262's: they are refused too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

__all__ = ["compile_pattern", "ecma_validator"]


# ECMA-262 (15th ed.), 12.2 White Space and 12.3 Line Terminators: what its \s matches. TAB, VT,
# FF, ZWNBSP (U+FEFF), every Zs code point (U+0020, U+00A0, U+1680, U+2000-U+200A, U+202F,
# U+205F, U+3000), LF, CR, LS (U+2028) and PS (U+2029); as code point ranges, in order.
_SPACE_RANGES = (
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
)


def _complement(ranges: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The code points 0..0x10FFFF outside ``ranges`` (sorted, disjoint), as ranges."""
    found: list[tuple[int, int]] = []
    low = 0
    for first, last in ranges:
        if first > low:
            found.append((low, first - 1))
        low = last + 1
    if low <= 0x10FFFF:
        found.append((low, 0x10FFFF))
    return tuple(found)


def _escape(code: int) -> str:
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def _members(ranges: tuple[tuple[int, int], ...]) -> str:
    """``ranges`` as the inside of a bracket class."""
    return "".join(_escape(a) if a == b else f"{_escape(a)}-{_escape(b)}" for a, b in ranges)


# the inside of a bracket class: ECMA's \s, and its \S (the rest of Unicode)
_SPACE = _members(_SPACE_RANGES)
_NOT_SPACE = _members(_complement(_SPACE_RANGES))
_FLAGS = frozenset("aiLmsux-")


def _flag_error(pattern: str, at: int) -> re.error:
    """The refusal of the inline flag group at ``at`` (``(?i)``, ``(?-i:...)``): Python syntax."""
    group = re.match(r"\(\?[^):]*[):]?", pattern[at:])
    shown = group.group() if group else "(?"
    error = re.error(
        f"{shown} at position {at}: inline flags such as (?i), (?u) or (?i:...) are "
        "Python syntax, not ECMA-262's (what JSON Schema and the vendors read); write "
        "the cases out instead, such as [Aa] for a or A"
    )
    error.pattern, error.pos = pattern, at
    return error


@lru_cache(maxsize=256)
def compile_pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled as ECMA-262 reads it: every end anchor ``$`` matches only at the end
    of the text, and ``\\d``, ``\\w``, ``\\b``, ``\\s``, ``\\S`` are ECMA's classes (see the
    module). Raises ``re.error`` for what is not a pattern, its position in ``pattern``."""
    out: list[str] = []  # the translation, made in the one pass that finds inline flags
    escaped = in_class = False
    first = 0  # where a class's first member is: a ``]`` there is a character
    for at, ch in enumerate(pattern):
        if escaped:
            escaped = False
            if ch in "sS":
                out.pop()  # the backslash
                members = _SPACE if ch == "s" else _NOT_SPACE
                out.append(members if in_class else f"[{members}]")
                continue
        elif ch == "\\":
            escaped = True
        elif in_class:
            if ch == "^" and at == first and pattern[at - 1] == "[":
                first = at + 1
            in_class = ch != "]" or at == first
        elif ch == "[":
            in_class, first = True, at + 1
        elif ch == "(" and pattern[at + 1 : at + 2] == "?" and pattern[at + 2 : at + 3] in _FLAGS:
            raise _flag_error(pattern, at)
        elif ch == "$":
            out.append(r"\Z")
            continue
        out.append(ch)
    try:
        # the pattern as written first, for its errors' positions: the translation neither
        # makes nor hides one (a class escape is no end of a range, ``[\\s-x]``, in either)
        re.compile(pattern, re.ASCII)
    except ValueError as exc:  # a flag re refuses beside re.ASCII: no pattern either
        raise re.error(str(exc), pattern) from None
    return re.compile("".join(out), re.ASCII)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    """jsonschema's ``pattern`` keyword with :func:`compile_pattern` (its own uses ``re``)."""
    if validator.is_type(instance, "string") and not compile_pattern(pattern).search(instance):
        from jsonschema.exceptions import ValidationError

        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=1)
def ecma_validator() -> Any:
    """``Draft202012Validator`` with ``pattern`` read as JSON Schema means it (jsonschema is
    imported here, on first use)."""
    from jsonschema import Draft202012Validator
    from jsonschema.validators import extend

    return extend(Draft202012Validator, {"pattern": _pattern})  # type: ignore[no-untyped-call]
