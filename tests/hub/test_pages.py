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


async def test_the_base_model_filter_reads_every_match_not_one_page(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Found in review: the filter ran on the first PAGE_LIMIT matches, so an adapter for the base
        model ranked below them never showed. The field also suggests the base models of the matches
    (its datalist was always empty)."""
    import httpx

    from provcat.hub.web.pages import PAGE_LIMIT
    from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors

    hub = make_hub("sqlite", tmp_path / "hub-data", request)
    try:
        payload = safetensors(b"\x41" * 16)
        async with hub.client() as c:
            for i in range(PAGE_LIMIT + 5):  # names sort a000 ... a104: the last one is wanted
                extra = {"base_model_compatibility": ["org/wanted-base"]} if i == PAGE_LIMIT else {}
                doc = manifest("acme", f"a{i:03d}", "1.0.0", payload, **extra)
                r = await c.post(
                    "/v1/adapters",
                    content=push_body(doc, payload),
                    headers=multipart_headers(hub.token),
                )
                assert r.status_code == 201, r.text
            page = await c.get("/", params={"base_model": "org/wanted-base"})
    finally:
        hub.storage.close()
    assert isinstance(page, httpx.Response) and page.status_code == 200
    assert f"acme/a{PAGE_LIMIT:03d}" in page.text and "acme/a000" not in page.text
    assert '<option value="org/wanted-base">' in page.text  # the field suggests what it found
