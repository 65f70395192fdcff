"""What a failed call says: each message names the setting involved and what to do (the tester's
smaller findings). Over httpx's MockTransport behind provcat's pool (tests/runtime/test_calls.py):
a body that never comes is an await that never ends, so a timeout here is the only outcome."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from provcat import match_endpoint
from provcat.endpoints.pool import ConnectionPool
from provcat.errors import (
    APITimeoutError,
    EndpointConfigurationError,
    InvalidResponseError,
    RequestValidationError,
)
from tests.runtime.test_calls import SECRET, Script, answer, call, no_secret, pool_for, stream

MESSAGES = {"messages": [{"role": "user", "content": "hi"}]}


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    yield


class _Hanging(httpx.AsyncByteStream):
    """A body that sends ``first`` and then nothing, ever."""

    def __init__(self, first: bytes = b"") -> None:
        self.first = first

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if self.first:
            yield self.first
        await asyncio.Event().wait()
        yield b""  # pragma: no cover


# --- 1. an endpoint setting written into the request -----------------------------------------


def test_timeout_given_to_a_call_says_it_is_an_endpoint_setting() -> None:
    """The OpenAI SDK takes timeout= per call; here it is the endpoint's (before: only "extra
    inputs are not permitted")."""
    chat = match_endpoint("openai", "chat")
    with pytest.raises(RequestValidationError) as caught:
        chat.call_sync(MESSAGES, timeout=5)
    assert str(caught.value) == (
        "openai/chat/completions: 'timeout' is not a request field; it is an endpoint "
        "setting: match_endpoint(..., timeout=...)"
    )
    assert caught.value.problems[0].suggestion == (
        "it is an endpoint setting: match_endpoint(..., timeout=...)"
    )


def test_settings_in_the_request_are_named_and_their_values_are_not_quoted() -> None:
    chat = match_endpoint("openai", "chat")
    request = {
        **MESSAGES,
        "total_timeout": 30,
        "api_key": SECRET,
        "max_retries": 2,
        "temprature": 0.2,
    }
    with pytest.raises(RequestValidationError) as caught:
        chat.call_sync(request)
    text = str(caught.value)
    assert "'total_timeout' is not a request field; it is an endpoint setting: " in text
    assert "match_endpoint(..., api_key=...)" in text
    assert "call(..., max_retries=...) or match_endpoint(..., max_retries=...)" in text
    assert "'temprature' extra inputs are not permitted; did you mean 'temperature'?" in text
    assert "30" not in text
    no_secret(caught.value)


def test_a_nested_field_named_like_a_setting_is_an_ordinary_unknown_field() -> None:
    chat = match_endpoint("openai", "chat")
    with pytest.raises(RequestValidationError) as caught:
        chat.call_sync({**MESSAGES, "stream_options": {"timeout": 5}})
    assert "endpoint setting" not in str(caught.value)


# --- 2. a stream's next event does not come ----------------------------------------------------


def _stream_hanging_after(first: bytes) -> Script:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200, headers={"content-type": "text/event-stream"}, stream=_Hanging(first)
        )

    return Script(handler)


def test_a_stream_timeout_says_the_wait_between_two_events_and_its_length() -> None:
    """Before: "the stream was cut off (TimeoutError)"."""
    ep = match_endpoint("openai", "chat", timeout=0.2)
    seen: list[Any] = []

    async def run() -> None:
        async with pool_for(_stream_hanging_after(b'data: {"n": 1}\n\n')) as pool:
            async for event in ep.stream(MESSAGES, client=pool):
                seen.append(event)

    with pytest.raises(APITimeoutError) as caught:
        asyncio.run(run())
    assert seen == [{"n": 1}]
    assert str(caught.value) == (
        "openai/chat/completions: no event or keep-alive within 0.2 s of the previous one (the "
        "endpoint's timeout)"
    )
    assert caught.value.status == 200


def test_a_stream_whose_first_event_does_not_come_says_so() -> None:
    ep = match_endpoint("openai", "chat", timeout=0.2)
    with pytest.raises(
        APITimeoutError,
        match=r"^openai/chat/completions: no event or keep-alive within 0\.2 s of the answer's headers \(the endpoint's timeout\)$",
    ):
        stream(ep, _stream_hanging_after(b""))


# --- 3. a body still arriving when the timeout ends -------------------------------------------


def test_a_body_that_does_not_finish_says_the_answer_had_begun() -> None:
    """Before: "no answer within 0.2 s", although the headers had come."""

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200, headers={"content-type": "application/json"}, stream=_Hanging(b'{"id": ')
        )

    ep = match_endpoint("openai", "chat", timeout=0.2, max_retries=1)
    with pytest.raises(APITimeoutError) as caught:
        call(ep, Script(handler))
    assert str(caught.value) == "openai/chat/completions: the answer did not finish within 0.2 s"
    assert not caught.value.never_sent


def test_no_headers_within_the_timeout_is_still_no_answer() -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")  # pragma: no cover

    ep = match_endpoint("openai", "chat", timeout=0.2, max_retries=1)
    with pytest.raises(
        APITimeoutError, match=r"^openai/chat/completions: no answer within 0\.2 s$"
    ):
        call(ep, Script(handler))  # type: ignore[arg-type]


def test_a_call_out_of_its_total_timeout_names_the_total_set() -> None:
    """A 503 asking for 0.3 s, then no answer: the second attempt has what is left of the 0.5 s
    (about 0.2 s). Before: "no answer within 0.199 s (total_timeout)", the remainder."""

    async def hang(request: httpx.Request) -> httpx.Response:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")  # pragma: no cover

    script = Script(answer(503, {}, **{"retry-after": "0.3"}), hang)  # type: ignore[arg-type]
    ep = match_endpoint("openai", "chat", timeout=0.4, total_timeout=0.5)
    with pytest.raises(APITimeoutError) as caught:
        call(ep, script)
    assert str(caught.value) == (
        "openai/chat/completions: no answer within the total_timeout of 0.5 s"
    )
    assert len(script.requests) == 2 and script.slept == [0.3]


# --- 3b. a request that is not a mapping -----------------------------------------------------


@pytest.mark.parametrize("request_", ["hi " + SECRET, [MESSAGES]], ids=["str", "list"])
@pytest.mark.parametrize("how", ["call_sync", "stream_sync", "create_payload", "call", "stream"])
def test_a_request_that_is_not_a_mapping_says_what_a_request_is(request_: Any, how: str) -> None:
    """call_sync("hi"): before, "'str' object is not a mapping", raised from inside payload().
    The request is never quoted (it may hold anything), only its type. The blocking calls use
    their own pool: a port on 127.0.0.1 where nothing listens, should anything be sent."""
    ep = match_endpoint(
        "openai", "chat", base_url="http://127.0.0.1:9/v1", allow_local_network=True
    )
    script = Script(answer(200, {"id": "ok"}))

    async def run() -> None:
        async with pool_for(script) as pool:
            if how == "call":
                await ep.call(request_, client=pool)
            else:
                async with ep.stream(request_, client=pool) as events:
                    async for _ in events:
                        pass

    with pytest.raises(TypeError) as caught:
        if how == "call_sync":
            ep.call_sync(request_)
        elif how == "stream_sync":
            with ep.stream_sync(request_) as events:
                list(events)
        elif how == "create_payload":
            ep.create_payload(request_)
        else:
            asyncio.run(run())
    assert str(caught.value) == (
        "openai/chat/completions: a request is a mapping (a dict) of the API's request fields, "
        f"such as {{'messages': [...]}} for a chat, not a {type(request_).__name__}"
    )
    assert script.requests == []
    no_secret(caught.value)


# --- 4. a streamed line or event past the bound names max_response_bytes ---------------------


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b'data: {"text": "' + b"x" * 100 + b'"}\n\n', "a streamed line is larger than 50 bytes"),
        (b"data: 0123456789\n" * 6 + b"\n", "a streamed event is larger than 50 bytes"),
    ],
)
def test_a_streamed_line_or_event_past_the_bound_names_the_setting(body: bytes, said: str) -> None:
    ep = match_endpoint("openai", "chat", max_response_bytes=50)
    script = Script(answer(200, body, **{"content-type": "text/event-stream"}))
    with pytest.raises(InvalidResponseError) as caught:
        stream(ep, script)
    assert str(caught.value) == f"openai/chat/completions: {said} (max_response_bytes)"


# --- 5. a pool that cannot serve this event loop -----------------------------------------------


def test_a_closed_pool_is_an_endpoint_configuration_error() -> None:
    """Before: httpx's bare RuntimeError "Cannot send a request, as the client has been
    closed"."""
    script = Script(answer(200, {"id": "ok"}))
    pools: list[ConnectionPool] = []

    async def first() -> None:
        async with pool_for(script) as pool:
            pools.append(pool)
            await match_endpoint("openai", "chat").call(MESSAGES, client=pool)

    asyncio.run(first())
    with pytest.raises(EndpointConfigurationError, match="the ConnectionPool is closed") as caught:
        match_endpoint("openai", "chat").call_sync(MESSAGES, client=pools[0])
    assert caught.value.field == "client"
    assert len(script.requests) == 1


def test_a_closed_httpx_client_is_an_endpoint_configuration_error() -> None:
    async def run() -> None:
        client = httpx.AsyncClient(transport=httpx.MockTransport(answer(200, {})))
        await client.aclose()
        await match_endpoint("openai", "chat").call(MESSAGES, client=client)

    with pytest.raises(EndpointConfigurationError, match=r"httpx\.AsyncClient given as client="):
        asyncio.run(run())


def test_a_pool_of_another_open_event_loop_is_refused() -> None:
    script = Script(answer(200, {"id": "ok"}))
    pool = pool_for(script)
    other = asyncio.new_event_loop()
    try:
        other.run_until_complete(match_endpoint("openai", "chat").call(MESSAGES, client=pool))
        with pytest.raises(
            EndpointConfigurationError, match="belongs to another event loop, still open"
        ):
            match_endpoint("openai", "chat").call_sync(MESSAGES, client=pool)
        assert len(script.requests) == 1
    finally:
        other.run_until_complete(pool.aclose())
        other.close()
