"""Defects found by an adversarial run (issue 15), one test each, on both backends: bad text in
manifests, storage commands beside a live server, header and list bounds, delete races, names
with a trailing newline, NUL, huge Range numbers, payload-first pushes, Host reflection, Allow,
and the transport's own 400s. Each test failed before its fix."""

from __future__ import annotations

import dataclasses
import json
import socket
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from provcat.hub.storage import StoredAdapter
from tests.hub.conftest import Hub, Live, make_hub
from tests.hub.helpers import (
    manifest,
    multipart,
    multipart_headers,
    part,
    push_body,
    safetensors,
    sha256,
    unique,
)

pytestmark = pytest.mark.anyio


def _error(r: httpx.Response, status: int, name: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error", "message", "details"} and body["error"] == name, body
    return body  # type: ignore[no-any-return]


async def _push_raw(hub: Hub, raw_manifest: bytes, payload: bytes) -> httpx.Response:
    async with hub.client() as c:
        return await c.post(
            "/v1/adapters",
            content=push_body(raw_manifest, payload),
            headers=multipart_headers(hub.token),
        )


# -- 1 and 7: text that is not valid Unicode, and NUL ----------------------------------------------


@pytest.mark.parametrize("bad", ["\\udfff", "\\ud800x", "a\\u0000b"])
@pytest.mark.parametrize(
    "field", ["description", "tags", "base_model_compatibility", "x_extension", "key"]
)
async def test_bad_text_is_400_before_anything_is_stored(hub: Hub, field: str, bad: str) -> None:
    name, payload = unique(), safetensors(b"\x05" * 8)
    document = manifest("acme", name, "1.0.0", payload)
    text = json.dumps(document)
    if field == "key":
        raw = text[:-1] + f', "k{bad}": 1}}'
    elif field in ("tags", "base_model_compatibility"):
        raw = text[:-1] + f', "{field}": ["{bad}"]}}'
        raw = raw.replace(f'"{field}": ["test"], ', "") if field == "tags" else raw
    else:
        raw = text[:-1] + f', "{field}": "{bad}"}}'
    r = await _push_raw(hub, raw.encode(), payload)
    _error(r, 400, "ValidationError")
    async with hub.client() as c:
        _error(await c.get(f"/v1/adapters/acme/{name}/1.0.0"), 404, "AdapterNotFoundError")
        assert (await c.get("/v1/search", params={"q": name})).json()["results"] == []
    assert hub.storage.metadata.get("acme", name, "1.0.0") is None


async def test_a_stored_manifest_with_bad_text_never_breaks_a_listing(
    hub: Hub, tmp_path: Path
) -> None:
    """Rows written before the check (or by another tool) still list, resolve and render."""
    payload = safetensors(b"\x06" * 8)
    source = tmp_path / "p.safetensors"
    source.write_bytes(payload)
    name = unique("bad")
    bad = {
        "manifest_version": 2,
        "namespace": "acme",
        "name": name,
        "version": "1.0.0",
        "adapter_id": f"acme__{name}__v1.0.0",
        "checksum_sha256": sha256(payload),
        "created_at": "2026-01-01T00:00:00Z",
        "description": "broken \udfff text\x00",
        "tags": ["ok", "\ud800"],
        "base_model_compatibility": ["\udfff"],
    }
    record = StoredAdapter("acme", name, "1.0.0", sha256(payload), len(payload), bad, "x")
    hub.storage.publish(record, source)
    async with hub.client() as c:
        for params in ({}, {"q": name}, {"q": "broken"}, {"tag": "ok"}):
            r = await c.get("/v1/search", params=params)
            assert r.status_code == 200, (params, r.text)
            assert name in r.text
        r = await c.get(f"/v1/adapters/acme/{name}/latest")
        assert r.status_code == 200 and r.json()["name"] == name
        for page in ("/", f"/?q={name}", f"/a/acme/{name}"):
            r = await c.get(page)
            assert r.status_code == 200 and name in r.text, page
        assert (await c.get("/namespaces")).status_code == 200


async def test_nul_in_query_parameters_is_400(hub: Hub) -> None:
    async with hub.client() as c:
        for query in ("q=%00", "q=a%00b", "tag=%00", "q=%ED%BF%BF"):
            r = await c.get(f"/v1/search?{query}")
            assert r.status_code in (200, 400), r.text
            if "%00" in query:
                _error(r, 400, "ValidationError")
        _error(await c.get("/v1/adapters/acme/x/1.0.0?base_model=a%00"), 400, "ValidationError")


# -- 2: opening the storage beside a live server -------------------------------------------------


@pytest.mark.parametrize("hub", ["sqlite"], indirect=True)  # the same on both
def test_storage_commands_leave_live_uploads_alone(hub: Hub, tmp_path: Path) -> None:
    from provcat.cli.main import main

    in_flight = hub.storage.tmp_dir / "upload-live.part"
    in_flight.write_bytes(b"half an upload")
    args = hub.storage_args()
    runner = CliRunner()
    for command in (
        ["hub", "token", "create", *args, "--namespace", "acme"],
        ["hub", "token", "list", *args],
        ["hub", "export-static", *args, str(tmp_path / "site")],
    ):
        result = runner.invoke(main, command, env=hub.env, catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert in_flight.exists(), command
    served = hub.serve()  # a second server starting beside this live one
    try:
        assert in_flight.read_bytes() == b"half an upload"
    finally:
        served.stop()


# -- 3 and 12: the request head, at the socket ---------------------------------------------------


def _raw(url: str, request: bytes, *, send_all: bool = True) -> bytes:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        try:
            if send_all:
                sock.sendall(request)
            else:
                for i in range(0, len(request), 1 << 16):
                    sock.sendall(request[i : i + (1 << 16)])
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may refuse and close before reading everything
        data = b""
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except ConnectionResetError:
            pass
    return data


def _json_error(data: bytes, status: int, name: str) -> None:
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.split(b" ", 2)[1] == str(status).encode(), data[:300]
    assert b"application/json" in head.lower(), head
    assert json.loads(body)["error"] == name, body


def test_a_huge_header_is_refused_early(live: Live) -> None:
    big = b"x" * (4 << 20)
    data = _raw(
        live.url,
        b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + big + b"\r\n\r\n",
        send_all=False,
    )
    _json_error(data, 431, "RequestHeadersTooLargeError")
    assert httpx.get(live.url + "/v1/health").status_code == 200


def test_transport_errors_use_the_json_error_body(live: Live) -> None:
    raw_path = b"GET /v1/adapters/acme/\xff\xfe/1.0.0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    _json_error(_raw(live.url, raw_path), 400, "ValidationError")
    long_url = b"GET /v1/search?q=" + b"a" * (70 << 10) + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    _json_error(_raw(live.url, long_url), 414, "UriTooLongError")
    garbage = b"NOT HTTP AT ALL\r\n\r\n"
    _json_error(_raw(live.url, garbage), 400, "ValidationError")


# -- 4: bounded lists ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("tags", [f"t{i}" for i in range(33)]),
        ("tags", ["x" * 101]),
        ("base_model_compatibility", [f"org/m{i}" for i in range(33)]),
        ("base_model_compatibility", ["m" * 201]),
        ("target_modules", [f"m{i}" for i in range(257)]),
        ("target_modules", ["m" * 201]),
        ("description", "d" * 4001),
    ],
)
async def test_manifest_lists_and_text_are_bounded(hub: Hub, field: str, value: Any) -> None:
    name, payload = unique(), safetensors(b"\x07" * 8)
    document = manifest("acme", name, "1.0.0", payload, **{field: value})
    body = _error(
        await _push_raw(hub, json.dumps(document).encode(), payload), 400, "ValidationError"
    )
    assert body["details"]["problems"][0]["path"].startswith(f"/{field}")
    assert hub.storage.metadata.get("acme", name, "1.0.0") is None


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("description", "d" * 4001, "is too long: 4,001 characters, at most 4,000"),
        ("license", "l" * 201, "is too long: 201 characters, at most 200"),
        ("tags", [f"t{i}" for i in range(33)], "too many items: 33, at most 32"),
        ("target_modules", ["m" * 201], "is too long: 201 characters, at most 200"),
    ],
)
async def test_a_bound_broken_says_which_and_the_limit(
    hub: Hub, field: str, value: Any, reason: str
) -> None:
    name, payload = unique(), safetensors(b"\x07" * 8)
    document = manifest("acme", name, "1.0.0", payload, **{field: value})
    body = _error(
        await _push_raw(hub, json.dumps(document).encode(), payload), 400, "ValidationError"
    )
    problem = body["details"]["problems"][0]
    assert reason in problem["message"] and len(problem["message"]) < 120
    assert body["message"].endswith(f": {problem['message']}")  # the reason, never cut off


async def test_manifest_at_the_bounds_is_accepted(hub: Hub) -> None:
    name, payload = unique(), safetensors(b"\x08" * 8)
    document = manifest(
        "acme",
        name,
        "1.0.0",
        payload,
        tags=[f"t{i}" for i in range(32)],
        base_model_compatibility=["m" * 200],
        target_modules=["m" * 200] * 256,
        description="d" * 4000,
    )
    r = await _push_raw(hub, json.dumps(document).encode(), payload)
    assert r.status_code == 201, r.text


# -- 5: a delete race ---------------------------------------------------------------------------


def test_concurrent_deletes_succeed_exactly_once(hub: Hub, tmp_path: Path) -> None:
    payload = safetensors(b"\x09" * 8)
    source = tmp_path / "p.safetensors"
    source.write_bytes(payload)
    for round_ in range(4):
        name = unique("race")
        record = StoredAdapter(
            "acme",
            name,
            "1.0.0",
            sha256(payload),
            len(payload),
            {**manifest("acme", name, "1.0.0", payload), "adapter_id": f"acme__{name}__v1.0.0"},
            "2026-01-01T00:00:00Z",
        )
        hub.storage.publish(record, source)
        barrier = threading.Barrier(8)
        results: list[bool] = []

        def delete(name: str, barrier: threading.Barrier, results: list[bool]) -> None:
            barrier.wait()
            results.append(hub.storage.delete("acme", name, "1.0.0"))

        threads = [threading.Thread(target=delete, args=(name, barrier, results)) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == [False] * 7 + [True], (round_, results)


# -- 6: a trailing newline in a name -------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [("name", "bad\n"), ("namespace", "acme\n"), ("version", "1.0.0\n"), ("name", "bad\r")],
)
async def test_names_with_a_trailing_newline_are_400(hub: Hub, field: str, value: str) -> None:
    payload = safetensors(b"\x0a" * 8)
    document = {**manifest("acme", "good", "1.0.0", payload), field: value}
    _error(await _push_raw(hub, json.dumps(document).encode(), payload), 400, "ValidationError")
    async with hub.client() as c:
        rows = (await c.get("/v1/search", params={"q": "bad"})).json()["results"]
    assert all("\n" not in row["name"] for row in rows)


# -- 8: a Range number too long for int() --------------------------------------------------------


async def test_range_with_thousands_of_digits(hub: Hub) -> None:
    name, payload = unique(), safetensors(b"\x0b" * 64)
    r = await _push_raw(hub, json.dumps(manifest("acme", name, "1.0.0", payload)).encode(), payload)
    assert r.status_code == 201
    url = f"/v1/adapters/acme/{name}/1.0.0/payload"
    digits = "9" * 5000
    async with hub.client() as c:
        _error(
            await c.get(url, headers={"Range": f"bytes={digits}-"}),
            416,
            "RangeNotSatisfiableError",
        )
        whole = await c.get(url, headers={"Range": f"bytes=0-{digits}"})
        assert whole.status_code == 206 and whole.content == payload
        suffix = await c.get(url, headers={"Range": f"bytes=-{digits}"})
        assert suffix.status_code == 206 and suffix.content == payload


# -- 9: the namespace is checked before any payload byte is written ------------------------------


async def test_payload_first_is_refused_before_it_is_written(
    hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    import provcat.hub.server.upload as upload

    created: list[str] = []
    real = upload.tempfile.mkstemp

    def spy(*args: Any, **kwargs: Any) -> Any:
        created.append("tmp")
        return real(*args, **kwargs)

    monkeypatch.setattr(upload.tempfile, "mkstemp", spy)
    payload = safetensors(b"\x0c" * 4096)
    document = manifest("acme", unique(), "1.0.0", payload)
    body = multipart(
        part("payload", payload, "application/octet-stream", "a.safetensors"),
        part("manifest", json.dumps(document).encode(), "application/json"),
    )
    async with hub.client() as c:
        for token in (hub.other_token, hub.token):
            r = await c.post("/v1/adapters", content=body, headers=multipart_headers(token))
            body_json = _error(r, 400, "ValidationError")
            assert "manifest" in body_json["message"]
    assert created == []


# -- 10: the Host header and forwarded headers ---------------------------------------------------


async def test_an_untrusted_host_is_never_reflected(hub: Hub) -> None:
    name, payload = unique(), safetensors(b"\x0d" * 8)
    body = push_body(manifest("acme", name, "1.0.0", payload), payload)
    async with hub.client() as c:
        headers = {**multipart_headers(hub.token), "Host": "evil.example"}
        r = await c.post("/v1/adapters", content=body, headers=headers)
        _error(r, 400, "ValidationError")
        assert "evil.example" not in r.text
        r = await c.get("/v1/health", headers={"Host": "evil.example"})
        _error(r, 400, "ValidationError")


@pytest.mark.parametrize("hub", ["sqlite"], indirect=True)  # the same on both
async def test_public_url_wins_over_any_header(hub: Hub) -> None:
    from provcat.hub.server import create_app

    settings = dataclasses.replace(hub.settings, public_url="https://hub.example.org/")
    app = create_app(settings, storage=hub.storage)
    name, payload = unique(), safetensors(b"\x0e" * 8)
    body = push_body(manifest("acme", name, "1.0.0", payload), payload)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://evil.example"
    ) as c:
        headers = {
            **multipart_headers(hub.token),
            "X-Forwarded-Host": "evil.example",
            "X-Forwarded-Proto": "gopher",
        }
        r = await c.post("/v1/adapters", content=body, headers=headers)
        assert r.status_code == 201, r.text
        expected = f"https://hub.example.org/v1/adapters/acme/{name}/1.0.0/payload"
        assert r.json()["storage_uri"] == expected
        resolved = await c.get(f"/v1/adapters/acme/{name}/1.0.0")
        assert resolved.json()["storage_uri"] == expected


@pytest.mark.parametrize("hub", ["sqlite"], indirect=True)  # the same on both
def test_forwarded_headers_are_not_trusted_by_serve(hub: Hub) -> None:
    served = hub.serve()
    try:
        name, payload = unique(), safetensors(b"\x0f" * 8)
        body = push_body(manifest("acme", name, "1.0.0", payload), payload)
        headers = {
            **multipart_headers(hub.token),
            "X-Forwarded-Proto": "https",
            "X-Forwarded-For": "10.0.0.1",
            "X-Forwarded-Host": "evil.example",
        }
        r = httpx.post(served.url + "/v1/adapters", content=body, headers=headers)
        assert r.status_code == 201, r.text
        assert r.json()["storage_uri"].startswith(served.url + "/v1/adapters/")
    finally:
        served.stop()


# -- 11: Allow lists every method of the path ----------------------------------------------------


async def test_allow_lists_every_method_of_the_path(hub: Hub) -> None:
    async with hub.client() as c:
        r = await c.put("/v1/adapters/acme/x/1.0.0")
        _error(r, 405, "MethodNotAllowedError")
        assert sorted(r.headers["allow"].split(", ")) == ["DELETE", "GET"]
        r = await c.put("/v1/adapters/acme/x/1.0.0/payload")
        _error(r, 405, "MethodNotAllowedError")
        assert sorted(r.headers["allow"].split(", ")) == ["GET", "HEAD"]
        r = await c.delete("/v1/search")
        assert sorted(r.headers["allow"].split(", ")) == ["GET"]


PASTED = "pch_0123456789ab_" + "L" * 43  # a hub token pasted into a URL


def test_a_token_in_a_url_is_neither_logged_nor_echoed(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Found by a tester: the access log kept ``GET /?token=pch_...`` and a token pasted into the
    path, and the JSON 404 echoed the raw path (``no route /pch_.../x``)."""
    hub = make_hub("sqlite", tmp_path / "hub-data", request)
    served = hub.serve("--log-level", "info")
    try:
        for path in (f"/?token={PASTED}", f"/v1/search?q={PASTED}", f"/{PASTED}/x"):
            r = httpx.get(served.url + path, headers={"Accept": "application/json"})
            assert r.status_code in (200, 404) and PASTED not in r.text, r.text
        missing = httpx.get(f"{served.url}/{PASTED}/x")
        assert missing.json() == {
            "error": "NotFoundError",
            "message": "no route /<redacted>/x; see /openapi.json",
            "details": {},
        }
    finally:
        served.stop()
        hub.storage.close()
    log = served.log.read_text()
    assert PASTED not in log and PASTED[:24] not in log, log
    for line in ('"GET /?token=<redacted> HTTP/1.1" 200', '"GET /<redacted>/x HTTP/1.1" 404'):
        assert line in log, log  # still the access log, with the request and its status


def test_a_percent_encoded_token_in_a_url_is_not_logged(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Found by a new-user audit: ``GET /?q=pch%5F<id>%5F<secret>`` (or the same pasted into a
    path) was logged as sent, the plain ``pch_...`` form only being redacted. The token is
    found after percent-decoding; the rest of the line stays as it was sent."""
    encoded = PASTED.replace("_", "%5F")
    every = "".join(f"%{ord(c):02X}" for c in PASTED)  # every character percent-encoded
    twice = PASTED.replace("_", "%255F")  # encoded twice: one more decoding gives it away
    hub = make_hub("sqlite", tmp_path / "hub-data", request)
    served = hub.serve("--log-level", "info")
    try:
        for path in (
            f"/?q={encoded}&sort=name",
            f"/v1/adapters/acme/hello/{encoded}",
            f"/v1/search?q=x%20{every}",
            f"/?q={twice}",
        ):
            httpx.get(served.url + path, headers={"Accept": "application/json"})
    finally:
        served.stop()
        hub.storage.close()
    log = served.log.read_text()
    for secret in (PASTED, encoded, every, twice, "L" * 8, "%4C" * 8, "0123456789ab", "%30%31%32"):
        assert secret not in log, log
    for line in (
        '"GET /?q=<redacted>&sort=name HTTP/1.1" 200',
        '"GET /v1/adapters/acme/hello/<redacted> HTTP/1.1" 400',
        '"GET /v1/search?q=x%20<redacted> HTTP/1.1" 200',
    ):
        assert line in log, log


async def test_latest_of_two_versions_of_equal_precedence_is_one_whatever_their_order(
    hub: Hub, tmp_path: Path
) -> None:
    """``1.0.0-01`` and ``1.0.0-1`` (the frozen pattern allows both; SemVer ranks them equal):
    ``latest``, search and the pages give one answer whichever was stored first."""
    payload = safetensors(b"\x07" * 8)
    source = tmp_path / "p.safetensors"
    source.write_bytes(payload)
    for order in (("1.0.0-01", "1.0.0-1"), ("1.0.0-1", "1.0.0-01")):
        name = unique("tie")
        for version in order:
            document = {**manifest("acme", name, version, payload), "created_at": "x"}
            row = StoredAdapter("acme", name, version, sha256(payload), len(payload), document, "x")
            hub.storage.publish(row, source)
        async with hub.client() as c:
            r = await c.get(f"/v1/adapters/acme/{name}/latest")
            assert r.status_code == 200 and r.json()["version"] == "1.0.0-1", r.text
            found = (await c.get("/v1/search", params={"q": name})).json()["results"]
            assert found[0]["version"] == "1.0.0-1"
            for page in ("/", f"/a/acme/{name}"):
                r = await c.get(page)
                assert r.status_code == 200 and name in r.text, page
