"""What a call says when the connection fails: where it was going and what to do, not httpx's
bare class name (a reset connection's ReadError has no text of its own)."""

from __future__ import annotations

import asyncio
import socket
import struct
from collections.abc import Callable

import pytest

from provcat import match_endpoint
from provcat.errors import APIConnectionError
from tests.calls.conftest import SECRET, Conn, Server

CHAT = {"messages": [{"role": "user", "content": "hi"}]}


def _call(url: str) -> APIConnectionError:
    ep = match_endpoint(
        "openai", "chat", base_url=url, allow_local_network=True, api_key=SECRET, max_retries=1
    )
    with pytest.raises(APIConnectionError) as caught:
        asyncio.run(ep.call(CHAT))
    return caught.value


def test_a_reset_before_the_answer_names_the_host_and_the_retry_rule(
    serve: Callable[..., Server],
) -> None:
    def app(conn: Conn) -> None:
        conn.request()
        # SO_LINGER 0: close() sends a TCP reset, as a crashed or overloaded server does
        conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.sock.close()

    server = serve(app)
    error = _call(server.url())
    text = str(error)
    assert f"127.0.0.1:{server.port}" in text and "broke before the answer's headers" in text
    assert "idempotent_retries" in text and not error.never_sent


def test_an_ipv6_host_is_named_in_brackets() -> None:
    """`::1:443` reads as an address with no port; a URL writes `[::1]:443`."""
    with socket.socket(socket.AF_INET6) as probe:
        try:
            probe.bind(("::1", 0))
        except OSError:
            pytest.skip("no IPv6 loopback here")
        port = probe.getsockname()[1]
    assert f"could not connect to [::1]:{port}" in str(_call(f"http://[::1]:{port}"))


def test_a_refused_connection_names_the_host_and_says_nothing_was_sent() -> None:
    with socket.socket() as probe:  # a port with nothing listening on it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    error = _call(f"http://127.0.0.1:{port}")
    assert f"could not connect to 127.0.0.1:{port}" in str(error)
    assert "nothing was sent" in str(error) and error.never_sent
