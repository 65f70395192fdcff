"""Tables for people: columns padded to fit, the whole table within 100 columns (a long cell of a
column that may wrap continues on the lines below, inside its own column)."""

from __future__ import annotations

import textwrap

__all__ = ["WIDTH", "table"]

WIDTH = 100
_GAP = "  "


def _total(widths: list[int]) -> int:
    return sum(widths) + len(_GAP) * (len(widths) - 1)


def _fit(widths: list[int], floors: list[int], limit: int) -> list[int]:
    """``widths`` narrowed one column at a time, widest first, until the table fits ``limit`` or
    every column is at its floor."""
    widths = list(widths)
    while _total(widths) > limit:
        shrinkable = [i for i, w in enumerate(widths) if w > floors[i]]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: (widths[i], i))
        runner_up = max((widths[i] for i in shrinkable if i != widest), default=0)
        cut = max(1, min(_total(widths) - limit, widths[widest] - runner_up))
        widths[widest] = max(floors[widest], widths[widest] - cut)
    return widths


def table(
    header: list[str],
    rows: list[list[str]],
    wrap: set[int] | frozenset[int] = frozenset(),
    limit: int = WIDTH,
) -> str:
    """``rows`` under ``header``: one line per row unless a cell of a column in ``wrap`` must wrap
    to fit ``limit`` (the other columns keep their width: numbers and dates never break)."""
    natural = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(header)]
    floors = [
        max(len(h), min(12, n)) if i in wrap else n
        for i, (h, n) in enumerate(zip(header, natural, strict=True))
    ]
    widths = _fit(natural, floors, limit)
    lines = [_GAP.join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append(_GAP.join("-" * w for w in widths))
    for row in rows:
        cells = [textwrap.wrap(c, w) or [""] for c, w in zip(row, widths, strict=True)]
        for n in range(max(len(c) for c in cells)):
            parts = [
                (c[n] if n < len(c) else "").ljust(w) for c, w in zip(cells, widths, strict=True)
            ]
            lines.append(_GAP.join(parts).rstrip())
    return "\n".join(lines)
