"""Conformance: the protocol's endpoints, headers and semantics (black box, env-configured)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from typing import Any

import httpx
import pytest

from tests.hub.conformance.config import Config
from tests.hub.helpers import (
    manifest,
    multipart_headers,
    push_body,
    safetensors,
    sha256,
    unique,
)

pytestmark = pytest.mark.anyio


def needs(flag: bool, what: str) -> None:
    if not flag:
        pytest.skip(f"{what} disabled by PROVCAT_CONFORMANCE_* toggles")


async def push(
    c: httpx.AsyncClient, cfg: Config, name: str, version: str, payload: bytes, **extra: Any
) -> httpx.Response:
    document = manifest(cfg.namespace, name, version, payload, **extra)
    return await c.post(
        "/v1/adapters", content=push_body(document, payload), headers=multipart_headers(cfg.token)
    )


def is_error(response: httpx.Response, status: int, name: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "message", "details"}, body
    assert body["error"] == name, body
    assert isinstance(body["message"], str) and body["message"]
    assert isinstance(body["details"], dict)
    return body  # type: ignore[no-any-return]


async def test_health(conformance: Config) -> None:
    async with conformance.http() as c:
        r = await c.get("/v1/health")
    assert r.status_code == 200
    assert r.json()["status"] == "ok" and isinstance(r.json()["version"], str)


async def test_unknown_route_and_wrong_method(conformance: Config) -> None:
    async with conformance.http() as c:
        is_error(await c.get("/v1/nothing-here"), 404, "NotFoundError")
        is_error(await c.get("/elsewhere"), 404, "NotFoundError")
        r = await c.put("/v1/health")
        is_error(r, 405, "MethodNotAllowedError")
        assert "GET" in r.headers["allow"]
        r = await c.patch("/v1/adapters")
        is_error(r, 405, "MethodNotAllowedError")
        assert "POST" in r.headers["allow"]


async def test_openapi_is_published_without_422(conformance: Config) -> None:
    async with conformance.http() as c:
        r = await c.get("/openapi.json")
    assert r.status_code == 200
    text = r.text
    assert '"422"' not in text and "HTTPValidationError" not in text
    paths = r.json()["paths"]
    for path in (
        "/v1/health",
        "/v1/search",
        "/v1/adapters",
        "/v1/adapters/{namespace}/{name}/{version}",
    ):
        assert path in paths


async def test_push_returns_canonical_manifest_and_round_trips_unknown_fields(
    conformance: Config,
) -> None:
    needs(conformance.push, "push")
    name, payload = unique(), safetensors(b"\x01" * 32)
    extra = {
        "adapter_id": "client-sent",
        "storage_uri": "https://evil.example/x",
        "created_at": "1999-01-01T00:00:00Z",
        "x_vendor": {"nested": [1, 2, {"k": None}]},
        "rank": 8,
        "target_modules": ["q_proj"],
    }
    async with conformance.http() as c:
        r = await push(c, conformance, name, "v1.2.0", payload, **extra)
        assert r.status_code == 201, r.text
        body = r.json()
        assert body["adapter_id"] == f"{conformance.namespace}__{name}__v1.2.0"
        assert body["version"] == "1.2.0"
        assert body["storage_uri"].endswith(
            f"/v1/adapters/{conformance.namespace}/{name}/1.2.0/payload"
        )
        assert body["created_at"] != "1999-01-01T00:00:00Z"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", body["created_at"])
        assert body["x_vendor"] == extra["x_vendor"]
        resolved = await c.get(f"/v1/adapters/{conformance.namespace}/{name}/1.2.0")
        assert resolved.status_code == 200
        assert resolved.json() == body
        by_v = await c.get(f"/v1/adapters/{conformance.namespace}/{name}/v1.2.0")
        assert by_v.json() == body


async def test_identical_repush_is_200_and_keeps_created_at(conformance: Config) -> None:
    needs(conformance.push, "push")
    name, payload = unique(), safetensors(b"\x02" * 16)
    async with conformance.http() as c:
        first = await push(c, conformance, name, "1.0.0", payload)
        again = await push(c, conformance, name, "v1.0.0", payload)
        assert (first.status_code, again.status_code) == (201, 200)
        assert again.json() == first.json()
        other = await push(c, conformance, name, "1.0.0", safetensors(b"\x03" * 16))
        is_error(other, 409, "AdapterExistsError")
        changed = await push(c, conformance, name, "1.0.0", payload, description="changed")
        is_error(changed, 409, "AdapterExistsError")
        assert (
            await c.get(f"/v1/adapters/{conformance.namespace}/{name}/1.0.0")
        ).json() == first.json()


async def test_latest_is_highest_semver_precedence(conformance: Config) -> None:
    needs(conformance.push, "push")
    name = unique()
    ns = conformance.namespace
    async with conformance.http() as c:
        for i, v in enumerate(["1.10.0-rc1", "2.0.0-alpha"]):
            assert (
                await push(c, conformance, name, v, safetensors(bytes([i]) * 8))
            ).status_code == 201
        r = await c.get(f"/v1/adapters/{ns}/{name}/latest")
        assert r.json()["version"] == "2.0.0-alpha"  # only pre-releases: the highest one
        for i, v in enumerate(["1.9.0", "1.10.0", "1.2.0"]):
            assert (
                await push(c, conformance, name, v, safetensors(bytes([9 + i]) * 8))
            ).status_code == 201
        r = await c.get(f"/v1/adapters/{ns}/{name}/latest")
        assert r.json()["version"] == "1.10.0"  # numeric, releases beat pre-releases
        p = await c.get(f"/v1/adapters/{ns}/{name}/latest/payload")
        assert p.content == safetensors(bytes([10]) * 8)


async def test_unknown_adapter_is_404(conformance: Config) -> None:
    async with conformance.http() as c:
        for path in (f"/{unique()}/1.0.0", f"/{unique()}/latest", f"/{unique()}/1.0.0/payload"):
            is_error(
                await c.get(f"/v1/adapters/{conformance.namespace}{path}"),
                404,
                "AdapterNotFoundError",
            )


async def test_base_model_compatibility(conformance: Config) -> None:
    needs(conformance.push, "push")
    name, payload = unique(), safetensors()
    ns = conformance.namespace
    async with conformance.http() as c:
        r = await push(
            c, conformance, name, "1.0.0", payload, base_model_compatibility=["org/base-a"]
        )
        assert r.status_code == 201
        ok = await c.get(f"/v1/adapters/{ns}/{name}/1.0.0", params={"base_model": "org/base-a"})
        assert ok.status_code == 200
        bad = await c.get(f"/v1/adapters/{ns}/{name}/latest", params={"base_model": "org/other"})
        is_error(bad, 409, "IncompatibleBaseModelError")
        open_name = unique()
        assert (await push(c, conformance, open_name, "1.0.0", payload)).status_code == 201
        anyone = await c.get(f"/v1/adapters/{ns}/{open_name}/1.0.0", params={"base_model": "x/y"})
        assert anyone.status_code == 200


async def test_payload_headers_head_and_ranges(conformance: Config) -> None:
    needs(conformance.push, "push")
    name, payload = unique(), safetensors(bytes(range(256)) * 4)
    digest = sha256(payload)
    url = f"/v1/adapters/{conformance.namespace}/{name}/1.0.0/payload"
    async with conformance.http() as c:
        assert (await push(c, conformance, name, "1.0.0", payload)).status_code == 201
        r = await c.get(url)
        assert r.status_code == 200 and r.content == payload
        assert r.headers["content-type"] == "application/octet-stream"
        assert r.headers["digest"] == f"sha-256={digest}"
        b64 = base64.b64encode(hashlib.sha256(payload).digest()).decode()
        assert r.headers["repr-digest"] == f"sha-256=:{b64}:"
        assert r.headers["etag"] == f'"{digest}"'
        assert r.headers["accept-ranges"] == "bytes"
        head = await c.head(url)
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == str(len(payload))
        assert head.headers["digest"] == f"sha-256={digest}"
        part = await c.get(url, headers={"Range": "bytes=10-19"})
        assert part.status_code == 206 and part.content == payload[10:20]
        assert part.headers["content-range"] == f"bytes 10-19/{len(payload)}"
        tail = await c.get(url, headers={"Range": "bytes=-7"})
        assert tail.status_code == 206 and tail.content == payload[-7:]
        open_end = await c.get(url, headers={"Range": f"bytes={len(payload) - 3}-"})
        assert open_end.content == payload[-3:]
        bad = await c.get(url, headers={"Range": f"bytes={len(payload)}-"})
        is_error(bad, 416, "RangeNotSatisfiableError")
        assert bad.headers["content-range"] == f"bytes */{len(payload)}"
        ignored = await c.get(url, headers={"Range": "lines=1-2"})
        assert ignored.status_code == 200 and ignored.content == payload


async def test_search(conformance: Config) -> None:
    needs(conformance.push, "push")
    stem = unique("srch")
    ns = conformance.namespace
    async with conformance.http() as c:
        await push(c, conformance, f"{stem}-alpha", "1.0.0", safetensors(b"a"), tags=["zeta"])
        await push(
            c, conformance, f"{stem}-alpha", "1.1.0", safetensors(b"b"), tags=["zeta", "frontend"]
        )
        await push(
            c,
            conformance,
            f"{stem}-beta",
            "0.1.0",
            safetensors(b"c"),
            description=f"Mentions {stem.upper()} 100%_literal",
            tags=["other"],
        )
        r = await c.get("/v1/search", params={"q": stem.upper()})
        assert r.status_code == 200
        rows = [row for row in r.json()["results"] if row["name"].startswith(stem)]
        assert [(row["name"], row["version"]) for row in rows] == [
            (f"{stem}-alpha", "1.1.0"),
            (f"{stem}-beta", "0.1.0"),
        ]
        assert set(rows[0]) >= {
            "adapter_id",
            "namespace",
            "name",
            "version",
            "description",
            "tags",
            "base_model_compatibility",
        }
        assert rows[0]["adapter_id"] == f"{ns}__{stem}-alpha__v1.1.0"
        tagged = await c.get("/v1/search", params={"q": stem, "tag": "frontend"})
        assert [row["name"] for row in tagged.json()["results"]] == [f"{stem}-alpha"]
        literal = await c.get("/v1/search", params={"q": "100%_literal"})
        assert [row["name"] for row in literal.json()["results"]] == [f"{stem}-beta"]
        wildcard = await c.get("/v1/search", params={"q": f"{stem}%"})
        assert wildcard.json()["results"] == []
        underscore = await c.get("/v1/search", params={"q": "100__literal"})
        assert underscore.json()["results"] == []
        one = await c.get("/v1/search", params={"q": stem, "limit": 1})
        assert len(one.json()["results"]) == 1
        for bad in ("0", "101", "abc", "1.5", "-1", ""):
            is_error(await c.get("/v1/search", params={"limit": bad}), 400, "ValidationError")
        is_error(await c.get("/v1/search?limit=1&limit=2"), 400, "ValidationError")


async def test_delete(conformance: Config) -> None:
    needs(conformance.push and conformance.delete, "push and delete")
    name = unique()
    ns = conformance.namespace
    base = f"/v1/adapters/{ns}/{name}"
    async with conformance.http() as c:
        await push(c, conformance, name, "1.0.0", safetensors(b"1"))
        await push(c, conformance, name, "2.0.0", safetensors(b"2"))
        is_error(
            await c.delete(f"{base}/latest", headers=conformance.auth()), 400, "ValidationError"
        )
        r = await c.delete(f"{base}/2.0.0", headers=conformance.auth())
        assert r.status_code == 204 and r.content == b""
        is_error(await c.get(f"{base}/2.0.0"), 404, "AdapterNotFoundError")
        is_error(await c.get(f"{base}/2.0.0/payload"), 404, "AdapterNotFoundError")
        assert (await c.get(f"{base}/latest")).json()["version"] == "1.0.0"
        again = await c.delete(f"{base}/v2.0.0", headers=conformance.auth())
        is_error(again, 404, "AdapterNotFoundError")
        is_error(
            await c.delete(f"{base}/9.9.9", headers=conformance.auth()), 404, "AdapterNotFoundError"
        )
        tomb = await push(c, conformance, name, "2.0.0", safetensors(b"2"))
        is_error(tomb, 409, "AdapterExistsError")
        assert (await c.get(f"{base}/latest")).json()["version"] == "1.0.0"


async def test_tokens(conformance: Config) -> None:
    needs(conformance.push, "push")
    name, payload = unique(), safetensors()
    document = manifest(conformance.namespace, name, "1.0.0", payload)
    body = push_body(document, payload)
    secret_like = conformance.token
    async with conformance.http() as c:
        cases = [
            (None, 401, "AuthenticationError"),
            ("pch_000000000000_" + "x" * 43, 401, "AuthenticationError"),
            ("not-a-token", 401, "AuthenticationError"),
            (conformance.other_token, 403, "AuthorizationError"),
        ]
        for token, status, error in cases:
            headers = multipart_headers(token)
            r = await c.post("/v1/adapters", content=body, headers=headers)
            is_error(r, status, error)
            if status == 401:
                assert r.headers["www-authenticate"].startswith("Bearer")
            assert secret_like not in r.text and (token is None or token not in r.text)
        for header in ("Basic abc", "Bearer", "Token abc", conformance.token):
            r = await c.post(
                "/v1/adapters",
                content=body,
                headers={**multipart_headers(), "Authorization": header},
            )
            is_error(r, 401, "AuthenticationError")
            assert secret_like not in r.text
        is_error(
            await c.get(f"/v1/adapters/{conformance.namespace}/{name}/1.0.0"),
            404,
            "AdapterNotFoundError",
        )
        assert (
            await c.post("/v1/adapters", content=body, headers=multipart_headers(conformance.token))
        ).status_code == 201
        path = f"/v1/adapters/{conformance.namespace}/{name}/1.0.0"
        is_error(await c.delete(path), 401, "AuthenticationError")
        is_error(
            await c.delete(path, headers=conformance.auth(conformance.other_token)),
            403,
            "AuthorizationError",
        )
        assert (await c.get(path)).status_code == 200


def _json(r: httpx.Response) -> Any:
    return json.loads(r.text)


async def test_allow_names_every_method_of_the_path(conformance: Config) -> None:
    ns = conformance.namespace
    async with conformance.http() as c:
        for path, methods in (
            (f"/v1/adapters/{ns}/x/1.0.0", ["DELETE", "GET"]),
            (f"/v1/adapters/{ns}/x/1.0.0/payload", ["GET", "HEAD"]),
            ("/v1/adapters", ["POST"]),
            ("/v1/search", ["GET"]),
        ):
            r = await c.request("PUT", path)
            is_error(r, 405, "MethodNotAllowedError")
            assert sorted(m.strip() for m in r.headers["allow"].split(",")) == methods, path


async def test_conditional_get_and_location(conformance: Config) -> None:
    needs(conformance.push, "push")
    name, payload = unique(), safetensors(b"\x21" * 32)
    ns = conformance.namespace
    async with conformance.http() as c:
        created = await push(c, conformance, name, "1.0.0", payload)
        assert created.status_code == 201
        location = created.headers["location"]
        assert location.endswith(f"/v1/adapters/{ns}/{name}/1.0.0")
        assert (await c.get(location)).json() == created.json()
        again = await push(c, conformance, name, "1.0.0", payload)
        assert again.status_code == 200  # nothing created: no Location needed
        for path in (f"/v1/adapters/{ns}/{name}/1.0.0", f"/v1/adapters/{ns}/{name}/1.0.0/payload"):
            first = await c.get(path)
            etag = first.headers["etag"]
            for header in (etag, f"W/{etag}", f'"other", {etag}', "*"):
                r = await c.get(path, headers={"If-None-Match": header})
                assert r.status_code == 304 and r.content == b"", (path, header)
                assert r.headers["etag"] == etag
            changed = await c.get(path, headers={"If-None-Match": '"something-else"'})
            assert changed.status_code == 200 and changed.content == first.content
        # latest: the validator changes when latest moves on
        latest = await c.get(f"/v1/adapters/{ns}/{name}/latest")
        assert (await push(c, conformance, name, "1.1.0", payload)).status_code == 201
        moved = await c.get(
            f"/v1/adapters/{ns}/{name}/latest", headers={"If-None-Match": latest.headers["etag"]}
        )
        assert moved.status_code == 200 and moved.json()["version"] == "1.1.0"


async def test_two_authorization_headers_are_refused(conformance: Config) -> None:
    needs(conformance.push, "push")
    name, payload = unique(), safetensors(b"\x22" * 32)
    body = push_body(manifest(conformance.namespace, name, "1.0.0", payload), payload)
    headers = [
        ("Content-Type", multipart_headers()["Content-Type"]),
        ("Authorization", f"Bearer {conformance.token}"),
        ("Authorization", "Bearer pch_000000000000_" + "x" * 43),
    ]
    async with conformance.http() as c:
        for pair in (headers, [headers[0], headers[2], headers[1]]):
            r = await c.post("/v1/adapters", content=body, headers=pair)
            error = is_error(r, 400, "ValidationError")
            assert "Authorization" in error["message"]
            assert conformance.token not in r.text
        is_error(
            await c.get(f"/v1/adapters/{conformance.namespace}/{name}/1.0.0"),
            404,
            "AdapterNotFoundError",
        )
