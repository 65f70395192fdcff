"""How a JSON path is written: ``inputSchema.properties.a``, ``[0]``, ``["a b"]`` (SchemaPort
``joinPath``)."""

from __future__ import annotations

import json
import re
from functools import lru_cache

__all__ = ["join_path", "path_segment"]

# a JavaScript identifier, as SchemaPort's joinPath tests it (``\Z``: ``$`` would also match
# before a final newline, which JavaScript's does not)
_IDENT = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*\Z")


@lru_cache(maxsize=65_536, typed=True)  # typed: ``True`` and ``1`` are two segments
def path_segment(seg: str | int) -> str:
    """What :func:`join_path` appends for one segment (keys repeat across a tool's subschemas
    and across tools: each is worked out once)."""
    if isinstance(seg, int):
        return f"[{seg}]"
    return "." + seg if _IDENT.match(seg) else "[" + json.dumps(seg, ensure_ascii=False) + "]"


def join_path(base: str, *segments: str | int) -> str:
    """Extend ``base``: ints as ``[n]``, identifiers as ``.seg``, anything else as ``["seg"]``."""
    return base + "".join(map(path_segment, segments))
