"""The five High defects of the hostile run (issue #26), each against a small local server."""

from __future__ import annotations

import asyncio
import gzip
import json
import ssl
import subprocess
import sys
import textwrap
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import trustme

from provcat import match_endpoint
from provcat.endpoints.pool import ConnectionPool
from provcat.errors import APIConnectionError, APIStatusError, InvalidResponseError
from tests.calls.conftest import DNS, Conn, Server, replying, response

OK = json.dumps({"ok": True}).encode()


# --- 1. no redirect is followed, whatever client is given ------------------------------------------


def test_a_callers_client_that_follows_redirects_does_not_follow_ours(
    serve: Callable[..., Server],
) -> None:
    """An x-api-key endpoint, a client built with follow_redirects=True, a 307 to another server:
    the call fails with the redirect and the other server sees nothing (before: the key went)."""
    target = serve(replying(200, OK))
    vendor = serve(replying(307, b"{}", ("Location", target.url() + "/steal")))
    ep = match_endpoint("anthropic", "messages", base_url=vendor.url(), allow_local_network=True)

    async def run() -> None:
        async with httpx.AsyncClient(follow_redirects=True) as own:
            await ep.call({"model": "m", "max_tokens": 1, "messages": []}, client=own)

    with pytest.raises(APIStatusError, match="redirects are not followed") as caught:
        asyncio.run(run())
    assert caught.value.status == 307
    assert target.seen == []
    assert len(vendor.seen) == 1


# --- 2. TLS: connections pooled per host, certificates checked per host ----------------------------


@pytest.fixture
def tls_for_a(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dns: DNS, public_stand_ins: None
) -> ssl.SSLContext:
    """A TLS server context whose certificate names only a.vendor.test; the client trusts its
    CA (SSL_CERT_FILE, read by httpx); a.vendor.test and b.vendor.test share 127.0.0.2."""
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("a.vendor.test").configure_cert(context)
    bundle = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    dns["a.vendor.test"] = ["127.0.0.2"]
    dns["b.vendor.test"] = ["127.0.0.2"]
    return context


def test_a_connection_verified_for_one_host_is_never_reused_for_another(
    serve: Callable[..., Server], tls_for_a: ssl.SSLContext
) -> None:
    """Before: the guard rewrote the URL to the address, so the pool keyed connections by
    address and b's request (with b's key) went over a's verified connection."""
    server = serve(replying(200, OK), host="127.0.0.2", tls=tls_for_a)
    a = match_endpoint("openai", "chat", base_url=server.url("a.vendor.test") + "/v1")
    b = match_endpoint("anthropic", "messages", base_url=server.url("b.vendor.test"))

    async def run() -> None:
        async with ConnectionPool() as pool:
            assert await a.call({"messages": []}, client=pool) == {"ok": True}
            await b.call({"model": "m", "max_tokens": 1, "messages": []}, client=pool)

    with pytest.raises(APIConnectionError, match=r"(?i)certificate|ssl"):
        asyncio.run(run())
    assert len(server.seen) == 1
    assert server.seen[0]["headers"]["host"].startswith("a.vendor.test")


def test_tls_sends_the_host_name_and_verifies_it(
    serve: Callable[..., Server], tls_for_a: ssl.SSLContext
) -> None:
    names: list[str | None] = []
    tls_for_a.sni_callback = lambda sock, name, ctx: names.append(name)  # type: ignore[assignment]
    server = serve(replying(200, OK), host="127.0.0.2", tls=tls_for_a)
    a = match_endpoint("openai", "chat", base_url=server.url("a.vendor.test") + "/v1")
    assert asyncio.run(a.call({"messages": []})) == {"ok": True}
    assert names == ["a.vendor.test"]


# --- 3. wire and decoded bytes bounded as they come; stacked encodings refused --------------------


def _peak(fn: Callable[[], object]) -> tuple[int, Exception | None]:
    """The peak of traced memory while ``fn`` runs, and what it raised (None: nothing)."""
    tracemalloc.start()
    error: Exception | None = None
    try:
        fn()
    except Exception as exc:  # the caller checks the error
        error = exc
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, error


def _bounded(server: Server) -> Any:
    """An OpenAI chat endpoint on ``server`` whose answers may hold 1 MiB."""
    return match_endpoint(
        "openai",
        "chat",
        base_url=server.url(),
        allow_local_network=True,
        max_response_bytes=1 << 20,
    )


def _drain(ep: Any) -> None:
    """Read ``ep``'s stream to its end (or its error)."""

    async def run() -> None:
        async for _ in ep.stream({"messages": []}):
            pass

    asyncio.run(run())


def test_a_stacked_gzip_bomb_is_refused_without_inflating_it(
    serve: Callable[..., Server],
) -> None:
    """64 MiB of zeros gzipped twice is ~1 KB; with a 1 MiB bound, nothing near 64 MiB may be
    held (before: httpx inflated the whole chunk first)."""
    bomb = gzip.compress(gzip.compress(b"\0" * (64 << 20)))
    server = serve(replying(200, bomb, ("Content-Encoding", "gzip, gzip")))
    ep = _bounded(server)
    peak, error = _peak(lambda: asyncio.run(ep.call({"messages": []})))
    assert isinstance(error, InvalidResponseError)
    assert peak < 16 << 20


def test_a_single_gzip_bomb_stops_at_the_decoded_bound(serve: Callable[..., Server]) -> None:
    bomb = gzip.compress(b"\0" * (64 << 20))
    server = serve(replying(200, bomb, ("Content-Encoding", "gzip")))
    ep = _bounded(server)
    peak, error = _peak(lambda: asyncio.run(ep.call({"messages": []})))
    assert isinstance(error, InvalidResponseError) and "max_response_bytes" in str(error)
    assert peak < 16 << 20


def test_a_gzip_body_of_empty_blocks_stops_at_the_wire_bound(serve: Callable[..., Server]) -> None:
    """Empty deflate blocks decode to nothing: only the wire count can stop them."""

    def app(conn: Conn) -> None:
        conn.request()
        packer = zlib.compressobj(wbits=31)
        head = response(200, b"", ("Content-Encoding", "gzip"), ("Transfer-Encoding", "chunked"))
        first = packer.compress(b"") + packer.flush(zlib.Z_SYNC_FLUSH)  # the gzip header
        conn.send(head + b"%x\r\n%s\r\n" % (len(first), first))
        block = packer.flush(zlib.Z_FULL_FLUSH) * 2000  # 2000 empty blocks
        while conn.server.sent < 16 << 20:
            if not conn.send(b"%x\r\n%s\r\n" % (len(block), block)):
                return
        conn.send(b"0\r\n\r\n")

    server = serve(app)
    ep = _bounded(server)
    # the wire bound (1 MiB) stopped it: the decoded body stayed empty. How much the server got
    # into the kernel's buffers before the connection closed is no measure of the client (it
    # reached 8.8 MiB once under load, with loopback buffers of up to 32 MiB)
    with pytest.raises(InvalidResponseError, match="on the wire"):
        asyncio.run(ep.call({"messages": []}))


@pytest.mark.parametrize("encoding", ["br", "zstd", "gzip, br", "compress"])
def test_an_encoding_not_asked_for_is_refused(serve: Callable[..., Server], encoding: str) -> None:
    server = serve(replying(200, OK, ("Content-Encoding", encoding)))
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)
    with pytest.raises(InvalidResponseError, match="encod"):
        asyncio.run(ep.call({"messages": []}))
    assert server.seen[0]["headers"]["accept-encoding"] == "gzip, deflate"


def test_a_gzip_or_deflate_answer_is_decoded(serve: Callable[..., Server]) -> None:
    for encoding, body in (
        ("gzip", gzip.compress(OK)),
        ("deflate", zlib.compress(OK)),
        ("deflate", zlib.compress(OK)[2:-4]),  # raw deflate, as some servers send it
    ):
        server = serve(replying(200, body, ("Content-Encoding", encoding)))
        ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)
        assert asyncio.run(ep.call({"messages": []})) == {"ok": True}


# --- 4. streamed lines and events bounded while they are read --------------------------------------


def _endless_line(conn: Conn) -> None:
    conn.request()
    conn.send(
        response(200, b"", ("Content-Type", "text/event-stream"), ("Content-Length", str(64 << 20)))
    )
    conn.send(b"data: ")
    piece = b"x" * 65536
    while conn.server.sent < 64 << 20:
        if not conn.send(piece):
            return


def test_a_line_that_never_ends_is_refused_at_the_bound(serve: Callable[..., Server]) -> None:
    """Before: the line was measured once whole (a 1 GiB line peaked at 3.7 GiB)."""
    server = serve(_endless_line)
    peak, error = _peak(lambda: _drain(_bounded(server)))
    assert isinstance(error, InvalidResponseError) and "larger than 1048576 bytes" in str(error)
    assert peak < 16 << 20
    assert server.sent < 32 << 20


def test_an_event_of_many_data_lines_is_bounded_too(serve: Callable[..., Server]) -> None:
    line = b"data: " + b"y" * 1000 + b"\n"
    server = serve(replying(200, line * 3000 + b"\n", ("Content-Type", "text/event-stream")))
    with pytest.raises(InvalidResponseError, match="streamed event is larger"):
        _drain(_bounded(server))


def test_events_split_anywhere_and_any_line_ending_decode_as_sent(
    serve: Callable[..., Server],
) -> None:
    """The WHATWG rules: CRLF, LF or CR; several data lines joined by a newline; comments."""
    stream = (
        b': comment\r\ndata: {"n": 1}\r\n\r\n'
        b'event: message\rdata: {"n":\rdata:  2}\r\r'
        b'data: {"n": 3}\n\ndata: [DONE]\n\n'
    )

    def app(conn: Conn) -> None:
        conn.request()
        conn.send(
            response(
                200,
                b"",
                ("Content-Type", "text/event-stream"),
                ("Content-Length", str(len(stream))),
            )
        )
        for i in range(len(stream)):  # one byte at a time: every split point
            conn.send(stream[i : i + 1])

    server = serve(app)
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)

    async def run() -> list[object]:
        return [e async for e in ep.stream({"messages": []})]

    assert asyncio.run(run()) == [{"n": 1}, {"n": 2}, {"n": 3}]


# --- 5. the default pool: freed when its loop closes, closed at exit -------------------------------

LEAK = textwrap.dedent(
    """
    import asyncio, os, resource, sys, warnings
    warnings.simplefilter("always", ResourceWarning)
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    from provcat import match_endpoint
    os.environ["OPENAI_API_KEY"] = "sk-leak-test-000000"
    ep = match_endpoint("openai", "chat", base_url=sys.argv[1], allow_local_network=True)
    for i in range(1000):
        assert asyncio.run(ep.call({"messages": []})) == {"ok": True}, i
    print(len(os.listdir("/proc/self/fd")))
    """
)


def test_a_thousand_asyncio_runs_under_a_low_descriptor_limit(serve: Callable[..., Server]) -> None:
    """Before: "Too many open files" after a few dozen runs (one pool and its sockets per loop);
    now each loop's pool is closed as asyncio.run shuts the loop down, and nothing is left for a
    ResourceWarning at exit."""
    server = serve(replying(200, OK))
    run = subprocess.run(
        [sys.executable, "-c", LEAK, server.url() + "/v1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert int(run.stdout.split()[-1]) < 16
    assert "ResourceWarning" not in run.stderr and "unclosed" not in run.stderr
