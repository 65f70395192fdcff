"""The cross-catalog drift check: every bundled model's facts against two independent catalogs.

genai-prices (its pinned release's bundled data, no network) and the models.dev snapshot in
``../shared/datasets/`` each say what they know of a model: prices (every period genai-prices
dates), limits, lifecycle status and release date. genai-prices' prices include its fees per
1,000 requests and billed tool calls (``requests_kcount``, ``web_searches_kcount``, ...), compared
as ``prices.fees.<unit>`` with the catalog's ``fees:`` in USD per 1,000 (where a fee depends on a
request option, the vendor's default one). A fact both state and state differently is a
difference; so is a price or fee the other catalog lists and ours leaves out (that cost would be
missing from every estimate). A difference passes only where the model's YAML records it under
``differences`` with a reason and a source; a record that no longer differs is stale.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache
from typing import Any

from provcat.models.prices import FEE_COUNTS

__all__ = ["Difference", "differences", "recorded"]

MODELS_DEV_DAY = date(2026, 7, 2)  # the snapshot's commit date: its prices are that day's

# bundled provider -> (genai-prices provider id, models.dev provider id)
PROVIDERS = {
    "anthropic": ("anthropic", "anthropic"),
    "cerebras": ("cerebras", "cerebras"),
    "deepinfra": (None, "deepinfra"),
    "deepseek": ("deepseek", "deepseek"),
    "fireworks": ("fireworks", "fireworks-ai"),
    "gemini": ("google", "google"),
    "groq": ("groq", "groq"),
    "mistral": ("mistral", "mistral"),
    "nvidia_nim": (None, "nvidia"),
    "openai": ("openai", "openai"),
    "openrouter": ("openrouter", "openrouter"),
    "perplexity": ("perplexity", "perplexity"),
    "together": ("together", "togetherai"),
    "xai": ("x-ai", "xai"),
}
# genai-prices' ModelPrice attribute -> our price field
GENAI_PRICES = {
    "input_mtok": "input",
    "output_mtok": "output",
    "cache_read_mtok": "cache_read",
    "cache_write_mtok": "cache_write",
    "cache_write_1h_mtok": "cache_write_1h",
    "input_audio_mtok": "input_audio",
    "cache_audio_read_mtok": "cache_read_audio",
    "output_audio_mtok": "output_audio",
    "output_reasoning_mtok": "reasoning",
    "output_citation_mtok": "citation",
}
# genai-prices' fee attribute (USD per 1,000) -> our fee unit, as ``prices.fees.<unit>``
GENAI_FEES = {f"{count}_kcount": unit for unit, count in FEE_COUNTS.items()}
_PLAIN = ("input", "output", "cache_read", "cache_write", "cache_write_1h")


@dataclass(frozen=True, order=True)
class Difference:
    provider: str
    model: str
    catalog: str
    field: str
    ours: str
    theirs: str

    def __str__(self) -> str:
        return (
            f"{self.provider}/{self.model}: {self.field} is {self.ours} here, {self.theirs} in "
            f"{self.catalog}"
        )


def _periods(prices: Any) -> list[tuple[date | None, Mapping[str, Any]]]:
    if isinstance(prices, Mapping):
        return [(None, prices)]
    return [(date.fromisoformat(p["from"]) if p.get("from") else None, p) for p in prices]


def _on(prices: Any, day: date) -> Mapping[str, Any] | None:
    """Our price block in force on ``day``."""
    for p in prices if not isinstance(prices, Mapping) else [prices]:
        start = p.get("from")
        end = p.get("until")
        if (not start or date.fromisoformat(start) <= day) and (
            not end or day < date.fromisoformat(end)
        ):
            return p
    return None


def _flat(value: Any) -> Decimal | None:
    """A genai-prices price as one number; a tiered one by its base (tiers are compared by
    estimate_cost's own test against genai-prices)."""
    if value is None:
        return None
    return Decimal(str(getattr(value, "base", value)))


def _fees_per_1000(block: Mapping[str, Any]) -> dict[str, Decimal]:
    """A price block's fees as ``fees.<unit>`` -> USD per 1,000 units: the fee that applies when
    the request sends no option (the only fee of its unit, or the one marked ``default``)."""
    out: dict[str, Decimal] = {}
    for fee in block.get("fees", ()):
        if fee.get("when") and not fee.get("default"):
            continue
        per = Decimal(fee.get("per", 1))
        out[f"fees.{fee['unit']}"] = Decimal(str(fee["price"])) * 1000 / per
    return out


def _genai_model(provider: str, model: str, aliases: tuple[str, ...]) -> Any:
    from genai_prices import data

    pid = PROVIDERS[provider][0]
    if pid is None:
        return None
    found = next((p for p in data.providers if p.id == pid), None)
    if found is None:
        return None
    for ref in (model, *aliases):
        hit = found.find_model(ref)  # no fallback to other providers: this vendor's own entry
        if hit is not None:
            return hit
    return None


def _genai_prices(info: Any) -> list[tuple[date | None, Any]]:
    """(start day or None, ModelPrice) for each date-constrained price; a time-of-day price is
    not a period (the base price is the one compared)."""
    from genai_prices.types import ConditionalPrice, StartDateConstraint

    if not isinstance(info.prices, list):
        return [(None, info.prices)]
    out = []
    for c in info.prices:
        assert isinstance(c, ConditionalPrice)
        if c.constraint is None:
            out.append((None, c.prices))
        elif isinstance(c.constraint, StartDateConstraint):
            out.append((c.constraint.start_date, c.prices))
    return out


def _genai_on(periods: list[tuple[date | None, Any]], day: date) -> Any:
    chosen = None
    for start, price in periods:
        if start is None or start <= day:
            chosen = price
    return chosen


def _compare_prices(
    provider: str, model: str, catalog: str, ours: Mapping[str, Any], theirs: Mapping[str, Decimal]
) -> Iterator[Difference]:
    for name, value in theirs.items():
        mine = ours.get(name)
        if mine is None:
            if value != 0:
                yield Difference(provider, model, catalog, f"prices.{name}", "missing", str(value))
        elif Decimal(str(mine)) != value:
            yield Difference(provider, model, catalog, f"prices.{name}", str(mine), str(value))


def _genai(provider: str, record: Mapping[str, Any]) -> Iterator[Difference]:
    model = record["model"]
    info = _genai_model(provider, model, tuple(record.get("aliases", ())))
    if info is None:
        return
    catalog = "genai-prices"
    window = record.get("context_window")
    if window is not None and info.context_window is not None and window != info.context_window:
        yield Difference(
            provider, model, catalog, "context_window", str(window), str(info.context_window)
        )
    theirs = _genai_prices(info)
    prices = record.get("prices")
    if prices is None:
        return
    days = sorted(
        {d for d, _ in theirs if d is not None} | {d for d, _ in _periods(prices) if d is not None}
    )
    seen: set[Difference] = set()
    for day in [date(2026, 12, 1), *days]:
        mine = _on(prices, day)
        price = _genai_on(theirs, day)
        if mine is None or price is None:
            continue
        listed = {
            ours: v
            for attr, ours in GENAI_PRICES.items()
            if (v := _flat(getattr(price, attr, None))) is not None
        }
        listed |= {
            f"fees.{unit}": v
            for attr, unit in GENAI_FEES.items()
            if (v := _flat(getattr(price, attr, None))) is not None
        }
        ours = {**mine, **_fees_per_1000(mine)}
        for diff in _compare_prices(provider, model, catalog, ours, listed):
            if diff not in seen:
                seen.add(diff)
                yield diff


@cache
def _models_dev() -> dict[str, dict[str, dict[str, Any]]]:
    from generator.importers.models_dev import import_snapshot
    from generator.importers.source import open_snapshot

    only = frozenset(ids[1] for ids in PROVIDERS.values())
    from tests.scale.conftest import dataset_path

    result = import_snapshot(open_snapshot(dataset_path()), only)
    return {p.key: dict(p.document.get("models", {})) for p in result.providers}


def _models_dev_diffs(provider: str, record: Mapping[str, Any]) -> Iterator[Difference]:
    model = record["model"]
    theirs = _models_dev().get(PROVIDERS[provider][1], {}).get(model)
    if theirs is None:
        return
    catalog = "models.dev"
    for name in ("context_window", "max_output_tokens", "release_date"):
        mine, other = record.get(name), theirs.get(name)
        if mine is not None and other is not None and mine != other:
            yield Difference(provider, model, catalog, name, str(mine), str(other))
    status = record.get("status", "active")
    other_status = theirs.get("status", "active")
    if status != other_status and status != "retired":  # models.dev drops retired models
        yield Difference(provider, model, catalog, "status", status, other_status)
    prices = record.get("prices")
    other_prices = theirs.get("prices")
    if prices is not None and isinstance(other_prices, Mapping):
        mine = _on(prices, MODELS_DEV_DAY)
        if mine is not None:
            listed = {
                k: Decimal(str(other_prices[k])) for k in _PLAIN if other_prices.get(k) is not None
            }
            yield from _compare_prices(provider, model, catalog, mine, listed)


def differences() -> list[Difference]:
    """Every difference between the bundled inventory and the two catalogs, sorted."""
    from provcat_catalog.inventory import MODELS

    found: set[Difference] = set()
    for provider in PROVIDERS:
        for record in MODELS.get(provider, ()):
            found.update(_genai(provider, record))
            found.update(_models_dev_diffs(provider, record))
    return sorted(found)


def recorded() -> dict[tuple[str, str, str, str], str]:
    """(provider, model, catalog, field) -> reason, for every difference a model's YAML records."""
    from provcat_catalog.inventory import MODELS

    out = {}
    for provider in PROVIDERS:
        for record in MODELS.get(provider, ()):
            for entry in record.get("differences", ()):
                for name in entry["fields"]:
                    out[(provider, record["model"], entry["catalog"], name)] = entry["reason"]
    return out
