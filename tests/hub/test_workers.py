"""``serve --workers N`` spreads new connections over its processes: a burst of 200 keep-alive
connections lands on both workers in about equal parts (one shared accept queue gave one worker
most of them: 189 + 11 measured), and every one is served. Linux only (it reads /proc)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tests.hub.services import serve, wait_for

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

CONNECTIONS = 200


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _inodes(port: int, state: str) -> set[str]:
    """Socket inodes of TCP sockets whose local port is ``port``, in ``state`` (01 established,
    0A listening)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == state:
                inodes.add(fields[9])
    return inodes


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = fd.readlink().name
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


async def _burst(port: int) -> tuple[list[asyncio.StreamWriter], list[bytes]]:
    """Open every connection at once, then make one request on each (kept open)."""
    opened = await asyncio.gather(
        *(asyncio.open_connection("127.0.0.1", port) for _ in range(CONNECTIONS))
    )
    request = f"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    for _, writer in opened:
        writer.write(request)
    heads = await asyncio.gather(*(reader.readuntil(b"\r\n\r\n") for reader, _ in opened))
    return [writer for _, writer in opened], heads


def test_workers_share_a_burst_of_connections_evenly(tmp_path: Path) -> None:
    served = serve(["--data-dir", str(tmp_path / "data"), "--workers", "2"])
    port = int(served.url.rsplit(":", 1)[1])

    async def check() -> list[int]:
        writers, heads = await _burst(port)
        try:
            assert all(h.startswith(b"HTTP/1.1 200") for h in heads)
            connected = _inodes(port, "01")
            return sorted(
                len(_socket_inodes(child) & connected) for child in _children(served.process.pid)
            )
        finally:
            for writer in writers:
                writer.close()

    try:
        # /v1/health answers once one worker listens: wait for both (each on a socket of its own)
        wait_for(lambda: len(_inodes(port, "0A")) == 2, "both workers to listen")
        counts = [c for c in asyncio.run(check()) if c]  # workers only (not the supervisor)
    finally:
        served.stop()
    assert len(counts) == 2 and sum(counts) == CONNECTIONS, counts
    # even by a hash: fewer than 60 of 200 on one side has a chance of about 1e-8
    assert min(counts) >= 60, counts
