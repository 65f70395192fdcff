"""The client's memory stays bounded whatever the payload size and however slow the other side
is: pull and push stream a chunk at a time and wait for a slow disk or a slow server instead of
buffering. Measured with tracemalloc (every Python allocation of this process: received chunks,
batches, read buffers), against a transport that produces or consumes the bytes as a stream,
so nothing but the client holds payload bytes. A client that buffered a payload would peak at
its size (16 and 64 MiB here), not at a few MiB for both."""

from __future__ import annotations

import hashlib
import json
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from provcat.hub import RegistryClient, receive

MIB = 1 << 20
PIECE = 64 << 10  # what httpcore reads from a socket at a time
BOUND = 4 * MIB  # two batches of about 1 MiB in flight, read buffers, httpx and pydantic objects
SIZES = (16 * MIB, 64 * MIB)


def _pieces(size: int) -> Iterator[bytes]:
    """``size`` bytes as fresh 64 KiB objects (so bytes a client kept would add up)."""
    block = bytes(range(256)) * (PIECE // 256)
    for i in range(size // PIECE):
        yield i.to_bytes(4, "little") + block[4:]


def _digest(size: int) -> str:
    digest = hashlib.sha256()
    for piece in _pieces(size):
        digest.update(piece)
    return digest.hexdigest()


def _manifest(size: int, digest: str) -> dict[str, object]:
    return {
        "manifest_version": 2,
        "namespace": "acme",
        "name": "big",
        "version": "1.0.0",
        "checksum_sha256": digest,
        "adapter_id": "acme__big__v1.0.0",
        "storage_uri": "http://hub.test/v1/adapters/acme/big/1.0.0/payload",
        "size_bytes": size,
    }


class _Transport(httpx.BaseTransport):
    """Hands each request to ``handler`` as it is (httpx.MockTransport reads a request's whole
    body into memory first, which would measure the mock, not the client)."""

    def __init__(self, handler: Callable[[httpx.Request], httpx.Response]) -> None:
        self.handler = handler

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self.handler(request)


class _Stream(httpx.SyncByteStream):
    def __init__(self, size: int) -> None:
        self.size = size

    def __iter__(self) -> Iterator[bytes]:
        yield from _pieces(self.size)


def _peak(action: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.fixture
def slow_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every batch the pull writes takes 5 ms more: a disk slower than the network (load)."""
    consume = receive.Sink._consume

    def slow(self: receive.Sink, batch: list[bytes]) -> None:
        time.sleep(0.005)
        consume(self, batch)

    monkeypatch.setattr(receive.Sink, "_consume", slow)


def test_pull_memory_is_bounded_whatever_the_size_on_a_slow_disk(
    tmp_path: Path, slow_disk: None
) -> None:
    peaks = {}
    for size in SIZES:
        digest = _digest(size)

        def handler(
            request: httpx.Request, size: int = size, digest: str = digest
        ) -> httpx.Response:
            if request.url.path.endswith("/payload"):
                return httpx.Response(
                    200,
                    headers={"Content-Length": str(size), "Repr-Digest": f"sha-256=:{digest}:"},
                    stream=_Stream(size),
                )
            return httpx.Response(200, json=_manifest(size, digest))

        store = tmp_path / f"store-{size}"
        client = RegistryClient("http://hub.test", store=store, transport=_Transport(handler))
        with client:
            peaks[size] = _peak(lambda client=client: client.pull("hub://acme/big:1.0.0"))
        payload = store / "acme__big__v1.0.0" / "adapter.safetensors"
        assert payload.stat().st_size == size  # the whole payload arrived, verified
    assert all(peak < BOUND for peak in peaks.values()), peaks


def test_push_memory_is_bounded_whatever_the_size_against_a_slow_server(tmp_path: Path) -> None:
    peaks = {}
    for size in SIZES:
        path = tmp_path / f"payload-{size}"
        with path.open("wb") as out:
            for piece in _pieces(size):
                out.write(piece)
        received = [0]
        document = _manifest(size, _digest(size))

        def handler(
            request: httpx.Request, received: list[int] = received, document: object = document
        ) -> httpx.Response:
            digest = hashlib.sha256()
            for chunk in request.stream:  # type: ignore[union-attr]
                time.sleep(0.001)  # a server reading slower than the client could send
                digest.update(chunk)
                received[0] += len(chunk)
            return httpx.Response(201, content=json.dumps(document).encode())

        client = RegistryClient(
            "http://hub.test", "tok", store=tmp_path / "s", transport=_Transport(handler)
        )
        with client:
            peaks[size] = _peak(
                lambda client=client, path=path: client.push(
                    path, {"namespace": "acme", "name": "big", "version": "1.0.0"}
                )
            )
        assert received[0] > size  # the payload and its multipart frame were all sent
    assert all(peak < BOUND for peak in peaks.values()), peaks
