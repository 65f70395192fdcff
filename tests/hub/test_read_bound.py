"""The server's metadata reads stay within the reader pool's size (provcat.hub.storage.sql: "a
read never waits for a connection"): the push's taken-version check, which runs in the upload's
parsing thread, and a delete's token check, which ran in a plain worker thread, used to query the
reader pool beside the bound."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from provcat.hub.storage.sql import READ_CONCURRENCY
from tests.hub.conftest import Hub
from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors, unique

pytestmark = pytest.mark.anyio

CONCURRENT = 2 * READ_CONCURRENCY


class Peak:
    """Wraps a metadata read: counts how many run at once, each held long enough for every
    concurrent request to reach it."""

    def __init__(self, read: Any) -> None:
        self.read = read
        self.lock = threading.Lock()
        self.running = self.peak = 0

    def __call__(self, *args: Any) -> Any:
        with self.lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
        try:
            time.sleep(0.5)
            return self.read(*args)
        finally:
            with self.lock:
                self.running -= 1


async def _push_all(hub: Hub, names: list[str], payload: bytes) -> list[int]:
    async with hub.client(timeout=60) as client:
        answers = await asyncio.gather(
            *(
                client.post(
                    "/v1/adapters",
                    content=push_body(manifest("acme", name, "1.0.0", payload), payload),
                    headers=multipart_headers(hub.token),
                )
                for name in names
            )
        )
    return [a.status_code for a in answers]


async def test_concurrent_push_prechecks_never_exceed_the_read_bound(
    hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    peak = Peak(hub.storage.metadata.get)
    monkeypatch.setattr(hub.storage.metadata, "get", peak)
    names = [unique() for _ in range(CONCURRENT)]
    assert await _push_all(hub, names, safetensors(b"\x07" * 16)) == [201] * CONCURRENT
    # the load reached the bound (so the check can fail) and never went past it
    assert peak.peak == READ_CONCURRENCY


async def test_concurrent_deletes_check_their_tokens_within_the_read_bound(
    hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [unique() for _ in range(CONCURRENT)]
    assert await _push_all(hub, names, safetensors(b"\x08" * 16)) == [201] * CONCURRENT
    peak = Peak(hub.storage.metadata.get_token)
    monkeypatch.setattr(hub.storage.metadata, "get_token", peak)
    async with hub.client(timeout=60) as client:
        answers = await asyncio.gather(
            *(
                client.delete(
                    f"/v1/adapters/acme/{name}/1.0.0",
                    headers={"Authorization": f"Bearer {hub.token}"},
                )
                for name in names
            )
        )
    assert [a.status_code for a in answers] == [204] * CONCURRENT
    assert peak.peak == READ_CONCURRENCY
