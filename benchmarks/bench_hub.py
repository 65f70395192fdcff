"""Adapter hub: push then pull a payload through ``provcat hub serve`` on loopback, against the
physical floor measured in the same run (``sha256sum`` + a plain file copy of the same bytes);
peak RSS of server and client; the p99 of 200 concurrent resolves against one process, and
against ``serve --workers 2`` (two processes on one port and one data dir) in the same run:
both serve at once and are measured in alternating order, round after round, and the figure is
the median of the rounds' ratios (``PROVCAT_BENCH_HUB_ROUNDS`` rounds, default 31).

``PROVCAT_BENCH_HUB_BYTES`` sets the payload size (default 1 GiB). Goals (issue 15): end-to-end
throughput >= 60 % of the floor's, server and client peak RSS < 150 MB each, and the p99 of 200
concurrent resolves over two processes no worse than over one.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from benchmarks import http_load, table

MIB = 1 << 20
CALLERS = 200  # concurrent resolves per round
WARMUP_ROUNDS = 2
ROUNDS = int(os.environ.get("PROVCAT_BENCH_HUB_ROUNDS", "31"))
# The client's peak RSS is its own address space's high-water mark (VmHWM), read at its end.
# Not getrusage's ru_maxrss: Linux carries the high-water mark of the process image replaced by
# exec into it, so a client started from this (possibly large) bench process would report the
# bench's peak, not its own (a 14 MB client once read 317 MB after the other benchmarks ran).
_CLIENT = r"""
import json, sys, time
from provcat.hub import RegistryClient
url, token, payload, store = sys.argv[1:5]
with RegistryClient(url, token, store=store, timeout=600, progress=False) as c:
    t0 = time.perf_counter()
    c.push(payload, {"namespace": "bench", "name": "big", "version": "1.0.0"})
    t1 = time.perf_counter()
    m = c.pull("hub://bench/big")
    t2 = time.perf_counter()
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"push": t1 - t0, "pull": t2 - t1, "hwm_kb": hwm, "sha": m.checksum_sha256}))
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


def _percentile(latencies: list[float], q: float) -> float:
    """The ``q`` quantile of sorted latencies, in milliseconds."""
    return latencies[max(0, int(len(latencies) * q) - 1)] * 1000


def _compare_resolves(one: str, two: str) -> tuple[list[float], list[float], list[float]]:
    """p99 of 200 concurrent resolves on ``one`` and on ``two``, round after round.

    Both servers run at once (same data dir); each round measures both, in alternating order,
    so the noise of a shared machine (other processes taking the cores for a moment) falls on
    both sides alike. A warm-up round on each comes first (pools, caches, worker threads, both
    worker processes). Returns the p99s of one, of two, and each round's ratio two / one.
    """
    path = "/v1/adapters/bench/big/latest"
    for url in (one, two):
        for _ in range(WARMUP_ROUNDS):
            http_load.run(lambda url=url: http_load.concurrent_gets(url, path, CALLERS))
    p99_one: list[float] = []
    p99_two: list[float] = []
    for i in range(ROUNDS):
        order = (one, two) if i % 2 == 0 else (two, one)
        p99 = {}
        for url in order:
            latencies = http_load.run(lambda url=url: http_load.concurrent_gets(url, path, CALLERS))
            p99[url] = _percentile(latencies, 0.99)
        p99_one.append(p99[one])
        p99_two.append(p99[two])
    ratios = [b / a for a, b in zip(p99_one, p99_two, strict=True)]
    return p99_one, p99_two, ratios


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
        # a session of its own, as a service runs: where the scheduler groups CPU time by
        # session (Linux autogroup), the server must not share one group's share with the
        # load generator measuring it
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    workers = int(extra[extra.index("--workers") + 1]) if "--workers" in extra else 1
    deadline = time.monotonic() + 30
    while True:
        try:
            # every worker listens on its own socket: wait for all, not the first to answer
            healthy = httpx.get(url + "/v1/health", timeout=1).status_code == 200
            if healthy and _listening(port) >= workers:
                return server, url
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            server.kill()
            raise RuntimeError(f"provcat hub serve did not start on port {port}")
        time.sleep(0.05)


def _listening(port: int) -> int:
    """How many sockets listen on TCP ``port`` (Linux; elsewhere: assume all)."""
    try:
        lines = Path("/proc/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return 1 << 30
    return sum(
        1
        for fields in (line.split() for line in lines)
        if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A"
    )


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
            "import sys; from provcat.cli.main import main; sys.argv[0]='provcat'; main()",
            "hub",
        ]
        token = subprocess.run(
            [*cli, "token", "create", "--namespace", "bench", "--data-dir", str(data_dir)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        server, url = _serve(cli, data_dir, total)
        two_server = None
        try:
            client = subprocess.run(
                [sys.executable, "-c", _CLIENT, url, token, str(payload), str(work / "store")],
                check=True,
                capture_output=True,
                text=True,
            )
            result = json.loads(client.stdout)
            server_kb = _hwm_kb(server.pid)  # the push and pull, before any resolve load
            two_server, two_url = _serve(cli, data_dir, total, "--workers", "2")
            p99_one, p99_two, ratios = _compare_resolves(url, two_url)
        finally:
            for process in (server, two_server):
                if process is not None:
                    process.terminate()
                    process.wait(timeout=30)
    e2e = result["push"] + result["pull"]
    mib = total / MIB
    print(f"payload                 {mib:10.1f} MiB")
    print(f"floor (sha256sum + cp)  {floor:10.2f} s   {mib / floor:8.1f} MiB/s")
    print(f"push                    {result['push']:10.2f} s   {mib / result['push']:8.1f} MiB/s")
    print(f"pull (verified)         {result['pull']:10.2f} s   {mib / result['pull']:8.1f} MiB/s")
    print(f"push + pull             {e2e:10.2f} s   {mib / e2e:8.1f} MiB/s")
    print(f"ratio to floor          {floor / e2e:10.2f}     (goal >= 0.60)")
    print(f"server peak RSS         {server_kb / 1024:10.1f} MB  (goal < 150)")
    print(f"client peak RSS         {result['hwm_kb'] / 1024:10.1f} MB  (goal < 150)")
    print(f"{CALLERS} concurrent resolves, p99 per round (ms), {ROUNDS} rounds:")
    print("  one process   " + " ".join(f"{v:6.1f}" for v in p99_one))
    print("  --workers 2   " + " ".join(f"{v:6.1f}" for v in p99_two))
    print("  two / one     " + " ".join(f"{v:6.2f}" for v in ratios))
    ratio = statistics.median(ratios)
    one99, two99 = statistics.median(p99_one), statistics.median(p99_two)
    print(
        f"p99 two processes / one {ratio:10.2f}     median of the rounds' ratios "
        f"(range {min(ratios):.2f}-{max(ratios):.2f}; goal <= 1.00)"
    )
    server_mb, client_mb = server_kb / 1024, result["hwm_kb"] / 1024
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
        f"p99 of {CALLERS} concurrent resolves, --workers 2",
        two99,
        "ms",
        one99,
        "one process",
        goal="<= 1.00x of one process",
        ratio=ratio,
        met=ratio <= 1.0,
        note=f"median of {ROUNDS} rounds' ratios, range {min(ratios):.2f}-{max(ratios):.2f}",
    )
