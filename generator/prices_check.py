"""Checks of one model's prices: signs, long-context tiers and the periods of a price schedule.

A ``prices:`` block is one mapping, or a schedule: a list of periods, each with the days it holds
(``from`` inclusive, ``until`` exclusive). A schedule must read as one timeline: periods in date
order, each ending after it starts, none overlapping the next, and no day without a price between
two periods unless the later one states why (``gap_before``). Only the first period may be open at
its start and only the last at its end.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from typing import Any

from generator.diagnostics import Diagnostic, diag
from generator.loader import path_text
from generator.model import ModelDecl
from provcat.models.lifecycle import parse_day
from provcat.models.prices import PRICE_FIELDS

__all__ = ["price_blocks", "price_change_days", "price_problems"]

# keys of a price block or period that hold no price
_NOT_PRICES = frozenset(
    {
        "above_input_tokens",
        "from",
        "until",
        "gap_before",
        "source",
        "note",
        "discount",
        "unit",
        "per",
        "when",
        "default",
    }
)


def price_blocks(prices: Any) -> list[tuple[tuple[str | int, ...], dict[str, Any]]]:
    """Each price block of ``prices`` with its path below the model: the mapping itself, or
    every period of a schedule."""
    if isinstance(prices, list):
        return [(("prices", i), p) for i, p in enumerate(prices) if isinstance(p, dict)]
    if isinstance(prices, dict):
        return [(("prices",), prices)]
    return []


def price_change_days(prices: Any) -> tuple[str, ...]:
    """The days a schedule changes the price (every ``from`` and ``until``), sorted, as written."""
    days: set[str] = set()
    if isinstance(prices, list):
        for period in prices:
            for name in ("from", "until"):
                if isinstance(period, dict) and isinstance(period.get(name), str):
                    days.add(period[name])
    return tuple(sorted(days))


def _leaves(node: Any, path: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k not in _NOT_PRICES:
                yield from _leaves(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, (*path, i))
    else:
        yield path, node


def price_problems(m: ModelDecl) -> Iterator[Diagnostic]:
    """Every problem of ``m``'s prices (none when it has no prices)."""
    prices = m.facts.get("prices")
    if prices is None:
        return
    for path, value in _leaves(prices, ("prices",)):
        if Decimal(str(value)) < 0:
            where = path_text(path)
            yield diag(
                "negative_price", m.at(*path), f"{where} of model '{m.key.value}' is {value}"
            )
    for path, block in price_blocks(prices):
        yield from _batch(m, block, path)
        yield from _fees(m, block.get("fees", ()), (*path, "fees"))
        yield from _tiers(m, block.get("tiers", ()), (*path, "tiers"))
        yield from _tiers(m, block.get("batch", {}).get("tiers", ()), (*path, "batch", "tiers"))
    if isinstance(prices, list):
        yield from _schedule(m, prices)


def _batch(
    m: ModelDecl, block: dict[str, Any], path: tuple[str | int, ...]
) -> Iterator[Diagnostic]:
    """A batch block is a stated discount alone, or lists every price the block lists: a
    listed block missing a cache price would cost batch cache reads at the standard rate."""
    batch = block.get("batch")
    if not isinstance(batch, dict):
        return
    where = path_text((*path, "batch"))
    if "discount" in batch:
        for name in (*PRICE_FIELDS, "tiers"):
            if name in batch:
                yield diag(
                    "batch_discount_with_prices",
                    m.at(*path, "batch", name),
                    f"{where} of model '{m.key.value}' lists {name} beside its discount "
                    f"{batch['discount']}: the discount already prices every field",
                )
        return
    missing = [name for name in PRICE_FIELDS if name in block and name not in batch]
    if missing:
        yield diag(
            "batch_price_missing",
            m.at(*path, "batch"),
            f"{where} of model '{m.key.value}' lists no {', '.join(missing)} price though the "
            "base lists one; list it as the vendor prices it in a batch, or state the vendor's "
            "discount instead",
        )


def _fees(m: ModelDecl, fees: Any, path: tuple[str | int, ...]) -> Iterator[Diagnostic]:
    """Fees of one unit are one fee, or alternatives by one request option with one default."""
    by_unit: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for i, fee in enumerate(fees):
        by_unit.setdefault(fee["unit"], []).append((i, fee))
    model = m.key.value
    for unit, group in by_unit.items():
        options = {next(iter(f["when"])) for _, f in group if f.get("when")}
        plain = [i for i, f in group if not f.get("when")]
        problem = None
        if len(options) > 1:
            problem = f"its {unit} fees depend on different options ({', '.join(sorted(options))})"
        elif options and plain:
            problem = f"one {unit} fee names no `when` beside fees by {next(iter(options))}"
        elif len(plain) > 1:
            problem = f"it lists {len(plain)} {unit} fees without `when`"
        elif options and sum(1 for _, f in group if f.get("default")) != 1:
            problem = f"its {unit} fees by {next(iter(options))} need exactly one `default: true`"
        else:
            seen: set[str] = set()
            for _, f in group:
                value = next(iter(f.get("when", {}).values()), "")
                if value in seen:
                    problem = f"two {unit} fees apply when {next(iter(options))} is {value}"
                seen.add(value)
        if problem is not None:
            yield diag(
                "fee_conflict",
                m.at(*path, group[-1][0]),
                f"the fees of model '{model}' conflict: {problem}",
            )


def _tiers(m: ModelDecl, tiers: Any, path: tuple[str | int, ...]) -> Iterator[Diagnostic]:
    window = m.facts.get("context_window")
    previous: int | None = None
    for i, tier in enumerate(tiers):
        threshold = tier["above_input_tokens"]
        loc = m.at(*path, i, "above_input_tokens")
        if previous is not None and threshold <= previous:
            yield diag(
                "tier_threshold_not_increasing",
                loc,
                f"price tier {i} of model '{m.key.value}' starts above {threshold} tokens, "
                f"not above the previous tier's {previous}",
            )
        if window is not None and threshold >= window:
            yield diag(
                "tier_above_context",
                loc,
                f"price tier {i} of model '{m.key.value}' starts above {threshold} tokens, "
                f"which its context window {window} never reaches",
            )
        previous = threshold


def _day(
    m: ModelDecl, period: dict[str, Any], i: int, name: str, out: list[Diagnostic]
) -> date | None:
    text = period.get(name)
    if text is None:
        return None
    try:
        return parse_day(text)
    except ValueError:
        out.append(
            diag(
                "invalid_date",
                m.at("prices", i, name),
                f"price period {i} of model '{m.key.value}': {name} '{text}' is no day",
                "write a real date as YYYY-MM-DD",
            )
        )
        return None


def _schedule(m: ModelDecl, periods: list[Any]) -> Iterator[Diagnostic]:
    out: list[Diagnostic] = []
    model = m.key.value
    last = len(periods) - 1
    previous_until: date | None = None
    previous_from: date | None = None
    for i, period in enumerate(periods):
        start = _day(m, period, i, "from", out)
        end = _day(m, period, i, "until", out)
        if i > 0 and "from" not in period:
            out.append(
                diag(
                    "price_period_open",
                    m.at("prices", i),
                    f"price period {i} of model '{model}' has no `from`: only the first period "
                    "may be open at its start",
                )
            )
        if i < last and "until" not in period:
            out.append(
                diag(
                    "price_period_open",
                    m.at("prices", i),
                    f"price period {i} of model '{model}' has no `until`: only the last period "
                    "may be open at its end",
                )
            )
        if start is not None and end is not None and end <= start:
            out.append(
                diag(
                    "price_period_ends_before_start",
                    m.at("prices", i, "until"),
                    f"price period {i} of model '{model}' ends ({period['until']}) on or before "
                    f"it starts ({period['from']}): `until` is the first day it no longer holds",
                )
            )
        if start is not None and previous_from is not None and start < previous_from:
            out.append(
                diag(
                    "price_periods_out_of_order",
                    m.at("prices", i, "from"),
                    f"price period {i} of model '{model}' starts ({period['from']}) before "
                    f"period {i - 1} does: list periods in date order",
                )
            )
        elif start is not None and previous_until is not None:
            if start < previous_until:
                out.append(
                    diag(
                        "price_periods_overlap",
                        m.at("prices", i, "from"),
                        f"price period {i} of model '{model}' starts ({period['from']}) before "
                        f"period {i - 1} ends ({periods[i - 1]['until']}): two prices on the "
                        "same days",
                    )
                )
            elif start > previous_until and "gap_before" not in period:
                out.append(
                    diag(
                        "price_period_gap",
                        m.at("prices", i, "from"),
                        f"price period {i} of model '{model}' starts ({period['from']}) after "
                        f"period {i - 1} ends ({periods[i - 1]['until']}): no price in between",
                    )
                )
        previous_from = start if start is not None else previous_from
        previous_until = end
    yield from out
