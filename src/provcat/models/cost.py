"""estimate_cost: an exact Decimal cost of one request's usage from the catalog's prices.

``usage`` uses genai-prices' ``Usage`` field names and meanings, so records move between the two
without translation: ``input_tokens`` is the whole input (cache reads, cache writes and audio
included), ``cache_read_tokens`` / ``cache_write_tokens`` are parts of it, ``input_audio_tokens``
too (``cache_audio_read_tokens`` is the cached part of the audio and of the cache reads), and
``output_audio_tokens`` is part of ``output_tokens``. Three optional parts go further:
``cache_write_1h_tokens`` (of the cache writes, at the 1-hour price), ``reasoning_tokens`` and
``citation_tokens`` (of the output, each billed apart only where the model prices it apart:
``reasoning``, ``citation``; elsewhere at the output price, as genai-prices costs its
``output_reasoning_tokens`` and ``output_citation_tokens``).

``usage`` may also be a :class:`~provcat.models.usage.TokenUsage`, a call's result (its
``usage``), or a vendor's own usage object or dict: OpenAI's ``prompt_tokens`` /
``completion_tokens`` with their details, Responses', Anthropic's, Gemini's ``usageMetadata``,
Perplexity's (``citation_tokens``, ``reasoning_tokens``, ``num_search_queries``,
``search_context_size``), Ollama's (:func:`provcat.models.usage_input.to_usage` reads each; a
field no shape holds is an error naming the field meant).

The prices are those in force on ``as_of`` (default today): a model whose vendor announced a
price change holds a schedule of periods, and the day picks one.

A long-context tier replaces the prices of the whole request once its input tokens exceed the
tier's threshold; ``batch=True`` uses the batch prices. A category the model does not price apart
is billed at the base input (or output) price. A model without prices is an error, never a zero.

Fees on top of tokens (provcat.models.fees) take their counts from ``usage`` too: ``requests``
(default 1: one call is one request), ``web_searches``, ``social_searches``, ``storage_searches``
and ``code_executions`` (default 0); each fee is one line of the cost. A fee that depends on a
request option takes the value ``options`` names, else the one the usage reports the request ran
with (Perplexity's ``search_context_size``), else the vendor's default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from provcat.errors import PricingUnavailable
from provcat.models.fees import FeeLine, fee_lines
from provcat.models.inventory import find_model, priced_as
from provcat.models.lifecycle import day_of
from provcat.models.prices import Fee, Prices, PriceSet
from provcat.models.usage import USAGE_FIELDS, TokenUsage
from provcat.models.usage_input import to_usage

__all__ = ["USAGE_FIELDS", "Cost", "FeeLine", "estimate_cost"]

_ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class Cost:
    """USD, exact. Each part is tokens x price per million; ``total`` is their sum.

    Each amount is a ``Decimal``, whose ``str()`` writes one below 0.000001 in exponent form
    (``3.0E-7``): print it with ``f"{cost.total:f}"`` (``0.00000030``), or take
    :meth:`as_dict`'s strings (``0.0000003``)."""

    provider: str
    model: str
    input: Decimal  # uncached text input
    cache_read: Decimal  # cached input read
    cache_write: Decimal  # input written to the cache (5-minute and 1-hour)
    input_audio: Decimal  # uncached audio input
    output: Decimal  # text output (reasoning and citation tokens included unless billed apart)
    reasoning: Decimal  # reasoning billed apart (zero where it is part of output)
    citation: Decimal  # citation tokens billed apart (zero where they are part of output)
    output_audio: Decimal
    batch: bool
    tier: int | None  # the threshold of the long-context tier applied, or None
    as_of: date | None = None  # the day whose prices were applied
    fees: tuple[FeeLine, ...] = ()  # per request and per billed tool call, one line each

    @property
    def total(self) -> Decimal:
        return (
            self.input
            + self.cache_read
            + self.cache_write
            + self.input_audio
            + self.output
            + self.reasoning
            + self.citation
            + self.output_audio
            + sum((f.amount for f in self.fees), _ZERO)
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: each amount as a plain decimal string without trailing zeros."""
        return {
            "provider": self.provider,
            "model": self.model,
            "currency": "USD",
            "input": _text(self.input),
            "cache_read": _text(self.cache_read),
            "cache_write": _text(self.cache_write),
            "input_audio": _text(self.input_audio),
            "output": _text(self.output),
            "reasoning": _text(self.reasoning),
            "citation": _text(self.citation),
            "output_audio": _text(self.output_audio),
            "total": _text(self.total),
            "batch": self.batch,
            "tier": self.tier,
            "as_of": self.as_of.isoformat() if self.as_of is not None else None,
            "fees": [f.as_dict() for f in self.fees],
        }


def _text(amount: Decimal) -> str:
    return format(amount.normalize(), "f")


def _counts(record: TokenUsage) -> dict[str, int]:
    """Every genai-prices count of ``record``, 0 if unset."""
    counts: dict[str, int] = {}
    for name in USAGE_FIELDS:
        value = getattr(record, name)
        if value is None:
            counts[name] = 1 if name == "requests" else 0  # one call is one request
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"usage {name} must be an int, not {type(value).__name__}")
        if value < 0:
            raise ValueError(f"usage {name} is {value}: counts cannot be negative")
        counts[name] = value
    return counts


def _options(
    record: TokenUsage, options: Mapping[str, str] | None, fees: tuple[Fee, ...], where: str
) -> dict[str, str]:
    """The caller's ``options``, plus each option the usage reports the request ran with where a
    fee depends on it; a caller's value that differs from the reported one is an error (the
    usage says what the vendor applied)."""
    named = dict(options or {})
    depends = {f.option for f in fees if f.option is not None}
    for name, value in record.options:
        if name not in depends:
            continue
        if named.setdefault(name, value) != value:
            raise ValueError(
                f"{where}: the usage reports {name}={value!r} and options name "
                f"{name}={named[name]!r}; drop one (the usage says what the vendor applied)"
            )
    return named


def _parts(c: dict[str, int]) -> None:
    """Each part fits inside its whole, or the usage record is inconsistent; the error says the
    rule its check holds the record to (genai-prices' ``Usage`` meanings, and the 1-hour cache
    writes as a part of the cache writes)."""
    checks = (
        ("cache_read_tokens + cache_write_tokens", "input_tokens",
         c["cache_read_tokens"] + c["cache_write_tokens"], c["input_tokens"],
         "input_tokens counts the whole input, cache reads and writes included"),
        ("cache_write_1h_tokens", "cache_write_tokens",
         c["cache_write_1h_tokens"], c["cache_write_tokens"],
         "cache_write_tokens counts every cache write, those for an hour included"),
        ("cache_audio_read_tokens", "cache_read_tokens",
         c["cache_audio_read_tokens"], c["cache_read_tokens"],
         "cache_read_tokens counts every cache read, audio ones included"),
        ("cache_audio_read_tokens", "input_audio_tokens",
         c["cache_audio_read_tokens"], c["input_audio_tokens"],
         "input_audio_tokens counts the whole audio input, its cache reads included"),
        ("uncached audio + cache reads + cache writes", "input_tokens",
         c["input_audio_tokens"] - c["cache_audio_read_tokens"] + c["cache_read_tokens"]
         + c["cache_write_tokens"], c["input_tokens"],
         "input_tokens counts the whole input, cached and audio tokens included"),
        ("output_audio_tokens + reasoning_tokens + citation_tokens", "output_tokens",
         c["output_audio_tokens"] + c["reasoning_tokens"] + c["citation_tokens"],
         c["output_tokens"],
         "output_tokens counts the whole output, reasoning, citation and audio tokens included"),
    )  # fmt: skip
    for part, whole, a, b, rule in checks:
        if a > b:
            raise ValueError(f"usage {part} ({a}) is above {whole} ({b}): {rule}")


def _select(
    prices: Prices, input_tokens: int, batch: bool, where: str
) -> tuple[PriceSet, int | None]:
    if batch:
        if prices.batch is None:
            raise PricingUnavailable(f"{where} has no batch prices in the catalog")
        base, tiers = prices.batch, prices.batch_tiers
        if not tiers and any(input_tokens > t.above_input_tokens for t in prices.tiers):
            raise PricingUnavailable(
                f"{where} has no batch prices above {prices.tiers[0].above_input_tokens} input "
                "tokens in the catalog"
            )
    else:
        base, tiers = prices.base, prices.tiers
    chosen = None
    for tier in tiers:
        if input_tokens > tier.above_input_tokens:
            chosen = tier
    if chosen is None:
        return base, None
    return chosen.prices.over(base), chosen.above_input_tokens


def _mtok(tokens: int, price: Decimal | None) -> Decimal:
    if not tokens:
        return _ZERO
    assert price is not None
    return (price * tokens).scaleb(-6)


def _first(*prices: Decimal | None) -> Decimal | None:
    for price in prices:
        if price is not None:
            return price
    return None


def estimate_cost(
    provider: str,
    model: str,
    usage: Any,
    *,
    batch: bool = False,
    as_of: date | None = None,
    options: Mapping[str, str] | None = None,
) -> Cost:
    """The cost of ``usage`` on ``model`` of ``provider`` at the prices in force on ``as_of``
    (default today; a datetime is read as its date), with the fees the model lists; ``options`` names the request options a fee
    depends on, such as ``{"search_context_size": "high"}`` (see the module docstring)."""
    day = day_of(as_of)  # a datetime is read as its date
    info = find_model(provider, model)
    where = f"model '{info.provider}/{info.id}'"
    prices = priced_as(info).prices_on(day)
    if prices is None and info.price_periods:
        spans = ", ".join(f"{p.start or '…'} to {p.end or '…'}" for p in info.price_periods)
        raise PricingUnavailable(
            f"{where} has no price in force on {day.isoformat()} in the catalog (its prices "
            f"hold {spans}; `until` is exclusive)"
        )
    if prices is None:
        if info.lifecycle() == "retired":  # no use adding prices: say what to move to
            then = f"; its successor is '{info.successor}'" if info.successor else ""
            raise PricingUnavailable(f"{where} is retired and has no prices in the catalog{then}")
        raise PricingUnavailable(
            f"{where} has no prices in the catalog; add them under its `prices:` "
            "(no estimate is better than a zero)"
        )
    record = to_usage(usage)
    c = _counts(record)
    _parts(c)
    p, tier = _select(prices, c["input_tokens"], batch, where)
    if p.input is None or p.output is None:
        raise PricingUnavailable(f"{where} lacks an input or output price")
    audio_cached = c["cache_audio_read_tokens"]
    audio_uncached = c["input_audio_tokens"] - audio_cached
    text_uncached = (
        c["input_tokens"] - audio_uncached - c["cache_read_tokens"] - c["cache_write_tokens"]
    )
    write_1h = c["cache_write_1h_tokens"]
    reasoning = c["reasoning_tokens"] if p.reasoning is not None else 0
    citation = c["citation_tokens"] if p.citation is not None else 0
    return Cost(
        provider=info.provider,
        model=info.id,
        input=_mtok(text_uncached, p.input),
        cache_read=_mtok(c["cache_read_tokens"] - audio_cached, _first(p.cache_read, p.input))
        + _mtok(audio_cached, _first(p.cache_read_audio, p.cache_read, p.input)),
        cache_write=_mtok(c["cache_write_tokens"] - write_1h, _first(p.cache_write, p.input))
        + _mtok(write_1h, _first(p.cache_write_1h, p.cache_write, p.input)),
        input_audio=_mtok(audio_uncached, _first(p.input_audio, p.input)),
        output=_mtok(
            c["output_tokens"] - c["output_audio_tokens"] - reasoning - citation, p.output
        ),
        reasoning=_mtok(reasoning, p.reasoning),
        citation=_mtok(citation, p.citation),
        output_audio=_mtok(c["output_audio_tokens"], _first(p.output_audio, p.output)),
        batch=batch,
        tier=tier,
        as_of=day,
        fees=fee_lines(prices.fees, c, _options(record, options, prices.fees, where), where),
    )
