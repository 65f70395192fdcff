"""How a stream reads its lines: keep-alive comments, a byte order mark, and what is retried
once the answer's headers have come."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest

from provcat import match_endpoint
from provcat.errors import APIConnectionError, APITimeoutError
from tests.calls.conftest import SECRET, Conn, Server, response

SSE = ("Content-Type", "text/event-stream")
CHAT = {"messages": [{"role": "user", "content": "hi"}]}


def _collect(ep: Any) -> list[Any]:
    async def run() -> list[Any]:
        return [event async for event in ep.stream(CHAT)]

    return asyncio.run(run())


def _endpoint(server: Server, **settings: Any) -> Any:
    return match_endpoint(
        "openai",
        "chat",
        base_url=server.url(),
        allow_local_network=True,
        api_key=SECRET,
        **settings,
    )


def test_keep_alive_comments_keep_a_slow_stream_alive(serve: Callable[..., Server]) -> None:
    """The WHATWG event-stream spec's keep-alive: a comment line every so often (OpenRouter
    sends `: OPENROUTER PROCESSING` while a model reasons). No event for 1.4 s, with a comment
    every 0.2 s, under a timeout of 1 s: the official SDKs' read timeout is renewed by
    any bytes, and so is a stream's deadline here."""

    def app(conn: Conn) -> None:
        conn.request()
        conn.send(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
        )
        for _ in range(7):
            time.sleep(0.2)
            conn.send(b": keep-alive\n\n")
        conn.send(b'data: {"n": 1}\n\ndata: [DONE]\n\n')

    assert _collect(_endpoint(serve(app), timeout=1.0)) == [{"n": 1}]


def test_a_stream_silent_after_keep_alives_counts_from_the_last_one(
    serve: Callable[..., Server],
) -> None:
    """Before, a stream that sent only keep-alives and then fell silent was said to have had
    nothing since the answer's headers."""

    def app(conn: Conn) -> None:
        conn.request()
        conn.send(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
        )
        conn.send(b": keep-alive\n\n")
        time.sleep(2)

    with pytest.raises(
        APITimeoutError, match=r"no event or keep-alive within 0\.5 s of the previous one"
    ):
        _collect(_endpoint(serve(app), timeout=0.5))


def test_a_byte_order_mark_before_the_first_event_is_dropped(
    serve: Callable[..., Server],
) -> None:
    """WHATWG HTML, "Parsing an event stream": one leading U+FEFF is ignored. Before, the first
    event's field name began with the mark, and the event was lost without a word."""

    def app(conn: Conn) -> None:
        conn.request()
        conn.send(response(200, b'\xef\xbb\xbfdata: {"n": 1}\n\ndata: {"n": 2}\n\n', SSE))

    assert _collect(_endpoint(serve(app))) == [{"n": 1}, {"n": 2}]


def test_a_stream_cut_off_after_its_headers_is_raised_not_retried(
    serve: Callable[..., Server],
) -> None:
    """As openai-python and anthropic-sdk-python do: the retries cover the request up to the
    answer's headers; once a stream has begun, a failure is raised (the vendor may already be
    generating, and billing, the answer), whatever ``idempotent_retries`` says."""

    def app(conn: Conn) -> None:
        conn.request()
        conn.send(response(200, b"", SSE, ("Content-Length", "1000")))

    server = serve(app)
    with pytest.raises(APIConnectionError):
        _collect(_endpoint(server, idempotent_retries=True, max_retries=3))
    assert len(server.seen) == 1
