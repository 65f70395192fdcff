"""Conformance: every malformed request is a 400 (or 401/403/413) with the protocol's body, and
nothing is stored."""

from __future__ import annotations

import json
import struct
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.hub.conformance.config import Config
from tests.hub.conformance.test_read_write import is_error, needs
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

BAD_PATHS = [
    "/v1/adapters/Acme/x/1.0.0",
    "/v1/adapters/acme/x_y/1.0.0",
    "/v1/adapters/acme/-x/1.0.0",
    "/v1/adapters/acme/x/1.2",
    "/v1/adapters/acme/x/1.2.0+build",
    "/v1/adapters/acme/x/01.2.x",
    "/v1/adapters/acme/x/1.0.0-rc.1",
    "/v1/adapters/" + "a" * 65 + "/x/1.0.0",
]
TRAVERSAL = ["%2e%2e", "%2E%2E", "..%2F..%2Fetc", "%252e%252e", "%252F", "%2e", "a%00b", "%5c..%5c"]


@pytest.mark.parametrize("path", BAD_PATHS)
async def test_invalid_names_and_versions_in_paths(conformance: Config, path: str) -> None:
    async with conformance.http() as c:
        for suffix in ("", "/payload"):
            is_error(await c.get(path + suffix), 400, "ValidationError")


@pytest.mark.parametrize("segment", TRAVERSAL)
async def test_traversal_in_every_segment(conformance: Config, segment: str) -> None:
    templates = [
        "/v1/adapters/{s}/x/1.0.0",
        "/v1/adapters/acme/{s}/1.0.0",
        "/v1/adapters/acme/x/{s}",
        "/v1/adapters/acme/x/1.0.0/{s}",
        "/v1/adapters/{s}/x/1.0.0/payload",
        "/v1/adapters/acme/{s}/latest/payload",
        "/v1/adapters/acme/x/{s}/payload",
    ]
    async with conformance.http() as c:
        for template in templates:
            path = template.format(s=segment)
            for method in ("GET", "DELETE"):
                r = await c.request(method, path, headers=conformance.auth())
                is_error(r, 400, "ValidationError")
                assert "root:" not in r.text and "/etc" not in r.text


async def _push_raw(
    conformance: Config, body: bytes, *, headers: dict[str, str] | None = None
) -> Any:
    async with conformance.http() as c:
        return await c.post(
            "/v1/adapters", content=body, headers=headers or multipart_headers(conformance.token)
        )


def _manifest_part(document: dict[str, Any] | bytes) -> bytes:
    raw = document if isinstance(document, bytes) else json.dumps(document).encode()
    return part("manifest", raw, "application/json")


def _payload_part(payload: bytes) -> bytes:
    return part("payload", payload, "application/octet-stream", "adapter.safetensors")


def _bad_bodies(ns: str, name: str) -> dict[str, tuple[bytes, str | None]]:
    payload = safetensors(b"\x07" * 24)
    good = manifest(ns, name, "1.0.0", payload)
    header_2_63 = struct.pack("<Q", 2**63) + b"{}"
    not_st = b"this is not a safetensors file at all"
    truncated = payload[:-5]
    overlap = safetensors(
        b"\x00" * 8,
        header={
            "a": {"dtype": "U8", "shape": [8], "data_offsets": [0, 8]},
            "b": {"dtype": "U8", "shape": [8], "data_offsets": [0, 8]},
        },
    )
    no_tensors = safetensors(b"", header={"__metadata__": {"k": "v"}})
    bad_json = struct.pack("<Q", 5) + b"{nope"
    v1 = {k: v for k, v in good.items() if k != "manifest_version"}
    return {
        "missing manifest": (multipart(_payload_part(payload)), "manifest"),
        "missing payload": (multipart(_manifest_part(good)), "missing"),
        "duplicate manifest": (
            multipart(_manifest_part(good), _manifest_part(good), _payload_part(payload)),
            "duplicate",
        ),
        "duplicate payload": (
            multipart(_manifest_part(good), _payload_part(payload), _payload_part(payload)),
            "duplicate",
        ),
        "unknown part": (
            multipart(
                _manifest_part(good), _payload_part(payload), part("extra", b"x", "text/plain")
            ),
            None,
        ),
        "no closing boundary": (
            multipart(_manifest_part(good), _payload_part(payload), close=False),
            "truncated",
        ),
        "garbage": (b"\x00\x01garbage without boundaries", None),
        "manifest not json": (push_body(b"{not json", payload), "JSON"),
        "manifest not utf-8": (push_body(b'{"a": "\xff"}', payload), "JSON"),
        "manifest is a list": (push_body(b"[]", payload), None),
        "manifest NaN": (push_body(b'{"rank": NaN}', payload), None),
        "v1 manifest": (push_body(v1, payload), "manifest_version"),
        "manifest_version 3": (push_body({**good, "manifest_version": 3}, payload), None),
        "bad version": (push_body({**good, "version": "1.0"}, payload), None),
        "build metadata": (push_body({**good, "version": "1.0.0+b1"}, payload), None),
        "bad name": (push_body({**good, "name": "Bad_Name"}, payload), None),
        "long namespace": (push_body({**good, "namespace": "a" * 65}, payload), None),
        "uppercase checksum": (
            push_body({**good, "checksum_sha256": good["checksum_sha256"].upper()}, payload),
            None,
        ),
        "missing checksum": (
            push_body({k: v for k, v in good.items() if k != "checksum_sha256"}, payload),
            None,
        ),
        "tags not list": (push_body({**good, "tags": "x"}, payload), None),
        "checksum mismatch": (
            push_body({**good, "checksum_sha256": sha256(b"other")}, payload),
            "checksum",
        ),
        "not safetensors": (
            push_body({**good, "checksum_sha256": sha256(not_st)}, not_st),
            "safetensors",
        ),
        "truncated safetensors": (
            push_body({**good, "checksum_sha256": sha256(truncated)}, truncated),
            "safetensors",
        ),
        "header length 2^63": (
            push_body({**good, "checksum_sha256": sha256(header_2_63)}, header_2_63),
            "header length",
        ),
        "overlapping tensors": (
            push_body({**good, "checksum_sha256": sha256(overlap)}, overlap),
            "safetensors",
        ),
        "no tensors": (
            push_body({**good, "checksum_sha256": sha256(no_tensors)}, no_tensors),
            "no tensors",
        ),
        "header not json": (
            push_body({**good, "checksum_sha256": sha256(bad_json)}, bad_json),
            "JSON",
        ),
        "empty payload": (push_body({**good, "checksum_sha256": sha256(b"")}, b""), "safetensors"),
    }


async def test_malformed_pushes_are_400_and_store_nothing(conformance: Config) -> None:
    needs(conformance.push, "push")
    ns = conformance.namespace
    for case, (body, hint) in _bad_bodies(ns, "placeholder").items():
        name = unique()
        body = body.replace(b'"placeholder"', json.dumps(name).encode())
        r = await _push_raw(conformance, body)
        error = is_error(r, 400, "ValidationError")
        if hint:
            assert hint.lower() in error["message"].lower(), (case, error)
        if case == "checksum mismatch":
            assert set(error["details"]) == {"expected", "actual"}
        async with conformance.http() as c:
            gone = await c.get(f"/v1/adapters/{ns}/{name}/latest")
            is_error(gone, 404, "AdapterNotFoundError")


async def test_not_multipart_is_400(conformance: Config) -> None:
    needs(conformance.push, "push")
    for ctype in ("application/json", "multipart/form-data", "text/plain", ""):
        headers = {**conformance.auth(), "Content-Type": ctype}
        r = await _push_raw(conformance, b"{}", headers=headers)
        is_error(r, 400, "ValidationError")


async def test_over_the_cap_by_content_length(conformance: Config) -> None:
    needs(conformance.push and conformance.max_upload_bytes is not None, "push with a known cap")
    assert conformance.max_upload_bytes is not None
    name = unique()
    payload = safetensors(b"\x00" * (conformance.max_upload_bytes + 10))
    body = push_body(manifest(conformance.namespace, name, "1.0.0", payload), payload)
    r = await _push_raw(conformance, body)
    error = is_error(r, 413, "PayloadTooLargeError")
    assert error["details"]["limit"] == conformance.max_upload_bytes
    async with conformance.http() as c:
        is_error(
            await c.get(f"/v1/adapters/{conformance.namespace}/{name}/1.0.0"),
            404,
            "AdapterNotFoundError",
        )


async def test_over_the_cap_by_chunked_body(conformance: Config) -> None:
    """No Content-Length: the cap is enforced while streaming, so memory stays flat."""
    needs(conformance.push and conformance.max_upload_bytes is not None, "push with a known cap")
    assert conformance.max_upload_bytes is not None
    name = unique()
    payload = safetensors(b"\x00" * (conformance.max_upload_bytes + 10))
    body = push_body(manifest(conformance.namespace, name, "1.0.0", payload), payload)

    async def chunks() -> AsyncIterator[bytes]:
        for i in range(0, len(body), 64 << 10):
            yield body[i : i + 64 << 10]

    async with conformance.http() as c:
        # a typed answer, not a dropped connection: the client reads the 413 and its body
        r = await c.post(
            "/v1/adapters", content=chunks(), headers=multipart_headers(conformance.token)
        )
        error = is_error(r, 413, "PayloadTooLargeError")
        assert error["details"]["limit"] == conformance.max_upload_bytes
        is_error(
            await c.get(f"/v1/adapters/{conformance.namespace}/{name}/1.0.0"),
            404,
            "AdapterNotFoundError",
        )
