"""The Medium defects of the hostile run (issue #26), each against a small local server."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from provcat import match_endpoint
from provcat.endpoints.pool import ConnectionPool
from provcat.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    EndpointConfigurationError,
    InvalidResponseError,
    LocalNetworkRefused,
    RateLimitError,
    ServerError,
)
from tests.calls.conftest import DNS, SECRET, Conn, Server, replying, response

OK = json.dumps({"ok": True}).encode()
BATCH = {"input_file_id": "f", "endpoint": "/v1/chat/completions", "completion_window": "24h"}


# --- 6. a caller's own client: the address the connection uses is checked ------------------------


def test_dns_rebinding_under_a_callers_own_client_is_refused(
    serve: Callable[..., Server], dns: DNS
) -> None:
    """The name is public when provcat checks it and local when the client connects: the
    connection's own address is checked before the request is written (before: the key went)."""
    server = serve(replying(200, OK))
    dns["rebind.test"] = [["93.184.216.34"], ["127.0.0.1"]]
    ep = match_endpoint("openai", "chat", base_url=server.url("rebind.test") + "/v1")

    async def run() -> None:
        async with httpx.AsyncClient() as own:
            await ep.call({"messages": []}, client=own)

    with pytest.raises(LocalNetworkRefused, match=r"127\.0\.0\.1"):
        asyncio.run(run())
    assert server.seen == []
    assert dns.lookups == ["rebind.test", "rebind.test"]


def test_a_connection_refused_under_a_callers_own_client_is_closed_at_once(
    serve: Callable[..., Server], dns: DNS
) -> None:
    """httpcore opens the connection before the check can refuse it, and does not close it when
    the check raises: the refused connection is closed then, not when it is collected."""
    server = serve(replying(200, OK))
    dns["rebind.test"] = [["93.184.216.34"], ["127.0.0.1"]]
    ep = match_endpoint("openai", "chat", base_url=server.url("rebind.test") + "/v1")

    async def run() -> int:
        async with httpx.AsyncClient() as own:
            with pytest.raises(LocalNetworkRefused):
                await ep.call({"messages": []}, client=own)
            deadline = time.monotonic() + 5
            # the server's thread takes the connection in its own time: wait for it, then for
            # its close
            while (not server.connections or server.open_now) and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            return server.open_now  # while the refused connection's objects are still alive

    assert asyncio.run(run()) == 0
    assert server.connections == 1 and server.seen == []


# --- 7. every credential the call carries is redacted -------------------------------------------


def _echo(conn: Conn) -> None:
    while True:
        _, headers, _ = conn.request()
        key = headers.get("x-api-key") or headers.get("authorization", "")
        body = f"<html>forbidden for key {key} sorry</html>".encode()
        conn.send(response(401, body, ("Content-Type", "text/html")))


def test_a_key_given_in_code_is_redacted_when_the_vendor_echoes_it(
    serve: Callable[..., Server],
) -> None:
    key = "plainKeyWithNoKnownShape0123456789"
    server = serve(_echo)
    ep = match_endpoint(
        "anthropic", "messages", base_url=server.url(), allow_local_network=True, api_key=key
    )
    with pytest.raises(AuthenticationError) as caught:
        asyncio.run(ep.call({"model": "m", "max_tokens": 1, "messages": []}))
    error = caught.value
    assert server.seen[0]["headers"]["x-api-key"] == key
    assert key not in str(error) + repr(vars(error))
    assert "redacted" in (error.excerpt or "")


@pytest.mark.parametrize("bad", [SECRET + "\n", SECRET + "\r\nX-Injected: 1", " " + SECRET])
def test_a_key_with_a_line_break_is_refused_before_any_traffic(
    serve: Callable[..., Server], monkeypatch: pytest.MonkeyPatch, bad: str
) -> None:
    server = serve(replying(200, OK))
    monkeypatch.setenv("EXA_API_KEY", bad)
    ep = match_endpoint("exa", "search", base_url=server.url(), allow_local_network=True)
    with pytest.raises(EndpointConfigurationError, match="EXA_API_KEY") as caught:
        asyncio.run(ep.call({"query": "q"}))
    assert SECRET not in str(caught.value)
    assert server.seen == []


# --- 8. one deadline per attempt (lookup included), a total one across retries ---------------------


def _drip(conn: Conn) -> None:
    conn.request()
    conn.send(response(200, b"", ("Content-Length", "400")))
    for _ in range(400):
        time.sleep(0.05)
        if not conn.send(b" "):
            return


def test_the_timeout_bounds_the_whole_answer_not_each_read(serve: Callable[..., Server]) -> None:
    """A body dripped a byte every 50 ms would take 20 s; each read is quick (before: 20 s)."""
    server = serve(_drip)
    ep = match_endpoint(
        "openai", "chat", base_url=server.url(), allow_local_network=True, timeout=1
    )
    started = time.monotonic()
    with pytest.raises(APITimeoutError, match="within 1 s"):
        asyncio.run(ep.call({"messages": []}))
    assert time.monotonic() - started < 4


def test_the_timeout_bounds_the_address_lookup(dns: DNS) -> None:
    dns["slow.test"] = ["93.184.216.34"]
    dns.delay["slow.test"] = 3
    # one attempt: a lookup that hangs is part of connecting, so it is never sent and retried
    ep = match_endpoint(
        "openai", "chat", base_url="http://slow.test/v1", timeout=0.5, max_retries=1
    )
    started = time.monotonic()
    with pytest.raises(APITimeoutError) as caught:
        asyncio.run(ep.call({"messages": []}))
    assert time.monotonic() - started < 2.5
    assert caught.value.never_sent


def test_total_timeout_bounds_attempts_and_waits(serve: Callable[..., Server]) -> None:
    """A vendor asking to wait 5 s between 503s: a 1 s total budget takes no such wait."""
    server = serve(replying(503, b"{}", ("Retry-After", "5")))
    ep = match_endpoint(
        "openai",
        "batches",  # idempotent: a 503 is tried again
        base_url=server.url(),
        allow_local_network=True,
        max_retries=5,
        total_timeout=1,
    )
    started = time.monotonic()
    with pytest.raises(ServerError):
        asyncio.run(ep.call(BATCH))
    assert time.monotonic() - started < 2
    assert len(server.seen) == 1


def test_total_timeout_bounds_a_stream_whose_events_keep_coming(
    serve: Callable[..., Server],
) -> None:
    """An event every 0.3 s for 3 s, each well within the 5 s timeout: the 1 s total_timeout
    ("bounds the whole call") ends the stream (before: it ran its 3 s)."""

    def app(conn: Conn) -> None:
        conn.request()
        conn.send(
            response(200, b"", ("Content-Type", "text/event-stream"), ("Content-Length", "99999"))
        )
        for n in range(10):
            if not conn.send(b'data: {"n": %d}\n\n' % n):
                return
            time.sleep(0.3)

    server = serve(app)
    ep = match_endpoint(
        "openai",
        "chat",
        base_url=server.url(),
        allow_local_network=True,
        timeout=5,
        total_timeout=1,
    )
    started = time.monotonic()
    seen = []
    with pytest.raises(APITimeoutError, match="total_timeout of 1 s"):
        for event in ep.stream_sync({"messages": []}):
            seen.append(event)
    assert time.monotonic() - started < 2.5
    assert 1 <= len(seen) < 10


def test_a_stream_whose_next_event_does_not_come_times_out(serve: Callable[..., Server]) -> None:
    def app(conn: Conn) -> None:
        conn.request()
        conn.send(
            response(200, b"", ("Content-Type", "text/event-stream"), ("Content-Length", "99999"))
        )
        conn.send(b'data: {"n": 1}\n\n')
        for _ in range(100):  # a comment a byte at a time: never an event
            time.sleep(0.05)
            if not conn.send(b":"):
                return

    server = serve(app)
    ep = match_endpoint(
        "openai", "chat", base_url=server.url(), allow_local_network=True, timeout=1
    )
    seen: list[object] = []

    async def run() -> None:
        async for event in ep.stream({"messages": []}):
            seen.append(event)

    started = time.monotonic()
    with pytest.raises(APITimeoutError):
        asyncio.run(run())
    assert seen == [{"n": 1}] and time.monotonic() - started < 4


# --- 9. every checked address is tried ------------------------------------------------------------


def test_the_next_checked_address_is_tried_when_one_is_down(
    serve: Callable[..., Server], dns: DNS, public_stand_ins: None
) -> None:
    server = serve(replying(200, OK), host="127.0.0.2")
    dns["multi.test"] = ["127.0.0.3", "127.0.0.2"]  # nothing listens on 127.0.0.3
    ep = match_endpoint("openai", "chat", base_url=server.url("multi.test", "http") + "/v1")
    assert asyncio.run(ep.call({"messages": []})) == {"ok": True}
    assert server.seen[0]["headers"]["host"].startswith("multi.test")


# --- 10. HTTP(S)_PROXY and NO_PROXY are honoured ------------------------------------------------------


def test_the_proxy_the_environment_names_is_used_and_no_proxy_bypasses_it(
    serve: Callable[..., Server], dns: DNS, public_stand_ins: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    proxy = serve(replying(200, OK))
    dns["api.vendor.test"] = ["127.0.0.2"]  # "public"; nothing listens there on port 80
    monkeypatch.setenv("HTTP_PROXY", proxy.url())
    ep = match_endpoint("openai", "chat", base_url="http://api.vendor.test/v1")
    assert asyncio.run(ep.call({"messages": []})) == {"ok": True}
    assert proxy.seen[0]["line"] == "POST http://api.vendor.test/v1/chat/completions HTTP/1.1"
    monkeypatch.setenv("NO_PROXY", "vendor.test")
    with pytest.raises(APIConnectionError):
        asyncio.run(ep.call({"messages": []}))
    assert len(proxy.seen) == 1


def test_behind_a_proxy_a_name_this_machine_cannot_resolve_is_left_to_the_proxy(
    serve: Callable[..., Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a new user: behind a proxy on a network where only the proxy resolves outside
    names, every call failed on a local lookup of the vendor's name and never reached the
    proxy."""
    proxy = serve(replying(200, OK))
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host in ("api.vendor.test", b"api.vendor.test"):
            raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    ep = match_endpoint("openai", "chat", base_url="http://api.vendor.test/v1")
    with pytest.raises(APIConnectionError, match=r"cannot resolve api\.vendor\.test"):
        asyncio.run(ep.call({"messages": []}))  # no proxy: the lookup failure is the answer
    assert proxy.seen == []
    monkeypatch.setenv("HTTP_PROXY", proxy.url())
    assert asyncio.run(ep.call({"messages": []})) == {"ok": True}
    assert proxy.seen[0]["line"] == "POST http://api.vendor.test/v1/chat/completions HTTP/1.1"
    assert proxy.seen[0]["headers"]["authorization"] == f"Bearer {SECRET}"


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1.",  # an address spelt with the root's dot
        "localhost.",
        "0x7f000001.",
        "0x7f.1.",
        "2130706433",
        "intranet",  # one label: the proxy's search domain
        "foo.localhost",
        "metadata.google.internal",
        "printer.local",
        "nas.home.arpa",
    ],
)
def test_behind_a_proxy_an_unresolved_name_that_may_be_local_is_refused(
    serve: Callable[..., Server], monkeypatch: pytest.MonkeyPatch, host: str
) -> None:
    """Found in review: a name this machine cannot resolve is left to the proxy, which would
    resolve these to its own loopback or network, the key going along."""
    proxy = serve(replying(200, OK))
    real = socket.getaddrinfo

    def getaddrinfo(name: Any, *args: Any, **kwargs: Any) -> Any:
        if name in (host, host.encode()):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setenv("HTTP_PROXY", proxy.url())
    ep = match_endpoint("openai", "chat", base_url=f"http://{host}/v1")
    with pytest.raises(LocalNetworkRefused) as refused:
        asyncio.run(ep.call({"messages": []}))
    assert "allow_local_network=True" in str(refused.value) and SECRET not in str(refused.value)
    assert proxy.seen == []


def test_behind_a_proxy_the_target_is_still_checked(
    serve: Callable[..., Server], dns: DNS, monkeypatch: pytest.MonkeyPatch
) -> None:
    proxy = serve(replying(200, OK))
    dns["inside.test"] = ["10.0.0.5"]
    monkeypatch.setenv("HTTPS_PROXY", proxy.url())
    ep = match_endpoint("openai", "chat", base_url="https://inside.test/v1")
    with pytest.raises(LocalNetworkRefused, match=r"10\.0\.0\.5"):
        asyncio.run(ep.call({"messages": []}))
    assert proxy.seen == []


# --- 11. every failure of a call is an APIError ------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "body", "stream"),
    [
        ((), b"[" * 200_000 + b"]" * 200_000, False),  # a nesting bomb
        ((("Content-Encoding", "gzip"),), b"not gzip at all", False),
        ((("Content-Type", "text/event-stream"),), b"data: " + b"[" * 200_000 + b"\n\n", True),
        ((("Content-Type", "application/x-ndjson"),), b"{garbage\n", True),
    ],
)
def test_a_hostile_answer_raises_an_api_error(
    serve: Callable[..., Server], headers: tuple[tuple[str, str], ...], body: bytes, stream: bool
) -> None:
    server = serve(replying(200, body, *headers))
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)

    async def run() -> None:
        if stream:
            async for _ in ep.stream({"messages": []}):
                pass
        else:
            await ep.call({"messages": []})

    with pytest.raises(InvalidResponseError):
        asyncio.run(run())


def test_an_unknown_charset_decodes_as_utf8(serve: Callable[..., Server]) -> None:
    server = serve(replying(200, "héllo".encode(), ("Content-Type", "text/plain; charset=x-nope")))
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)
    assert asyncio.run(ep.call({"messages": []})) == "héllo"


@pytest.mark.parametrize("value", ["²", "٣", "1e3", "-5", "Thu, 99 Foo 2020"])
def test_an_unreadable_retry_after_is_no_wait_and_no_crash(
    serve: Callable[..., Server], value: str
) -> None:
    server = serve(replying(429, b"{}", ("Retry-After", value)))
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)
    with pytest.raises(RateLimitError) as caught:
        asyncio.run(ep.call({"messages": []}))
    assert caught.value.retry_after is None


# --- 12. one hung host cannot starve the others ------------------------------------------------------


def test_a_hung_host_cannot_take_every_connection(serve: Callable[..., Server]) -> None:
    """100 calls hang on one host; a call to another host still gets a connection (before: the
    one 100-connection pool was full)."""

    def hang(conn: Conn) -> None:
        conn.request()
        time.sleep(3)

    hung = serve(hang)
    fine = serve(replying(200, OK))
    slow = match_endpoint(
        "openai", "chat", base_url=hung.url(), allow_local_network=True, timeout=5
    )
    quick = match_endpoint(
        "mistral", "chat", base_url=fine.url(), allow_local_network=True, timeout=1
    )

    async def run() -> object:
        async with ConnectionPool() as pool:
            hanging = [
                asyncio.ensure_future(slow.call({"messages": []}, client=pool)) for _ in range(100)
            ]
            await asyncio.sleep(0.5)
            try:
                return await quick.call({"messages": []}, client=pool)
            finally:
                for task in hanging:
                    task.cancel()
                await asyncio.gather(*hanging, return_exceptions=True)

    assert asyncio.run(run()) == {"ok": True}
    assert hung.most_open <= 50


def test_connection_limits_are_validated() -> None:
    with pytest.raises(ValueError, match="positive"):
        ConnectionPool(max_connections_per_host=0)


def test_every_failure_class_is_an_api_error() -> None:
    for cls in (APIConnectionError, APITimeoutError, InvalidResponseError, LocalNetworkRefused):
        assert issubclass(cls, APIError)
