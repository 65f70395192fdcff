"""The Low items of the hostile run (issue #26): each fixed, or decided and documented."""

from __future__ import annotations

import asyncio
import json
import traceback
from collections.abc import Callable
from typing import Any

import pytest

from provcat import match_endpoint
from provcat.endpoints.pool import ConnectionPool
from provcat.errors import APIError, EndpointConfigurationError, RateLimitError
from tests.calls.conftest import DNS, SECRET, Server, replying

OK = json.dumps({"ok": True}).encode()
BATCH = {"input_file_id": "f", "endpoint": "/v1/chat/completions", "completion_window": "24h"}


SSE = ("Content-Type", "text/event-stream")


@pytest.mark.parametrize(
    ("answer", "streamed"),
    [
        (replying(401, b'{"error": {"message": "no"}}'), False),
        (replying(200, b"{not json"), False),  # decoded in a frame that holds the call's secrets
        (replying(200, b"data: {not json\n\n", SSE), True),
        (replying(200, b'data: {"error": {"message": "overloaded"}}\n\n', SSE), True),
    ],
    ids=["401", "200-not-json", "stream-not-json", "stream-error-event"],
)
def test_a_traceback_with_locals_does_not_show_the_key(
    serve: Callable[..., Server], answer: Any, streamed: bool
) -> None:
    """As Sentry, rich or pytest's --showlocals render a traceback: every local of every frame.
    The vendor never echoes the key here: any copy comes from provcat's own frames."""
    server = serve(answer)
    ep = match_endpoint(
        "openai", "chat", base_url=server.url(), allow_local_network=True, api_key=SECRET
    )

    async def run() -> None:
        if streamed:
            async for _ in ep.stream({"messages": []}):
                pass
        else:
            await ep.call({"messages": []})

    with pytest.raises(APIError) as caught:
        asyncio.run(run())
    frames = []
    tb = caught.value.__traceback__
    while tb is not None:
        if "provcat" in tb.tb_frame.f_code.co_filename:
            frames.append(tb)
        tb = tb.tb_next
    assert frames, "the error comes from provcat's frames"
    shown = "".join(
        traceback.StackSummary.extract(
            ((t.tb_frame, t.tb_lineno) for t in frames), capture_locals=True
        ).format()
    )
    assert "response" in shown and SECRET not in shown


def test_an_excerpt_is_sanitized_before_it_is_cut(
    serve: Callable[..., Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key straddling the excerpt's end: before, its first part survived the cut and was no
    longer recognised."""
    key = "plainKEYvalue0123456789abcdef"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    server = serve(
        replying(500, b"x" * 190 + key.encode() + b" tail", ("Content-Type", "text/html"))
    )
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)
    with pytest.raises(Exception) as caught:
        asyncio.run(ep.call({"messages": []}))
    assert key[:8] not in str(caught.value) + repr(vars(caught.value))


def test_retry_after_zero_waits_our_backoff_not_nothing(serve: Callable[..., Server]) -> None:
    """As openai-python does (_calculate_retry_timeout uses a vendor's wait only when
    0 < wait <= MAX_RETRY_AFTER_DELAY), a 0 or a date in the past falls back to the jittered
    backoff."""
    for value in ("0", "Wed, 21 Oct 2015 07:28:00 GMT"):
        server = serve(replying(429, b"{}", ("Retry-After", value)))
        ep = match_endpoint(
            "openai", "batches", base_url=server.url(), allow_local_network=True, max_retries=2
        )
        slept = asyncio.run(_waits(ep))
        assert len(slept) == 1 and 0 < slept[0] <= 0.5


async def _waits(ep: Any) -> list[float]:
    """The waits between the attempts of a call that fails with a RateLimitError."""
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    async with ConnectionPool(sleep=sleep) as pool:
        with pytest.raises(RateLimitError):
            await ep.call(BATCH, client=pool)
    return slept


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"timeout": 0}, "timeout"),
        ({"timeout": -1}, "timeout"),
        ({"timeout": float("inf")}, "timeout"),
        ({"timeout": float("nan")}, "timeout"),
        ({"total_timeout": 0}, "total_timeout"),
        ({"max_retries": 1000}, "max_retries"),
        ({"base_url": "file:///etc/passwd"}, "base_url"),
        ({"base_url": "javascript:alert(1)"}, "base_url"),
        ({"base_url": "https://api.example.com/v1\r\nX-Injected: 1"}, "base_url"),
        ({"base_url": "https://"}, "base_url"),
        ({"base_url": "https://bob:pw-Sentinel@api.example.com"}, "base_url"),
    ],
)
def test_endpoint_configuration_is_validated_when_it_is_made(
    override: dict[str, object], field: str
) -> None:
    with pytest.raises(EndpointConfigurationError) as caught:
        match_endpoint("openai", "chat", **override)
    assert caught.value.field == field
    assert "Sentinel" not in str(caught.value)


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_a_non_finite_number_in_the_request_is_refused_not_changed(
    serve: Callable[..., Server], value: float
) -> None:
    server = serve(replying(200, OK))
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)
    with pytest.raises(EndpointConfigurationError, match=r"temperature.*not a finite number"):
        asyncio.run(ep.call({"messages": [], "temperature": value}))
    plain = match_endpoint(
        "acme", "", openai_compatible=True, base_url=server.url(), request_options=None
    )
    with pytest.raises(EndpointConfigurationError, match="not a finite number"):
        asyncio.run(plain.call({"messages": [{"weights": [1.0, value]}]}))
    assert server.seen == []


def test_a_request_that_cannot_be_encoded_is_a_typed_error(serve: Callable[..., Server]) -> None:
    server = serve(replying(200, OK))
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)
    with pytest.raises(EndpointConfigurationError, match="cannot be encoded"):
        asyncio.run(ep.call({"messages": [{"role": "user", "content": "\ud800"}]}))
    assert server.seen == []


def test_a_kept_alive_connection_needs_no_new_lookup(
    serve: Callable[..., Server], dns: DNS, public_stand_ins: None
) -> None:
    server = serve(replying(200, OK), host="127.0.0.2")
    dns["kept.test"] = ["127.0.0.2"]
    ep = match_endpoint("openai", "chat", base_url=server.url("kept.test") + "/v1")

    async def run() -> None:
        async with ConnectionPool() as pool:
            for _ in range(3):
                await ep.call({"messages": []}, client=pool)

    asyncio.run(run())
    assert dns.lookups == ["kept.test"] and server.connections == 1


def test_an_explicit_compatible_base_url_is_consent_to_the_local_network(
    serve: Callable[..., Server],
) -> None:
    """Decided: a caller who writes a compatible endpoint's base URL chose its address (a local
    server is the common case); catalog endpoints never reach it unless they say so."""
    server = serve(replying(200, OK))
    ep = match_endpoint(
        "acme", "", openai_compatible=True, base_url=server.url() + "/v1", api_key=SECRET
    )
    assert asyncio.run(ep.call({"model": "m", "messages": []})) == {"ok": True}


def test_a_default_pool_of_a_loop_never_shut_down_is_closed_at_exit(
    serve: Callable[..., Server],
) -> None:
    import subprocess
    import sys
    import textwrap

    server = serve(replying(200, OK))
    script = textwrap.dedent(
        """
        import asyncio, os, sys, warnings
        warnings.simplefilter("always", ResourceWarning)
        from provcat import match_endpoint
        os.environ["OPENAI_API_KEY"] = "sk-exit-test-000000"
        ep = match_endpoint("openai", "chat", base_url=sys.argv[1], allow_local_network=True)
        loop = asyncio.new_event_loop()
        print(loop.run_until_complete(ep.call({"messages": []})))
        """
    )
    run = subprocess.run(
        [sys.executable, "-X", "dev", "-c", script, server.url() + "/v1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    # the script leaves its own loop open (that warning is its own); no socket or transport
    assert "unclosed transport" not in run.stderr and "unclosed <socket" not in run.stderr


def test_a_pool_of_a_closed_event_loop_is_refused_with_what_to_do(
    serve: Callable[..., Server],
) -> None:
    """The tester's run: a pool made and used inside asyncio.run, its connection kept alive,
    then given to call_sync (before: a bare RuntimeError "Event loop is closed")."""
    server = serve(replying(200, OK))  # keep-alive: the connection stays in the pool
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)
    pools: list[ConnectionPool] = []

    async def first() -> None:
        pool = ConnectionPool()  # not closed: asyncio.run's loop ends under it
        pools.append(pool)
        await ep.call({"messages": []}, client=pool)

    asyncio.run(first())
    with pytest.raises(EndpointConfigurationError) as caught:
        ep.call_sync({"messages": []}, client=pools[0])
    message = str(caught.value)
    assert caught.value.field == "client"
    assert "belongs to an event loop that has closed" in message
    assert "Make the pool in the event loop that uses it" in message
    assert "call without client=" in message
    assert len(server.seen) == 1  # nothing was sent through it
    assert ep.call_sync({"messages": []}) == {"ok": True}  # call_sync's own pool works
