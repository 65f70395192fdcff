"""The browse pages' HTTP edges, without a browser: sign-in redirects stay on this site, a
cross-site sign-in is refused, forms are bounded, headers are strict, bad input is a 400 page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from provcat.hub.web.pages import COOKIE, _local_path
from tests.hub.conftest import Hub, make_hub

pytestmark = pytest.mark.anyio


@pytest.fixture
def private_hub(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Hub]:
    made = make_hub("sqlite", tmp_path / "hub-data", request, private_reads=True)
    yield made
    made.storage.close()


@pytest.mark.parametrize(
    ("target", "safe"),
    [
        ("/a/acme/x?version=1", "/a/acme/x?version=1"),
        ("//evil.example/", "/"),
        ("/\t/evil.example/", "/"),
        ("/\\evil.example", "/"),
        ("https://evil.example/", "/"),
        ("javascript:alert(1)", "/"),
        ("", "/"),
    ],
)
def test_sign_in_returns_only_to_this_site(target: str, safe: str) -> None:
    assert _local_path(target) == safe


async def test_sign_in_and_out(private_hub: Hub) -> None:
    hub = private_hub
    async with hub.client() as c:
        r = await c.get("/")
        assert r.status_code == 401 and 'name="token"' in r.text
        assert "default-src 'none'" in r.headers["content-security-policy"]
        cross = await c.post(
            "/login",
            data={"token": hub.token, "next": "/"},
            headers={"Origin": "http://evil.example"},
        )
        assert cross.status_code == 403 and COOKIE not in cross.headers.get("set-cookie", "")
        big = await c.post("/login", content=b"token=" + b"x" * 10_000)
        assert big.status_code == 400
        ok = await c.post(
            "/login",
            data={"token": hub.token, "next": "//evil.example/"},
            headers={"Origin": "http://hub.test"},
        )
        assert ok.status_code == 303 and ok.headers["location"] == "/"
        cookie = ok.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Secure" not in cookie
        assert (await c.get("/")).status_code == 200
        api = await c.get("/v1/search")  # the cookie is for pages only
        assert api.status_code == 401
        out = await c.post("/logout")
        assert out.status_code == 303 and "Max-Age=0" in out.headers["set-cookie"]


async def test_pages_answer_bad_input_with_a_400_page(hub: Hub) -> None:
    async with hub.client() as c:
        for path in ("/?namespace=Bad_NS", "/?q=a%00", "/?q=a&q=b", "/a/Acme/x", "/a/acme/x/1.0"):
            r = await c.get(path)
            assert r.status_code == 400 and r.headers["content-type"].startswith("text/html")
        r = await c.get("/static/hub.css")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/css")
        assert (await c.get("/static/nothing.js")).status_code == 404
