"""A model's lifecycle state on a given day: one rule shared by the generator and the runtime.

``retired`` when the vendor marks it so or its shutdown date has come; ``deprecated`` when marked so
or the deprecation was announced on or before the day; otherwise the status as written.
"""

from __future__ import annotations

from datetime import date

__all__ = ["parse_day", "state"]


def parse_day(text: str) -> date:
    """A catalog date, YYYY-MM-DD or YYYY-MM (read as the month's first day)."""
    return date.fromisoformat(text if len(text) == 10 else f"{text}-01")


def state(
    status: str | None,
    deprecation_date: str | None,
    shutdown_date: str | None,
    as_of: date,
) -> str:
    """``preview``, ``active``, ``deprecated`` or ``retired`` as of ``as_of``."""
    if status == "retired" or (shutdown_date and parse_day(shutdown_date) <= as_of):
        return "retired"
    if status == "deprecated" or (deprecation_date and parse_day(deprecation_date) <= as_of):
        return "deprecated"
    return status or "active"
