"""The one table `make bench` prints: every figure of every benchmark, its baseline measured in the
same run, the ratio, the goal and whether it is met.

A benchmark adds a row where it prints a figure, one line each::

    table.row("modelspec", "parse_model_spec", ours, "us", lion, "lionagi", goal=">= 5x",
              ratio=lion / ours, met=lion / ours >= 5)

``met`` is None when the goal cannot be judged (a baseline package is missing: ``missing()``
says which). ``python -m benchmarks`` prints the table after the last benchmark.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Row:
    bench: str
    figure: str
    value: float | None
    unit: str
    baseline: float | None
    baseline_name: str
    goal: str
    ratio: float | None
    met: bool | None
    note: str = ""


ROWS: list[Row] = []


def row(
    bench: str,
    figure: str,
    value: float | None,
    unit: str,
    baseline: float | None = None,
    baseline_name: str = "",
    *,
    goal: str = "",
    ratio: float | None = None,
    met: bool | None = None,
    note: str = "",
) -> Row:
    """Record one figure (``value`` and ``baseline`` already in ``unit``)."""
    entry = Row(bench, figure, value, unit, baseline, baseline_name, goal, ratio, met, note)
    ROWS.append(entry)
    return entry


def missing(bench: str, figure: str, package: str, goal: str = "") -> Row:
    """A figure whose baseline package is not installed: reported, never a failure."""
    return row(bench, figure, None, "", goal=goal, note=f"baseline {package} is not installed")


def _num(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    text = f"{value:.3g}" if abs(value) < 100 else f"{value:,.0f}"
    return f"{text} {unit}".strip()


def render(rows: list[Row]) -> str:
    if not rows:
        return "(no figures: no benchmark recorded any)"
    header = ("bench", "figure", "value", "baseline", "ratio", "goal", "met")
    lines = []
    for r in rows:
        base = _num(r.baseline, r.unit) + (f" ({r.baseline_name})" if r.baseline_name else "")
        if r.baseline is None and r.baseline_name:
            base = r.baseline_name
        met = "—" if r.met is None else ("met" if r.met else "NOT met")
        if r.note:
            met += f" ({r.note})"
        ratio = "—" if r.ratio is None else f"{r.ratio:.3g}x"
        lines.append((r.bench, r.figure, _num(r.value, r.unit), base, ratio, r.goal or "—", met))
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header)]
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    out.append("  ".join("-" * w for w in widths))
    for line in lines:
        out.append("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip())
    met = sum(1 for r in rows if r.met)
    judged = sum(1 for r in rows if r.met is not None)
    out.append(f"{met} of {judged} goals met; {len(rows) - judged} figures without a judged goal.")
    return "\n".join(out)
