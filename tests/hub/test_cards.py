"""Adapter cards and licences: the card rendered safe (bad input from issue #28 each checked), the
card's size limit on every path a push takes, and licences read against the SPDX License List."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from provcat.hub import RegistryClient
from provcat.hub.card import CARD_MAX_CHARS
from provcat.hub.errors import ValidationError
from provcat.hub.web.cardhtml import render_card
from provcat.hub.web.licenses import read_license
from tests.hub.conftest import BACKENDS, Hub, Live, make_hub
from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors

pytestmark = pytest.mark.anyio

EVIL = {
    "script": "<script>window.pwned = 1</script>",
    "onerror": '<img src=x onerror="window.pwned = 2">',
    "javascript link": "[click me](javascript:window.pwned=3)",
    "javascript link, mixed case": "[click me](JaVaScRiPt:window.pwned=3)",
    "javascript in raw html": '<a href="javascript:window.pwned=4">raw</a>',
    "remote image": "![tracker](https://tracker.example/pixel.png)",
    "data url": "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
}


class _Elements(HTMLParser):
    """Every element and attribute of an HTML fragment, as a browser's parser sees them."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, dict(attrs)))


@pytest.mark.parametrize("card", EVIL.values(), ids=EVIL.keys())
def test_a_card_renders_without_script_handlers_or_remote_images(card: str) -> None:
    html = render_card(f"# Card\n\n{card}\n")
    elements = _Elements(html).found
    assert {tag for tag, _ in elements} <= {"h2", "p", "a", "span"}  # no script, img, iframe
    for _, attrs in elements:
        assert not [name for name in attrs if name.startswith("on")], attrs
        href = (attrs.get("href") or "").strip().lower()
        assert not href or href.startswith(("https:", "http:")), attrs
    assert "<h2>Card</h2>" in html  # the page's own h1 stays the only one


def test_a_card_keeps_its_markdown() -> None:
    html = render_card(
        "# Title\n\nSome *text* with [a link](https://example.com/docs) and `code`.\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n![diagram](https://example.com/d.png)\n"
    )
    assert "<em>text</em>" in html and "<code>code</code>" in html and "<table>" in html
    assert (
        '<a href="https://example.com/docs" rel="nofollow noopener noreferrer">a link</a>' in html
    )
    # an image is a link to it, never loaded
    assert 'href="https://example.com/d.png"' in html and "image: diagram" in html


def test_raw_html_in_a_card_is_text() -> None:
    html = render_card('<b onmouseover="x()">bold?</b>')
    assert "<b" not in html and "&lt;b onmouseover" in html


@pytest.mark.parametrize(
    ("given", "spdx"),
    [
        # ids as the SPDX License List spells them (https://spdx.org/licenses/)
        ("Apache-2.0", "Apache-2.0"),
        ("apache-2.0", "Apache-2.0"),
        ("MIT OR Apache-2.0", "MIT OR Apache-2.0"),
        ("GPL-3.0-or-later", "GPL-3.0-or-later"),
        ("CC-BY-4.0", "CC-BY-4.0"),
    ],
)
def test_known_spdx_licences(given: str, spdx: str) -> None:
    view = read_license(given)
    assert view.known and view.spdx == spdx
    assert all(url == f"https://spdx.org/licenses/{key}.html" for key, url in view.links)


@pytest.mark.parametrize("given", ["Apache 2", "llama3", "proprietary", "MIT AND (", "<b>MIT</b>"])
def test_unknown_licences_are_kept_as_given(given: str) -> None:
    view = read_license(given)
    assert not view.known and view.given == given and view.links == ()


def _card_push(hub: Hub, card: str, name: str = "carded") -> bytes:
    payload = safetensors(name.encode() * 4)
    return push_body(manifest("acme", name, "1.0.0", payload, card=card), payload)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_card_over_the_limit_is_refused_by_the_server(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    # a hub taking uploads far larger than the card (the tests' default is 1 MiB)
    hub = make_hub(backend, tmp_path / "hub-data", request, max_upload_bytes=64 << 20)
    try:
        await _refuses_big_cards(hub)
    finally:
        hub.storage.close()


async def _refuses_big_cards(hub: Hub) -> None:
    async with hub.client() as c:
        auth = multipart_headers(hub.token)
        # 10 MB: more than the manifest part may hold; the message names the card's limit
        r = await c.post("/v1/adapters", content=_card_push(hub, "x" * 10_000_000), headers=auth)
        assert r.status_code == 400, r.text
        assert f"at most {CARD_MAX_CHARS:,} characters" in r.json()["message"]
        # one character over the limit (still a small manifest): the card's own message
        r = await c.post(
            "/v1/adapters", content=_card_push(hub, "é" * (CARD_MAX_CHARS + 1)), headers=auth
        )
        assert r.status_code == 400
        assert r.json()["message"].startswith(
            f"the card is {CARD_MAX_CHARS + 1:,} characters; a card is at most "
            f"{CARD_MAX_CHARS:,} characters"
        )
        assert r.json()["details"]["limit"] == CARD_MAX_CHARS
        assert (await c.get("/v1/adapters/acme/carded/1.0.0")).status_code == 404  # nothing kept
        assert hub.tmp_files() == []
        # at the limit: published, and the card comes back unchanged
        r = await c.post(
            "/v1/adapters", content=_card_push(hub, "é" * CARD_MAX_CHARS), headers=auth
        )
        assert r.status_code == 201, r.text
        stored = (await c.get("/v1/adapters/acme/carded/1.0.0")).json()
        assert stored["card"] == "é" * CARD_MAX_CHARS


def test_a_card_over_the_limit_is_refused_before_a_byte_is_sent(tmp_path: Path) -> None:
    def no_network(request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"nothing should be sent: {request.url}")

    payload = tmp_path / "adapter.safetensors"
    payload.write_bytes(safetensors())
    client = RegistryClient("http://hub.test", transport=httpx.MockTransport(no_network))
    with client, pytest.raises(ValidationError, match="a card is at most 100,000 characters"):
        client.push(
            payload,
            {"namespace": "acme", "name": "x", "version": "1.0.0", "card": "x" * 10_000_000},
        )


def test_push_card_and_license_from_the_command_line(live: Live, tmp_path: Path) -> None:
    runner = CliRunner()
    where = live.hub.storage_args()
    made = runner.invoke(main, ["hub", "token", "create", "--namespace", "acme", *where])
    env = {"PROVCAT_HUB_URL": live.url, "PROVCAT_HUB_TOKEN": made.stdout.strip()}
    payload = tmp_path / "adapter.safetensors"
    assert runner.invoke(main, ["hub", "sample", str(payload)]).exit_code == 0
    big = tmp_path / "BIG.md"
    big.write_bytes(b"# big\n" + b"x" * 10_000_000)
    refused = runner.invoke(
        main,
        ["hub", "push", str(payload), "hub://acme/big:1.0.0", "--card", str(big)],
        env=env,
    )
    assert refused.exit_code == 1
    assert "ValidationError" in refused.stderr and "at most 100,000 characters" in refused.stderr
    assert httpx.get(f"{live.url}/v1/adapters/acme/big/1.0.0").status_code == 404
    card = tmp_path / "README.md"
    card.write_text("# Sample\n\nA sample adapter.\n", encoding="utf-8")
    pushed = runner.invoke(
        main,
        [
            "hub", "push", str(payload), "hub://acme/carded:1.0.0",
            "--card", str(card), "--license", "Apache-2.0", "--format", "json",
        ],
        env=env,
    )  # fmt: skip
    assert pushed.exit_code == 0, pushed.stderr
    stored = json.loads(pushed.stdout)
    assert stored["card"] == card.read_text() and stored["license"] == "Apache-2.0"
    resolved = httpx.get(f"{live.url}/v1/adapters/acme/carded/latest").json()
    assert (resolved["card"], resolved["license"]) == (stored["card"], "Apache-2.0")
