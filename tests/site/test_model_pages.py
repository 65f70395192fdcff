"""Model, provider and lifecycle pages in headless chromium from file://: the cost calculator
gives estimate_cost's figure (read from the page, compared with the runtime's Cost), a retired
model links its successor, the lifecycle page's order, the lines of code that use a model."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from generator.site.views import model_href, provider_href, secondary_rows
from provcat import estimate_cost
from provcat.cli.model_options import money
from provcat.errors import PricingUnavailable
from tests.site.conftest import BUNDLED_JSON, page

FIELDS = (
    "input_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "output_tokens",
    "input_audio_tokens",
    "cache_audio_read_tokens",
    "cache_write_1h_tokens",
    "output_audio_tokens",
    "reasoning_tokens",
    "citation_tokens",
)
PARTS = (
    "input",
    "cache_read",
    "cache_write",
    "input_audio",
    "output",
    "reasoning",
    "citation",
    "output_audio",
)


@pytest.fixture
def acme_runtime() -> Iterator[None]:
    """The runtime's inventory pointed at the acme test catalog (the site's source)."""
    from tests.models.inventory_catalog import use_acme

    context = use_acme()
    next(context)
    try:
        yield
    finally:
        next(context, None)


FEE_COUNTS = ("requests", "web_searches")


def _calculate(
    driver: Any,
    usage: dict[str, int],
    batch: bool,
    day: date | None = None,
    options: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Type ``usage`` into the page's calculator, pick ``day`` and the fee ``options``; what the
    page then shows (each part, each fee line and the total)."""
    driver.execute_script("document.querySelector('#calc details').open = true")
    for name in FIELDS:
        box = driver.find_element(By.ID, f"c-{name}")
        box.clear()
        box.send_keys(str(usage.get(name, 0)))
    for name in FEE_COUNTS:  # a fee's count: only on the page of a model with that fee
        boxes = driver.find_elements(By.ID, f"c-{name}")
        if boxes:
            boxes[0].clear()
            boxes[0].send_keys(str(usage.get(name, 1 if name == "requests" else 0)))
        else:
            assert name not in usage, f"no {name} input on the page"
    if day is not None:  # a date input's typed form is the browser's locale: set its value
        driver.execute_script(
            "var box = document.getElementById('c-day'); box.value = arguments[0];"
            "box.dispatchEvent(new Event('change', {bubbles: true}))",
            day.isoformat(),
        )
    for option, value in (options or {}).items():
        select = driver.find_element(By.CSS_SELECTOR, f".c-option[data-option='{option}']")
        Select(select).select_by_value(value)
    boxes = driver.find_elements(By.ID, "c-batch")  # only where the model has batch prices
    if not boxes:
        assert not batch, "the page of a model without batch prices offers none"
    elif boxes[0].is_selected() != batch:
        boxes[0].click()
    error = driver.find_element(By.ID, "c-error")
    command = driver.find_element(By.ID, "c-command")
    if error.is_displayed():
        # the command line of an earlier input is not left standing beside the error
        assert not command.is_displayed()
        return {"error": error.text}
    assert command.is_displayed()
    shown: dict[str, Any] = {"total": driver.find_element(By.ID, "c-total").text}
    for part in PARTS:
        shown[part] = driver.find_element(By.ID, f"c-part-{part}").text.removeprefix("$")
    fees = driver.find_elements(By.CSS_SELECTOR, "[id^='c-fee-']")
    shown["fees"] = {
        str(f.get_attribute("id")).removeprefix("c-fee-"): f.text.removeprefix("$") for f in fees
    }
    return shown


def _expected(
    provider: str,
    model: str,
    usage: dict[str, int],
    batch: bool,
    day: date | None = None,
    options: dict[str, str] | None = None,
) -> dict[str, Any]:
    try:
        cost = estimate_cost(provider, model, usage, batch=batch, as_of=day, options=options)
    except (PricingUnavailable, ValueError) as exc:
        return {"error": str(exc)}
    data = cost.as_dict()
    # as `provcat cost` prints money: every digit, at least cents, thousands grouped
    fees = {f["unit"]: money(f["amount"]) for f in data["fees"]}
    return {
        "total": money(data["total"]),
        **{part: money(data[part]) for part in PARTS},
        "fees": fees,
    }


ACME_CASES = [
    ("acme-large-2", {"input_tokens": 12_345, "output_tokens": 678}, False),
    # cache reads, 5-minute and 1-hour writes, below the 200,000-token tier
    (
        "acme-large-2",
        {
            "input_tokens": 150_000,
            "cache_read_tokens": 100_000,
            "cache_write_tokens": 20_000,
            "cache_write_1h_tokens": 5_000,
            "output_tokens": 3_333,
        },
        False,
    ),
    # above the tier: the whole request at the tier's prices
    ("acme-large-2", {"input_tokens": 250_001, "cache_read_tokens": 7, "output_tokens": 1}, False),
    ("acme-large-2", {"input_tokens": 99_999, "cache_write_tokens": 3, "output_tokens": 5}, True),
    # batch above a tier the batch prices do not list: estimate_cost refuses
    ("acme-large-2", {"input_tokens": 200_001, "output_tokens": 10}, True),
    (
        "acme-voice",
        {
            "input_tokens": 9_000,
            "input_audio_tokens": 4_000,
            "cache_read_tokens": 3_000,
            "cache_audio_read_tokens": 1_000,
            "output_tokens": 2_000,
            "output_audio_tokens": 1_500,
        },
        False,
    ),
    ("acme-think", {"input_tokens": 10, "output_tokens": 1_000, "reasoning_tokens": 900}, False),
    # citation tokens on a model that does not price them apart: at the output price
    (
        "acme-think",
        {
            "input_tokens": 10,
            "output_tokens": 1_000,
            "reasoning_tokens": 600,
            "citation_tokens": 300,
        },
        False,
    ),
    ("acme-old", {"input_tokens": 1, "output_tokens": 1}, False),
    # a part bigger than its whole: the same error as estimate_cost's
    ("acme-old", {"input_tokens": 10, "cache_read_tokens": 11, "output_tokens": 1}, False),
    # ... each check with its own rule: the 1-hour writes are part of the cache writes
    (
        "acme-large-2",
        {"input_tokens": 10, "cache_write_tokens": 2, "cache_write_1h_tokens": 3},
        False,
    ),
    ("acme-old", {"input_tokens": 10, "output_tokens": 1, "reasoning_tokens": 2}, False),
]


@pytest.mark.parametrize(("model", "usage", "batch"), ACME_CASES)
def test_the_calculator_gives_estimate_costs_figures(
    browser: Any,
    acme_site: Path,
    acme_runtime: None,
    model: str,
    usage: dict[str, int],
    batch: bool,
) -> None:
    page(browser, acme_site, model_href("acme", model))
    assert _calculate(browser, usage, batch) == _expected("acme", model, usage, batch)


def test_only_a_model_with_batch_prices_offers_them(
    browser: Any, acme_site: Path, acme_runtime: None
) -> None:
    """A box that can only answer "no batch prices" was on every one of the models.dev site's
    5,276 pages, none of which has batch prices."""
    page(browser, acme_site, model_href("acme", "acme-old"))
    assert browser.find_elements(By.ID, "c-batch") == []
    usage = {"input_tokens": 1, "output_tokens": 1}
    assert "no batch prices" in _expected("acme", "acme-old", usage, True)["error"]
    page(browser, acme_site, model_href("acme", "acme-large-2"))
    assert browser.find_elements(By.ID, "c-batch")


BUNDLED_CASES = [
    ("anthropic", "claude-haiku-5-5", {"input_tokens": 180_000, "output_tokens": 4_321}, True),
    (
        "openai",
        "gpt-6-luna",
        {"input_tokens": 300_000, "cache_read_tokens": 50_000, "output_tokens": 2_000},
        False,
    ),
    ("openai", "gpt-6.1-terra", {"input_tokens": 123_456, "output_tokens": 7_890}, True),
    (
        "gemini",
        "gemini-2.5-flash",
        {"input_tokens": 5_000, "input_audio_tokens": 2_000, "output_tokens": 100},
        False,
    ),
    (
        "perplexity",
        "sonar-deep-research",
        {
            "input_tokens": 1_000,
            "output_tokens": 29_000,
            "reasoning_tokens": 8_000,
            "citation_tokens": 20_000,
        },
        False,
    ),
    ("xai", "grok-4.3", {"input_tokens": 1_000_000, "output_tokens": 1}, False),
]


@pytest.mark.parametrize(("provider", "model", "usage", "batch"), BUNDLED_CASES)
def test_the_bundled_calculator_gives_estimate_costs_figures(
    browser: Any,
    bundled_site: Path,
    provider: str,
    model: str,
    usage: dict[str, int],
    batch: bool,
) -> None:
    page(browser, bundled_site, model_href(provider, model))
    expected = _expected(provider, model, usage, batch)
    assert "error" not in expected, expected
    assert _calculate(browser, usage, batch) == expected


# the prices in force on a chosen day (the day before a change and the day of it), batch at a
# stated discount, and fees by option and per billed search: each agrees with estimate_cost
DATED_CASES = [
    ("gemini", "gemini-3.8-flash", {"input_tokens": 70_000, "output_tokens": 900}, False, date(2026, 12, 31), None),
    ("gemini", "gemini-3.8-flash", {"input_tokens": 70_000, "output_tokens": 900}, False, date(2027, 1, 1), None),
    ("gemini", "gemini-3.8-flash", {"input_tokens": 70_000, "cache_read_tokens": 30_000, "output_tokens": 9}, True, date(2027, 1, 1), None),
    ("deepseek", "deepseek-v4-pro", {"input_tokens": 4_321, "cache_read_tokens": 1_000, "output_tokens": 77}, False, date(2026, 8, 16), None),
    ("deepseek", "deepseek-v4-pro", {"input_tokens": 4_321, "cache_read_tokens": 1_000, "output_tokens": 77}, False, date(2026, 8, 17), None),
    ("perplexity", "sonar", {"input_tokens": 2_000, "output_tokens": 300, "requests": 7}, False, None, {"search_context_size": "high"}),
    ("perplexity", "sonar", {"input_tokens": 2_000, "output_tokens": 300}, False, None, None),
    ("perplexity", "sonar-pro", {"input_tokens": 1, "output_tokens": 1, "requests": 1_001}, False, None, {"search_context_size": "medium"}),
    ("perplexity", "sonar-deep-research", {"input_tokens": 500, "output_tokens": 900, "web_searches": 13}, False, None, None),
]  # fmt: skip


@pytest.mark.parametrize(("provider", "model", "usage", "batch", "day", "options"), DATED_CASES)
def test_the_calculator_takes_the_days_prices_and_adds_the_fees(
    browser: Any,
    bundled_site: Path,
    provider: str,
    model: str,
    usage: dict[str, int],
    batch: bool,
    day: date | None,
    options: dict[str, str] | None,
) -> None:
    page(browser, bundled_site, model_href(provider, model))
    expected = _expected(provider, model, usage, batch, day, options)
    assert "error" not in expected, expected
    shown = _calculate(browser, usage, batch, day, options)
    assert shown == expected
    if "requests" in usage or "web_searches" in usage:
        assert expected["fees"] and any(amount != "0" for amount in expected["fees"].values())


def test_the_two_days_of_a_price_change_give_different_figures(
    browser: Any, bundled_site: Path
) -> None:
    """Not a page that ignores the day: the day before the change and the day of it differ,
    each as estimate_cost says; the page names the change and its periods."""
    page(browser, bundled_site, model_href("gemini", "gemini-3.8-flash"))
    usage = {"input_tokens": 100_000, "output_tokens": 1_000}
    before = _calculate(browser, usage, False, date(2026, 12, 31))
    after = _calculate(browser, usage, False, date(2027, 1, 1))
    assert before != after
    assert before == _expected("gemini", "gemini-3.8-flash", usage, False, date(2026, 12, 31))
    assert "2027-01-01" in browser.find_element(By.ID, "change-days").text
    assert len(browser.find_elements(By.CSS_SELECTOR, ".period")) == 2
    assert "--as-of 2027-01-01" in browser.find_element(By.ID, "c-command").text


def test_the_pages_provcat_command_gives_the_pages_total(browser: Any, bundled_site: Path) -> None:
    """ "The same with provcat" runs as shown and costs what the page does, every count the page
    takes included: Perplexity's Deep Research example (pricing page, Low tab: 33 input, 7,163
    output, 20,016 citation and 73,997 reasoning tokens, 18 searches, $0.409393)."""
    import shlex

    from click.testing import CliRunner

    from provcat.cli.main import main
    from tests.models.test_perplexity_usage import DEEP_RESEARCH_COUNTS

    page(browser, bundled_site, model_href("perplexity", "sonar-deep-research"))
    shown = _calculate(browser, DEEP_RESEARCH_COUNTS, False)
    assert shown["total"] == "0.409393"
    command = browser.find_element(By.ID, "c-command").text
    assert "--reasoning 73997" in command and "--citation 20016" in command
    argv = shlex.split(command)
    assert argv[0] == "provcat"
    result = CliRunner().invoke(main, [*argv[1:], "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["total"] == "0.409393"


def test_an_acme_schedule_gives_estimate_costs_figure_either_side_of_its_change(
    browser: Any, acme_site: Path, acme_runtime: None
) -> None:
    """acme-intro's introductory rate until 2027-01-15 (not included), the list price from then."""
    usage = {"input_tokens": 1_000, "output_tokens": 10}
    for day in (date(2027, 1, 14), date(2027, 1, 15)):
        page(browser, acme_site, model_href("acme", "acme-intro"))
        assert _calculate(browser, usage, False, day) == _expected(
            "acme", "acme-intro", usage, False, day
        )


def test_a_retired_models_page_links_its_successor(browser: Any, acme_site: Path) -> None:
    page(browser, acme_site, model_href("acme", "acme-ancient"))
    assert browser.find_element(By.ID, "status").text == "retired"
    link = browser.find_element(By.CSS_SELECTOR, "#successor a")
    assert link.text == "acme-old"
    link.click()
    assert browser.find_element(By.ID, "model-id").text == "acme/acme-old"
    # and the lifecycle page lists it, by shutdown date, with what to move to
    page(browser, acme_site, "lifecycle.html")
    rows = [
        [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        for row in browser.find_elements(By.CSS_SELECTOR, "#lifecycle tbody tr")
    ]
    assert [(r[0], r[2], r[5]) for r in rows] == [
        ("2025-06-01", "acme-ancient", "acme-old"),
        ("2027-01-14", "acme-old", "acme-large-2"),
        ("2027-06-01", "acme-sunset", "acme-large-2"),
    ]


def test_the_lifecycle_page_lists_the_announced_price_changes(
    browser: Any, bundled_site: Path
) -> None:
    """Every change a schedule announces, by day, with the prices before and after (the
    catalog's YAML: DeepSeek-V4-Pro on 2026-08-17, Gemini 3.8 Flash on 2027-01-01)."""
    page(browser, bundled_site, "lifecycle.html")
    rows = [
        [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        for row in browser.find_elements(By.CSS_SELECTOR, "#price-changes tbody tr")
    ]
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("2026-08-17", "deepseek", "deepseek-v4-pro"),
        ("2027-01-01", "gemini", "gemini-3.8-flash"),
    ]
    assert rows[0][3].startswith("input $0.435, output $0.87")
    assert rows[0][4].startswith("input $1.32, output $3.96")
    link = browser.find_element(By.LINK_TEXT, "gemini-3.8-flash")
    link.click()
    assert browser.find_element(By.ID, "model-id").text == "gemini/gemini-3.8-flash"


def test_secondary_facts_are_marked_on_the_model_page_and_listed(
    browser: Any, bundled_site: Path
) -> None:
    """Fireworks' gpt-oss-120b marks only its cache-read price as read on genai-prices: that
    price row says so, the others do not; the secondary page lists the fact and the page."""
    page(browser, bundled_site, model_href("fireworks", "accounts/fireworks/models/gpt-oss-120b"))
    marked = {
        row.find_element(By.TAG_NAME, "th").text: bool(
            row.find_elements(By.CSS_SELECTOR, "a.secondary")
        )
        for row in browser.find_elements(By.CSS_SELECTOR, ".period table.prices tbody tr")
    }
    assert marked == {"Input": False, "Output": False, "Cache read": True}
    assert "prices.cache_read" in browser.find_element(By.ID, "secondary").text
    page(browser, bundled_site, "secondary.html")
    rows = [
        [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        for row in browser.find_elements(By.CSS_SELECTOR, "#secondary tbody tr")
    ]
    assert [
        "fireworks/accounts/fireworks/models/gpt-oss-120b",
        "prices.cache_read",
        "https://github.com/pydantic/genai-prices",
    ] in [row[:3] for row in rows]
    bundled = json.loads(BUNDLED_JSON.read_text(encoding="utf-8"))["providers"]
    assert len(rows) == len(secondary_rows(bundled)) > 1  # one row per secondary entry


def test_a_scheduled_models_page_says_which_period_is_in_force_and_the_next_change(
    browser: Any, bundled_site: Path
) -> None:
    """On the reader's day (the runtime's prices_on / next_price_change of today)."""
    from provcat import get_model

    info = get_model("gemini", "gemini-3.8-flash")
    page(browser, bundled_site, model_href("gemini", "gemini-3.8-flash"))
    change = info.next_price_change()
    text = browser.find_element(By.ID, "next-change").text
    if change is None:
        assert text == "No further change is announced."
    else:
        assert change.prices is not None
        assert text == (
            f"Next change: on {change.day.isoformat()}, input ${change.prices.base.input} and "
            f"output ${change.prices.base.output} per million tokens."
        )
    current = [
        p.get_attribute("id") for p in browser.find_elements(By.CSS_SELECTOR, ".period.current")
    ]
    in_force = [n for n, p in enumerate(info.price_periods, 1) if p.holds(date.today())]
    assert current == [f"period-{n}" for n in in_force]


def test_a_model_page_shows_every_fact_with_its_source_and_review_day(
    browser: Any, acme_site: Path
) -> None:
    page(browser, acme_site, model_href("acme", "acme-large-2"))
    cells = {
        row.find_element(By.TAG_NAME, "th").text: [
            c.text for c in row.find_elements(By.TAG_NAME, "td")
        ]
        for row in browser.find_elements(By.CSS_SELECTOR, ".facts-table tbody tr")
    }
    assert cells["Context window (tokens)"] == ["1,000,000", "[1]", "2026-12-01"]
    assert cells["Aliases"][0] == "acme-large-2-20250929"
    assert cells["Input modalities"][0] == "text, image, pdf"
    assert cells["Reasoning efforts"][0] == "low, medium, high"
    # every fact of its YAML entry but the prices, source and review day (shown apart)
    assert list(cells) == [
        "Name",
        "Family",
        "Aliases",
        "Status (as written)",
        "Released",
        "Knowledge cutoff",
        "Context window (tokens)",
        "Max output tokens",
        "Tool calling",
        "Structured output",
        "Reasoning",
        "File attachments",
        "Temperature",
        "Open weights",
        "Reasoning efforts",
        "Input modalities",
        "Output modalities",
    ]
    source = browser.find_element(By.CSS_SELECTOR, "#sources a")
    assert source.get_attribute("href") == (
        "https://platform.claude.com/docs/en/about-claude/pricing"
    )
    captions = [
        c.text for c in browser.find_elements(By.CSS_SELECTOR, ".period table.prices caption")
    ]
    assert captions == [
        "Standard",
        "Above 200,000 input tokens (whole request)",
        "Batch: 50% off every price, as the vendor states it",
        "Batch, above 200,000 input tokens (50% off the tier)",
    ]
    # the stated discount prices every field, cache writes and the tier included (the YAML's
    # prices halved: 3.75 -> 1.875, the tier's 22.50 -> 11.25)
    tables = browser.find_elements(By.CSS_SELECTOR, ".period table.prices")
    batch = {
        r.find_element(By.TAG_NAME, "th").text: r.find_element(By.TAG_NAME, "td").text
        for r in tables[2].find_elements(By.CSS_SELECTOR, "tbody tr")
    }
    assert batch == {
        "Input": "1.50",
        "Output": "7.50",
        "Cache read": "0.15",
        "Cache write": "1.875",
        "Cache write (1 hour)": "3.00",
    }
    tier = [
        r.find_element(By.TAG_NAME, "td").text for r in tables[3].find_elements(By.TAG_NAME, "tr")
    ]
    assert tier == ["3.00", "11.25", "0.30", "3.75", "6.00"]


def test_the_lines_of_code_on_a_page_work(browser: Any, bundled_site: Path) -> None:
    """The Python lines a model page shows run as shown against the bundled catalog."""
    data = json.loads(BUNDLED_JSON.read_text(encoding="utf-8"))
    openai = next(p for p in data["providers"] if p["provider"] == "openai")
    model = next(m for m in openai["models"] if m.get("status", "active") == "active")
    page(browser, bundled_site, model_href("openai", model["model"]))
    scope: dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(browser.find_element(By.ID, "line-python").text, scope)
        exec(browser.find_element(By.ID, "line-call").text, scope)
    assert scope["info"].id == model["model"]
    payload = scope["endpoint"].payload({"messages": [{"role": "user", "content": "hi"}]})
    assert payload["model"] == model["model"]
    assert browser.find_element(By.ID, "line-show").text == (
        f"provcat models show openai {model['model']}"
    )


def test_a_provider_page_lists_endpoints_auth_and_models(browser: Any, acme_site: Path) -> None:
    page(browser, acme_site, provider_href("acme"))
    row = [c.text for c in browser.find_elements(By.CSS_SELECTOR, "table tbody tr")[0].find_elements(By.TAG_NAME, "td")]  # fmt: skip
    assert row[0].startswith("chat/completions")
    assert row[3] == "protocol openai-chat"
    assert row[4] == "POST http://127.0.0.1:9/v1/chat/completions"
    assert row[5:7] == ["bearer", "ACME_API_KEY"]
    models = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "td > a[href*='models/']")]
    assert models == sorted(
        [
            "acme-ancient",
            "acme-free",
            "acme-intro",
            "acme-large",
            "acme-large-2",
            "acme-listed",
            "acme-old",
            "acme-sunset",
            "acme-think",
            "acme-voice",
        ]
    )


@pytest.mark.parametrize(
    ("day", "old", "sunset"),
    [
        ("2026-12-06", "deprecated", "active"),
        ("2027-01-14", "retired", "active"),  # acme-old's shutdown date: the first day not served
        ("2027-03-01", "retired", "deprecated"),  # acme-sunset's deprecation is announced
    ],
)
def test_the_status_on_model_and_provider_pages_is_the_readers_days(
    browser: Any, acme_site: Path, day: str, old: str, sunset: str
) -> None:
    """The pages are the same bytes whatever the day they were built; the status they show is
    the lifecycle on the reader's day, as the table and `get_model(..., as_of=DAY)` judge it."""
    from provcat.models.lifecycle import state

    assert state("deprecated", "2026-01-10", "2027-01-14", date.fromisoformat(day)) == old
    fake = (
        "(() => { const T = new Date('DAYT12:00:00').getTime(); const D = Date;"
        " window.Date = class extends D { constructor(...a) { super(...(a.length ? a : [T])); }"
        " static now() { return T; } }; })();"
    ).replace("DAY", day)
    added = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": fake})
    try:
        page(browser, acme_site, model_href("acme", "acme-old"))
        assert browser.find_element(By.ID, "status").text == old
        assert browser.find_element(By.ID, "retired-note").is_displayed() == (old == "retired")
        page(browser, acme_site, model_href("acme", "acme-sunset"))
        assert browser.find_element(By.ID, "status").text == sunset
        page(browser, acme_site, provider_href("acme"))
        rows = {
            r.find_elements(By.TAG_NAME, "td")[0].text: r.find_elements(By.TAG_NAME, "td")[2].text
            for r in browser.find_elements(By.CSS_SELECTOR, "table tbody tr")
            if r.find_elements(By.CSS_SELECTOR, "td a")
        }
        assert rows["acme-old"].split(",")[0] == old
        assert rows["acme-sunset"].split(",")[0] == sunset
    finally:
        browser.execute_cdp_cmd(
            "Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]}
        )


def test_every_models_prices_and_limits_are_those_the_runtime_uses() -> None:
    """A model without prices (or limits) of its own that points to another is billed at (or
    bounded by) the served model's (provcat.models.inventory.priced_as and limited_as, along
    the whole chain): the site picks the same model for every model of the bundled catalog."""
    from generator.site.views import limited_as, priced_as
    from provcat.models import inventory

    data = json.loads(BUNDLED_JSON.read_text(encoding="utf-8"))
    pointed = 0
    for p in data["providers"]:
        for m in p["models"]:
            info = inventory.find_model(p["provider"], m["model"])
            served = priced_as(p, m)
            assert served["model"] == inventory.priced_as(info).id
            assert limited_as(p, m)["model"] == inventory.limited_as(info).id
            pointed += served is not m
    assert pointed >= 1  # deepseek-v4-flash -> deepseek-flash


def test_a_model_that_points_to_another_shows_its_prices_and_prices_as_it(
    browser: Any, bundled_site: Path
) -> None:
    """DeepSeek-V4-Flash (a legacy name, no prices of its own) is served by deepseek-flash at
    its price: `provcat cost deepseek deepseek-v4-flash` prices it, so the page does too."""
    page(browser, bundled_site, model_href("deepseek", "deepseek-v4-flash"))
    label = browser.find_element(By.ID, "priced-as")
    assert "priced as deepseek-flash" in label.text
    link = label.find_element(By.TAG_NAME, "a")
    assert link.get_attribute("href").endswith(model_href("deepseek", "deepseek-flash"))
    rows = {
        r.find_element(By.TAG_NAME, "th").text: r.find_element(By.TAG_NAME, "td").text
        for r in browser.find_elements(By.CSS_SELECTOR, ".period table.prices tbody tr")
    }
    assert set(rows) == {"Input", "Output", "Cache read"}
    usage = {"input_tokens": 1_000, "output_tokens": 500}
    expected = _expected("deepseek", "deepseek-v4-flash", usage, False)
    assert expected["total"] == "0.0009"  # `provcat cost deepseek deepseek-v4-flash ...`
    assert _calculate(browser, usage, False) == expected
    assert browser.find_element(By.ID, "line-cost").text.startswith("provcat cost deepseek")
    fact = browser.find_element(By.XPATH, "//tr[th='Points to']/td[1]/a")
    assert fact.text == "deepseek-flash"
    fact.click()
    assert browser.find_element(By.ID, "model-id").text == "deepseek/deepseek-flash"


def test_an_acme_model_pointing_to_another_prices_tiers_and_batch_as_it(
    browser: Any, acme_site: Path, acme_runtime: None
) -> None:
    page(browser, acme_site, model_href("acme", "acme-large"))
    for usage, batch in (
        ({"input_tokens": 250_001, "cache_read_tokens": 7, "output_tokens": 1}, False),
        ({"input_tokens": 99_999, "cache_write_tokens": 3, "output_tokens": 5}, True),
    ):
        expected = _expected("acme", "acme-large", usage, batch)
        assert "error" not in expected, expected
        assert _calculate(browser, usage, batch) == expected


LIMIT_CASES = [
    # each side over its own limit
    ("openai", "gpt-6.1-terra", 5_000_000, 1_000_000),
    ("openai", "gpt-6.1-terra", 900_000, 200_000),
    # under each, over the window together: noted only where no input limit is recorded
    ("anthropic", "claude-sonnet-5-5", 950_000, 100_000),
    ("openai", "gpt-4.1-mini", 1_040_000, 30_000),
    ("gemini", "gemini-3.5-flash", 1_048_576, 65_536),
    # no limit of its own: those of the model it points to (deepseek-flash)
    ("deepseek", "deepseek-v4-flash", 1_000, 500_000),
    # within every limit: no note
    ("anthropic", "claude-sonnet-5-5", 1_000, 500),
]


@pytest.mark.parametrize(("provider", "model", "input_tokens", "output_tokens"), LIMIT_CASES)
def test_the_calculator_notes_a_request_larger_than_the_model_takes_as_provcat_cost_does(
    browser: Any,
    bundled_site: Path,
    provider: str,
    model: str,
    input_tokens: int,
    output_tokens: int,
) -> None:
    """`provcat cost` prices the tokens and notes that one request cannot hold them; the page
    gives the same figure and the same note, word for word."""
    from click.testing import CliRunner

    from provcat.cli.main import main

    argv = ["cost", provider, model, "--input", str(input_tokens)]
    result = CliRunner().invoke(main, [*argv, "--output", str(output_tokens), "--format", "json"])
    assert result.exit_code == 0, result.output
    said = json.loads(result.stdout)
    notes = [f"note: {n}" for n in said["notes"] if n.startswith("one request")]
    page(browser, bundled_site, model_href(provider, model))
    _calculate(browser, {"input_tokens": input_tokens, "output_tokens": output_tokens}, False)
    note = browser.find_element(By.ID, "c-limits")
    assert ([note.text] if note.is_displayed() else []) == notes
    if (provider, model) == ("openai", "gpt-6.1-terra") and input_tokens == 5_000_000:
        assert notes == [
            "note: one request to openai/gpt-6.1-terra cannot hold 5,000,000 input tokens (it "
            "takes 922,000) or 1,000,000 output tokens (it writes 128,000); the cost is that of "
            "the tokens, as a total over several requests"
        ]


def test_the_calculator_shows_money_as_provcat_cost_prints_it(
    browser: Any, bundled_site: Path
) -> None:
    """Thousands grouped and at least cents, every digit kept: `provcat cost openai
    gpt-6.1-terra --input 5000000000 --output 1000000` prints `input $10,000.00` and
    `total $10,007.50 USD`, not `$10000` and `$10007.5`."""
    from click.testing import CliRunner

    from provcat.cli.main import main

    argv = ["cost", "openai", "gpt-6.1-terra", "--input", "5000000000", "--output", "1000000"]
    result = CliRunner().invoke(main, argv)
    assert result.exit_code == 0, result.output
    printed = dict(line.split()[:2] for line in result.stdout.splitlines()[1:])
    assert printed == {"input": "$10,000.00", "output": "$7.50", "total": "$10,007.50"}
    page(browser, bundled_site, model_href("openai", "gpt-6.1-terra"))
    usage = {"input_tokens": 5_000_000_000, "output_tokens": 1_000_000}
    shown = _calculate(browser, usage, False)
    assert shown["total"] == "10,007.50"
    assert browser.find_element(By.ID, "c-total").find_element(By.XPATH, "..").text == "$10,007.50"
    assert browser.find_element(By.ID, "c-part-input").text == "$10,000.00"
    assert browser.find_element(By.ID, "c-part-output").text == "$7.50"
    assert shown["cache_read"] == "0.00"
