"""Text for people: counts in the number their nouns take, and tables: columns padded to fit.

In a terminal a table keeps within its width where it can: a long cell of a column that may wrap
(free text, or a list of names) continues on the lines below, inside its own column, breaking at
spaces only, so a word (a model id, a name) is never split. The columns that may wrap are narrowed
in the order given, each to its floor before the next. To a pipe or a file, which has no width,
each row is one line (ids stay whole for grep and copying)."""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections.abc import Sequence

__all__ = ["counted", "table", "width"]

_GAP = "  "


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun`` in the number it takes: ``1 tool``, ``2 tools``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def width() -> int | None:
    """The room a table has: the terminal's width when the output goes to one; ``None`` (no
    limit) when it goes to a pipe or a file."""
    isatty = getattr(sys.stdout, "isatty", None)  # None, or a stand-in without it: no terminal
    if isatty is None or not isatty():
        return None
    return shutil.get_terminal_size().columns


def _total(widths: list[int]) -> int:
    return sum(widths) + len(_GAP) * (len(widths) - 1)


def _fit(widths: list[int], floors: list[int], order: Sequence[int], limit: int) -> list[int]:
    """``widths`` narrowed, the columns of ``order`` one after the other, each as far as its
    floor or as the table needs to fit ``limit``."""
    widths = list(widths)
    for i in order:
        over = _total(widths) - limit
        if over <= 0:
            break
        widths[i] = max(floors[i], widths[i] - over)
    return widths


def table(
    header: list[str],
    rows: list[list[str]],
    wrap: Sequence[int] = (),
    limit: int | None = None,
) -> str:
    """``rows`` under ``header``: one line per row unless a cell of a column in ``wrap`` must wrap
    to fit ``limit`` (default :func:`width`; no limit when it is ``None``), narrowed in ``wrap``'s
    order. A cell wraps at its spaces only, never inside a word, and the other columns keep their
    width: ids, numbers and dates never break."""
    if limit is None:
        limit = width()
    natural = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(header)]
    if limit is None:
        widths = natural
    else:
        floors = [
            max(len(h), min(12, n), *(len(word) for r in rows for word in r[i].split()))
            if i in wrap
            else n
            for i, (h, n) in enumerate(zip(header, natural, strict=True))
        ]
        widths = _fit(natural, floors, wrap, limit)
    lines = [_GAP.join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append(_GAP.join("-" * w for w in widths))
    for row in rows:
        cells = [
            textwrap.wrap(c, w, break_long_words=False, break_on_hyphens=False) or [""]
            for c, w in zip(row, widths, strict=True)
        ]
        for n in range(max(len(c) for c in cells)):
            parts = [
                (c[n] if n < len(c) else "").ljust(w) for c, w in zip(cells, widths, strict=True)
            ]
            lines.append(_GAP.join(parts).rstrip())
    return "\n".join(lines)
