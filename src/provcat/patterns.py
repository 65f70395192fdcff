"""Regular expressions read as JSON Schema and the vendors read them (ECMA-262).

The patterns of the tool-schema targets (tool names, property names, header tokens) and the
``pattern`` keywords of our JSON Schemas are JavaScript-style regular expressions, where ``$``
matches only at the very end of the text. Python's ``$`` also matches before a final newline,
so ``^[a-z]+$`` would pass ``"name\\n"``, which a vendor (or the JSON Schema meaning) refuses.
Each ``$`` that is an anchor (not escaped, not inside a class) becomes ``\\Z``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

__all__ = ["compile_pattern", "ecma_validator"]


@lru_cache(maxsize=256)
def compile_pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled with every end anchor ``$`` matching only at the end of the text."""
    out: list[str] = []
    escaped = in_class = False
    for ch in pattern:
        if escaped:
            escaped = False
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
    return re.compile("".join(out))


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
