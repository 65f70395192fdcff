"""Fees on top of token prices: per request, or per billed tool call (a web search, a code run).

Each fee a model lists multiplies one usage count (genai-prices' names: ``requests``,
``web_searches``, ``social_searches``, ``storage_searches``, ``code_executions``). Where a vendor
prices a unit by a request option (Perplexity's ``search_context_size``), the caller names the
option's value in ``options``; without it, the fee the vendor applies by default is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from provcat.catalog.keys import suggest
from provcat.errors import PricingUnavailable
from provcat.models.prices import FEE_COUNTS, Fee
from provcat.models.usage import COUNT_FIELDS

__all__ = ["COUNT_FIELDS", "FeeLine", "fee_lines"]


@dataclass(frozen=True, slots=True)
class FeeLine:
    """One fee of a cost: ``count`` units at ``price`` USD per ``per`` units."""

    unit: str
    count: int
    price: Decimal
    per: int
    option: str | None  # "search_context_size=high" where the fee depends on an option
    amount: Decimal

    def as_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "count": self.count,
            "price": format(self.price.normalize(), "f"),
            "per": self.per,
            "option": self.option,
            "amount": format(self.amount.normalize(), "f"),
        }


def _pick(unit: str, fees: list[Fee], options: Mapping[str, str], where: str) -> Fee:
    option = fees[0].option
    if option is None:
        return fees[0]
    values = sorted(f.value for f in fees if f.value is not None)
    wanted = options.get(option)
    if wanted is None:
        found = next((f for f in fees if f.default), None)
        if found is None:  # the generator requires a default; a custom catalog may lack one
            raise PricingUnavailable(
                f"{where} prices {unit} by {option}; name it in options ({', '.join(values)})"
            )
        return found
    for fee in fees:
        if fee.value == wanted:
            return fee
    hint = suggest(str(wanted), values) or "one of " + ", ".join(values)
    raise ValueError(f"{where} has no {unit} fee for {option}={wanted!r}; {hint}")


def fee_lines(
    fees: tuple[Fee, ...], counts: Mapping[str, int], options: Mapping[str, str], where: str
) -> tuple[FeeLine, ...]:
    """The fee lines of one request's usage; an option no fee depends on is an error."""
    known = {f.option for f in fees if f.option is not None}
    for name in sorted(options):
        if name not in known:
            hint = suggest(name, sorted(known)) if known else None
            raise ValueError(
                f"{where} has no fee that depends on option '{name}'"
                + (f"; {hint}" if hint else "")
            )
    by_unit: dict[str, list[Fee]] = {}
    for fee in fees:
        by_unit.setdefault(fee.unit, []).append(fee)
    for unit, field in FEE_COUNTS.items():
        # billed calls of a model whose fees the catalog does not list (a model that lists some,
        # such as Sonar's per-request fee that covers its searches, lists all it bills)
        if unit != "request" and counts[field] and not fees:
            n = counts[field]
            calls = unit.replace("_", " ") + ("" if n == 1 else "es" if unit.endswith("h") else "s")
            raise PricingUnavailable(
                f"{where} lists no fees in the catalog, and the usage reports {n:,} {calls} "
                f"({field}), which the vendor may bill: a total without them could be too low "
                "(add the fee under the model's `prices: fees:`, or leave the count out to cost "
                "the tokens alone)"
            )
    lines = []
    for unit, group in by_unit.items():
        fee = _pick(unit, group, options, where)
        count = counts[FEE_COUNTS[unit]]
        chosen = f"{fee.option}={options.get(fee.option, fee.value)}" if fee.option else None
        lines.append(FeeLine(unit, count, fee.price, fee.per, chosen, fee.price * count / fee.per))
    return tuple(lines)
