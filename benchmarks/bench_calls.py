"""Calls over the wire: provcat's per-call overhead and streaming against the official openai SDK
(``AsyncOpenAI.chat.completions.create``), both talking to the same loopback server that answers
instantly, in the same run; peak memory of 100 concurrent calls beside it.

Goals (the endpoints issue): per-call overhead no worse than the SDK's (ratio >= 1.0), streaming
10,000 small SSE events no slower than the SDK's stream. The server runs in its own process
(uvicorn with a bare ASGI app), so the client side is all that differs between the two columns.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from typing import Any

from benchmarks import table

CALLS = 400
EVENTS = 10_000
CONCURRENT = 100

_SERVER = r"""
import json, sys
import uvicorn
EVENTS = int(sys.argv[2])
COMPLETION = json.dumps({
    "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "m",
    "choices": [{"index": 0, "finish_reason": "stop",
                 "message": {"role": "assistant", "content": "hi"}}],
    "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6},
}).encode()
CHUNK = "data: " + json.dumps({
    "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "m",
    "choices": [{"index": 0, "delta": {"content": "x"}, "finish_reason": None}],
}) + "\n\n"
STREAM = (CHUNK * EVENTS + "data: [DONE]\n\n").encode()

async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    streaming = b'"stream": true' in body or b'"stream":true' in body
    kind = b"text/event-stream" if streaming else b"application/json"
    data = STREAM if streaming else COMPLETION
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", kind), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})

uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="error", access_log=False)
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait(port: int) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError("the loopback server did not start")


async def _best(fn: Callable[[], Awaitable[Any]], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        await fn()
        best = min(best, time.perf_counter() - start)
    return best


async def _measure(base_url: str) -> dict[str, float]:
    from openai import AsyncOpenAI

    from provcat import match_endpoint
    from provcat.endpoints.pool import ConnectionPool

    messages = [{"role": "user", "content": "hi"}]
    ep = match_endpoint("openai", "chat", base_url=base_url, allow_local_network=True)
    sdk = AsyncOpenAI(base_url=base_url, api_key="sk-bench", max_retries=0)
    out: dict[str, float] = {}
    async with ConnectionPool() as pool:
        await ep.call({"messages": messages}, client=pool)  # warm both pools
        await sdk.chat.completions.create(model="gpt-4.1-mini", messages=messages)  # type: ignore[arg-type]

        async def ours_calls() -> None:
            for _ in range(CALLS):
                await ep.call({"messages": messages}, client=pool)

        async def sdk_calls() -> None:
            for _ in range(CALLS):
                await sdk.chat.completions.create(model="gpt-4.1-mini", messages=messages)  # type: ignore[arg-type]

        async def ours_stream() -> None:
            n = 0
            async for _event in ep.stream({"messages": messages}, client=pool):
                n += 1
            assert n == EVENTS, n

        async def sdk_stream() -> None:
            n = 0
            stream = await sdk.chat.completions.create(
                model="gpt-4.1-mini",
                messages=messages,  # type: ignore[arg-type]
                stream=True,
            )
            async for _chunk in stream:
                n += 1
            assert n == EVENTS, n

        out["ours_call"] = await _best(ours_calls) / CALLS
        out["sdk_call"] = await _best(sdk_calls) / CALLS
        out["ours_stream"] = await _best(ours_stream)
        out["sdk_stream"] = await _best(sdk_stream)

        tracemalloc.start()
        await asyncio.gather(
            *(ep.call({"messages": messages}, client=pool) for _ in range(CONCURRENT))
        )
        out["ours_peak"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        tracemalloc.start()
        await asyncio.gather(
            *(
                sdk.chat.completions.create(model="gpt-4.1-mini", messages=messages)  # type: ignore[arg-type]
                for _ in range(CONCURRENT)
            )
        )
        out["sdk_peak"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    await sdk.close()
    return out


def main() -> None:
    try:
        import openai  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        print(
            "the openai SDK or uvicorn is missing: run `make bench` (it installs the bench extra)"
        )
        table.missing("calls", "calls and streams", "openai SDK / uvicorn", ">= 1.0x as fast")
        return
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", _SERVER, str(port), str(EVENTS)],
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    try:
        _wait(port)
        os.environ.setdefault("OPENAI_API_KEY", "sk-bench")
        r = asyncio.run(_measure(f"http://127.0.0.1:{port}/v1"))
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"{'measure':34} {'provcat':>11} {'openai SDK':>11} {'ratio':>7}  goal")
    for name, ours, sdk, unit, scale in (
        (f"per call ({CALLS} sequential)", r["ours_call"], r["sdk_call"], "us", 1e6),
        (f"stream of {EVENTS:,} SSE events", r["ours_stream"], r["sdk_stream"], "ms", 1e3),
    ):
        ratio = sdk / ours
        status = "met" if ratio >= 1.0 else "NOT met"
        print(
            f"{name:34} {ours * scale:9.1f}{unit} {sdk * scale:9.1f}{unit} {ratio:6.2f}x  >= 1.0x {status}"
        )
        table.row(
            "calls",
            name,
            ours * scale,
            unit,
            sdk * scale,
            "openai SDK",
            goal=">= 1.0x as fast",
            ratio=ratio,
            met=ratio >= 1.0,
        )
    print(
        f"{f'peak memory, {CONCURRENT} concurrent calls':34} {r['ours_peak'] / 1e6:9.2f}MB "
        f"{r['sdk_peak'] / 1e6:9.2f}MB  (tracemalloc peak, client side)"
    )
