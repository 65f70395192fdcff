"""The models table of the bundled catalog's site, in headless chromium from file://: every
model shown, sorting by each column (mouse and keyboard), each filter, the search and the count.
Expected rows are worked out in Python from catalog.json, not from the page."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from provcat.models.inventory import find_model, priced_as
from provcat.models.lifecycle import state
from tests.site.conftest import BUNDLED_JSON, page, phone_overflow, requested


def _models() -> list[tuple[str, dict[str, Any]]]:
    data = json.loads(BUNDLED_JSON.read_text(encoding="utf-8"))
    return [(p["provider"], m) for p in data["providers"] for m in p["models"]]


def _input_today(provider: str, m: dict[str, Any]) -> Decimal | None:
    """The input price a request costs today, by the runtime's rule: the period of today of the
    model's prices, or of the model it points to when it has none (priced_as)."""
    prices = priced_as(find_model(provider, m["model"])).prices_on(date.today())
    return prices.base.input if prices is not None else None


def _shown(driver: Any) -> list[tuple[str, str]]:
    """(provider, model id) of the table's rows, in order."""
    return [
        tuple(cell.split("\n")[0] for cell in row)  # type: ignore[misc]
        for row in driver.execute_script(
            "return [...document.querySelectorAll('#rows tr:not(.empty)')]"
            ".map(r => [r.cells[0].innerText, r.cells[1].innerText])"
        )
    ]


def _count(driver: Any) -> str:
    return str(driver.find_element(By.ID, "count").text)


@pytest.fixture
def table(browser: Any, bundled_site: Path) -> Any:
    requested(browser)  # forget what earlier pages asked for
    page(browser, bundled_site, "index.html")
    return browser


def test_the_table_shows_every_model_and_requests_nothing_outside_the_site(table: Any) -> None:
    models = _models()
    assert _count(table) == f"{len(models)} models"
    assert sorted(_shown(table)) == sorted((p, m["model"]) for p, m in models)
    urls = requested(table)
    assert any(url.endswith("/models.js") for url in urls), urls
    assert all(url.startswith("file://") for url in urls), urls


@pytest.mark.parametrize(
    ("key", "column"),
    [("context", "context_window"), ("max_output", "max_output_tokens"), ("input", "input")],
)
def test_a_numeric_column_sorts_both_ways_empty_last(table: Any, key: str, column: str) -> None:
    def value(p: str, m: dict[str, Any]) -> Decimal | None:
        if column == "input":
            return _input_today(p, m)
        raw = m.get(column)
        return Decimal(raw) if raw is not None else None

    values = {(p, m["model"]): value(p, m) for p, m in _models()}
    button = table.find_element(By.CSS_SELECTOR, f"th[data-key={key}] button")
    for direction in ("ascending", "descending"):
        button.click()
        head = table.find_element(By.CSS_SELECTOR, f"th[data-key={key}]")
        assert head.get_attribute("aria-sort") == direction
        got = [values[row] for row in _shown(table)]
        known = [v for v in got if v is not None]
        assert known == sorted(known, reverse=direction == "descending")
        assert got == known + [None] * (len(got) - len(known)), "empty cells sort last"


def test_every_column_sorts_from_the_keyboard(table: Any) -> None:
    """Tab reaches each heading's button and Enter sorts by it."""
    heads = table.find_elements(By.CSS_SELECTOR, "#models th[data-key]")
    assert len(heads) == 9
    for head in heads:
        button = head.find_element(By.TAG_NAME, "button")
        button.send_keys(Keys.ENTER)
        assert head.get_attribute("aria-sort") == "ascending", head.get_attribute("data-key")
    # the model column sorts case folded (`MiniMax-M2` beside `minimax-m2`), ties in the
    # catalog's order; Enter again reverses it
    button = table.find_element(By.CSS_SELECTOR, "th[data-key=model] button")
    button.send_keys(Keys.ENTER)
    ids = [row[1] for row in _shown(table)]
    assert [i.lower() for i in ids] == sorted(m["model"].lower() for _, m in _models())
    button.send_keys(Keys.ENTER)
    folded = [row[1].lower() for row in _shown(table)]
    assert folded == sorted((i.lower() for i in ids), reverse=True)


def test_the_filters_search_and_count(table: Any) -> None:
    models = _models()
    today = date.today()

    def expect(keep: Any) -> list[tuple[str, str]]:
        return sorted((p, m["model"]) for p, m in models if keep(p, m))

    def check(expected: list[tuple[str, str]]) -> None:
        assert sorted(_shown(table)) == expected
        assert _count(table) == f"{len(expected)} of {len(models)} models"

    provider = Select(table.find_element(By.ID, "f-provider"))
    provider.select_by_visible_text("OpenAI (openai)")
    check(expect(lambda p, m: p == "openai"))
    provider.select_by_index(0)

    status = Select(table.find_element(By.ID, "f-status"))
    for wanted in ("deprecated", "retired", "active"):
        status.select_by_visible_text(wanted)
        check(
            expect(
                lambda p, m, wanted=wanted: (
                    state(m.get("status"), m.get("deprecation_date"), m.get("shutdown_date"), today)
                    == wanted
                )
            )
        )
    status.select_by_index(0)

    capability = Select(table.find_element(By.ID, "f-capability"))
    capability.select_by_visible_text("Structured output")
    check(expect(lambda p, m: m.get("structured_output") is True))
    capability.select_by_index(0)

    modality = Select(table.find_element(By.ID, "f-modality"))
    modality.select_by_visible_text("image in")
    check(expect(lambda p, m: "image" in m.get("modalities", {}).get("input", ())))
    modality.select_by_index(0)

    ceiling = table.find_element(By.ID, "f-max-input")
    ceiling.send_keys("0.5")
    check(expect(lambda p, m: (_input_today(p, m) or Decimal("Infinity")) <= Decimal("0.5")))
    ceiling.clear()
    ceiling.send_keys(Keys.BACKSPACE)  # clear() sends no input event

    search = table.find_element(By.ID, "q")
    search.send_keys("Mini")
    check(
        expect(
            lambda p, m: any(
                "mini" in text.lower()
                for text in (p, m["model"], m.get("name", ""), m.get("family", ""), *m["aliases"])
            )
        )
    )
    table.find_element(By.ID, "f-reset").click()
    table.execute_script("return new Promise(r => setTimeout(r, 50))")
    assert _count(table) == f"{len(models)} models"
    # no match: the table says so and what to do, not a bare heading row
    search = table.find_element(By.ID, "q")
    search.send_keys("no-such-model-anywhere")
    check([])
    assert "No model matches" in table.find_element(By.ID, "rows").text
    table.find_element(By.ID, "f-reset").click()
    table.execute_script("return new Promise(r => setTimeout(r, 50))")
    # the provider/model form every model page shows finds that model
    search = table.find_element(By.ID, "q")
    search.send_keys("openai/gpt-6.1-terra")
    check(expect(lambda p, m: p == "openai" and m["model"].startswith("gpt-6.1-terra")))
    table.find_element(By.ID, "f-reset").click()
    table.execute_script("return new Promise(r => setTimeout(r, 50))")


@pytest.mark.parametrize(
    "path",
    ["index.html", "lifecycle.html", "secondary.html", "providers/openai.html",
     "models/openai/gpt-6-luna.html", "models/perplexity/sonar-pro.html",
     "models/gemini/gemini-3.8-flash.html"],
)  # fmt: skip
def test_pages_fit_a_phones_width(browser: Any, bundled_site: Path, path: str) -> None:
    """At a phone's width (390 CSS px) no page scrolls sideways: wide tables scroll in their
    own box, and the controls wrap."""
    overflow = phone_overflow(browser, lambda: page(browser, bundled_site, path))
    assert overflow <= 0, f"{path} is {overflow} px wider than the screen"


def test_the_headings_stay_in_view_while_the_rows_scroll(table: Any) -> None:
    """The sticky headings stuck to the box that scrolled sideways, which never scrolled down:
    they left the screen with the first rows. The table now scrolls in its own box, and its
    headings stay at that box's top."""
    top = table.execute_script(
        "const box = document.querySelector('#models').closest('.scroll');"
        "box.scrollTop = 400;"
        "const head = document.querySelector('#models thead th').getBoundingClientRect().top;"
        "return [box.scrollTop, head - box.getBoundingClientRect().top];"
    )
    scrolled, offset = top
    assert scrolled > 0, "the rows scroll in their box"
    assert abs(offset) < 1, "the headings stay at the box's top"


def test_prices_show_at_least_two_decimals_and_every_digit(table: Any) -> None:
    """`10` beside `0.25` in a right-aligned column put the points out of line: each price
    shows at least two decimals, and every digit the catalog gives."""
    today_input = {(p, m["model"]): _input_today(p, m) for p, m in _models()}
    cells = table.execute_script(
        "return [...document.querySelectorAll('#rows tr')]"
        ".map(r => [r.cells[0].innerText, r.cells[1].innerText.split('\\n')[0],"
        " r.cells[5].innerText])"
    )
    checked = 0
    for provider, model, shown in cells:
        price = today_input[(provider, model)]
        if price is None:
            continue
        decimals = max(2, -price.as_tuple().exponent)  # type: ignore[operator]
        assert shown == f"{price:.{decimals}f}", (provider, model, shown)
        checked += 1
    assert checked > 20


def test_without_javascript_the_index_says_where_the_models_are(bundled_site: Path) -> None:
    """Without JavaScript the filters did nothing over an empty table: they stay hidden, and
    the page points to the providers' pages, which list every model."""
    from tests.browser import chromium

    with chromium("--blink-settings=scriptEnabled=false") as driver:
        driver.get((bundled_site / "index.html").as_uri())
        assert not driver.find_element(By.ID, "filters").is_displayed()
        assert not driver.find_element(By.ID, "models").is_displayed()
        said = driver.find_element(By.TAG_NAME, "main").text
        assert "need JavaScript" in said and "provider's page" in said
        driver.get((bundled_site / "models" / "openai" / "gpt-6.1-terra.html").as_uri())
        assert not driver.find_element(By.ID, "calc").is_displayed()
        assert (
            "provcat cost" in driver.find_element(By.ID, "h-calc").find_element(By.XPATH, "..").text
        )


def test_the_search_filters_and_sort_live_in_the_address(table: Any, bundled_site: Path) -> None:
    """`index.html?q=gpt-4o` showed every model, and Back from a model's page lost the search:
    the search, the filters and the sort are now in the address, by name."""
    models = _models()
    url = (bundled_site / "index.html").as_uri()
    table.get(url + "?q=gpt&provider=openai&sort=-context")
    table.find_element(By.CSS_SELECTOR, "html[data-ready='1']")
    expected = sorted(
        ((p, m) for p, m in models if p == "openai" and "gpt" in m["model"].lower()),
        key=lambda pm: -(pm[1].get("context_window") or 0),
    )
    shown = _shown(table)
    assert sorted(shown) == sorted((p, m["model"]) for p, m in expected)
    windows = {m["model"]: m.get("context_window") or 0 for _, m in expected}
    assert [windows[m] for _, m in shown] == sorted(windows.values(), reverse=True)
    head = table.find_element(By.CSS_SELECTOR, "th[data-key=context]")
    assert head.get_attribute("aria-sort") == "descending"
    assert table.find_element(By.ID, "q").get_attribute("value") == "gpt"
    # a change is written back, and Back from a model's page finds it
    status = Select(table.find_element(By.ID, "f-status"))
    status.select_by_visible_text("active")
    assert "status=active" in table.current_url and "provider=openai" in table.current_url
    first = table.find_element(By.CSS_SELECTOR, "#rows tr a")
    first.click()
    table.back()
    table.find_element(By.CSS_SELECTOR, "html[data-ready='1']")
    assert Select(table.find_element(By.ID, "f-status")).first_selected_option.text == "active"
    assert table.find_element(By.ID, "q").get_attribute("value") == "gpt"
    # a name the catalog does not hold is ignored, not an error, and its box keeps "all"
    table.get(url + "?provider=nope&status=nope&capability=nope&modality=in:nope&max_input=x")
    table.find_element(By.CSS_SELECTOR, "html[data-ready='1']")
    assert _count(table) == f"{len(models)} models"
    assert Select(table.find_element(By.ID, "f-status")).first_selected_option.text == "all"


def test_a_model_that_points_to_another_shows_the_prices_it_is_billed_at(table: Any) -> None:
    """deepseek-v4-flash has no prices of its own: requests are served by deepseek-flash at
    its price (`provcat models show` says `priced_as: deepseek-flash`), and its row says so."""
    cells = table.execute_script(
        "return [...document.querySelectorAll('#rows tr')]"
        ".filter(r => r.cells[1].innerText.split('\\n')[0] === 'deepseek-v4-flash')"
        ".map(r => [r.cells[5].innerText, r.cells[6].innerText, r.cells[5].title])[0]"
    )
    prices = priced_as(find_model("deepseek", "deepseek-v4-flash")).prices_on(date.today())
    assert prices is not None
    assert cells == [
        f"{prices.base.input:.2f}",
        f"{prices.base.output:.2f}",
        "priced as deepseek-flash",
    ]


def test_the_short_capability_names_say_their_full_names(table: Any) -> None:
    """`json`, `files` and `open` are short for the filter's Structured output, File
    attachments and Open weights: each name in a row says its full name (an abbr's title)."""
    titles = table.execute_script(
        "var out = {}; document.querySelectorAll('#rows td abbr').forEach("
        "function (a) { out[a.textContent] = a.title; }); return out;"
    )
    filter_names = [o.text for o in Select(table.find_element(By.ID, "f-capability")).options[1:]]
    assert titles["json"] == "Structured output"
    assert titles["files"] == "File attachments"
    assert titles["open"] == "Open weights"
    assert sorted(set(titles.values())) == sorted(filter_names)
