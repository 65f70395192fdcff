"""The server's metadata reads stay within the reader pool's size (provcat.hub.storage.sql: "a
read never waits for a connection"), the push's taken-version check included: it runs in the
upload's parsing thread, and used to query the reader pool from there, beside the bound."""

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


async def test_concurrent_push_prechecks_never_exceed_the_read_bound(
    hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    metadata = hub.storage.metadata
    original = metadata.get
    lock = threading.Lock()
    running = peak = 0

    def slow_get(*args: Any) -> Any:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        try:
            time.sleep(0.5)  # holds its slot long enough for every push to reach the check
            return original(*args)
        finally:
            with lock:
                running -= 1

    monkeypatch.setattr(metadata, "get", slow_get)
    pushes = 2 * READ_CONCURRENCY
    payload = safetensors(b"\x07" * 16)
    async with hub.client(timeout=60) as client:
        answers = await asyncio.gather(
            *(
                client.post(
                    "/v1/adapters",
                    content=push_body(manifest("acme", unique(), "1.0.0", payload), payload),
                    headers=multipart_headers(hub.token),
                )
                for _ in range(pushes)
            )
        )
    assert [a.status_code for a in answers] == [201] * pushes, [a.text for a in answers]
    # the load reached the bound (so the check can fail) and never went past it
    assert peak == READ_CONCURRENCY
