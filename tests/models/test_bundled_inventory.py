"""The bundled catalog's inventory: no lifecycle diagnostic as of the review day, every model
sourced, and the request defaults the issue names moved off deprecated or retired models."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from generator.pipeline import run
from provcat import ModelNotFound, ModelRetired, estimate_cost, get_model, list_models
from provcat.endpoints.registry import EndpointRegistry

CATALOG = Path(__file__).resolve().parents[2] / "catalog"
REVIEWED = date(2026, 12, 1)


def test_no_lifecycle_diagnostic_as_of_the_review_day() -> None:
    result = run(CATALOG, as_of=REVIEWED)
    assert result.ok
    # the models reviewed after that day (up to LAST_REVIEW) have review days in its future
    lifecycle = [d for d in result.diagnostics if d.code != "reviewed_at_in_future"]
    assert [d.as_text() for d in lifecycle] == []


LAST_REVIEW = date(2026, 12, 7)  # the drift audit of 2026-12-07 added gpt-6.2-sol


def test_every_model_with_facts_names_its_source_and_review_day() -> None:
    for m in list_models():
        if m.provider == "gemini_code":  # agy's display names: policy data, no vendor facts
            continue
        assert m.sources, f"{m.provider}/{m.id} has no source"
        assert all(s.startswith("https://") for s in m.sources)
        assert m.reviewed_at is not None and date.fromisoformat(m.reviewed_at) <= LAST_REVIEW, (
            f"{m.provider}/{m.id}"
        )


@pytest.mark.parametrize(
    ("provider", "old"),
    [
        ("deepseek", "deepseek-chat"),
        ("deepseek", "deepseek-reasoner"),
        ("gemini", "gemini-2.5-flash"),
        ("openrouter", "google/gemini-2.5-flash"),
        ("groq", "llama-3.3-70b-versatile"),
    ],
)
def test_retired_models_the_old_defaults_named(provider: str, old: str) -> None:
    with pytest.raises(ModelRetired) as caught:
        get_model(provider, old, as_of=REVIEWED)
    assert caught.value.successor is not None
    assert get_model(provider, caught.value.successor, as_of=REVIEWED).lifecycle(REVIEWED) in (
        "active",
        "preview",
        "deprecated",
    )


LIFECYCLE_REVIEW = date(2026, 12, 5)  # every model's lifecycle re-read (issue #27 item 8)


@pytest.mark.parametrize("day", [REVIEWED, LIFECYCLE_REVIEW])
def test_request_defaults_name_current_models(day: date) -> None:
    snapshot = EndpointRegistry.snapshot()
    checked = 0
    for key in (
        "openai", "gemini", "deepseek", "groq", "mistral", "xai", "openrouter", "cerebras",
        "fireworks", "together", "perplexity", "deepinfra", "nvidia_nim",
    ):  # fmt: skip
        for name, spec in snapshot.providers[key].endpoints.items():
            model = spec.request_defaults.get("model")
            if model is None:
                continue
            assert get_model(key, model, as_of=day).lifecycle(day) == "active", f"{key}/{model}"
            # a default never sits on a retired endpoint (deprecated ones still serve it)
            status = (spec.lifecycle or {}).get("status")
            assert status != "retired", f"{key}/{name} is retired but gives a default model"
            checked += 1
    assert checked > 0  # the providers above all have request defaults with a model


def test_no_default_or_alias_lifecycle_diagnostic_on_the_lifecycle_review_day() -> None:
    lifecycle = {
        "unknown_default_model",
        "retired_model_in_use",
        "deprecated_model_in_use",
        "request_default_on_retired_endpoint",
    }
    result = run(CATALOG, as_of=LIFECYCLE_REVIEW)
    assert result.ok
    assert [d.as_text() for d in result.diagnostics if d.code in lifecycle] == []


# Totals computed by genai-prices 0.2.3 (pydantic's reference implementation, its own price data)
# with calc_price(Usage(...), model_ref=..., provider_id=...) on 2026-12-01: an independent check
# of both the catalog's prices and estimate_cost's arithmetic, long-context tiers included.
# genai-prices 0.2.5 (the dev pin since 2026-12-05) gives the same totals, to the digit.
PRICED_ON = date(2026, 12, 1)
SMALL = {"input_tokens": 1000, "cache_read_tokens": 200, "output_tokens": 100}
GENAI_PRICES: list[tuple[Any, ...]] = [
    ("openai", "gpt-5-mini", SMALL, "0.000405"),
    ("openai", "gpt-6.1-terra", SMALL, "0.00131"),
    ("openai", "gpt-4.1-mini", SMALL, "0.00050"),
    (
        "openai",
        "gpt-6.1-terra",
        {"input_tokens": 300_000, "cache_read_tokens": 100_000, "output_tokens": 2000},
        "0.425",
    ),
    ("xai", "grok-4.3", SMALL, "0.00129"),
    (
        "xai",
        "grok-4.3",
        {"input_tokens": 250_000, "cache_read_tokens": 50_000, "output_tokens": 1000},
        "0.525",
    ),
    ("gemini", "gemini-3.8-flash", SMALL, "0.000990"),
    ("gemini", "gemini-3.5-flash", SMALL, "0.00213"),
    ("groq", "openai/gpt-oss-120b", SMALL, "0.000195"),
    # Gemini 3.8 Flash's introductory rate ends on 2027-01-01: genai-prices 0.2.3 with
    # genai_request_timestamp 2027-01-01T12:00Z gives twice the 2026 figure above
    ("gemini", "gemini-3.8-flash", SMALL, "0.00198", date(2027, 1, 1)),
    ("openai", "text-embedding-3-small", {"input_tokens": 1000}, "0.00002"),
]


@pytest.mark.parametrize("case", GENAI_PRICES, ids=lambda c: f"{c[1]}-{c[-1]}")
def test_costs_agree_with_genai_prices(case: tuple[Any, ...]) -> None:
    from decimal import Decimal

    provider, model, usage, total = case[:4]
    day = case[4] if len(case) > 4 else PRICED_ON  # the day genai-prices priced it
    assert estimate_cost(provider, model, usage, as_of=day).total == Decimal(total)


def test_deepseek_peak_prices_are_twice_genai_prices_off_peak_figure() -> None:
    from decimal import Decimal

    from provcat import estimate_cost

    # genai-prices 0.2.3 gives 0.0007304 for this usage on deepseek-v4-pro: DeepSeek's off-peak
    # rate, which its pricing page states is half the peak rate the catalog records.
    assert estimate_cost("deepseek", "deepseek-v4-pro", SMALL).total == 2 * Decimal("0.0007304")


# Expected totals worked by hand from the vendors' own price pages (not from the catalog):
# Perplexity's pricing page (https://docs.perplexity.ai/docs/getting-started/pricing; Sonar Deep
# Research: $2 input, $8 output, $2 citation, $3 reasoning per million, $5 per 1,000 searches)
# and Anthropic's model pages (Claude Opus 5.5: $4 input, $20 output, $5 5-minute cache write,
# $0.20 cache read; Claude Fable 5.1: $10 input, $50 output, cache read 0.025x input = $0.25).
VENDOR_PRICED = [
    # 10,000 input + 2,000 output of which 1,500 reasoning: 0.02 + 500 * 8e-6 + 1,500 * 3e-6
    (
        "perplexity",
        "sonar-deep-research",
        {"input_tokens": 10_000, "output_tokens": 2_000, "reasoning_tokens": 1_500},
        "0.0285",
    ),
    # Perplexity's own "Deep Research Example" (pricing page, Low tab): 33 input, 7,163 output,
    # 20,016 citation and 73,997 reasoning tokens and 18 search queries, $0.409393 in all;
    # output_tokens holds all three output counts (genai-prices' Usage):
    # 33 * 2e-6 + 7,163 * 8e-6 + 20,016 * 2e-6 + 73,997 * 3e-6 + 18 * 5 / 1,000
    # = 0.000066 + 0.057304 + 0.040032 + 0.221991 + 0.09
    (
        "perplexity",
        "sonar-deep-research",
        {
            "input_tokens": 33,
            "output_tokens": 7_163 + 20_016 + 73_997,
            "citation_tokens": 20_016,
            "reasoning_tokens": 73_997,
            "web_searches": 18,
        },
        "0.409393",
    ),
    # 100,000 input of which 50,000 cache reads and 10,000 cache writes; 1,000 output:
    # 40,000 * 4e-6 + 50,000 * 0.2e-6 + 10,000 * 5e-6 + 1,000 * 20e-6
    (
        "anthropic",
        "claude-opus-5-5",
        {
            "input_tokens": 100_000,
            "cache_read_tokens": 50_000,
            "cache_write_tokens": 10_000,
            "output_tokens": 1_000,
        },
        "0.24",
    ),
    # OpenAI's gpt-6-luna page: $0.10 input, $0.01 cached, $0.50 output; above 272K input tokens
    # the whole request pays 2x input and cache, 1.5x output:
    # 200,000 * 0.20e-6 + 100,000 * 0.02e-6 + 1,000 * 0.75e-6
    (
        "openai",
        "gpt-6-luna",
        {"input_tokens": 300_000, "cache_read_tokens": 100_000, "output_tokens": 1_000},
        "0.04275",
    ),
    # Anthropic's Claude Haiku 5.5 page: prompts over 100,000 tokens pay $0.50 input and $2.50
    # output for the whole request: 200,000 * 0.50e-6 + 1,000 * 2.50e-6
    ("anthropic", "claude-haiku-5-5", {"input_tokens": 200_000, "output_tokens": 1_000}, "0.1025"),
    # ...and at most 100,000 pay $0.10 / $0.50: 100,000 * 0.10e-6 + 1,000 * 0.50e-6
    ("anthropic", "claude-haiku-5-5", {"input_tokens": 100_000, "output_tokens": 1_000}, "0.0105"),
    # 1,000,000 cache reads alone cost a quarter of Fable 5's $1
    (
        "anthropic",
        "claude-fable-5-1",
        {"input_tokens": 1_000_000, "cache_read_tokens": 1_000_000},
        "0.25",
    ),
]


@pytest.mark.parametrize(("provider", "model", "usage", "total"), VENDOR_PRICED)
def test_costs_agree_with_the_vendors_price_pages(
    provider: str, model: str, usage: dict[str, int], total: str
) -> None:
    from decimal import Decimal

    from provcat import estimate_cost

    assert estimate_cost(provider, model, usage).total == Decimal(total)


def test_nvidia_catalog_models_carry_no_prices_and_are_never_costed_at_zero() -> None:
    from provcat import estimate_cost
    from provcat.errors import PricingUnavailable

    with pytest.raises(PricingUnavailable):
        estimate_cost("nvidia_nim", "meta/llama-3.3-70b-instruct", {"input_tokens": 10})


def test_nvidia_old_default_is_deprecated_and_no_default_names_it() -> None:
    from provcat import ModelDeprecated

    with pytest.warns(ModelDeprecated):
        info = get_model("nvidia_nim", "meta/llama3-8b-instruct", as_of=REVIEWED)
    assert info.lifecycle(REVIEWED) == "deprecated"
    defaults = [
        spec.request_defaults.get("model")
        for spec in EndpointRegistry.snapshot().providers["nvidia_nim"].endpoints.values()
    ]
    assert "meta/llama3-8b-instruct" not in defaults


def test_anthropic_current_models_are_listed_by_their_api_ids() -> None:
    ids = {m.id for m in list_models("anthropic", status="active")}
    assert {"claude-sonnet-5-5", "claude-opus-5-5", "claude-haiku-5-5", "claude-fable-5-2"} <= ids


def test_gpt_4_1_mini_names_the_replacement_openai_gives() -> None:
    from provcat import ModelDeprecated

    with pytest.warns(ModelDeprecated, match="gpt-6-luna"):
        info = get_model("openai", "gpt-4.1-mini", as_of=REVIEWED)
    assert (info.shutdown_date, info.successor) == ("2027-01-14", "gpt-6-luna")


def test_a_retired_model_without_prices_points_to_its_successor_not_to_adding_prices() -> None:
    # docs/models.md: deepseek-chat is retired since 2026-07-24 in favour of deepseek-flash
    from provcat import estimate_cost
    from provcat.errors import PricingUnavailable

    with pytest.raises(PricingUnavailable, match="is retired") as caught:
        estimate_cost("deepseek", "deepseek-chat", {"input_tokens": 10})
    assert "successor is 'deepseek-flash'" in str(caught.value)
    assert "add them" not in str(caught.value)


def test_an_alias_model_without_prices_is_billed_as_the_model_it_serves() -> None:
    """DeepSeek's pricing page: "The legacy names deepseek-v4-flash and
    deepseek-v4-flash-vision-exp are still accepted" and served by deepseek-flash
    (https://api-docs.deepseek.com/quick_start/pricing); the catalog says so with `points_to`."""
    usage = {"input_tokens": 1000, "output_tokens": 100}
    legacy = estimate_cost("deepseek", "deepseek-v4-flash", usage)
    assert legacy.total == estimate_cost("deepseek", "deepseek-flash", usage).total > 0
    assert legacy.model == "deepseek-v4-flash"


def test_models_list_and_show_an_alias_model_at_the_prices_it_is_billed() -> None:
    """The same DeepSeek fact in `provcat models`: deepseek-v4-flash lists no prices of its own
    and is billed as deepseek-flash, so the table, `show` and its JSON give deepseek-flash's
    prices and name it, as `cost` bills them."""
    from click.testing import CliRunner

    from provcat.cli.main import main

    def run(*args: str) -> str:
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.stdout

    rows = {
        line.split()[0]: line.split()
        for line in run("models", "--provider", "deepseek").splitlines()[2:]
    }
    # IN $/M and OUT $/M: the last three columns are the two prices and the successor
    assert rows["deepseek/deepseek-v4-flash"][-3:-1] == rows["deepseek/deepseek-flash"][-3:-1]
    assert rows["deepseek/deepseek-v4-flash"][-3] != "-"
    shown = json.loads(run("models", "show", "deepseek", "deepseek-v4-flash", "--format", "json"))
    served = json.loads(run("models", "show", "deepseek", "deepseek-flash", "--format", "json"))
    assert shown["priced_as"] == "deepseek-flash"
    assert shown["prices"] == served["prices"] is not None
    assert "priced_as" not in served
    listed = json.loads(run("models", "--provider", "deepseek", "--format", "json"))
    assert [m for m in listed if m["id"] == "deepseek-v4-flash"] == [shown]
    text = run("models", "show", "deepseek", "deepseek-v4-flash")
    assert "priced_as: deepseek-flash" in text
    assert f"input {served['prices']['input']}, output {served['prices']['output']}" in text


def test_an_effort_suffix_hint_offers_only_the_efforts_the_model_takes() -> None:
    # OpenAI's GPT-6.2 Sol page: "The API rejects requests that set reasoning effort to none";
    # GPT-4.1 mini is no reasoning model (its page lists no reasoning effort)
    with pytest.raises(ModelNotFound) as caught:
        get_model("openai", "gpt-6.2-sol-none")
    said = str(caught.value)
    assert "one of low, medium, high, xhigh, max" in said and "--effort none" not in said
    with pytest.raises(ModelNotFound) as caught:
        get_model("openai", "gpt-4.1-mini-high")
    assert "gpt-4.1-mini lists no effort levels" in str(caught.value)
    assert "--effort" not in str(caught.value)
