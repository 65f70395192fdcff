"""Every ``as_of`` takes a date or a datetime (read as its own date), and refuses anything else in
words that name it; a day before a model's release is judged by its status as written
(tester's findings 7 and 8)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

import pytest

from provcat import ModelDeprecated, ModelRetired, estimate_cost, get_model, list_models
from tests.models.inventory_catalog import use_acme


@pytest.fixture(autouse=True)
def acme() -> Iterator[dict[str, Any]]:
    yield from use_acme()


def test_get_model_reads_a_datetime_as_its_date() -> None:
    # acme-sunset: deprecated from 2027-03-01, shut down on 2027-06-01
    assert get_model("acme", "acme-sunset", as_of=datetime(2027, 2, 28, 23, 59)).id == "acme-sunset"
    with pytest.warns(ModelDeprecated):
        get_model("acme", "acme-sunset", as_of=datetime(2027, 3, 1, 0, 0))
    with pytest.raises(ModelRetired, match="since 2027-06-01"):
        get_model("acme", "acme-sunset", as_of=datetime(2027, 6, 1, 12, tzinfo=UTC))


def test_every_as_of_takes_a_datetime() -> None:
    on = datetime(2026, 12, 1, 8, 30)
    assert [m.id for m in list_models("acme", status="retired", as_of=on)] == ["acme-ancient"]
    info = get_model("acme", "acme-large-2")
    sunset = list_models("acme", status="active", as_of=datetime(2027, 2, 1))
    assert "acme-sunset" in [m.id for m in sunset]
    assert info.lifecycle(on) == info.lifecycle(on.date())
    assert info.prices_on(on) == info.prices_on(on.date())
    assert info.as_dict(on) == info.as_dict(on.date())
    assert info.next_price_change(on) == info.next_price_change(on.date())
    cost = estimate_cost("acme", "acme-large-2", {"input_tokens": 10, "output_tokens": 5}, as_of=on)
    assert cost.as_of == date(2026, 12, 1) and type(cost.as_of) is date


@pytest.mark.parametrize("bad", ["2027-01-01", 20270101])
def test_an_as_of_that_is_no_date_is_a_type_error_naming_it(bad: object) -> None:
    info = get_model("acme", "acme-large-2")
    calls = [
        lambda: get_model("acme", "acme-sunset", as_of=bad),  # type: ignore[arg-type]
        lambda: get_model("acme", "acme-large-2", as_of=bad),  # type: ignore[arg-type]
        lambda: list_models("acme", as_of=bad),  # type: ignore[arg-type]
        lambda: info.lifecycle(bad),  # type: ignore[arg-type]
        lambda: info.prices_on(bad),  # type: ignore[arg-type]
        lambda: estimate_cost("acme", "acme-large-2", {"input_tokens": 1}, as_of=bad),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(TypeError, match=r"^as_of must be a datetime\.date"):
            call()


def test_a_day_before_release_is_judged_by_the_status_as_written() -> None:
    """Documented (docs/models.md, provcat.models.lifecycle): the release date is no lifecycle
    date; there is no "unreleased" state and a preview is a vendor's stage, not a day's."""
    released = get_model("acme", "acme-large-2")  # status active, released 2025-09-29
    assert released.release_date == "2025-09-29"
    assert released.lifecycle(date(2025, 9, 28)) == "active"
    ancient = next(m for m in list_models("acme") if m.id == "acme-ancient")
    assert ancient.lifecycle(date(2024, 3, 3)) == "retired"  # marked retired by the vendor
