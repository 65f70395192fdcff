"""The browse page in a real headless browser: Debian's chromium driven by selenium through
chromedriver, against a real uvicorn socket on 127.0.0.1 (the browser talks to nothing else).

A missing browser fails these tests (``make test`` installs it: see the Makefile's ``browser``
target); they never skip.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser import chromium
from tests.hub.conftest import Hub, make_hub, served
from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors

EVIL_DESCRIPTION = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'
EVIL_TAG = '"><b onmouseover="window.pwned=3">tag</b>'
EVIL_BASE = "'><script>window.pwned=4</script>"


@dataclass
class Site:
    url: str
    hub: Hub
    payloads: dict[str, bytes]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


def _site(request: pytest.FixtureRequest, root: Path, *, private: bool) -> Iterator[Site]:
    hub = make_hub("sqlite", root, request, private_reads=private)
    try:
        with served(hub) as url:
            yield _pushed(hub, url)
    finally:
        hub.storage.close()


def _pushed(hub: Hub, url: str) -> Site:
    """The browse tests' adapters pushed to the hub at ``url``."""
    payloads: dict[str, bytes] = {}

    def push(namespace: str, name: str, version: str, token: str, **extra: Any) -> None:
        payload = safetensors(f"{namespace}/{name}/{version}".encode() * 4)
        payloads[f"{namespace}/{name}/{version}"] = payload
        body = push_body(manifest(namespace, name, version, payload, **extra), payload)
        r = httpx.post(f"{url}/v1/adapters", content=body, headers=multipart_headers(token))
        assert r.status_code == 201, r.text

    react = {
        "description": "React 19 hooks and Server Components reference.",
        "tags": ["react", "frontend"],
        "base_model_compatibility": ["google/gemma-2-2b-it"],
        "rank": 8,
        "target_modules": ["q_proj", "v_proj"],
        "x_trained_on": {"docs": "react.dev"},
    }
    push("acme", "react-19", "1.0.0", hub.token, **react)
    push("acme", "react-19", "1.2.0", hub.token, **react)
    push("acme", "react-19", "2.0.0-rc1", hub.token, **react)
    push(
        "acme",
        "evil",
        "1.0.0",
        hub.token,
        description=EVIL_DESCRIPTION,
        tags=[EVIL_TAG],
        base_model_compatibility=[EVIL_BASE],
    )
    push("globex", "sql", "0.1.0", hub.other_token, description="100% _literal' OR 1=1 --")
    return Site(url, hub, payloads)


@pytest.fixture(scope="module")
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    yield from _site(request, tmp_path_factory.mktemp("browse") / "hub-data", private=False)


@pytest.fixture(scope="module")
def private_site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    yield from _site(request, tmp_path_factory.mktemp("private") / "hub-data", private=True)


def _navigating(browser: Any, action: Any) -> None:
    """Run ``action`` (a click, a submit, a key) and wait until the next page has loaded: a mark
    set on this page's ``window`` is gone and the new document is complete."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    browser.execute_script("window.__provcatOldPage = true")
    action()

    def loaded(b: Any) -> bool:
        return bool(
            b.execute_script(
                "return window.__provcatOldPage === undefined && document.readyState === 'complete'"
            )
        )

    WebDriverWait(browser, 20, ignored_exceptions=(WebDriverException,)).until(loaded)


def _listed(browser: Any) -> list[tuple[str, str]]:
    from selenium.webdriver.common.by import By

    rows = browser.find_elements(By.CSS_SELECTOR, "ul.adapters li")
    return [
        (
            row.find_element(By.CSS_SELECTOR, ".row-head a").text,
            row.find_element(By.CSS_SELECTOR, ".version").text,
        )
        for row in rows
    ]


def _search(browser: Any, **fields: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    for name, value in fields.items():
        element = browser.find_element(By.ID, name)
        if element.tag_name == "select":
            Select(element).select_by_value(value)
        else:
            element.clear()
            element.send_keys(value)
    button = browser.find_element(By.CSS_SELECTOR, "form.search button[type=submit]")
    _navigating(browser, button.click)


def test_list_search_and_filters(browser: Any, site: Site) -> None:
    from selenium.webdriver.common.by import By

    browser.get(site.url + "/")
    assert browser.title.startswith("Adapters")
    # every adapter once, at its latest version (a release beats a newer pre-release)
    assert _listed(browser) == [
        ("acme/evil", "1.0.0"),
        ("acme/react-19", "1.2.0"),
        ("globex/sql", "0.1.0"),
    ]
    row = browser.find_elements(By.CSS_SELECTOR, "ul.adapters li")[1]
    assert "React 19 hooks" in row.text and "frontend" in row.text and "B" in row.text
    _search(browser, q="REACT")
    assert _listed(browser) == [("acme/react-19", "1.2.0")]
    browser.get(site.url + "/")
    _navigating(browser, browser.find_element(By.LINK_TEXT, "frontend").click)
    assert _listed(browser) == [("acme/react-19", "1.2.0")]
    browser.get(site.url + "/")
    _search(browser, base_model="google/gemma-2-2b-it")  # globex/sql names none: any
    assert _listed(browser) == [("acme/react-19", "1.2.0"), ("globex/sql", "0.1.0")]
    browser.get(site.url + "/")
    _search(browser, namespace="globex")
    assert _listed(browser) == [("globex/sql", "0.1.0")]
    # SQL and LIKE metacharacters are literal text
    for query, expected in (
        ("' OR 1=1 --", [("globex/sql", "0.1.0")]),
        ("100%", [("globex/sql", "0.1.0")]),
        ("%%", []),
        ("__", []),
        ("_literal'", [("globex/sql", "0.1.0")]),
        ("'; DROP TABLE hub_adapters; --", []),
    ):
        browser.get(site.url + "/")
        _search(browser, q=query)
        assert _listed(browser) == expected, query
    assert httpx.get(site.url + "/v1/health").status_code == 200
    browser.get(site.url + "/namespaces")
    text = browser.find_element(By.TAG_NAME, "main").text
    assert "acme 2 adapters" in text and "globex 1 adapter" in text


def test_a_search_from_the_home_page_sorts_by_best_match(browser: Any, site: Site) -> None:
    """Found by a new-user audit: the home page preselects "Name" (its list's order), and a
    search typed there (the box, then Enter) sent ``sort=name``, where ``/?q=...`` sorts by best
    match. Left as it is, the box now lets the search take its own order; a sort picked stays."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    def selected() -> str:
        return str(Select(browser.find_element(By.ID, "sort")).first_selected_option.text)

    browser.get(site.url + "/")
    assert selected() == "Name"  # what the list is sorted by
    field = browser.find_element(By.ID, "q")
    field.send_keys("1")
    _navigating(browser, lambda: field.send_keys(Keys.ENTER))
    assert "sort=name" not in browser.current_url and selected() == "Best match"
    react, evil, sql = ("acme/react-19", "1.2.0"), ("acme/evil", "1.0.0"), ("globex/sql", "0.1.0")
    assert _listed(browser) == [react, evil, sql]  # best match: react-19 has "1" in its name
    _search(browser, sort="name")  # picked: kept, and kept by the next search
    assert "sort=name" in browser.current_url and selected() == "Name"
    assert _listed(browser) == [evil, react, sql]
    _search(browser, q="react")
    assert "sort=name" in browser.current_url and selected() == "Name"
    browser.get(site.url + "/")
    _search(browser, q="1", sort="recent")  # another order picked on the home page
    assert "sort=recent" in browser.current_url and selected() == "Recently updated"
    browser.get(site.url + "/?q=1")
    _search(browser, q="")  # the search cleared: the list's own order again
    assert selected() == "Name" and "sort=relevance" not in browser.current_url


def test_adapter_page_and_its_pull_command(browser: Any, site: Site, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(site.url + "/")
    _navigating(browser, browser.find_element(By.LINK_TEXT, "acme/react-19").click)
    assert browser.find_element(By.TAG_NAME, "h1").text == "react-19 1.2.0"
    payload = site.payloads["acme/react-19/1.2.0"]
    assert browser.find_element(By.ID, "digest").text == hashlib.sha256(payload).hexdigest()
    assert f"({len(payload)} bytes)" in browser.find_element(By.ID, "size").text
    assert browser.find_element(By.ID, "base-models").text == "google/gemma-2-2b-it"
    main = browser.find_element(By.TAG_NAME, "main").text
    assert "q_proj, v_proj" in main and "acme__react-19__v1.2.0" in main
    assert json.loads(browser.find_element(By.ID, "extra").text) == {
        "x_trained_on": {"docs": "react.dev"}
    }
    versions = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "ul.versions li")]
    assert [v.split()[0] for v in versions] == ["2.0.0-rc1", "1.2.0", "1.0.0"]
    assert "latest" in versions[1] and "latest" not in versions[0]
    command = browser.find_element(By.ID, "pull-command").get_attribute("value")
    assert command == f"provcat hub pull --hub {site.url} hub://acme/react-19:1.2.0"
    # the copy button works from the keyboard too: it is a real button, shown by the script
    button = browser.find_element(By.CSS_SELECTOR, "button[data-copy]")
    assert button.is_displayed()
    # the command as shown runs and pulls the verified payload
    argv = shlex.split(command)
    assert argv[0] == "provcat"
    run = [sys.executable, "-c", "from provcat.cli.main import main; main()", *argv[1:]]
    result = subprocess.run(
        [*run, "--store", str(tmp_path / "store"), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    pulled = Path(json.loads(result.stdout)["path"])
    assert pulled.read_bytes() == payload
    _navigating(browser, browser.find_element(By.LINK_TEXT, "1.0.0").click)
    assert browser.find_element(By.TAG_NAME, "h1").text == "react-19 1.0.0"
    browser.get(site.url + "/a/acme/nothing-here")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Not found"


def test_the_copy_button_says_whether_it_copied_and_then_shows_its_label_again(
    browser: Any, site: Site
) -> None:
    """Found by a new-user audit: the copy button said "Copied" when the browser refused the
    clipboard write too (``.then(done, done)``), and never showed "Copy" again."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def label_after_click(clipboard: str) -> str:
        browser.get(site.url + "/a/acme/react-19")
        browser.execute_script(
            "Object.defineProperty(navigator, 'clipboard', {value: {writeText: " + clipboard + "}})"
        )
        button = browser.find_element(By.CSS_SELECTOR, "button[data-copy]")
        assert button.text == "Copy"
        button.click()
        WebDriverWait(browser, 5).until(lambda _: button.text != "Copy")
        said = str(button.text)
        WebDriverWait(browser, 10).until(lambda _: button.text == "Copy")  # the label is back
        return said

    accepted = "function (text) { window.copiedText = text; return Promise.resolve(); }"
    assert label_after_click(accepted) == "Copied"
    command = browser.find_element(By.ID, "pull-command").get_attribute("value")
    assert browser.execute_script("return window.copiedText") == command
    refused = (
        "function () { return Promise.reject(new DOMException('denied', 'NotAllowedError')); }"
    )
    assert label_after_click(refused) == "Not copied: copy the selected command"


def test_html_in_manifests_is_shown_as_text(browser: Any, site: Site) -> None:
    from selenium.webdriver.common.by import By

    for path in ("/", "/a/acme/evil", "/?q=script"):
        browser.get(site.url + path)
        assert browser.execute_script("return window.pwned === undefined")
        assert browser.find_elements(By.CSS_SELECTOR, "main script, main img, main b") == []
    browser.get(site.url + "/a/acme/evil")
    text = browser.find_element(By.TAG_NAME, "main").text
    assert EVIL_DESCRIPTION in text and EVIL_TAG in text and EVIL_BASE in text
    # the filter links carry the text as a query value, still literal
    _navigating(browser, browser.find_element(By.LINK_TEXT, EVIL_TAG).click)
    assert _listed(browser) == [("acme/evil", "1.0.0")]
    assert browser.execute_script("return window.pwned === undefined")


def test_keyboard_and_phone_width(browser: Any, site: Site) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    # found by a tester: names of 64 characters without a break widened pages to 1400 px
    long_ns, long_name = "x" * 64, "a" * 64
    payload = safetensors(b"\x01" * 8)
    body = push_body(manifest(long_ns, long_name, "1.0.0", payload), payload)
    admin = multipart_headers(site.hub.admin_token)
    r = httpx.post(f"{site.url}/v1/adapters", content=body, headers=admin)
    assert r.status_code == 201, r.text
    browser.set_window_size(375, 812)
    try:
        for path in (
            "/",
            "/a/acme/react-19",
            "/a/acme/evil",
            "/namespaces",
            f"/a/{long_ns}/{long_name}",
            f"/a/acme/{long_name}",  # not found: the name is in the message
            f"/?namespace={long_ns}",
            f"/?q={long_name}",
        ):
            browser.get(site.url + path)
            assert browser.execute_script(
                "return document.documentElement.scrollWidth <= window.innerWidth"
            ), (path, browser.execute_script("return document.documentElement.scrollWidth"))
        browser.get(site.url + "/")
        ids = []
        for _ in range(12):  # Tab reaches the skip link, then the search box
            ActionChains(browser).send_keys(Keys.TAB).perform()
            active = browser.switch_to.active_element
            ids.append(active.get_attribute("id") or active.text)
            if active.get_attribute("id") == "q":
                break
        assert ids[0] == "Skip to content" and ids[-1] == "q", ids
        _navigating(browser, ActionChains(browser).send_keys("react", Keys.ENTER).perform)
        assert _listed(browser) == [("acme/react-19", "1.2.0")]
    finally:
        browser.set_window_size(1280, 900)
        httpx.delete(
            f"{site.url}/v1/adapters/{long_ns}/{long_name}/1.0.0",
            headers={"Authorization": f"Bearer {site.hub.admin_token}"},
        )


def test_a_long_description_is_cut_to_three_lines_in_lists_and_whole_on_its_page(
    browser: Any, site: Site
) -> None:
    from selenium.webdriver.common.by import By

    # found by a tester: a 3,000-character description filled the list page
    long_text = " ".join(f"sentence {i} of a long description." for i in range(90))
    payload = safetensors(b"\x02" * 8)
    body = push_body(manifest("acme", "wordy", "1.0.0", payload, description=long_text), payload)
    admin = multipart_headers(site.hub.admin_token)
    r = httpx.post(f"{site.url}/v1/adapters", content=body, headers=admin)
    assert r.status_code == 201, r.text
    try:
        browser.get(site.url + "/?q=wordy")
        shown = browser.find_element(By.CSS_SELECTOR, "ul.adapters .description")
        line = float(
            browser.execute_script(
                "return parseFloat(getComputedStyle(arguments[0]).lineHeight)", shown
            )
        )
        assert shown.size["height"] <= 3 * line + 1, (shown.size, line)
        assert shown.get_attribute("textContent") == long_text  # cut on screen, not in the page
        browser.get(site.url + "/a/acme/wordy")
        whole = browser.find_element(By.CSS_SELECTOR, "main .description")
        assert whole.text == long_text and whole.size["height"] > 6 * line
    finally:
        httpx.delete(
            f"{site.url}/v1/adapters/acme/wordy/1.0.0",
            headers={"Authorization": f"Bearer {site.hub.admin_token}"},
        )


def test_private_reads_in_the_browser(browser: Any, private_site: Site) -> None:
    from selenium.webdriver.common.by import By

    site = private_site
    browser.delete_all_cookies()
    browser.get(site.url + "/")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Sign in"
    assert "acme" not in browser.find_element(By.TAG_NAME, "main").text
    field = browser.find_element(By.ID, "token")
    field.send_keys("pch_000000000000_" + "x" * 43)
    _navigating(browser, field.submit)
    assert "not valid" in browser.find_element(By.ID, "message").text
    field = browser.find_element(By.ID, "token")
    field.send_keys(site.hub.token)
    _navigating(browser, field.submit)
    assert _listed(browser) == [("acme/evil", "1.0.0"), ("acme/react-19", "1.2.0")], (
        browser.page_source[:3000]
    )
    [cookie] = browser.get_cookies()
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert site.hub.token not in browser.page_source
    browser.get(site.url + "/a/globex/sql")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Not allowed"
    browser.get(site.url + "/a/acme/react-19")
    assert browser.find_element(By.TAG_NAME, "h1").text == "react-19 1.2.0"
    # the cookie is for the pages only: the API still wants the Authorization header
    browser.get(site.url + "/v1/search")
    assert json.loads(browser.find_element(By.TAG_NAME, "body").text)["error"] == (
        "AuthenticationError"
    )
    browser.get(site.url + "/")
    _navigating(browser, browser.find_element(By.XPATH, "//button[text()='Sign out']").click)
    assert browser.find_element(By.TAG_NAME, "h1").text == "Sign in"
    assert browser.get_cookies() == []
    # a token revoked meanwhile signs the page out
    field = browser.find_element(By.ID, "token")
    field.send_keys(site.hub.other_token)
    _navigating(browser, field.submit)
    assert _listed(browser) == [("globex/sql", "0.1.0")]
    token_id = site.hub.other_token.split("_")[1]
    assert site.hub.storage.revoke_token(token_id)
    browser.get(site.url + "/")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Sign in"
