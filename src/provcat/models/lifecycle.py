"""A model's lifecycle state on a given day: one rule shared by the generator and the runtime.

``retired`` when the vendor marks it so or its shutdown date has come; ``deprecated`` when marked so
or the deprecation was announced on or before the day; otherwise the status as written
(``preview`` or ``active``). A release date is a fact about the model, not a lifecycle date: a
day before it is judged as any other day (the status as written), never ``preview``.
"""

from __future__ import annotations

from datetime import date, datetime

__all__ = ["day_of", "parse_day", "state"]


def day_of(as_of: date | None, name: str = "as_of") -> date:
    """The day ``as_of`` names: today for None, a datetime's own date, a date itself; a
    TypeError naming the parameter ``name`` for anything else."""
    if as_of is None:
        return date.today()
    if isinstance(as_of, datetime):  # a date too: compared with a date it raises
        return as_of.date()
    if not isinstance(as_of, date):
        raise TypeError(
            f"{name} must be a datetime.date (or a datetime), not {type(as_of).__name__}"
        )
    return as_of


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
