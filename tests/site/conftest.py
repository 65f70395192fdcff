"""The static site in a real headless browser: Debian's chromium driven by selenium through
chromedriver, opening the built pages from file:// (the browser talks to nothing else).

A missing browser fails these tests (``make test`` installs it: see the Makefile's ``browser``
target); they never skip.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.browser import chromium
from tests.conftest import ROOT

MODELS_CATALOG = ROOT / "tests" / "catalogs" / "models"
BUNDLED_JSON = ROOT / "generated" / "provcat_catalog" / "catalog.json"


def generator(*args: str) -> str:
    """Run `python -m generator ARGS` in process; its output, or the failure."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout


def build_site(catalog_json: Path, out: Path) -> Path:
    generator("site", "--from", str(catalog_json), "--out", str(out))
    return out


def build_catalog(catalog: Path, out: Path) -> Path:
    """Build ``catalog`` into ``out``; the path of its catalog.json."""
    generator(
        "build", "--catalog", str(catalog), "--out", str(out), "--no-cache", "--format", "json"
    )
    return out / "provcat_catalog" / "catalog.json"


def copy_catalog(source: Path, into: Path) -> Path:
    """A copy of a test catalog whose schema comments point at the repository's schemas."""
    shutil.copytree(source, into)
    for path in (into / "providers").glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("../../../../schemas/", "../../schemas/"), encoding="utf-8")
    return into


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    # the performance log lists the requests a page made (none may leave the site)
    with chromium("--window-size=1280,900", page_load_timeout=60, log_requests=True) as driver:
        yield driver


@pytest.fixture(scope="session")
def bundled_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the bundled catalog, from generated/provcat_catalog/catalog.json."""
    return build_site(BUNDLED_JSON, tmp_path_factory.mktemp("bundled") / "site")


@pytest.fixture(scope="session")
def acme_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the acme test catalog (tiers, batch, audio, reasoning prices; a retired
    model with a successor)."""
    root = tmp_path_factory.mktemp("acme")
    catalog = copy_catalog(MODELS_CATALOG, root / "catalog")
    return build_site(build_catalog(catalog, root / "generated"), root / "site")


def page(driver: Any, site: Path, path: str) -> None:
    """Open a page of ``site`` from file:// and wait for its script to finish, if it has one."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get((site / path).as_uri())
    if driver.execute_script("return document.querySelector('script[src]') !== null"):
        WebDriverWait(driver, 30).until(
            lambda d: d.execute_script("return document.documentElement.dataset.ready === '1'")
        )


def phone_overflow(driver: Any, show: Callable[[], None]) -> int:
    """How many CSS px wider than a phone's screen (390 px) the page ``show`` opens is (0 or
    less: it fits); the window's size is restored after."""
    size = driver.get_window_size()
    driver.set_window_size(390, 844)
    try:
        show()
        assert driver.execute_script("return document.documentElement.clientWidth") <= 390
        overflow: int = driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        return overflow
    finally:
        driver.set_window_size(size["width"], size["height"])


def requested(driver: Any) -> list[str]:
    """The URLs that pages opened from file:// requested since the last call (chromium's
    network log; the browser's own new-tab page is not ours)."""
    import json

    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            params = message["params"]
            if params.get("documentURL", "").startswith("file://"):
                urls.append(params["request"]["url"])
    return urls
