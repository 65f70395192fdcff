"""The adapter page with a card, a licence and the "use this adapter" box, in headless chromium:
the card's hostile parts stay inert (no script runs, no handler, no javascript: link, no remote
image loaded), the licence is linked to SPDX or flagged, and the Python lines shown run."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from provcat.hub.sample import sample_bytes
from tests.browser import text
from tests.hub.conftest import Hub, make_hub, served
from tests.hub.helpers import manifest, multipart_headers, push_body
from tests.hub.test_browse import browser

__all__ = ["browser"]

CARD = """# Card title

A LoRA adapter for *React 19* docs. See [the docs](https://react.dev/reference).

<script>window.pwned = 1</script>
<img src=x onerror="window.pwned = 2">
[click me](javascript:window.pwned=3)
![tracker](https://tracker.example/pixel.png)

| metric | value |
|---|---|
| loss | 0.42 |
"""


@dataclass
class CardSite:
    url: str
    hub: Hub
    payload: bytes


@pytest.fixture(scope="module")
def card_site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[CardSite]:
    hub = make_hub("sqlite", tmp_path_factory.mktemp("cards") / "hub-data", request)
    payload = sample_bytes(rank=8)
    documents = [
        manifest(
            "acme", "react-19", "1.0.0", payload,
            card=CARD, license="Apache-2.0", rank=8, target_modules=["q_proj", "v_proj"],
            base_model_compatibility=["google/gemma-2-2b-it"],
        ),
        manifest("acme", "odd", "1.0.0", payload, license="Apache 2"),
    ]  # fmt: skip
    try:
        with served(hub) as url:
            for document in documents:
                r = httpx.post(
                    f"{url}/v1/adapters",
                    content=push_body(document, payload),
                    headers=multipart_headers(hub.token),
                )
                assert r.status_code == 201, r.text
            yield CardSite(url, hub, payload)
    finally:
        hub.storage.close()


def test_the_card_is_rendered_and_its_hostile_parts_stay_inert(
    browser: Any, card_site: CardSite
) -> None:
    from selenium.webdriver.common.by import By

    browser.get(card_site.url + "/a/acme/react-19")
    assert text(browser, "#card h2") == "Card title"
    assert text(browser, "#card em") == "React 19"
    assert text(browser, "#card table td:last-child") == "0.42"
    card = text(browser, "#card")
    assert "<script>window.pwned = 1</script>" in card  # shown as text
    assert '<img src=x onerror="window.pwned = 2">' in card
    assert "[click me](javascript:window.pwned=3)" in card
    assert browser.find_elements(By.CSS_SELECTOR, "main script, main img, main iframe") == []
    links = browser.find_elements(By.CSS_SELECTOR, "#card a")
    hrefs = [a.get_attribute("href") for a in links]
    assert hrefs == ["https://react.dev/reference", "https://tracker.example/pixel.png"]
    assert all("noopener" in (a.get_attribute("rel") or "") for a in links)
    assert "image: tracker" in links[1].text  # the image is a link, not loaded
    loaded = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
    )
    assert all(name.startswith(card_site.url) for name in loaded), loaded
    assert browser.execute_script("return window.pwned === undefined")


def test_the_licence_is_linked_to_spdx_or_flagged(browser: Any, card_site: CardSite) -> None:
    from selenium.webdriver.common.by import By

    browser.get(card_site.url + "/a/acme/react-19")
    link = browser.find_element(By.CSS_SELECTOR, "#license a")
    assert link.text == "Apache-2.0"
    assert link.get_attribute("href") == "https://spdx.org/licenses/Apache-2.0.html"
    assert browser.find_elements(By.ID, "license-flag") == []
    browser.get(card_site.url + "/a/acme/odd")
    assert text(browser, "#license .given") == "Apache 2"  # as given
    assert text(browser, "#license-flag") == "not a known SPDX licence"
    assert browser.find_elements(By.CSS_SELECTOR, "#license a") == []


def test_the_use_box_shows_lines_that_run(
    browser: Any, card_site: CardSite, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    site = card_site
    browser.get(site.url + "/a/acme/react-19")
    assert text(browser, "#use-heading") == "Use this adapter"
    reference = "hub://acme/react-19:1.0.0"
    command = browser.find_element(By.ID, "pull-command").get_attribute("value")
    assert command == f"provcat hub pull --hub {site.url} {reference}"
    python = text(browser, "#use-python")
    assert python == (
        "from provcat.hub import RegistryClient\n\n"
        f"with RegistryClient('{site.url}') as hub:\n"
        f"    path = hub.local_path(hub.pull('{reference}'))  # verified against its SHA-256"
    )
    peft = text(browser, "#use-peft")
    assert "from peft import LoraConfig, get_peft_model, set_peft_model_state_dict" in peft
    assert "AutoModelForCausalLM.from_pretrained('google/gemma-2-2b-it')" in peft
    assert "LoraConfig(r=8, target_modules=['q_proj', 'v_proj'])" in peft
    assert "set_peft_model_state_dict(model, load_file(path))" in peft
    assert text(browser, "#use-safetensors").startswith("from safetensors.torch import load_file")
    # the Python lines as shown, then the tensors read with safetensors' numpy reader (torch is
    # not a test dependency): PEFT's names for the sample's LoRA pair
    script = python + (
        "\nfrom safetensors.numpy import load_file\nprint(sorted(load_file(path)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PROVCAT_ADAPTERS_DIR": str(tmp_path / "store")},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    module = "base_model.model.model.layers.0.self_attn.q_proj"
    assert done.stdout.strip() == str([f"{module}.lora_A.weight", f"{module}.lora_B.weight"])
    for path, placeholder in (("/a/acme/odd", "BASE_MODEL_ID"), ("/a/acme/odd", "RANK")):
        browser.get(site.url + path)
        assert placeholder in text(browser, "#use-peft")  # the manifest does not say


def test_download_counts_and_sorting_in_the_browser(browser: Any, card_site: CardSite) -> None:
    from selenium.webdriver.common.by import By

    from tests.hub.test_browse import _listed, _search

    site = card_site
    before = site.hub.storage.version_downloads("acme", "odd").get("1.0.0", 0)
    for _ in range(2):
        httpx.get(f"{site.url}/v1/adapters/acme/odd/1.0.0/payload").raise_for_status()
    browser.get(site.url + "/a/acme/odd")
    [version] = browser.find_elements(By.CSS_SELECTOR, "ul.versions li")
    assert f"{before + 2} downloads" in version.text
    assert text(browser, "#total-downloads") == f"{before + 2} downloads, all versions"
    react = site.hub.storage.version_downloads("acme", "react-19").get("1.0.0", 0)
    for _ in range(before + 3 - react):  # react-19 ahead on downloads, behind on name
        httpx.get(f"{site.url}/v1/adapters/acme/react-19/1.0.0/payload").raise_for_status()
    browser.get(site.url + "/")
    _search(browser, sort="downloads")
    assert [name for name, _ in _listed(browser)] == ["acme/react-19", "acme/odd"]
    _search(browser, sort="name")
    assert [name for name, _ in _listed(browser)] == ["acme/odd", "acme/react-19"]
    assert browser.find_element(By.ID, "sort").get_attribute("value") == "name"
