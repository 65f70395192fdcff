"""Text safe to write to a terminal: what a command says quotes what it was given (an argument,
a file name, a hub's answer), and an escape sequence in it must not move the cursor, recolour
the screen, retitle the window or overwrite a line."""

from __future__ import annotations

import unicodedata

__all__ = ["printable"]

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
# besides Cc (C0, DEL, C1): the line and paragraph separators, and the bidirectional embeddings,
# overrides and isolates that make a terminal show text in another order than it is
_INVISIBLE = frozenset("\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _escaped(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(value: str, keep: str = "") -> str:
    """``value`` for a terminal: each control character (``\\r``, ``\\n``, ESC, C1, ...) and
    each line separator or bidi override shown as a visible escape, so the text can neither move
    the cursor, overwrite a line nor forge one. For text output only: JSON output keeps the
    values as they are. The characters in ``keep`` stay as they are (a web page keeps ``\\t``,
    ``\\n`` and ``\\r``, which HTML shows as white space; a message of several lines keeps
    ``\\n``)."""
    if value.isprintable() and not _INVISIBLE.intersection(value):
        return value  # the common case, without building a new string
    return "".join(
        _escaped(c) if c not in keep and (c in _INVISIBLE or unicodedata.category(c) == "Cc") else c
        for c in value
    )
