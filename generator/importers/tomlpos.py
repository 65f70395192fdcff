"""Where a dotted key sits in a TOML text: tomllib gives values, not positions.

A line scan that knows table headers (``[limit]``, ``[[cost.tiers]]``), dotted keys and inline
tables well enough to point a diagnostic at the line; when it cannot tell, it names line 1.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_.\-\"' ]+?)\s*=")
_DECODE_POS = re.compile(r"\(at line (\d+), column (\d+)\)")


def _norm(key: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in key.split("."))


def key_position(text: str, dotted: str) -> tuple[int, int]:
    """1-based (line, column) of ``dotted`` (e.g. ``limit.output``), or of its nearest parent."""
    probe = dotted
    while probe:
        found = _find(text, probe)
        if found is not None:
            return found
        probe = probe.rpartition(".")[0]
    return (1, 1)


def _find(text: str, dotted: str) -> tuple[int, int] | None:
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = _norm(header.group(1))
            if table == dotted:
                return (number, line.index("[") + 1)
            continue
        key = _KEY.match(line)
        if not key:
            continue
        name = _norm(key.group(1))
        full = f"{table}.{name}" if table else name
        column = line.index(key.group(1)[0]) + 1
        if full == dotted:
            return (number, column)
        # an inline table on this line: `limit = { context = 1, output = 2 }`
        if dotted.startswith(full + ".") and "{" in line:
            leaf = dotted[len(full) + 1 :].split(".")[-1]
            at = re.search(rf"[{{,]\s*{re.escape(leaf)}\s*=", line)
            if at:
                return (number, line.index(leaf, at.start()) + 1)
    return None


def decode_error_position(message: str) -> tuple[int, int]:
    """The position tomllib names in a TOMLDecodeError message, or (1, 1)."""
    found = _DECODE_POS.search(message)
    if not found:
        return (1, 1)
    return (int(found.group(1)), int(found.group(2)))
