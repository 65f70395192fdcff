"""Equal price records share one frozen PriceSet (and equal price texts one Decimal), so a large
inventory holds each distinct price once; the values stay exactly what the snapshot wrote."""

from __future__ import annotations

from decimal import Decimal

from provcat.models.inventory import PriceSet


def test_equal_records_share_one_price_set() -> None:
    first = PriceSet.from_record({"input": "0.10", "output": "2.50"})
    second = PriceSet.from_record({"output": "2.50", "input": "0.10"})
    assert first is second
    other = PriceSet.from_record({"input": "0.10", "output": "2.5"})
    assert other is not first
    assert other.input is first.input  # the same text: the same Decimal
    assert first.as_dict() == {"input": "0.10", "output": "2.50"}  # trailing zeros kept
    assert other.as_dict() == {"input": "0.10", "output": "2.5"}
    assert first.input == Decimal("0.1") and first.cache_read is None


def test_prices_that_are_not_text_are_not_shared() -> None:
    whole = PriceSet.from_record({"input": 1})
    assert whole.input == Decimal(1)
    assert PriceSet.from_record({"input": 1}) is not whole
