"""What held in the hostile run (issue #26) and must keep holding: regression guards."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Callable

import pytest

from provcat import match_endpoint
from provcat.endpoints.pool import ConnectionPool
from provcat.errors import (
    APIConnectionError,
    APIStatusError,
    EndpointConfigurationError,
    InvalidResponseError,
    LocalNetworkRefused,
    RateLimitError,
    ServerError,
)
from tests.calls.conftest import DNS, SECRET, Conn, Server, replying, response

OK = json.dumps({"ok": True}).encode()


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "127.1",  # the short form
        "2130706433",  # one decimal number
        "0x7f000001",  # hexadecimal
        "0177.0.0.1",  # octal
        "[::1]",
        "[::ffff:127.0.0.1]",  # IPv4-mapped IPv6
        "[::ffff:7f00:1]",
        "localhost",
        "0.0.0.0",
        "10.1.2.3",
        "169.254.169.254",  # the cloud metadata address
        "[fd00::1]",
        "[fe80::1]",
        "100.64.0.1",  # shared address space
        "[2002:7f00:1::]",  # 6to4 around 127.0.0.1
    ],
)
def test_every_form_of_a_local_address_is_refused(serve: Callable[..., Server], host: str) -> None:
    server = serve(replying(200, OK))
    ep = match_endpoint("openai", "chat", base_url=f"http://{host}:{server.port}/v1")
    # httpx itself refuses some spellings as URLs (an octal part): refused before traffic too
    with pytest.raises((LocalNetworkRefused, EndpointConfigurationError)):
        asyncio.run(ep.call({"messages": []}))
    assert server.seen == []


def test_a_name_resolving_to_a_public_and_a_local_address_is_refused(
    serve: Callable[..., Server], dns: DNS
) -> None:
    server = serve(replying(200, OK))
    dns["mixed.test"] = ["93.184.216.34", "127.0.0.1"]
    ep = match_endpoint("openai", "chat", base_url=server.url("mixed.test") + "/v1")
    with pytest.raises(LocalNetworkRefused, match=r"mixed\.test resolves to 127"):
        asyncio.run(ep.call({"messages": []}))
    assert server.seen == []


def test_dns_rebinding_and_redirects_are_blocked_with_the_default_pool(
    serve: Callable[..., Server], dns: DNS, public_stand_ins: None
) -> None:
    target = serve(replying(200, OK))
    vendor = serve(replying(302, b"{}", ("Location", target.url() + "/x")), host="127.0.0.2")
    dns["rebind.test"] = ["127.0.0.1"]
    ep = match_endpoint("openai", "chat", base_url=target.url("rebind.test") + "/v1")
    with pytest.raises(LocalNetworkRefused):
        asyncio.run(ep.call({"messages": []}))
    redirecting = match_endpoint("openai", "chat", base_url=vendor.url() + "/v1")
    with pytest.raises(APIStatusError, match="redirects are not followed"):
        asyncio.run(redirecting.call({"messages": []}))
    assert target.seen == []


def test_streaming_is_guarded(serve: Callable[..., Server]) -> None:
    server = serve(replying(200, b"data: {}\n\n", ("Content-Type", "text/event-stream")))
    ep = match_endpoint("openai", "chat", base_url=server.url() + "/v1")

    async def run() -> None:
        async for _ in ep.stream({"messages": []}):
            pass

    with pytest.raises(LocalNetworkRefused):
        asyncio.run(run())
    assert server.seen == []


@pytest.mark.parametrize("status", [500, 502, 504])
def test_a_post_is_not_replayed_after_a_server_error(
    serve: Callable[..., Server], status: int
) -> None:
    server = serve(replying(status, b"{}"))
    ep = match_endpoint(
        "openai", "chat", base_url=server.url(), allow_local_network=True, max_retries=5
    )
    with pytest.raises(ServerError):
        asyncio.run(ep.call({"messages": []}))
    assert len(server.seen) == 1


def test_a_post_is_not_replayed_after_a_reset(serve: Callable[..., Server]) -> None:
    def reset(conn: Conn) -> None:
        conn.request()
        conn.sock.setsockopt(
            __import__("socket").SOL_SOCKET, __import__("socket").SO_LINGER, b"\1\0\0\0\0\0\0\0"
        )
        conn.sock.close()

    server = serve(reset)
    ep = match_endpoint(
        "openai", "chat", base_url=server.url(), allow_local_network=True, max_retries=5
    )
    with pytest.raises(APIConnectionError):
        asyncio.run(ep.call({"messages": []}))
    assert len(server.seen) == 1


# openai-python 3.57.0 honours a Retry-After up to MAX_RETRY_AFTER_DELAY = 120 s and does not
# retry above it (_calculate_retry_timeout, _should_retry in src/openai/_base_client.py)
@pytest.mark.parametrize(
    ("value", "waits"),
    [("99999999", []), ("86400", []), ("121", []), ("120", [120.0]), ("7", [7.0])],
)
def test_a_retry_after_is_honoured_up_to_the_sdks_maximum_and_not_retried_above(
    serve: Callable[..., Server], value: str, waits: list[float]
) -> None:
    server = serve(replying(429, b"{}", ("Retry-After", value)))
    ep = match_endpoint(
        "openai", "batches", base_url=server.url(), allow_local_network=True, max_retries=2
    )
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    async def run() -> None:
        async with ConnectionPool(sleep=sleep) as pool:
            await ep.call(
                {
                    "input_file_id": "f",
                    "endpoint": "/v1/chat/completions",
                    "completion_window": "24h",
                },
                client=pool,
            )

    with pytest.raises(RateLimitError) as caught:
        asyncio.run(run())
    assert slept == waits
    assert len(server.seen) == 1 + len(waits)
    assert caught.value.retry_after == float(value)  # the caller can still wait it out


def test_cancelling_during_backoff_leaks_nothing(serve: Callable[..., Server]) -> None:
    server = serve(replying(503, b"{}", ("Retry-After", "30")))
    ep = match_endpoint(
        "openai", "batches", base_url=server.url(), allow_local_network=True, max_retries=3
    )

    async def run() -> None:
        async with ConnectionPool() as pool:
            task = asyncio.ensure_future(
                ep.call(
                    {
                        "input_file_id": "f",
                        "endpoint": "/v1/chat/completions",
                        "completion_window": "24h",
                    },
                    client=pool,
                )
            )
            while not server.seen:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.1)  # in the 30 s wait now
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        assert pool.closed

    asyncio.run(run())
    deadline = time.monotonic() + 2
    while server.open_now and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.open_now == 0 and len(server.seen) == 1


def test_bodies_are_capped_at_64_mib_by_default(serve: Callable[..., Server]) -> None:
    ep = match_endpoint("openai", "chat")
    assert ep.config.max_response_bytes == 64 * 1024 * 1024
    server = serve(replying(200, b"x" * 2048))
    small = match_endpoint(
        "openai", "chat", base_url=server.url(), allow_local_network=True, max_response_bytes=1024
    )
    with pytest.raises(InvalidResponseError, match="larger than 1024 bytes"):
        asyncio.run(small.call({"messages": []}))


def test_bad_utf8_ndjson_garbage_and_huge_headers_are_typed(serve: Callable[..., Server]) -> None:
    bad_utf8 = serve(replying(200, b'{"text": "\xff\xfe"}'))
    ep = match_endpoint("openai", "chat", base_url=bad_utf8.url(), allow_local_network=True)
    with pytest.raises(InvalidResponseError, match="not valid JSON"):
        asyncio.run(ep.call({"messages": []}))
    garbage = serve(
        replying(200, b'{"ok": 1}\n\x00\x01garbage\n', ("Content-Type", "application/x-ndjson"))
    )
    ep = match_endpoint("openai", "chat", base_url=garbage.url(), allow_local_network=True)

    async def run() -> list[object]:
        return [e async for e in ep.stream({"messages": []})]

    with pytest.raises(InvalidResponseError, match="not valid JSON"):
        asyncio.run(run())
    huge = serve(replying(200, OK, ("X-Huge", "h" * 200_000)))
    ep = match_endpoint("openai", "chat", base_url=huge.url(), allow_local_network=True)
    with pytest.raises(APIConnectionError):
        asyncio.run(ep.call({"messages": []}))


def _echo(conn: Conn) -> None:
    while True:
        _, headers, _ = conn.request()
        key = headers.get("x-api-key") or headers.get("authorization", "")
        body = json.dumps({"error": {"message": f"bad key {key}", "type": "auth"}}).encode()
        conn.send(response(401, body))


def test_keys_from_api_key_variables_are_redacted_wherever_echoed(
    serve: Callable[..., Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = serve(_echo)
    monkeypatch.setenv("OPENAI_API_KEY", "plain0123456789abcdefNOSHAPE")
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)
    with pytest.raises(Exception) as caught:
        asyncio.run(ep.call({"messages": []}))
    assert "plain0123456789abcdefNOSHAPE" not in str(caught.value) + repr(vars(caught.value))


def test_repr_summary_and_debug_logs_never_show_a_key(
    serve: Callable[..., Server], caplog: pytest.LogCaptureFixture
) -> None:
    server = serve(replying(200, OK))
    ep = match_endpoint(
        "openai", "chat", base_url=server.url(), allow_local_network=True, api_key=SECRET
    )
    with caplog.at_level(logging.DEBUG):
        asyncio.run(ep.call({"messages": []}))
    assert caplog.records, "httpx and httpcore log at DEBUG"
    seen = caplog.text + repr(ep) + repr(ep.config) + json.dumps(ep.config.summary())
    assert SECRET not in seen
    assert server.seen[0]["headers"]["authorization"] == f"Bearer {SECRET}"


def test_a_crlf_key_cannot_inject_a_header(
    serve: Callable[..., Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = serve(replying(200, OK))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-abc\r\nX-Injected: yes")
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)
    with pytest.raises(EndpointConfigurationError):
        asyncio.run(ep.call({"messages": []}))
    assert server.seen == []


def test_500_concurrent_calls_are_held_at_the_connection_limit(
    serve: Callable[..., Server],
) -> None:
    def slow(conn: Conn) -> None:
        while True:
            conn.request()
            time.sleep(0.01)
            if not conn.send(response(200, OK)):
                return

    server = serve(slow)
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)

    async def run() -> list[object]:
        async with ConnectionPool() as pool:
            return await asyncio.gather(
                *(ep.call({"messages": []}, client=pool) for _ in range(500))
            )

    assert asyncio.run(run()) == [{"ok": True}] * 500
    assert 1 < server.most_open <= 100
    assert threading.active_count() < 400
