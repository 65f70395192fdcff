"""Markup in a model's name, family or note (a manifest-style injection) is shown as text on
every page that shows it, in headless chromium: no script runs, no element is made from it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from generator.site.views import model_href, provider_href
from tests.site.conftest import MODELS_CATALOG, build_catalog, build_site, copy_catalog, page

EVIL_NAME = '<script>window.pwned=1</script>"><img src=x onerror="window.pwned=2">'
EVIL_NOTE = (
    "Prices from a secondary source. </p><script>window.pwned=3</script>"
    '<a href="javascript:window.pwned=4" id="evil">x</a>\'"><img src=x onerror="window.pwned=5">'
)
EVIL_FAMILY = '\'><svg onload="window.pwned=6">'


def _yaml(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


@pytest.fixture(scope="module")
def evil_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("evil")
    catalog = copy_catalog(MODELS_CATALOG, root / "catalog")
    path = catalog / "providers" / "acme.yaml"
    text = path.read_text(encoding="utf-8")
    old = "  acme-free:\n    tool_call: true\n"
    assert old in text
    path.write_text(
        text.replace(
            old,
            f"{old}    name: {_yaml(EVIL_NAME)}\n    family: {_yaml(EVIL_FAMILY)}\n"
            f"    note: {_yaml(EVIL_NOTE)}\n"
            f"    secondary:\n      - facts: [context_window]\n"
            f"        source: https://example.com/reseller\n        note: {_yaml(EVIL_NOTE)}\n",
        ),
        encoding="utf-8",
    )
    return build_site(build_catalog(catalog, root / "generated"), root / "site")


def _nothing_ran(driver: Any) -> None:
    assert driver.execute_script("return window.pwned === undefined")
    assert driver.find_elements(By.ID, "evil") == []
    assert driver.find_elements(By.CSS_SELECTOR, "main img, main svg, main script") == []


def test_the_model_page_shows_the_markup_as_text(browser: Any, evil_site: Path) -> None:
    page(browser, evil_site, model_href("acme", "acme-free"))
    _nothing_ran(browser)
    assert browser.find_element(By.TAG_NAME, "h1").text == EVIL_NAME
    assert browser.find_element(By.ID, "note").text == EVIL_NOTE
    assert browser.title.startswith(EVIL_NAME)
    family = browser.find_element(By.XPATH, "//tr[th='Family']/td").text
    assert family == EVIL_FAMILY


def test_the_table_shows_the_markup_as_text(browser: Any, evil_site: Path) -> None:
    page(browser, evil_site, "index.html")
    search = browser.find_element(By.ID, "q")
    search.send_keys("svg onload")  # the family is searched: only the evil model matches
    rows = browser.find_elements(By.CSS_SELECTOR, "#rows tr")
    assert len(rows) == 1
    assert rows[0].find_elements(By.TAG_NAME, "td")[1].text == f"acme-free\n{EVIL_NAME}"
    _nothing_ran(browser)


@pytest.mark.parametrize("path", ["secondary.html", provider_href("acme"), "lifecycle.html"])
def test_the_other_pages_show_it_as_text(browser: Any, evil_site: Path, path: str) -> None:
    page(browser, evil_site, path)
    _nothing_ran(browser)
    if path == "secondary.html":
        cells = browser.find_elements(By.CSS_SELECTOR, "#secondary td")
        assert [c.text for c in cells][4] == EVIL_NOTE
    if path == provider_href("acme"):
        assert EVIL_NAME in browser.find_element(By.TAG_NAME, "main").text
