"""Adapter hub: push then pull a payload through ``provcat hub serve`` on loopback, against the
physical floor measured in the same run (``sha256sum`` + a plain file copy of the same bytes);
peak RSS of server and client; p50/p99 of 200 concurrent resolves against one process, and
against ``serve --workers 2`` (two processes on one port and one data dir) in the same run.

``PROVCAT_BENCH_HUB_BYTES`` sets the payload size (default 1 GiB). Goals (issue 15): end-to-end
throughput >= 60 % of the floor's, server and client peak RSS < 150 MB each, and the p99 of 200
concurrent resolves over two processes no worse than over one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from benchmarks import table

MIB = 1 << 20
_CLIENT = r"""
import json, resource, sys, time
from provcat.hub import RegistryClient
url, token, payload, store = sys.argv[1:5]
with RegistryClient(url, token, store=store, timeout=600, progress=False) as c:
    t0 = time.perf_counter()
    c.push(payload, {"namespace": "bench", "name": "big", "version": "1.0.0"})
    t1 = time.perf_counter()
    m = c.pull("hub://bench/big")
    t2 = time.perf_counter()
print(json.dumps({"push": t1 - t0, "pull": t2 - t1, "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "sha": m.checksum_sha256}))
"""


def _payload(path: Path, size: int) -> None:
    header = json.dumps({"w": {"dtype": "U8", "shape": [size], "data_offsets": [0, size]}}).encode()
    block = os.urandom(MIB)
    with path.open("wb") as out:
        out.write(struct.pack("<Q", len(header)) + header)
        left = size
        while left:
            n = min(left, MIB)
            out.write(block[:n])
            left -= n


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _hwm_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def _floor(payload: Path, work: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run(["sha256sum", str(payload)], check=True, capture_output=True)
    shutil.copyfile(payload, work / "copy")
    elapsed = time.perf_counter() - t0
    (work / "copy").unlink()
    return elapsed


async def _resolves(url: str, n: int) -> list[float]:
    """``n`` callers, each on its own warm keep-alive connection, resolve at once: the latencies.

    One client per caller: a single ``AsyncClient`` carrying ``n`` concurrent requests spends most
    of its time in httpcore's pool bookkeeping (a scan of every connection for every queued
    request on each state change, encode/httpcore#1035), which then dominates what is measured.
    Each caller's connection is opened by a first request, so only the resolves are timed.
    """
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    tls = ssl.create_default_context()  # unused on http://, but building one per client is slow
    async with contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=url, limits=limits, timeout=60, verify=tls)
            )
            for _ in range(n)
        ]

        async def one(client: httpx.AsyncClient) -> float:
            t0 = time.perf_counter()
            r = await client.get("/v1/adapters/bench/big/latest")
            r.raise_for_status()
            return time.perf_counter() - t0

        await asyncio.gather(*(one(c) for c in clients))  # connect every caller first
        return sorted(await asyncio.gather(*(one(c) for c in clients)))


def _percentile(latencies: list[float], q: float) -> float:
    """The ``q`` quantile of sorted latencies, in milliseconds."""
    return latencies[max(0, int(len(latencies) * q) - 1)] * 1000


def _serve(
    cli: list[str], data_dir: Path, total: int, *extra: str
) -> tuple[subprocess.Popen[bytes], str]:
    """``provcat hub serve`` on a free loopback port, once it answers ``/v1/health``."""
    port = _free_port()
    server = subprocess.Popen(
        [
            *cli,
            "serve",
            "--data-dir",
            str(data_dir),
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--max-upload-bytes",
            str(total + MIB),
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(url + "/v1/health", timeout=1).status_code == 200:
                return server, url
        except httpx.TransportError:
            if time.monotonic() > deadline:
                server.kill()
                raise
        time.sleep(0.05)


def main() -> None:
    size = int(os.environ.get("PROVCAT_BENCH_HUB_BYTES", str(1 << 30)))
    with tempfile.TemporaryDirectory(prefix="provcat-bench-hub-") as tmp:
        work = Path(tmp)
        payload = work / "adapter.safetensors"
        _payload(payload, size)
        total = payload.stat().st_size
        floor = min(_floor(payload, work) for _ in range(2))
        data_dir = work / "hub-data"
        cli = [
            sys.executable,
            "-c",
            "import sys; from provcat.cli import main; sys.argv[0]='provcat'; main()",
            "hub",
        ]
        token = subprocess.run(
            [*cli, "token", "create", "--namespace", "bench", "--data-dir", str(data_dir)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        server, url = _serve(cli, data_dir, total)
        try:
            client = subprocess.run(
                [sys.executable, "-c", _CLIENT, url, token, str(payload), str(work / "store")],
                check=True,
                capture_output=True,
                text=True,
            )
            result = json.loads(client.stdout)
            asyncio.run(_resolves(url, 200))  # warm the server (its pools, caches, threads)
            latencies = asyncio.run(_resolves(url, 200))
            server_kb = _hwm_kb(server.pid)
        finally:
            server.terminate()
            server.wait(timeout=30)
        server, url = _serve(cli, data_dir, total, "--workers", "2")
        try:
            asyncio.run(_resolves(url, 200))  # warm both workers
            two = asyncio.run(_resolves(url, 200))
        finally:
            server.terminate()
            server.wait(timeout=30)
    e2e = result["push"] + result["pull"]
    mib = total / MIB
    p50 = latencies[len(latencies) // 2] * 1000
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
    print(f"payload                 {mib:10.1f} MiB")
    print(f"floor (sha256sum + cp)  {floor:10.2f} s   {mib / floor:8.1f} MiB/s")
    print(f"push                    {result['push']:10.2f} s   {mib / result['push']:8.1f} MiB/s")
    print(f"pull (verified)         {result['pull']:10.2f} s   {mib / result['pull']:8.1f} MiB/s")
    print(f"push + pull             {e2e:10.2f} s   {mib / e2e:8.1f} MiB/s")
    print(f"ratio to floor          {floor / e2e:10.2f}     (goal >= 0.60)")
    print(f"server peak RSS         {server_kb / 1024:10.1f} MB  (goal < 150)")
    print(f"client peak RSS         {result['rss_kb'] / 1024:10.1f} MB  (goal < 150)")
    print(f"200 concurrent resolves p50 {p50:.1f} ms, p99 {p99:.1f} ms (one process)")
    two50, two99 = _percentile(two, 0.5), _percentile(two, 0.99)
    print(f"200 concurrent resolves p50 {two50:.1f} ms, p99 {two99:.1f} ms (--workers 2)")
    print(f"p99 two processes / one {two99 / p99:10.2f}     (goal <= 1.00)")
    server_mb, client_mb = server_kb / 1024, result["rss_kb"] / 1024
    table.row(
        "hub",
        f"push + pull of {mib:.0f} MiB",
        e2e,
        "s",
        floor,
        "sha256sum + cp",
        goal=">= 0.60x of the floor's speed",
        ratio=floor / e2e,
        met=floor / e2e >= 0.60,
    )
    table.row("hub", "server peak RSS", server_mb, "MB", goal="< 150 MB", met=server_mb < 150)
    table.row("hub", "client peak RSS", client_mb, "MB", goal="< 150 MB", met=client_mb < 150)
    table.row(
        "hub",
        "p99 of 200 concurrent resolves, --workers 2",
        two99,
        "ms",
        p99,
        "one process",
        goal="<= 1.00x of one process",
        ratio=two99 / p99,
        met=two99 / p99 <= 1.0,
    )
