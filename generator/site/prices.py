"""What the site shows of a model's prices: the periods of a schedule and their days, each
period's price sets (base, long-context tiers, batch as the vendor states it), the fees, the
calculator's inputs for fees, and the catalog's announced price changes.

The pages are the same bytes whatever day they are built: which period is in force is the
reader's day, decided by the page's script (static/model.js, static/table.js)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

PRICE_NAMES: tuple[tuple[str, str], ...] = (
    ("input", "Input"),
    ("output", "Output"),
    ("cache_read", "Cache read"),
    ("cache_write", "Cache write"),
    ("cache_write_1h", "Cache write (1 hour)"),
    ("input_audio", "Audio input"),
    ("cache_read_audio", "Cached audio input"),
    ("output_audio", "Audio output"),
    ("reasoning", "Reasoning"),
    ("citation", "Citation"),
)
# the calculator's label of each usage count a fee multiplies
COUNT_LABELS = {
    "requests": "Requests",
    "web_searches": "Billed web searches",
    "social_searches": "Billed social searches",
    "storage_searches": "Billed file searches",
    "code_executions": "Billed code executions",
}
# a fee's unit -> (the usage count it multiplies, what one unit is called on the page)
FEE_UNITS: dict[str, tuple[str, str]] = {
    "request": ("requests", "request"),
    "web_search": ("web_searches", "billed web search"),
    "social_search": ("social_searches", "billed social search"),
    "storage_search": ("storage_searches", "billed file search"),
    "code_execution": ("code_executions", "billed code execution"),
}


def price(value: Any) -> str:
    """A price as every page writes it, as the table's script does (static/table.js, price()):
    at least two decimals (`10` is `10.00`, `0.5` is `0.50`), so a column's points line up, and
    every digit the catalog gives (`0.625`); text that is not a plain decimal is left as it is."""
    if value is None:
        return ""
    text = str(value)
    if re.search(r"[^0-9.]", text):
        return text
    whole, _, decimals = text.partition(".")
    return f"{whole}.{decimals.ljust(2, '0')}"


def periods(prices: Any) -> list[Mapping[str, Any]]:
    """The model's price periods in date order: a plain block is one period without days."""
    if not prices:
        return []
    return list(prices) if isinstance(prices, list | tuple) else [prices]


def span(period: Mapping[str, Any]) -> str:
    """The days a period holds, as the pages say them (``until`` is exclusive)."""
    start, end = period.get("from"), period.get("until")
    if start and end:
        return f"from {start} until {end} (not included)"
    if start:
        return f"from {start} on"
    return f"until {end} (not included)" if end else "until further notice"


def _text(value: Decimal) -> str:
    return format(value.normalize(), "f")


def _rows(block: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    return [(name, label, str(block[name])) for name, label in PRICE_NAMES if name in block]


def price_sets(block: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One period's price sets in order: base, its long-context tiers, batch, batch tiers; each
    with a title, the fact a secondary mark names it by and its (name, label, price) rows. A batch the vendor states as one discount shows
    the discount and the prices it gives (every price of the block, tiers included)."""
    sets = [{"title": "Standard", "fact": "prices", "rows": _rows(block)}]
    for tier in block.get("tiers", ()):
        sets.append(
            {
                "title": f"Above {tier['above_input_tokens']:,} input tokens (whole request)",
                "fact": "prices.tiers",
                "rows": _rows(tier),
            }
        )
    batch = block.get("batch")
    if batch is not None and "discount" in batch:
        discount = Decimal(batch["discount"])
        factor = 1 - discount
        off = _text(discount * 100)

        def scaled(prices: Mapping[str, Any]) -> list[tuple[str, str, str]]:
            return [
                (name, label, _text(Decimal(price) * factor))
                for name, label, price in _rows(prices)
            ]

        sets.append(
            {
                "title": f"Batch: {off}% off every price, as the vendor states it",
                "fact": "prices.batch",
                "rows": scaled(block),
                "discount": off,
            }
        )
        for tier in block.get("tiers", ()):
            sets.append(
                {
                    "title": f"Batch, above {tier['above_input_tokens']:,} input tokens "
                    f"({off}% off the tier)",
                    "fact": "prices.batch",
                    "rows": scaled({**block, **tier}),
                }
            )
    elif batch is not None:
        sets.append(
            {
                "title": "Batch (a price not listed is the standard one)",
                "fact": "prices.batch",
                "rows": _rows(batch),
            }
        )
        for tier in batch.get("tiers", ()):
            sets.append(
                {
                    "title": f"Batch, above {tier['above_input_tokens']:,} input tokens",
                    "fact": "prices.batch.tiers",
                    "rows": _rows(tier),
                }
            )
    return sets


def fee_rows(block: Mapping[str, Any]) -> list[dict[str, str]]:
    """A period's fees: what is billed, for which option value, and the price (and the fact a
    secondary mark names it by)."""
    rows = []
    for fee in block.get("fees", ()):
        _, name = FEE_UNITS[fee["unit"]]
        per = fee.get("per", 1)
        when = fee.get("when") or {}
        option = ", ".join(f"{k} = {v}" for k, v in when.items())
        if option and fee.get("default"):
            option += " (the default when not sent)"
        rows.append(
            {
                "fact": f"prices.fees.{fee['unit']}",
                "unit": name,
                "option": option or "any request",
                "price": str(fee["price"]),
                "per": f"per {per:,} {name}s" if per > 1 else f"per {name}",
            }
        )
    return rows


def schedule(prices: Any) -> list[dict[str, Any]]:
    """Every period of the model's prices with its days, price sets and fees."""
    return [
        {
            "from": p.get("from") or "",
            "until": p.get("until") or "",
            "span": span(p),
            "sets": price_sets(p),
            "fees": fee_rows(p),
            "note": p.get("note"),
            "source": list(p.get("source", ())),
        }
        for p in periods(prices)
    ]


def batched(prices: Any) -> bool:
    """Whether any period of the model's prices has batch prices (the calculator offers them
    only then: a box that can only answer "no batch prices" is noise)."""
    return any("batch" in p for p in periods(prices))


def fee_inputs(prices: Any) -> dict[str, Any]:
    """The calculator's fee inputs: the usage counts the model's fees multiply (requests first)
    and each request option a fee depends on, with its values and the vendor's default."""
    counts: list[str] = []
    options: dict[str, dict[str, Any]] = {}
    for period in periods(prices):
        for fee in period.get("fees", ()):
            count, _ = FEE_UNITS[fee["unit"]]
            if count not in counts:
                counts.append(count)
            for option, value in (fee.get("when") or {}).items():
                found = options.setdefault(option, {"values": [], "default": None})
                if value not in found["values"]:
                    found["values"].append(value)
                if fee.get("default"):
                    found["default"] = value
    order = [c for c, _ in FEE_UNITS.values()]
    return {
        "counts": [(c, COUNT_LABELS[c]) for c in sorted(counts, key=order.index)],
        "options": options,
    }


def dated(prices: Any) -> bool:
    """Whether the vendor announced a change: the prices are periods with days."""
    return any(p.get("from") or p.get("until") for p in periods(prices))


def change_days(prices: Any) -> list[str]:
    """The days the model's prices change (each later period's first day, a last period's end)."""
    listed = periods(prices)
    days = [p["from"] for p in listed[1:] if p.get("from")]
    if listed and listed[-1].get("until"):
        days.append(listed[-1]["until"])
    return days


def summary(block: Mapping[str, Any] | None) -> str:
    """A period's main prices on one line (input / output / cache read), for the lifecycle page."""
    if block is None:
        return "no price listed"
    parts = [
        f"{label.lower()} ${price(block[name])}" for name, label in PRICE_NAMES[:3] if name in block
    ]
    if block.get("fees"):
        parts.append("fees")
    return ", ".join(parts)


def change_rows(providers: Iterable[Mapping[str, Any]], href: Any) -> list[dict[str, Any]]:
    """Every price change the catalog announces (the generated docs' rule: each period after the
    first, and the end of a last period that ends), by day, with the period's sources (the
    model's where the period names none); ``href(provider, model)`` links."""
    rows = []
    for p in providers:
        for m in p["models"]:
            listed = m.get("prices")
            if not isinstance(listed, list | tuple):
                continue
            changes = [
                (after.get("from") or "", before, after)
                for before, after in itertools.pairwise(listed)
            ]
            if listed and listed[-1].get("until"):
                changes.append((listed[-1]["until"], listed[-1], None))
            for day, before, after in changes:
                rows.append(
                    {
                        "on": day,
                        "provider": p["provider"],
                        "model": m["model"],
                        "href": href(p["provider"], m["model"]),
                        "before": summary(before),
                        "after": summary(after),
                        # the period's own pages, else the model's
                        "source": list((after or before).get("source") or m.get("source") or ()),
                    }
                )
    return sorted(rows, key=lambda r: (r["on"], r["provider"], r["model"]))


def table_prices(prices: Any) -> tuple[list[Any], list[list[Any]] | None]:
    """The table's input, output and cache-read prices: a plain block's, or (for a schedule)
    none plus each period's [from, until, input, output, cache read] for the page's script to
    pick the reader's day from."""
    listed = periods(prices)
    if len(listed) == 1 and not listed[0].get("from") and not listed[0].get("until"):
        block = listed[0]
        return [block.get("input"), block.get("output"), block.get("cache_read")], None
    if not listed:
        return [None, None, None], None
    return [None, None, None], [
        [
            p.get("from") or "",
            p.get("until") or "",
            p.get("input"),
            p.get("output"),
            p.get("cache_read"),
        ]
        for p in listed
    ]
