"""Uploads keep the event loop free: multipart parsing, hashing and writes run in a worker thread,
and the temp file is gone once a failed upload returns."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator

import pytest

from provcat.hub import writeback
from provcat.hub.server import upload
from provcat.hub.storage.blobs import FileBlobStore
from tests.hub.conftest import Hub
from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors, unique

pytestmark = pytest.mark.anyio


async def _pieces(body: bytes, size: int) -> AsyncIterator[bytes]:
    """``body`` sent as a stream of ``size``-byte pieces, as a client uploading a file does."""
    for i in range(0, len(body), size):
        yield body[i : i + size]


async def test_payload_is_parsed_hashed_and_written_off_the_event_loop(
    hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: set[int] = set()
    original = upload._State.on_part_data

    def spy(self: upload._State, data: bytes, start: int, end: int) -> None:
        threads.add(threading.get_ident())
        original(self, data, start, end)

    monkeypatch.setattr(upload._State, "on_part_data", spy)
    payload = safetensors(b"\x05" * 300_000)
    name = unique()
    body = push_body(manifest("acme", name, "1.0.0", payload), payload)

    async with hub.client() as c:
        r = await c.post(
            "/v1/adapters", content=_pieces(body, 8192), headers=multipart_headers(hub.token)
        )
        assert r.status_code == 201, r.text
        assert (await c.get(f"/v1/adapters/acme/{name}/1.0.0/payload")).content == payload
    assert threads and threading.get_ident() not in threads
    assert hub.tmp_files() == []


async def test_a_bad_upload_leaves_no_temp_file_while_batches_are_queued(
    hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(upload, "PENDING_MAX_BYTES", 1024)
    payload = safetensors(b"\x06" * 200_000)
    document = manifest("acme", unique(), "1.0.0", payload, checksum_sha256="0" * 64)
    body = push_body(document, payload)[:-50]  # truncated: no closing boundary

    async with hub.client() as c:
        r = await c.post(
            "/v1/adapters", content=_pieces(body, 4096), headers=multipart_headers(hub.token)
        )
    assert r.status_code == 400 and r.json()["error"] == "ValidationError"
    assert hub.tmp_files() == []


async def test_an_upload_to_a_file_blob_store_reaches_the_disk_while_it_arrives(
    hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file store fsyncs the temp file before linking it: its bytes start going to the disk
    during the upload (early writeback). For S3 the temp file is only read back: no flush."""
    flushed: list[int] = []
    monkeypatch.setattr(writeback, "STEP", 16 << 10)
    monkeypatch.setattr(writeback, "_datasync", flushed.append)
    payload = safetensors(b"\x07" * 300_000)
    name = unique()
    body = push_body(manifest("acme", name, "1.0.0", payload), payload)

    async with hub.client() as c:
        r = await c.post(
            "/v1/adapters", content=_pieces(body, 8192), headers=multipart_headers(hub.token)
        )
        assert r.status_code == 201, r.text
        assert (await c.get(f"/v1/adapters/acme/{name}/1.0.0/payload")).content == payload
    assert bool(flushed) == isinstance(hub.storage.blobs, FileBlobStore)
    assert hub.tmp_files() == []
