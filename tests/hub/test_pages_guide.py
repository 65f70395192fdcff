"""A page that guides, in headless chromium: an empty hub names the push command (which runs as
shown) and links the getting-started page; a favicon; the search field shows its whole
placeholder, on a phone too; an adapter that is not there suggests the closest ones."""

from __future__ import annotations

import os
import shlex
import struct
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser import text
from tests.hub.conftest import Hub, make_hub, served
from tests.hub.test_browse import _navigating, browser

__all__ = ["browser"]  # the module-scoped chromium fixture, shared with test_browse

CLI = "from provcat.cli.main import main; main()"


@dataclass
class EmptySite:
    url: str
    hub: Hub


@pytest.fixture(scope="module")
def empty_site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[EmptySite]:
    hub = make_hub("sqlite", tmp_path_factory.mktemp("guide") / "hub-data", request)
    try:
        with served(hub) as url:
            yield EmptySite(url, hub)
    finally:
        hub.storage.close()


def test_an_empty_hub_names_the_push_command_and_it_runs(
    browser: Any, empty_site: EmptySite, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    site = empty_site
    browser.get(site.url + "/")
    assert "No adapters here yet" in text(browser, "#empty")
    commands = [c for c in text(browser, "#empty-commands").splitlines() if c.strip()]
    push = next(c for c in commands if c.startswith("provcat hub push"))
    assert push == (
        f"provcat hub push --hub {site.url} adapter.safetensors hub://acme/sample:0.1.0"
    )
    assert "provcat hub sample" in commands
    # the commands as shown, from an empty folder, with a token for acme
    env = {**os.environ, "PROVCAT_HUB_TOKEN": site.hub.token}
    for command in ("provcat hub sample", push):
        argv = shlex.split(command)
        done = subprocess.run(
            [sys.executable, "-c", CLI, *argv[1:]],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
    browser.get(site.url + "/")
    assert browser.find_elements(By.ID, "empty") == []
    assert text(browser, "ul.adapters li .row-head a") == "acme/sample"
    # the docs link leads to the getting-started page, which names this hub
    browser.get(site.url + "/?q=nothing-like-this")
    assert "No adapter matches “nothing-like-this”" in text(browser, "#empty")
    _navigating(browser, browser.find_element(By.LINK_TEXT, "Getting started").click)
    assert browser.find_element(By.TAG_NAME, "h1").text == "Getting started"
    assert site.url in text(browser, "main")
    assert push in text(browser, "#publish-commands")


def test_favicon(browser: Any, empty_site: EmptySite) -> None:
    answer = httpx.get(empty_site.url + "/favicon.ico")
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/x-icon"
    reserved, kind, count = struct.unpack("<HHH", answer.content[:6])
    assert (reserved, kind, count) == (0, 1, 1)  # an ICO directory of one image
    browser.get(empty_site.url + "/")
    size = browser.execute_async_script(
        "const done = arguments[0]; const link = document.querySelector('link[rel=icon]');"
        "const img = new Image(); img.onload = () => done([img.naturalWidth, img.naturalHeight]);"
        "img.onerror = () => done(null); img.src = link.href;"
    )
    assert size == [32, 32]


# the placeholder's text width, in the field's own font, against the room the field gives it
_PLACEHOLDER_FITS = """
const field = document.getElementById('q');
const style = getComputedStyle(field);
const context = document.createElement('canvas').getContext('2d');
context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
const text = context.measureText(field.placeholder).width;
const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
return [text, room];
"""


@pytest.mark.parametrize("width", [360, 600, 768, 900, 1024, 1280])
def test_the_search_field_shows_its_whole_placeholder(
    browser: Any, empty_site: EmptySite, width: int
) -> None:
    browser.set_window_size(width, 900)
    try:
        browser.get(empty_site.url + "/")
        text, room = browser.execute_script(_PLACEHOLDER_FITS)
        assert text > 100 and text <= room, (width, text, room)
    finally:
        browser.set_window_size(1280, 900)


def test_not_found_suggests_the_closest_adapters(browser: Any, empty_site: EmptySite) -> None:
    from selenium.webdriver.common.by import By

    site = empty_site
    # the sample as `provcat hub push` sends it: 201, or 200 when the first test pushed it
    httpx.post(
        site.url + "/v1/adapters", content=_push_body(), headers=_headers(site.hub.token)
    ).raise_for_status()
    assert httpx.get(site.url + "/a/acme/sampel").status_code == 404
    browser.get(site.url + "/a/acme/sampel")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Not found"
    assert text(browser, "#suggestions") == "acme/sample"
    _navigating(browser, browser.find_element(By.LINK_TEXT, "acme/sample").click)
    assert browser.find_element(By.TAG_NAME, "h1").text == "sample 0.1.0"
    browser.get(site.url + "/a/acm/sample")  # a mistyped namespace
    assert text(browser, "#suggestions") == "acme/sample"
    browser.get(site.url + "/a/acme/sample/9.9.9")
    assert text(browser, "#versions") == "0.1.0"
    browser.get(site.url + "/a/globex/unrelated")
    assert browser.find_elements(By.ID, "suggestions") == []


def _push_body() -> bytes:
    from provcat.hub.sample import sample_bytes
    from tests.hub.helpers import push_body, sha256

    payload = sample_bytes()
    document = {
        "manifest_version": 2,
        "namespace": "acme",
        "name": "sample",
        "version": "0.1.0",
        "checksum_sha256": sha256(payload),
        "rank": 4,  # push reads these from the sample's tensors
        "target_modules": ["q_proj"],
    }
    return push_body(document, payload)


def _headers(token: str) -> dict[str, str]:
    from tests.hub.helpers import multipart_headers

    return multipart_headers(token)
