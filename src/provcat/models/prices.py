"""Prices of a model: price sets, long-context tiers, batch prices, and the periods they hold in.

All amounts are exact ``Decimal`` USD per million tokens, read from the snapshot's decimal strings.
A model's prices are a schedule: one open period for a model whose price never changed, or the
periods the vendor announced, each from its ``from`` day (inclusive) until its ``until`` day
(exclusive). Which period holds is a question about a day, answered by :func:`period_on`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Any

__all__ = [
    "FEE_COUNTS",
    "PRICE_FIELDS",
    "Fee",
    "PriceChange",
    "PricePeriod",
    "PriceSet",
    "PriceTier",
    "Prices",
    "next_change",
    "period_on",
    "periods_from_record",
]

# the price fields of a block (USD per million tokens), as the catalog names them
PRICE_FIELDS = (
    "input",
    "output",
    "cache_read",
    "cache_write",
    "cache_write_1h",
    "input_audio",
    "cache_read_audio",
    "output_audio",
    "reasoning",
    "citation",
)


# Thousands of models repeat a few hundred prices: equal price texts share one Decimal, equal
# records one (frozen) PriceSet, and records of prices alone one open period. The caches are
# bounded, so catalog sources read one after another (tests, a refreshed catalog) cannot grow them
# without end.
_SHARED = 4096
_FIELD_SET = frozenset(PRICE_FIELDS)


@lru_cache(maxsize=_SHARED)
def _decimal(text: str) -> Decimal:
    return Decimal(text)


def _price_texts(raw: Mapping[str, Any]) -> tuple[str | None, ...] | None:
    """``raw``'s prices in ``PRICE_FIELDS`` order (None where not given) when each is text, as
    the snapshot writes them; None otherwise."""
    texts = tuple(raw.get(k) for k in PRICE_FIELDS)
    return texts if all(v is None or type(v) is str for v in texts) else None


def _shortest(value: Decimal) -> Decimal:
    """``value`` without trailing zeros, and never in exponent form (10, not 1E+1)."""
    plain = value.normalize()
    return plain.quantize(Decimal(1)) if plain == plain.to_integral_value() else plain


def _plain(value: Decimal) -> str:
    """``value`` as written, digit for digit, but never in exponent form: ``0.0000005``, where
    ``str()`` writes ``5E-7``."""
    return format(value, "f")


@dataclass(frozen=True, slots=True)
class PriceSet:
    """USD per million tokens; None where the vendor does not price the category apart."""

    input: Decimal | None = None
    output: Decimal | None = None
    cache_read: Decimal | None = None
    cache_write: Decimal | None = None
    cache_write_1h: Decimal | None = None
    input_audio: Decimal | None = None
    cache_read_audio: Decimal | None = None
    output_audio: Decimal | None = None
    reasoning: Decimal | None = None
    citation: Decimal | None = None  # citation tokens (Perplexity's Sonar Deep Research)

    @classmethod
    def from_record(cls, raw: Mapping[str, Any]) -> PriceSet:
        """Equal records give one shared (frozen) PriceSet, and equal price texts one Decimal:
        thousands of models repeat a few hundred prices."""
        texts = _price_texts(raw)
        if texts is None:
            return cls(**{k: Decimal(raw[k]) for k in PRICE_FIELDS if k in raw})
        return _price_set(texts)

    def scaled(self, factor: Decimal) -> PriceSet:
        """Every price times ``factor`` (a batch discount applied), without the trailing zeros
        the product carries (0.25 x 0.50 is written 0.125, not 0.1250)."""
        return PriceSet(
            **{
                k: _shortest(getattr(self, k) * factor) if getattr(self, k) is not None else None
                for k in PRICE_FIELDS
            }
        )

    def over(self, base: PriceSet) -> PriceSet:
        """These prices where given, ``base``'s elsewhere."""
        return PriceSet(
            **{
                k: getattr(self, k) if getattr(self, k) is not None else getattr(base, k)
                for k in PRICE_FIELDS
            }
        )

    def as_dict(self) -> dict[str, str]:
        return {k: _plain(getattr(self, k)) for k in PRICE_FIELDS if getattr(self, k) is not None}


# a fee's unit -> the usage count it multiplies (genai-prices' Usage names)
FEE_COUNTS = {
    "request": "requests",
    "web_search": "web_searches",
    "social_search": "social_searches",
    "storage_search": "storage_searches",
    "code_execution": "code_executions",
}


@dataclass(frozen=True, slots=True)
class Fee:
    """``price`` USD for every ``per`` units of ``unit`` (a request or a billed tool call); where
    ``option`` is set, only for requests that send ``option`` = ``value`` (or do not send it, when
    ``default``)."""

    unit: str
    price: Decimal
    per: int = 1
    option: str | None = None
    value: str | None = None
    default: bool = False

    @classmethod
    def from_record(cls, raw: Mapping[str, Any]) -> Fee:
        when = raw.get("when") or {}
        option, value = next(iter(when.items()), (None, None))
        return cls(
            raw["unit"],
            Decimal(str(raw["price"])),
            raw.get("per", 1),
            option,
            value,
            bool(raw.get("default", False)),
        )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"unit": self.unit, "price": _plain(self.price), "per": self.per}
        if self.option is not None:
            out["when"] = {self.option: self.value}
            out["default"] = self.default
        return out


@dataclass(frozen=True, slots=True)
class PriceTier:
    """Prices for a whole request whose input tokens are above ``above_input_tokens``."""

    above_input_tokens: int
    prices: PriceSet

    def as_dict(self) -> dict[str, Any]:
        return {"above_input_tokens": self.above_input_tokens, **self.prices.as_dict()}


@dataclass(frozen=True, slots=True)
class Prices:
    base: PriceSet
    tiers: tuple[PriceTier, ...] = ()
    batch: PriceSet | None = None  # base prices already filled in where the batch omits one
    batch_tiers: tuple[PriceTier, ...] = ()
    batch_discount: Decimal | None = None  # where the vendor states one discount for all
    fees: tuple[Fee, ...] = ()  # per request or per billed tool call, on top of tokens

    @classmethod
    def from_record(cls, raw: Mapping[str, Any]) -> Prices:
        base = PriceSet.from_record(raw)
        batch_raw = raw.get("batch")
        tiers = tuple(
            PriceTier(t["above_input_tokens"], PriceSet.from_record(t))
            for t in raw.get("tiers", ())
        )
        fees = tuple(Fee.from_record(f) for f in raw.get("fees", ()))
        if batch_raw is not None and "discount" in batch_raw:
            # one stated discount prices every field, cache reads and writes and tiers included
            discount = Decimal(str(batch_raw["discount"]))
            factor = 1 - discount
            return cls(
                base=base,
                tiers=tiers,
                batch=base.scaled(factor),
                batch_tiers=tuple(
                    PriceTier(t.above_input_tokens, t.prices.over(base).scaled(factor))
                    for t in tiers
                ),
                batch_discount=discount,
                fees=fees,
            )
        return cls(
            base=base,
            tiers=tiers,
            batch=PriceSet.from_record(batch_raw).over(base) if batch_raw is not None else None,
            batch_tiers=tuple(
                PriceTier(t["above_input_tokens"], PriceSet.from_record(t))
                for t in (batch_raw or {}).get("tiers", ())
            ),
            fees=fees,
        )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = self.base.as_dict()
        if self.tiers:
            out["tiers"] = [t.as_dict() for t in self.tiers]
        if self.batch is not None:
            out["batch"] = self.batch.as_dict()
            if self.batch_discount is not None:
                out["batch"]["discount"] = _plain(self.batch_discount)
            if self.batch_tiers:
                out["batch"]["tiers"] = [t.as_dict() for t in self.batch_tiers]
        if self.fees:
            out["fees"] = [f.as_dict() for f in self.fees]
        return out


@dataclass(frozen=True, slots=True)
class PricePeriod:
    """Prices that hold from ``start`` (inclusive; None: since the model was offered) until
    ``end`` (exclusive; None: until further notice)."""

    start: date | None
    end: date | None
    prices: Prices
    note: str | None = None
    sources: tuple[str, ...] = ()

    def holds(self, day: date) -> bool:
        return (self.start is None or self.start <= day) and (self.end is None or day < self.end)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "from": self.start.isoformat() if self.start else None,
            "until": self.end.isoformat() if self.end else None,
            **self.prices.as_dict(),
        }
        if self.note is not None:
            out["note"] = self.note
        if self.sources:
            out["source"] = list(self.sources)
        return out


@dataclass(frozen=True, slots=True)
class PriceChange:
    """The next change of a model's prices: on ``day`` the prices become ``prices`` (None: the
    catalog lists no price from that day)."""

    day: date
    prices: Prices | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "on": self.day.isoformat(),
            "prices": self.prices.as_dict() if self.prices is not None else None,
        }


def periods_from_record(raw: Any) -> tuple[PricePeriod, ...]:
    """The snapshot's ``prices`` (a mapping, or a tuple of periods) as periods in date order."""
    if isinstance(raw, Mapping):
        texts = _price_texts(raw) if raw.keys() <= _FIELD_SET else None
        if texts is None:  # tiers, batch prices or fees
            return (PricePeriod(None, None, Prices.from_record(raw)),)
        return _open_period(texts)
    out = []
    for period in raw:
        start, end = period.get("from"), period.get("until")
        sources = period.get("source", ())
        out.append(
            PricePeriod(
                date.fromisoformat(start) if start else None,
                date.fromisoformat(end) if end else None,
                Prices.from_record(period),
                period.get("note"),
                (sources,) if isinstance(sources, str) else tuple(sources),
            )
        )
    return tuple(out)


def period_on(periods: tuple[PricePeriod, ...], day: date) -> PricePeriod | None:
    """The period that holds on ``day``, or None (before the first, after the last, in a gap)."""
    for period in periods:
        if period.holds(day):
            return period
    return None


def next_change(periods: tuple[PricePeriod, ...], day: date) -> PriceChange | None:
    """The first day after ``day`` on which the prices differ from ``day``'s, or None."""
    current = period_on(periods, day)
    days = sorted(
        {p.start for p in periods if p.start is not None and p.start > day}
        | {p.end for p in periods if p.end is not None and p.end > day}
    )
    for then in days:
        found = period_on(periods, then)
        if (found.prices if found else None) != (current.prices if current else None):
            return PriceChange(then, found.prices if found else None)
    return None


@lru_cache(maxsize=_SHARED)
def _price_set(texts: tuple[str | None, ...]) -> PriceSet:
    """The one PriceSet of these price texts (``PRICE_FIELDS`` order, None where not given)."""
    given = zip(PRICE_FIELDS, texts, strict=True)
    return PriceSet(**{k: _decimal(v) for k, v in given if v is not None})


@lru_cache(maxsize=_SHARED)
def _open_period(texts: tuple[str | None, ...]) -> tuple[PricePeriod, ...]:
    """The one open period of a record of these price texts alone."""
    given = zip(PRICE_FIELDS, texts, strict=True)
    return (PricePeriod(None, None, Prices.from_record({k: v for k, v in given if v is not None})),)
