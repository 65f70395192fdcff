"""A model whose vendor announced a price change: estimate_cost, get_model and `provcat cost` on
the day asked, on the acme test catalog (acme-intro: $0.50 / $2 / $0.05 cache read until
2027-01-15, then $1 / $4 / $0.10). Expected totals are worked by hand from those prices."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from click.testing import CliRunner

from provcat import estimate_cost, get_model
from provcat.cli.main import main
from provcat.errors import PricingUnavailable
from provcat.models.inventory import _INVENTORY
from tests.models.inventory_catalog import use_acme

USAGE = {"input_tokens": 1_000_000, "cache_read_tokens": 200_000, "output_tokens": 100_000}


@pytest.fixture(autouse=True)
def acme() -> Iterator[dict[str, Any]]:
    yield from use_acme()


def test_estimate_uses_the_period_in_force_on_the_day() -> None:
    # 800,000 x 0.50 + 200,000 x 0.05 + 100,000 x 2, per million: 0.40 + 0.01 + 0.20
    before = estimate_cost("acme", "acme-intro", USAGE, as_of=date(2027, 1, 14))
    assert before.total == Decimal("0.61") and before.as_of == date(2027, 1, 14)
    # the same usage on the day the introductory rate ends: 0.80 + 0.02 + 0.40
    after = estimate_cost("acme", "acme-intro", USAGE, as_of=date(2027, 1, 15))
    assert after.total == Decimal("1.22")
    assert after.as_dict()["as_of"] == "2027-01-15"


def test_estimate_defaults_to_today() -> None:
    today = estimate_cost("acme", "acme-intro", USAGE)
    assert today.as_of == date.today()
    assert today.total == estimate_cost("acme", "acme-intro", USAGE, as_of=date.today()).total


def test_as_of_must_be_a_date() -> None:
    with pytest.raises(TypeError, match=r"as_of must be a datetime\.date"):
        estimate_cost("acme", "acme-intro", USAGE, as_of="2027-01-15")  # type: ignore[arg-type]


def test_get_model_shows_current_prices_and_the_next_change() -> None:
    info = get_model("acme", "acme-intro")
    on = date(2027, 1, 1)
    current = info.prices_on(on)
    assert current is not None and current.base.input == Decimal("0.50")
    change = info.next_price_change(on)
    assert change is not None and change.day == date(2027, 1, 15)
    assert change.prices is not None and change.prices.base.output == Decimal("4")
    assert info.next_price_change(date(2027, 1, 15)) is None
    data = info.as_dict(on)
    assert data["prices"] == {"input": "0.50", "output": "2", "cache_read": "0.05"}
    assert data["next_price_change"]["on"] == "2027-01-15"
    assert [p["from"] for p in data["price_schedule"]] == [None, "2027-01-15"]
    assert data["price_schedule"][1]["source"] == ["https://example.com/acme/pricing"]


def test_a_model_without_a_schedule_has_no_next_change() -> None:
    info = get_model("acme", "acme-think")
    assert info.next_price_change() is None
    assert "price_schedule" not in info.as_dict()


def test_no_price_in_force_is_an_error_never_a_zero(acme: dict[str, Any]) -> None:
    as_listed = estimate_cost("acme", "acme-intro", USAGE, as_of=date(2027, 2, 1))
    assert as_listed.total == Decimal("1.22")  # the rate from 2027-01-15 on
    # the same catalog republished with the introductory rate alone: it ends on 2027-01-15
    inventory = dict(acme["inventory"])
    inventory["acme"] = [
        {**m, "prices": m["prices"][:1]} if m["model"] == "acme-intro" else m
        for m in inventory["acme"]
    ]
    _INVENTORY._reset((inventory, acme["inventory_index"], acme["provider_index"]))
    with pytest.raises(PricingUnavailable, match="no price in force on 2027-02-01"):
        estimate_cost("acme", "acme-intro", USAGE, as_of=date(2027, 2, 1))


def test_cost_command_takes_the_day() -> None:
    args = ["cost", "acme", "acme-intro", "--input", "1000000", "--cached", "200000"]
    args += ["--output", "100000", "--format", "json"]
    runner = CliRunner()
    early = json.loads(runner.invoke(main, [*args, "--as-of", "2027-01-14"]).stdout)
    late = json.loads(runner.invoke(main, [*args, "--as-of", "2027-01-15"]).stdout)
    assert (early["total"], late["total"]) == ("0.61", "1.22")
    shown = runner.invoke(main, ["models", "show", "acme", "acme-intro", "--as-of", "2027-01-01"])
    assert "next price change on 2027-01-15:" in shown.stdout
