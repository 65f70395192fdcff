"""estimate_cost on the acme test catalog. acme-large-2 carries Anthropic's published Claude
Sonnet 4.5 prices (input $3, 5-minute cache write $3.75, 1-hour $6, cache read $0.30, output $15;
above 200K input tokens $6 / $22.50 / $7.50 / $12 / $0.60; batch half price), so every expected
value below is worked out by hand from that table, not from our code."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest

from provcat import estimate_cost
from provcat.errors import PricingUnavailable
from provcat.models.prices import Prices
from tests.models.inventory_catalog import use_acme


@pytest.fixture(autouse=True)
def acme() -> Iterator[dict[str, Any]]:
    yield from use_acme()


@dataclass
class Usage:
    """Shaped like genai_prices.Usage (its field names and None defaults)."""

    input_tokens: int | None = None
    cache_write_tokens: int | None = None
    cache_read_tokens: int | None = None
    output_tokens: int | None = None
    input_audio_tokens: int | None = None
    cache_audio_read_tokens: int | None = None
    output_audio_tokens: int | None = None


def test_genai_prices_readme_usage_counts_cache_writes_inside_input_tokens() -> None:
    # genai-prices' README example: input_tokens=4740 includes the 4735 cache-write tokens
    usage = Usage(
        input_tokens=4740, cache_read_tokens=0, cache_write_tokens=4735, output_tokens=255
    )
    cost = estimate_cost("acme", "acme-large-2", usage)
    assert cost.input == Decimal("0.000015")  # 5 x $3 / 1M
    assert cost.cache_write == Decimal("0.01775625")  # 4735 x $3.75 / 1M
    assert cost.output == Decimal("0.003825")  # 255 x $15 / 1M
    assert cost.total == Decimal("0.02159625")
    assert cost.tier is None and cost.batch is False


def test_a_mapping_and_an_object_give_the_same_cost() -> None:
    as_map = {"input_tokens": 1000, "cache_read_tokens": 200, "output_tokens": 50}
    as_obj = Usage(input_tokens=1000, cache_read_tokens=200, output_tokens=50)
    assert estimate_cost("acme", "acme-large-2", as_map) == estimate_cost(
        "acme", "acme-large-2", as_obj
    )
    # 800 x $3 + 200 x $0.30 + 50 x $15 = 2400 + 60 + 750 micro-dollars
    assert estimate_cost("acme", "acme-large-2", as_map).total == Decimal("0.00321")


def test_long_context_tier_prices_the_whole_request() -> None:
    usage = {"input_tokens": 250_000, "cache_read_tokens": 50_000, "output_tokens": 1000}
    cost = estimate_cost("acme", "ACME-LARGE-2", usage)
    assert cost.tier == 200_000
    assert cost.input == Decimal("1.2")  # 200,000 x $6
    assert cost.cache_read == Decimal("0.03")  # 50,000 x $0.60
    assert cost.output == Decimal("0.0225")  # 1,000 x $22.50
    assert cost.total == Decimal("1.2525")


def test_the_threshold_itself_stays_in_the_base_tier() -> None:
    cost = estimate_cost("acme", "acme-large-2", {"input_tokens": 200_000})
    assert cost.tier is None and cost.total == Decimal("0.6")


def test_one_hour_cache_writes() -> None:
    usage = {"input_tokens": 1000, "cache_write_tokens": 1000, "cache_write_1h_tokens": 400}
    # 600 x $3.75 + 400 x $6
    assert estimate_cost("acme", "acme-large-2", usage).cache_write == Decimal("0.00465")


def test_batch_prices() -> None:
    cost = estimate_cost(
        "acme", "acme-large-2", {"input_tokens": 1000, "output_tokens": 1000}, batch=True
    )
    assert cost.batch and cost.total == Decimal("0.009")  # 1000 x $1.50 + 1000 x $7.50


def test_batch_discount_prices_cache_reads_and_writes_too() -> None:
    # Anthropic's batch page: half of every standard price, cache reads and writes included.
    # 40,000 x $1.50 + 50,000 x $0.15 + 10,000 x $1.875 + 1,000 x $7.50
    usage = {
        "input_tokens": 100_000,
        "cache_read_tokens": 50_000,
        "cache_write_tokens": 10_000,
        "output_tokens": 1_000,
    }
    cost = estimate_cost("acme", "acme-large-2", usage, batch=True)
    assert (cost.input, cost.cache_read, cost.cache_write) == (
        Decimal("0.06"),
        Decimal("0.0075"),
        Decimal("0.01875"),
    )
    assert cost.total == Decimal("0.09375")


def test_batch_discount_applies_to_the_long_context_tier() -> None:
    # above 200K input tokens: $6 input, half price in a batch: 250,000 x $3
    cost = estimate_cost("acme", "acme-large-2", {"input_tokens": 250_000}, batch=True)
    assert cost.tier == 200_000 and cost.total == Decimal("0.75")


def test_batch_above_a_tier_without_batch_tier_prices_is_an_error() -> None:
    with pytest.raises(PricingUnavailable, match="no batch prices above 50000"):
        estimate_cost("acme", "acme-listed", {"input_tokens": 60_000}, batch=True)


def test_listed_batch_prices() -> None:
    cost = estimate_cost(
        "acme", "acme-listed", {"input_tokens": 1000, "output_tokens": 1000}, batch=True
    )
    assert cost.total == Decimal("0.005")  # 1000 x $1 + 1000 x $4


def test_batch_on_a_model_without_batch_prices_is_an_error() -> None:
    with pytest.raises(PricingUnavailable, match="no batch prices"):
        estimate_cost("acme", "acme-old", {"input_tokens": 10}, batch=True)


def test_a_model_without_prices_is_an_error_never_a_zero() -> None:
    with pytest.raises(PricingUnavailable, match="has no prices"):
        estimate_cost("acme", "acme-free", {"input_tokens": 10, "output_tokens": 10})


def test_audio_parts() -> None:
    usage = Usage(
        input_tokens=1000,
        cache_read_tokens=400,
        input_audio_tokens=300,
        cache_audio_read_tokens=100,
        output_tokens=500,
        output_audio_tokens=200,
    )
    cost = estimate_cost("acme", "acme-voice", usage)
    assert cost.input == Decimal("0.001")  # (1000 - 200 uncached audio - 400 cached) x $2.50
    assert cost.cache_read == Decimal("0.000625")  # 300 x $1.25 + 100 x $2.50
    assert cost.input_audio == Decimal("0.008")  # 200 x $40
    assert cost.output == Decimal("0.003")  # 300 x $10
    assert cost.output_audio == Decimal("0.016")  # 200 x $80
    assert cost.total == Decimal("0.028625")


def test_reasoning_billed_apart_only_where_priced_apart() -> None:
    usage = {"output_tokens": 1000, "reasoning_tokens": 600}
    think = estimate_cost("acme", "acme-think", usage)
    assert (think.output, think.reasoning) == (Decimal("0.0016"), Decimal("0.0048"))
    large = estimate_cost("acme", "acme-large-2", usage)
    assert (large.output, large.reasoning) == (Decimal("0.015"), Decimal(0))


def test_citation_tokens_cost_the_output_price_where_not_priced_apart() -> None:
    # acme-think prices reasoning apart ($8) but not citation tokens: like reasoning tokens on a
    # model without a reasoning price, they stay in the output at its $4 (sonar-deep-research,
    # which prices them apart, is in test_bundled_inventory.py)
    usage = {"output_tokens": 1000, "reasoning_tokens": 600, "citation_tokens": 300}
    cost = estimate_cost("acme", "acme-think", usage)
    assert cost.output == Decimal("0.0016")  # (1000 - 600 reasoning) x $4, citations included
    assert cost.reasoning == Decimal("0.0048")  # 600 x $8
    assert cost.citation == Decimal(0)
    assert cost.as_dict()["citation"] == "0"


def test_a_retired_model_still_prices_past_usage() -> None:
    usage = {"input_tokens": 1000, "output_tokens": 1000}
    assert estimate_cost("acme", "acme-ancient", usage).total == Decimal("0.09")


@pytest.mark.parametrize(
    ("usage", "error", "text"),
    [
        ({"input_tokens": -1}, ValueError, "cannot be negative"),
        ({"output_tokens": -5}, ValueError, "cannot be negative"),
        ({"input_tokens": 10, "cache_read_tokens": 11}, ValueError, "above input_tokens"),
        (
            {"input_tokens": 10, "cache_read_tokens": 6, "cache_write_tokens": 5},
            ValueError,
            "above input_tokens",
        ),
        ({"output_tokens": 10, "reasoning_tokens": 11}, ValueError, "above output_tokens"),
        # each check names its own rule, not the whole input's
        (
            {"input_tokens": 2000, "cache_write_tokens": 500, "cache_write_1h_tokens": 600},
            ValueError,
            r"cache_write_1h_tokens \(600\) is above cache_write_tokens \(500\): "
            "cache_write_tokens counts every cache write, those for an hour included$",
        ),
        (
            {
                "input_tokens": 2000,
                "input_audio_tokens": 500,
                "cache_read_tokens": 100,
                "cache_audio_read_tokens": 200,
            },
            ValueError,
            r"cache_audio_read_tokens \(200\) is above cache_read_tokens \(100\): "
            "cache_read_tokens counts every cache read, audio ones included$",
        ),
        (
            {
                "input_tokens": 2000,
                "input_audio_tokens": 100,
                "cache_read_tokens": 500,
                "cache_audio_read_tokens": 200,
            },
            ValueError,
            r"cache_audio_read_tokens \(200\) is above input_audio_tokens \(100\): "
            "input_audio_tokens counts the whole audio input, its cache reads included$",
        ),
        ({"output_tokens": 10, "citation_tokens": -1}, ValueError, "cannot be negative"),
        ({"output_tokens": 10, "citation_tokens": 2.5}, TypeError, "must be an int"),
        (
            {"output_tokens": 10, "reasoning_tokens": 6, "citation_tokens": 5},
            ValueError,
            r"reasoning_tokens \+ citation_tokens \(11\) is above output_tokens",
        ),
        ({"input_tokens": 1.5}, TypeError, "must be an int"),
        ({"input_tokens": True}, TypeError, "must be an int"),
        # a misspelt or vendor-named field is refused, never costed as zero tokens
        ({"input_tokens": 10, "outptu_tokens": 5}, ValueError, "did you mean 'output_tokens'"),
        # a vendor's own names are read (test_usage.py), but not mixed with another's
        (
            {"prompt_tokens": 10, "output_tokens": 5},
            ValueError,
            "no field 'output_tokens' .*OpenAI Chat Completions.*did you mean 'completion_tokens'",
        ),
    ],
)
def test_bad_usage(usage: dict[str, Any], error: type[Exception], text: str) -> None:
    with pytest.raises(error, match=text):
        estimate_cost("acme", "acme-large-2", usage)


def test_as_dict_keeps_exact_strings() -> None:
    cost = estimate_cost("acme", "acme-large-2", {"input_tokens": 3, "output_tokens": 1})
    data = cost.as_dict()
    assert data["total"] == "0.000024" and data["currency"] == "USD"


def test_a_usage_object_with_none_of_the_fields_is_refused() -> None:
    @dataclass
    class Timing:  # no token count of any shape
        seconds: float

    with pytest.raises(TypeError, match="has none of the fields"):
        estimate_cost("acme", "acme-large-2", Timing(1.0))


def test_an_empty_usage_mapping_is_refused_not_costed_at_zero() -> None:
    with pytest.raises(TypeError, match="has none of the fields"):
        estimate_cost("acme", "acme-large-2", {})
    assert estimate_cost("acme", "acme-large-2", {"input_tokens": 0}).total == 0  # said: zero


def test_tiny_prices_and_amounts_are_written_without_an_exponent() -> None:
    """A price below a millionth of a dollar is `0.0000005` in the JSON of `provcat models`, not
    str(Decimal)'s `5E-7`; a cost's strings are plain too, and `:f` prints its Decimal plainly."""
    prices = Prices.from_record(
        {
            "input": "0.0000001",
            "output": "0.30",
            "batch": {"discount": "0.0000005"},
            "tiers": [{"above_input_tokens": 1000, "input": "0.0000002"}],
            "fees": [{"unit": "request", "price": "0.0000005"}],
        }
    )
    data = prices.as_dict()
    assert data["input"] == "0.0000001" and data["output"] == "0.30"  # digits as written
    assert data["batch"]["discount"] == "0.0000005"
    assert data["tiers"][0]["input"] == "0.0000002"
    assert data["fees"][0]["price"] == "0.0000005"
    assert "E" not in json.dumps(data)
    assert Decimal(data["input"]) == Decimal("1E-7")  # exact, read back
    cost = estimate_cost("acme", "acme-large-2", {"input_tokens": 1, "cache_read_tokens": 1})
    assert cost.cache_read == Decimal("3.0E-7")  # 1 token x $0.30 per million
    assert cost.as_dict()["cache_read"] == "0.0000003"
    assert f"{cost.total:f}" == "0.00000030"  # as docs/calling.md prints it: digits kept
