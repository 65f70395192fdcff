"""A real headless browser for the page tests: Debian's chromium driven by selenium through
chromedriver, with its background traffic off (this machine's network is closed) and a profile
of its own. A missing browser fails the test (``make test`` installs it: the Makefile's
``browser`` target); it never skips."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


@contextlib.contextmanager
def chromium(
    *flags: str, page_load_timeout: float = 30, log_requests: bool = False
) -> Iterator[Any]:
    """A selenium driver of headless chromium with ``flags`` added; quit and cleaned up after."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if binary is None or driver_path is None:
        pytest.fail(
            "chromium and chromedriver are needed for the browser tests: run `make browser` "
            "(apt-get install -y chromium chromium-driver)",
            pytrace=False,
        )
    profile = tempfile.mkdtemp(prefix="provcat-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in (*CHROMIUM_FLAGS, *flags, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    if log_requests:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    os.environ.setdefault("SE_OFFLINE", "true")  # never let selenium fetch anything
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(page_load_timeout)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def text(browser: Any, css: str) -> str:
    """The visible text of the first element ``css`` selects."""
    from selenium.webdriver.common.by import By

    return str(browser.find_element(By.CSS_SELECTOR, css).text)
