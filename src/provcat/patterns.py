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
or ``\\x85``). One difference is left: ``\\S`` inside a bracket class (``[\\S]``) stays
Python's ASCII reading.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

__all__ = ["compile_pattern", "ecma_validator"]


# ECMA-262's WhiteSpace and LineTerminator code points: what its \s matches
_ECMA_SPACE = (
    "\\t\\n\\x0b\\x0c\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)


@lru_cache(maxsize=256)
def compile_pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled as ECMA-262 reads it: every end anchor ``$`` matches only at the end
    of the text, and ``\\d``, ``\\w``, ``\\b``, ``\\s`` are ECMA's classes (see the module)."""
    out: list[str] = []
    escaped = in_class = False
    for ch in pattern:
        if escaped:
            escaped = False
            if ch == "s" or (ch == "S" and not in_class):
                out.pop()  # the backslash
                if in_class:
                    out.append(_ECMA_SPACE)
                else:
                    out.append(f"[{'^' if ch == 'S' else ''}{_ECMA_SPACE}]")
                continue
        elif ch == "\\":
            escaped = True
        elif in_class:
            in_class = ch != "]" or (out[-1] == "[" or (out[-1] == "^" and out[-2] == "["))
        elif ch == "[":
            in_class = True
        elif ch == "$":
            out.append(r"\Z")
            continue
        out.append(ch)
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
