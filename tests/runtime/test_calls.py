"""Endpoints at work, over a scripted transport: typed errors from each vendor's error envelope,
retries and their waits, streaming, the local-network guard, the pool, bounds and bad answers.

The transport is httpx's MockTransport behind provcat's own guarded pool, with a resolver the
test controls, so no test takes wall time or touches the network. The error envelopes are the
shapes the vendors document (sources beside each).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest

from provcat import match_endpoint
from provcat.endpoints.endpoint import Endpoint
from provcat.endpoints.pool import ConnectionPool
from provcat.endpoints.retry import MAX_DELAY
from provcat.errors import (
    APIConnectionError,
    APIError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    EndpointConfigurationError,
    InvalidResponseError,
    LocalNetworkRefused,
    NotFoundError,
    RateLimitError,
    ServerError,
    StreamError,
)

SECRET = "sk-sentinel-DO-NOT-PRINT-0123456789"
Handler = Callable[[httpx.Request], httpx.Response]


class Script:
    """Answers requests in order from a list of handlers (the last one repeats) and records
    every request, with the host it was pinned to."""

    def __init__(self, *handlers: Handler) -> None:
        self.handlers = list(handlers)
        self.requests: list[httpx.Request] = []
        self.slept: list[float] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        index = min(len(self.requests), len(self.handlers)) - 1
        return self.handlers[index](request)

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)


def public(address: str = "93.184.216.34") -> Callable[[str, int], Any]:
    async def resolver(host: str, port: int) -> list[str]:
        return [address]

    return resolver


def pool_for(script: Script, address: str = "93.184.216.34") -> ConnectionPool:
    return ConnectionPool(
        transport=httpx.MockTransport(script), resolver=public(address), sleep=script.sleep
    )


def answer(status: int = 200, body: Any = None, **headers: str) -> Handler:
    def handler(request: httpx.Request) -> httpx.Response:
        if isinstance(body, (bytes, str)):
            content = body.encode() if isinstance(body, str) else body
            return httpx.Response(status, content=content, headers=headers)
        return httpx.Response(status, json=body if body is not None else {}, headers=headers)

    return handler


@pytest.fixture(autouse=True)
def _keys(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "MISTRAL_API_KEY"):
        monkeypatch.setenv(name, SECRET)
    yield


def call(ep: Endpoint, script: Script, request: Any = None, **kwargs: Any) -> Any:
    async def run() -> Any:
        async with pool_for(script) as pool:
            return await ep.call(request or {"messages": []}, client=pool, **kwargs)

    return asyncio.run(run())


def stream(
    ep: Endpoint, script: Script, request: Any = None, limit: int | None = None
) -> list[Any]:
    async def run() -> list[Any]:
        seen: list[Any] = []
        async with pool_for(script) as pool:
            async for event in ep.stream(request or {"messages": []}, client=pool):
                seen.append(event)
                if limit is not None and len(seen) >= limit:
                    break
        return seen

    return asyncio.run(run())


def no_secret(error: BaseException) -> None:
    text = str(error) + repr(error) + repr(vars(error))
    assert SECRET not in text


# --- typed errors, from each vendor's envelope -------------------------------------------------


@pytest.mark.parametrize(
    ("provider", "endpoint", "status", "body", "cls", "expected"),
    [
        # https://platform.openai.com/docs/guides/error-codes
        (
            "openai",
            "chat",
            401,
            {
                "error": {
                    "message": "Incorrect API key provided",
                    "type": "invalid_request_error",
                    "code": "invalid_api_key",
                    "param": None,
                }
            },
            AuthenticationError,
            ("invalid_request_error", "invalid_api_key", "Incorrect API key provided"),
        ),
        # https://platform.claude.com/docs/en/api/errors
        (
            "anthropic",
            "messages",
            529,
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            ServerError,
            ("overloaded_error", None, "Overloaded"),
        ),
        # https://ai.google.dev/gemini-api/docs/troubleshooting (google.rpc.Status)
        (
            "gemini",
            "chat",
            400,
            [
                {
                    "error": {
                        "code": 400,
                        "message": "API key not valid",
                        "status": "INVALID_ARGUMENT",
                    }
                }
            ],
            BadRequestError,
            (None, None, None),
        ),
        (
            "gemini",
            "chat",
            404,
            {"error": {"code": 404, "message": "models/x is not found", "status": "NOT_FOUND"}},
            NotFoundError,
            ("NOT_FOUND", "404", "models/x is not found"),
        ),
        # https://github.com/ollama/ollama/blob/main/docs/api.md#errors
        (
            "ollama",
            "generate",
            404,
            {"error": "model 'llama9' not found"},
            NotFoundError,
            (None, None, "model 'llama9' not found"),
        ),
        (
            "openai",
            "chat",
            422,
            {"error": {"message": "bad"}},
            BadRequestError,
            (None, None, "bad"),
        ),
        (
            "openai",
            "chat",
            403,
            {"error": {"message": "no"}},
            AuthenticationError,
            (None, None, "no"),
        ),
        (
            "openai",
            "chat",
            409,
            {"error": {"message": "conflict"}},
            APIStatusError,
            (None, None, "conflict"),
        ),
    ],
)
def test_status_errors_are_typed_with_the_vendors_fields(
    provider: str,
    endpoint: str,
    status: int,
    body: Any,
    cls: type[APIError],
    expected: tuple[str | None, str | None, str | None],
) -> None:
    ep = match_endpoint(provider, endpoint, max_retries=1)
    script = Script(answer(status, body, **{"x-request-id": "req_123"}))
    request = {
        "ollama": {"model": "m", "prompt": "hi"},
        "anthropic": {"model": "m", "max_tokens": 1, "messages": []},
    }.get(provider)
    with pytest.raises(cls) as caught:
        call(ep, script, request)
    error = caught.value
    assert (error.status, error.provider, error.endpoint) == (status, *ep.config.name.split("_", 1))
    assert (error.error_type, error.error_code, error.vendor_message) == expected
    assert error.request_id == "req_123"
    no_secret(error)


def test_an_html_error_body_gives_a_short_excerpt() -> None:
    page = "<html><head><title>502 Bad Gateway</title></head><body>" + "x" * 5000 + "</body></html>"
    ep = match_endpoint("openai", "chat", max_retries=1)
    with pytest.raises(ServerError) as caught:
        call(ep, Script(answer(502, page, **{"content-type": "text/html"})))
    assert caught.value.excerpt is not None and caught.value.excerpt.startswith("<html>")
    assert len(caught.value.excerpt) <= 200 and caught.value.vendor_message is None


def test_a_200_with_invalid_json_is_an_invalid_response() -> None:
    ep = match_endpoint("openai", "chat")
    script = Script(
        answer(200, '{"id": "chatcmpl-1", "choices": [', **{"content-type": "application/json"})
    )
    with pytest.raises(InvalidResponseError, match="not valid JSON"):
        call(ep, script)
    assert len(script.requests) == 1


def test_a_missing_key_is_raised_before_any_traffic(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    script = Script(answer(200, {}))
    with pytest.raises(EndpointConfigurationError, match="set OPENAI_API_KEY"):
        call(match_endpoint("openai", "chat"), script)
    assert script.requests == []


@pytest.mark.parametrize("how", ["call", "stream", "create_payload"])
def test_an_empty_api_key_is_refused_before_any_traffic(how: str) -> None:
    """api_key=os.getenv("X", "") with X unset: before, "Authorization: Bearer " was sent (an
    httpx LocalProtocolError, tried again as an APIConnectionError), and the key in
    OPENAI_API_KEY, set here, was not read either. Refused as a blank key is, naming both ways
    out."""
    ep = match_endpoint("openai", "chat", api_key="")
    script = Script(answer(200, {}))
    with pytest.raises(EndpointConfigurationError) as caught:
        if how == "call":
            call(ep, script)
        elif how == "stream":
            stream(ep, script)
        else:
            ep.create_payload({"messages": []})
    assert str(caught.value) == (
        "openai/chat/completions: the key given as api_key= is empty: pass the key, or leave "
        "api_key out to read it from OPENAI_API_KEY"
    )
    assert caught.value.field == "api_key"
    assert script.requests == []
    no_secret(caught.value)


# --- retries -------------------------------------------------------------------------------------


def test_max_retries_is_the_total_number_of_attempts_on_5xx_when_idempotent() -> None:
    ep = match_endpoint("openai", "batches", max_retries=5)  # batches: idempotent_retries true
    script = Script(answer(503, {"error": {"message": "busy"}}))
    with pytest.raises(ServerError):
        call(
            ep,
            script,
            {"input_file_id": "f", "endpoint": "/v1/chat/completions", "completion_window": "24h"},
        )
    assert len(script.requests) == 5
    assert len(script.slept) == 4
    for attempt, waited in enumerate(script.slept, start=1):  # full jitter, capped
        assert 0 <= waited <= min(MAX_DELAY, 0.5 * 2 ** (attempt - 1))


def test_a_non_idempotent_post_is_not_replayed_after_it_reached_the_server() -> None:
    ep = match_endpoint("openai", "chat", max_retries=5)
    script = Script(answer(500, {}))  # 503 says "not processed": retried (test_retry_defaults)
    with pytest.raises(ServerError):
        call(ep, script)
    assert len(script.requests) == 1


def test_a_post_is_replayed_when_the_connection_was_never_made() -> None:
    def refused(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    ep = match_endpoint("openai", "chat", max_retries=3)
    script = Script(refused, refused, answer(200, {"id": "ok"}))
    assert call(ep, script) == {"id": "ok"}
    assert len(script.requests) == 3


def test_a_timeout_is_typed_and_not_replayed_for_a_post() -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    ep = match_endpoint("openai", "chat", max_retries=4, timeout=2)
    script = Script(slow)
    with pytest.raises(APITimeoutError, match="no answer within 2 s"):
        call(ep, script)
    assert len(script.requests) == 1


@pytest.mark.parametrize(
    ("headers", "waited"),
    [
        ({"retry-after": "7"}, 7.0),
        ({"retry-after-ms": "1500"}, 1.5),
        ({"retry-after": "1.5"}, 1.5),  # a decimal, as both SDKs read it
        ({"retry-after": "120"}, 120.0),  # openai-python's MAX_RETRY_AFTER_DELAY
    ],
)
def test_a_429_waits_what_the_vendor_asks_up_to_the_sdks_maximum(
    headers: dict[str, str], waited: float
) -> None:
    ep = match_endpoint("openai", "batches", max_retries=2)
    script = Script(answer(429, {"error": {"message": "slow down"}}, **headers), answer(200, {}))
    call(
        ep,
        script,
        {"input_file_id": "f", "endpoint": "/v1/chat/completions", "completion_window": "24h"},
    )
    assert script.slept == [waited]


def test_a_garbage_retry_after_falls_back_to_backoff_and_the_error_says_none() -> None:
    ep = match_endpoint("openai", "chat", max_retries=1)
    with pytest.raises(RateLimitError) as caught:
        call(ep, Script(answer(429, {}, **{"retry-after": "soon-ish"})))
    assert caught.value.retry_after is None
    ep = match_endpoint("openai", "batches", max_retries=2)
    script = Script(answer(429, {}, **{"retry-after": "soon-ish"}), answer(200, {}))
    call(
        ep,
        script,
        {"input_file_id": "f", "endpoint": "/v1/chat/completions", "completion_window": "24h"},
    )
    assert len(script.slept) == 1 and 0 <= script.slept[0] <= 0.5


def test_a_4xx_other_than_408_409_429_is_never_retried() -> None:
    ep = match_endpoint("openai", "batches", max_retries=5)
    script = Script(answer(400, {"error": {"message": "bad"}}))
    with pytest.raises(BadRequestError):
        call(
            ep,
            script,
            {"input_file_id": "f", "endpoint": "/v1/chat/completions", "completion_window": "24h"},
        )
    assert len(script.requests) == 1


# --- the local-network guard ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "address", ["127.0.0.1", "10.0.0.7", "169.254.169.254", "::1", "224.0.0.1"]
)
def test_a_host_that_resolves_to_a_local_address_is_refused_before_any_byte(address: str) -> None:
    """The name is checked when the call is made: a DNS answer that turns local (rebinding)
    is refused too, and the connection would go to the address that was checked."""
    ep = match_endpoint("openai", "chat")
    script = Script(answer(200, {}))

    async def run() -> None:
        async with ConnectionPool(
            transport=httpx.MockTransport(script), resolver=public(address)
        ) as pool:
            await ep.call({"messages": []}, client=pool)

    with pytest.raises(LocalNetworkRefused, match=f"resolves to {address}"):
        asyncio.run(run())
    assert script.requests == []


def test_allow_local_network_lets_a_local_endpoint_through() -> None:
    ep = match_endpoint("ollama", "generate")  # the catalog allows it for ollama
    script = Script(answer(200, {"response": "hi", "done": True}))

    async def run() -> Any:
        async with ConnectionPool(
            transport=httpx.MockTransport(script), resolver=public("127.0.0.1")
        ) as pool:
            return await ep.call({"model": "m", "prompt": "hi", "stream": False}, client=pool)

    assert asyncio.run(run())["response"] == "hi"
    assert script.requests[0].url.host == "localhost"  # not pinned: the endpoint allows it


def test_a_callers_own_client_is_checked_before_sending() -> None:
    ep = match_endpoint("openai", "chat", base_url="http://127.0.0.1:9/v1")
    script = Script(answer(200, {}))

    async def run() -> None:
        async with httpx.AsyncClient(transport=httpx.MockTransport(script)) as own:
            await ep.call({"messages": []}, client=own)

    with pytest.raises(LocalNetworkRefused):
        asyncio.run(run())
    assert script.requests == []


def test_a_redirect_to_another_host_is_not_followed() -> None:
    ep = match_endpoint("openai", "chat", max_retries=1)
    script = Script(answer(307, {}, location="https://elsewhere.example/steal"))
    with pytest.raises(APIStatusError, match="redirects are not followed") as caught:
        call(ep, script)
    assert caught.value.status == 307
    assert len(script.requests) == 1  # nothing went to elsewhere.example


# --- bounds, usage, the pool -----------------------------------------------------------------------


def test_an_answer_larger_than_the_bound_is_refused() -> None:
    ep = match_endpoint("openai", "chat", max_response_bytes=1024)
    script = Script(answer(200, {"blob": "x" * 10_000}))
    with pytest.raises(InvalidResponseError, match="larger than 1024 bytes"):
        call(ep, script)


def test_requires_tokens_puts_the_reported_usage_on_the_result() -> None:
    # https://platform.openai.com/docs/api-reference/chat/object (usage)
    body = {
        "id": "chatcmpl-1",
        "usage": {
            "prompt_tokens": 19,
            "completion_tokens": 10,
            "total_tokens": 29,
            "prompt_tokens_details": {"cached_tokens": 4},
            "completion_tokens_details": {"reasoning_tokens": 3},
        },
    }
    result = call(
        match_endpoint("openai", "chat"), Script(answer(200, body, **{"x-request-id": "r1"}))
    )
    assert result["id"] == "chatcmpl-1" and result.request_id == "r1" and result.status_code == 200
    usage = result.usage
    assert (
        usage.input_tokens,
        usage.output_tokens,
        usage.cache_read_tokens,
        usage.reasoning_tokens,
    ) == (19, 10, 4, 3)
    # https://platform.claude.com/docs/en/api/messages (usage)
    anthropic = {
        "usage": {
            "input_tokens": 12,
            "output_tokens": 6,
            "cache_read_input_tokens": 2,
            "cache_creation_input_tokens": 5,
        }
    }
    ep = match_endpoint("anthropic", "messages", requires_tokens=True)
    usage = call(
        ep, Script(answer(200, anthropic)), {"model": "m", "max_tokens": 1, "messages": []}
    ).usage
    assert (
        usage.input_tokens,
        usage.output_tokens,
        usage.cache_read_tokens,
        usage.cache_write_tokens,
    ) == (12 + 2 + 5, 6, 2, 5)  # Anthropic's input_tokens excludes cache reads and writes
    ep = match_endpoint("openai", "chat", requires_tokens=False)
    assert call(ep, Script(answer(200, body))).usage is None


def test_endpoints_share_the_pool_and_the_caller_closes_it() -> None:
    script = Script(answer(200, {}))
    chat, embed = match_endpoint("openai", "chat"), match_endpoint("mistral", "embed")

    async def run() -> ConnectionPool:
        async with pool_for(script) as pool:
            await chat.call({"messages": []}, client=pool)
            await embed.call({"input": "x", "model": "m"}, client=pool)
            assert not pool.closed
        return pool

    assert asyncio.run(run()).closed
    assert len(script.requests) == 2


def test_the_default_pool_is_one_per_event_loop() -> None:
    from provcat.endpoints.pool import aclose_default, default_pool

    async def run() -> bool:
        first = default_pool()
        same = default_pool() is first
        await aclose_default()
        return same and first.closed and default_pool() is not first

    assert asyncio.run(run())


# --- streaming ---------------------------------------------------------------------------------


def sse(*events: str, status: int = 200) -> Handler:
    body = "".join(events).encode()
    return answer(status, body, **{"content-type": "text/event-stream"})


def test_sse_events_are_decoded_until_done() -> None:
    # https://platform.openai.com/docs/api-reference/chat-streaming
    script = Script(
        sse(
            'data: {"choices": [{"delta": {"content": "He"}}]}\n\n',
            ": keep-alive comment\n\n",
            'data: {"choices": [{"delta": {"content": "llo"}}]}\n\n',
            "data: [DONE]\n\n",
            'data: {"never": "seen"}\n\n',
        )
    )
    events = stream(match_endpoint("openai", "chat"), script)
    assert [e["choices"][0]["delta"]["content"] for e in events] == ["He", "llo"]
    assert json.loads(script.requests[0].content)["stream"] is True


def test_an_sse_error_event_raises_the_typed_error() -> None:
    # https://platform.claude.com/docs/en/build-with-claude/streaming#error-events
    script = Script(
        sse(
            'event: message_start\ndata: {"type": "message_start", "message": {}}\n\n',
            'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", '
            '"message": "Overloaded"}}\n\n',
        )
    )
    ep = match_endpoint("anthropic", "messages")
    with pytest.raises(StreamError) as caught:
        stream(ep, script, {"model": "m", "max_tokens": 1, "messages": []})
    assert (caught.value.error_type, caught.value.vendor_message) == (
        "overloaded_error",
        "Overloaded",
    )


def test_a_malformed_sse_line_is_an_invalid_response() -> None:
    script = Script(sse('data: {"choices": [\n\n'))
    with pytest.raises(InvalidResponseError, match="not valid JSON"):
        stream(match_endpoint("openai", "chat"), script)


class _CutOff(httpx.AsyncByteStream):
    def __init__(self, *chunks: bytes) -> None:
        self.chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk
        raise httpx.RemoteProtocolError("peer closed connection without sending complete body")


def test_a_stream_cut_off_mid_event_raises_after_the_complete_events() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200,
            headers={"content-type": "text/event-stream"},
            stream=_CutOff(b'data: {"n": 1}\n\n', b'data: {"n": '),
        )

    seen: list[Any] = []

    async def run() -> None:
        async with pool_for(Script(handler)) as pool:
            async for event in match_endpoint("openai", "chat").stream(
                {"messages": []}, client=pool
            ):
                seen.append(event)

    with pytest.raises(APIConnectionError, match="cut off"):
        asyncio.run(run())
    assert seen == [{"n": 1}]


def test_leaving_a_stream_early_closes_the_connection() -> None:
    closed: list[bool] = []

    class Tracked(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            for n in range(1000):
                yield f'data: {{"n": {n}}}\n\n'.encode()

        async def aclose(self) -> None:
            closed.append(True)

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Tracked())

    assert stream(match_endpoint("openai", "chat"), Script(handler), limit=2) == [
        {"n": 0},
        {"n": 1},
    ]
    assert closed == [True]


def test_ndjson_streams_and_their_error_lines() -> None:
    # https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-completion (streaming)
    lines = '{"response": "He", "done": false}\n{"response": "llo", "done": true}\n'
    script = Script(answer(200, lines, **{"content-type": "application/x-ndjson"}))
    ep = match_endpoint("ollama", "generate")

    async def run(s: Script) -> list[Any]:
        async with ConnectionPool(
            transport=httpx.MockTransport(s), resolver=public("127.0.0.1")
        ) as pool:
            return [e async for e in ep.stream({"model": "m", "prompt": "hi"}, client=pool)]

    assert [e["response"] for e in asyncio.run(run(script))] == ["He", "llo"]
    bad = Script(
        answer(
            200,
            '{"response": "a"}\n{"error": "model crashed"}\n',
            **{"content-type": "application/x-ndjson"},
        )
    )
    with pytest.raises(StreamError, match="model crashed"):
        asyncio.run(run(bad))


def test_a_status_error_before_the_stream_is_typed() -> None:
    script = Script(answer(401, {"error": {"message": "bad key", "type": "invalid_request_error"}}))
    with pytest.raises(AuthenticationError) as caught:
        stream(match_endpoint("openai", "chat", max_retries=1), script)
    no_secret(caught.value)


def test_the_timeout_reaches_every_phase_of_the_request() -> None:
    script = Script(answer(200, {}))
    call(match_endpoint("openai", "chat", timeout=7.5), script)
    # connect: 5 s at most, as openai-python's and anthropic-sdk-python's DEFAULT_TIMEOUT =
    # httpx.Timeout(600, connect=5.0) (_constants.py)
    assert script.requests[0].extensions["timeout"] == {
        "connect": 5.0,
        "read": 7.5,
        "write": 7.5,
        "pool": 7.5,
    }
    script = Script(answer(200, {}))
    call(match_endpoint("openai", "chat", timeout=2), script)
    assert script.requests[0].extensions["timeout"]["connect"] == 2.0  # never above timeout


def test_an_explicit_compatible_endpoint_may_reach_a_local_server() -> None:
    ep = match_endpoint("acme", "", openai_compatible=True, base_url="http://127.0.0.1:9/v1")
    assert ep.config.allow_local_network is True
    strict = match_endpoint(
        "acme",
        "",
        openai_compatible=True,
        base_url="http://127.0.0.1:9/v1",
        allow_local_network=False,
    )
    assert strict.config.allow_local_network is False


@pytest.mark.parametrize(
    ("base_url", "port"),
    [
        ("https://api.example.com/v1", 443),
        ("http://api.example.com/v1", 80),
        ("https://api.example.com:8443/v1", 8443),
    ],
)
def test_the_port_a_url_leaves_out_is_its_schemes(base_url: str, port: int) -> None:
    """The name checked before a call is looked up on the port the connection uses, and a
    connection that fails names it: 443 for https, 80 for http, unless the URL gives one."""
    looked_up: list[tuple[str, int]] = []

    async def resolver(host: str, port: int) -> list[str]:
        looked_up.append((host, port))
        return ["93.184.216.34"]

    ep = match_endpoint("openai", "chat", base_url=base_url, max_retries=1)

    async def run() -> None:
        async with ConnectionPool(
            transport=httpx.MockTransport(answer(200, {})), resolver=resolver
        ) as pool:
            await ep.call({"messages": []}, client=pool)

    asyncio.run(run())
    assert looked_up == [("api.example.com", port)]

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    local = match_endpoint(
        "openai", "chat", base_url=base_url, max_retries=1, allow_local_network=True
    )

    async def own_client() -> None:
        async with httpx.AsyncClient(transport=httpx.MockTransport(refuse)) as http:
            await local.call({"messages": []}, client=http)

    with pytest.raises(APIConnectionError, match=f"could not connect to api.example.com:{port} "):
        asyncio.run(own_client())
