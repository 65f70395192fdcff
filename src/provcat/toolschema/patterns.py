"""Vendor name patterns read as the vendors read them.

The patterns in the targets (tool names, property names, header tokens) are written as
JavaScript-style regular expressions, where ``$`` matches only at the very end of the text.
Python's ``$`` also matches before a final newline, so ``^[a-z]+$`` would pass ``"name\\n"``,
which the vendor refuses. Each ``$`` that is an anchor (not escaped, not inside a class)
becomes ``\\Z``.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["compile_pattern"]


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
