"""Conformance: concurrent pushes of one version, and a delete during concurrent downloads."""

from __future__ import annotations

import asyncio
import hashlib

import pytest

from tests.hub.conformance.config import Config
from tests.hub.conformance.test_read_write import needs, push
from tests.hub.helpers import safetensors, unique

pytestmark = pytest.mark.anyio


async def test_ten_concurrent_pushes_with_different_bytes(conformance: Config) -> None:
    needs(conformance.push, "push")
    name = unique()
    payloads = [safetensors(bytes([i]) * 4096) for i in range(10)]
    async with conformance.http() as c:
        responses = await asyncio.gather(
            *(push(c, conformance, name, "1.0.0", p) for p in payloads)
        )
        statuses = sorted(r.status_code for r in responses)
        assert statuses == [201] + [409] * 9, statuses
        winner = next(i for i, r in enumerate(responses) if r.status_code == 201)
        for r in responses:
            if r.status_code == 409:
                assert r.json()["error"] == "AdapterExistsError"
        got = await c.get(f"/v1/adapters/{conformance.namespace}/{name}/1.0.0/payload")
        assert got.content == payloads[winner]
        resolved = await c.get(f"/v1/adapters/{conformance.namespace}/{name}/1.0.0")
        assert resolved.json()["checksum_sha256"] == hashlib.sha256(payloads[winner]).hexdigest()


async def test_ten_concurrent_pushes_with_the_same_bytes(conformance: Config) -> None:
    needs(conformance.push, "push")
    name, payload = unique(), safetensors(b"\x05" * 4096)
    async with conformance.http() as c:
        responses = await asyncio.gather(
            *(push(c, conformance, name, "1.0.0", payload) for _ in range(10))
        )
        statuses = sorted(r.status_code for r in responses)
        assert statuses == [200] * 9 + [201], statuses
        assert len({r.json()["created_at"] for r in responses}) == 1


async def test_delete_during_twenty_downloads(conformance: Config) -> None:
    needs(conformance.push and conformance.delete, "push and delete")
    name = unique()
    payload = safetensors(bytes(range(256)) * 2048)  # 512 KiB
    digest = hashlib.sha256(payload).hexdigest()
    url = f"/v1/adapters/{conformance.namespace}/{name}/1.0.0/payload"
    async with conformance.http() as c:
        assert (await push(c, conformance, name, "1.0.0", payload)).status_code == 201

        async def download() -> tuple[int, str]:
            r = await c.get(url)
            return r.status_code, hashlib.sha256(r.content).hexdigest()

        tasks = [asyncio.create_task(download()) for _ in range(20)]
        await asyncio.sleep(0)
        deleted = await c.delete(url.removesuffix("/payload"), headers=conformance.auth())
        results = await asyncio.gather(*tasks)
        assert deleted.status_code == 204
        for status, got in results:
            assert status in (200, 404)
            if status == 200:
                assert got == digest, "a download was truncated or corrupted"
        assert (await c.get(url)).status_code == 404
