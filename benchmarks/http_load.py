"""A lean load client for latency benchmarks: ``n`` callers, each on its own keep-alive HTTP/1.1
connection, send one GET at the same moment; the latencies, sorted.

Why not httpx: on a 2-core machine the load generator shares the cores with the server it
measures. An ``httpx.AsyncClient`` spends about as much CPU per request as the hub spends
answering it, so with two server processes the client's own work was what the p99 measured.
Here a request is one ``write`` of prebuilt bytes and its answer one read of the head plus one of
the body (about a tenth of the CPU), on uvloop when it is installed (as the server runs).
Every answer is checked: status 200 and a body byte-identical to the first caller's, so both
configurations compared do exactly the same work.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar
from urllib.parse import urlsplit

__all__ = ["Caller", "concurrent_gets", "run"]

T = TypeVar("T")


def run(main: Callable[[], Awaitable[T]]) -> T:
    """``asyncio.run`` on uvloop when installed (the loop uvicorn serves the hub on)."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it
        return asyncio.run(main())  # type: ignore[arg-type]
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main())  # type: ignore[arg-type]


class Caller:
    """One keep-alive connection that GETs one path."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes):
        self.reader, self.writer, self.request = reader, writer, request

    @classmethod
    async def open(cls, url: str, path: str) -> Caller:
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        reader, writer = await asyncio.open_connection(host, port)
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAccept: application/json\r\n\r\n"
        ).encode("ascii")
        return cls(reader, writer, request)

    async def get(self) -> tuple[float, bytes]:
        """One request: its latency in seconds and the body."""
        t0 = time.perf_counter()
        self.writer.write(self.request)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = head[9:12]
        length = -1
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if status != b"200" or length < 0:
            raise RuntimeError(f"unexpected answer: {head[:200]!r}")
        body = await self.reader.readexactly(length)
        return time.perf_counter() - t0, body

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


async def concurrent_gets(url: str, path: str, n: int) -> list[float]:
    """``n`` callers connect and make one untimed request each (so every connection is open and
    served), then all GET ``path`` at once: the timed latencies, sorted."""
    callers = [await Caller.open(url, path) for _ in range(n)]
    try:
        first = await asyncio.gather(*(c.get() for c in callers))
        timed = await asyncio.gather(*(c.get() for c in callers))
    finally:
        await asyncio.gather(*(c.close() for c in callers))
    reference = first[0][1]
    if any(body != reference for _, body in (*first, *timed)):
        raise RuntimeError("the answers differ between callers")
    return sorted(latency for latency, _ in timed)
