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
                base = "org/wanted-base" if i == PAGE_LIMIT else "org/other-base"
                extra = {"base_model_compatibility": [base]}
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


DASH = "\N{EN DASH}"


async def _push_many(hub: Hub, names: list[str], **extra: object) -> None:
    from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors

    payload = safetensors(b"\x42" * 16)
    async with hub.client() as c:
        for name in names:
            doc = manifest("acme", name, "1.0.0", payload, **extra)
            r = await c.post(
                "/v1/adapters",
                content=push_body(doc, payload),
                headers=multipart_headers(hub.token),
            )
            assert r.status_code == 201, r.text


def _listed(html: str) -> list[str]:
    import re

    return re.findall(r'<div class="row-head">\s*<a href="/a/([^"]+)">', html)


def _next(html: str) -> str | None:
    import html as html_module
    import re

    found = re.search(r'id="next-page" rel="next" href="([^"]+)"', html)
    return html_module.unescape(found.group(1)) if found else None


async def test_the_list_pages_through_every_adapter(
    hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a tester: the list stopped at its first 100 adapters with no way to the others,
    and a result of exactly 100 also said "the first 100"."""
    import provcat.hub.web.pages as pages

    monkeypatch.setattr(pages, "PAGE_LIMIT", 3)
    names = [f"p{i}" for i in range(7)]
    await _push_many(hub, names)
    async with hub.client() as c:
        seen: list[str] = []
        url: str | None = "/"
        counts = []
        while url is not None:
            r = await c.get(url)
            assert r.status_code == 200, r.text
            seen += _listed(r.text)
            counts.append(r.text.split('id="count" aria-live="polite">')[1].split("</p>")[0])
            url = _next(r.text)
        assert seen == [f"acme/{n}" for n in names]  # every adapter, once, in order
        assert counts == [
            f"7 adapters; 1{DASH}3 on this page",
            f"7 adapters; 4{DASH}6 on this page",
            f"7 adapters; 7{DASH}7 on this page",
        ]
        # a search: the total is not known, the next page is
        r = await c.get("/", params={"q": "p", "sort": "name"})
        assert _listed(r.text) == ["acme/p0", "acme/p1", "acme/p2"]
        assert f"Adapters 1{DASH}3; more on the next page" in r.text
        assert _next(r.text) == "/?q=p&sort=name&page=2"
        r = await c.get("/", params={"q": "p", "sort": "name", "page": "3"})
        assert _listed(r.text) == ["acme/p6"] and _next(r.text) is None
        assert 'id="previous-page"' in r.text
        # exactly one page's worth: no next page, no "first N"
        r = await c.get("/", params={"q": "p", "tag": "test", "sort": "name", "page": "2"})
        assert _listed(r.text) == ["acme/p3", "acme/p4", "acme/p5"]
        r = await c.get("/", params={"q": "p0"})
        assert "1 adapter<" in r.text and _next(r.text) is None and "first" not in r.text
        # past the end: an empty page that says so; a page number that is no number: a 400
        r = await c.get("/", params={"page": "9"})
        assert r.status_code == 200 and _listed(r.text) == [] and "past the last" in r.text
        for bad in ("0", "-1", "x", "1e3", "99999999"):
            assert (await c.get("/", params={"page": bad})).status_code == 400, bad


async def test_the_base_model_filter_pages_too(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import provcat.hub.web.pages as pages

    monkeypatch.setattr(pages, "PAGE_LIMIT", 2)
    hub = make_hub("sqlite", tmp_path / "hub-data", request)
    try:
        await _push_many(hub, ["b0", "b1", "b2"], base_model_compatibility=["org/base"])
        await _push_many(hub, ["c0"])
        await _push_many(hub, ["d0"], base_model_compatibility=["org/other"])
        async with hub.client() as c:
            r = await c.get("/", params={"base_model": "org/base"})
            assert _listed(r.text) == ["acme/b0", "acme/b1"]
            assert f"4 adapters; 1{DASH}2 on this page" in r.text
            r = await c.get(_next(r.text) or "")
            # found by a new-user audit: c0 names no base model ("Base models: any" on its page,
            # accepted by `resolve --base-model`, as the protocol says) and the filter hid it
            assert _listed(r.text) == ["acme/b2", "acme/c0"] and _next(r.text) is None
            assert r.text.count("For any base model (it names none).") == 1
            r = await c.get("/", params={"base_model": "org/other"})
            assert _listed(r.text) == ["acme/c0", "acme/d0"]
            r = await c.get("/")  # no filter: no note
            assert "For any base model" not in r.text
    finally:
        hub.storage.close()


async def test_the_page_of_a_deleted_version_says_it_was_deleted(hub: Hub) -> None:
    """Found by a new-user audit: the page of a deleted version said "has no such version" (or
    "No adapter", the adapter's only version deleted) where the API and the command line say
    it was deleted."""
    import html

    from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors

    payload = safetensors(b"\x43" * 16)
    auth = {"Authorization": f"Bearer {hub.token}"}
    async with hub.client() as c:
        for name, version in (("hello", "0.1.0"), ("hello", "0.2.0"), ("sample", "0.1.0")):
            doc = manifest("acme", name, version, payload)
            r = await c.post(
                "/v1/adapters",
                content=push_body(doc, payload),
                headers=multipart_headers(hub.token),
            )
            assert r.status_code == 201, r.text
        for path in ("hello/0.2.0", "sample/0.1.0"):
            assert (await c.delete(f"/v1/adapters/acme/{path}", headers=auth)).status_code == 204

        async def said(path: str) -> str:
            r = await c.get(path, headers={"Accept": "text/html"})
            assert r.status_code == 404, r.text
            return html.unescape(r.text.split('id="message">')[1].split("</p>")[0])

        deleted = "was deleted; a deleted version is never served or pushed again."
        assert await said("/a/acme/hello/0.2.0") == f"hub://acme/hello:0.2.0 {deleted}"
        assert await said("/a/acme/sample/0.1.0") == f"hub://acme/sample:0.1.0 {deleted}"
        # never published: as before
        assert await said("/a/acme/hello/0.3.0") == "hub://acme/hello:0.3.0 has no such version."
        assert await said("/a/acme/sample") == "No adapter hub://acme/sample:latest."
        assert await said("/a/acme/nothing/1.0.0") == "No adapter hub://acme/nothing:1.0.0."


async def test_query_messages_say_what_is_wrong(hub: Hub) -> None:
    import html

    """Found by a tester: "'q' must be given once, as text of at most 200" for every problem
    (no unit; a NUL was not "given more than once")."""
    async with hub.client() as c:
        for query, said in (
            ("q=a%00", "'q' must be valid Unicode without NUL"),
            ("q=a&q=b", "'q' must be given once, not 2 times"),
            ("q=" + "a" * 201, "'q' must be at most 200 characters"),
            ("tag=" + "a" * 101, "'tag' must be at most 100 characters"),
        ):
            r = await c.get("/?" + query)
            assert r.status_code == 400 and said in html.unescape(r.text), (query, r.text)


async def test_a_token_pasted_into_the_search_box_is_not_shown_back(hub: Hub) -> None:
    """Found by a new user: `/?q=<token>` showed the token in the search box and in "No
    adapter matches", though the access log hid it."""
    async with hub.client() as c:
        for field in ("q", "tag", "base_model"):
            r = await c.get("/", params={field: hub.token})
            assert r.status_code == 200 and hub.token not in r.text
            assert hub.token.split("_", 2)[2] not in r.text  # nor its secret part
            assert "&lt;redacted&gt;" in r.text


async def test_browsers_get_pages_not_json(
    private_hub: Hub, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Found by a tester: GET /login (the address bar after a failed sign-in), /a/NAMESPACE, /a/
    and mistyped addresses answered raw JSON; in private mode the adapter page linked the payload
    URL, which the sign-in cookie does not open (401 JSON)."""
    html = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    hub = private_hub
    async with hub.client() as c:
        r = await c.get("/login", headers=html)
        assert r.status_code == 401 and 'name="token"' in r.text
        ok = await c.post(
            "/login", data={"token": hub.token, "next": "/"}, headers={"Origin": "http://hub.test"}
        )
        assert ok.status_code == 303
        r = await c.get("/login", headers=html)
        assert r.status_code == 303 and r.headers["location"] == "/"
        for path in ("/a/acme", "/a/", "/nothing-here", "/a/acme/x/1.0.0/more"):
            r = await c.get(path, headers=html)
            assert r.status_code == 404, path
            assert r.headers["content-type"].startswith("text/html"), path
            assert "<h1>Not found</h1>" in r.text
        # the API and clients that do not ask for HTML keep the protocol's JSON
        assert (await c.get("/v1/nothing", headers=html)).json()["error"] == "NotFoundError"
        assert (await c.get("/nothing-here")).json()["error"] == "NotFoundError"
        # a client that ranks JSON first gets JSON; media types are case-insensitive
        for accept, is_html in (
            ("application/json, text/html;q=0.1", False),
            ("*/*", False),
            ("TEXT/HTML", True),
            ("text/html;q=0", False),
        ):
            r = await c.get("/nothing-here", headers={"Accept": accept})
            assert r.headers["content-type"].startswith("text/html") is is_html, accept
        await _push_many(hub, ["private-one"])
        page = await c.get("/a/acme/private-one")
        assert page.status_code == 200
        payload = "/v1/adapters/acme/private-one/1.0.0/payload"
        assert payload in page.text and f'href="http://hub.test{payload}"' not in page.text
        assert "Authorization: Bearer" in page.text
    public = make_hub("sqlite", tmp_path / "public", request)
    try:
        await _push_many(public, ["open"])
        async with public.client() as c:
            r = await c.get("/login", headers=html)
            assert r.status_code == 303 and r.headers["location"] == "/"
            page = await c.get("/a/acme/open")
            assert 'href="http://hub.test/v1/adapters/acme/open/1.0.0/payload"' in page.text
    finally:
        public.storage.close()


async def test_pages_show_control_characters_and_bidi_overrides_escaped(hub: Hub) -> None:
    """Found by a tester: a description ``"evil\u202edesc\u001b[31mred"`` was put in the page
    raw, so the browser showed it reversed. The pages show such characters as visible escapes,
    as the command line does (test_cli.py::test_text_output_escapes_control_characters_from_the_hub);
    a tag's link still finds the tag itself."""
    from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors

    payload = safetensors(b"\x43" * 16)
    doc = manifest(
        "acme",
        "bidi",
        "1.0.0",
        payload,
        description="evil\u202edesc\u001b[31mred",
        tags=["a\u202eb"],
        license="MIT\u2066x",
        card="# Use\n\nrun \u202egnp.exe\u202c now\x9b\n",
        base_model_compatibility=["org/m\u2028x"],
    )
    async with hub.client() as c:
        r = await c.post(
            "/v1/adapters", content=push_body(doc, payload), headers=multipart_headers(hub.token)
        )
        assert r.status_code == 201, r.text
        pages = [(await c.get(path)).text for path in ("/", "/?q=evil", "/a/acme/bidi")]
    for html in pages:
        assert not any(c in html for c in "\u202e\u202c\u2066\u2028\x1b\x9b"), html
        assert "evil\\u202edesc\\x1b[31mred" in html
        assert 'href="/?tag=a%E2%80%AEb">a\\u202eb</a>' in html
    adapter = pages[2]
    assert "run \\u202egnp.exe\\u202c now\\x9b" in adapter  # the card
    assert "MIT\\u2066x" in adapter and "org/m\\u2028x" in adapter
