"""What the README and docs/ promise about a call, held against small local servers: the call's
own key is redacted from every error, the bounds on attempts and waits, the connect timeout,
what closes a stream, and the answers that are errors although their status is 200."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from provcat import match_endpoint
from provcat.endpoints.pool import ConnectionPool
from provcat.errors import (
    APIError,
    APITimeoutError,
    EndpointConfigurationError,
    InvalidResponseError,
    RateLimitError,
    StreamError,
)
from tests.calls.conftest import Conn, Server, replying, response

# A Gemini-shaped key: no sk-/pk- prefix, so no secret shape the sanitizer knows
KEY = "AIzaFAKEprovcat0123456789abcdef"
CHAT = {"messages": [{"role": "user", "content": "hi"}]}
SSE = ("Content-Type", "text/event-stream")


# --- the call's own key never reaches an error ----------------------------------------------------


def _echo_key(conn: Conn) -> None:
    """A vendor that echoes the key it was sent, in the part of its answer the path names."""
    while True:
        line, headers, _ = conn.request()
        key = headers.get("authorization", "").removeprefix("Bearer ")
        where = line.split()[1].split("/")[1]
        answers = {
            "json200": response(200, f"{{debug: {key}".encode()),  # a 200 that is not JSON
            "cut200": response(200, b"{" + b"x" * 190 + key.encode()),  # cut by the excerpt
            "event": response(
                200, f'data: {{"error": {{"message": "bad key {key}"}}}}\n\n'.encode(), SSE
            ),
            "malformed": response(200, f"data: {{not json {key}\n\n".encode(), SSE),
            "redirect": response(302, b"", ("Location", f"https://other.example/?key={key}")),
            "rid400": response(400, b'{"error": {"message": "no"}}', ("x-request-id", key)),
            "rid200": response(200, b'{"ok": true}', ("x-request-id", key)),
            "ridbearer": response(401, b"{}", ("x-request-id", headers.get("authorization", ""))),
            "xapikey": response(
                401, f'{{"error": {{"message": "bad x-api-key: {key}"}}}}'.encode()
            ),
            "ctype": response(200, b"data: {}\n\n", ("Content-Type", f"text/plain{key}")),
        }
        if not conn.send(answers[where]):
            return


def _failed(ep: Any, where: str) -> APIError:
    """The error of a call (a stream, where the answer is one) to the echoing vendor."""

    async def run() -> None:
        if where in ("event", "malformed", "ctype"):
            async for _ in ep.stream(CHAT):
                pass
        else:
            await ep.call(CHAT)

    with pytest.raises(APIError) as caught:
        asyncio.run(run())
    return caught.value


def _given(how: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The key given in code, or in a variable whose name the sanitizer does not take for a
    secret's."""
    if how == "api_key":
        return {"api_key": KEY}
    monkeypatch.setenv("ACME_AUTH", KEY)
    return {"api_key_env": "ACME_AUTH"}


@pytest.mark.parametrize("how", ["api_key", "ACME_AUTH"])
@pytest.mark.parametrize("where", ["json200", "cut200", "event", "malformed", "redirect", "rid400"])
def test_the_calls_own_key_is_redacted_from_every_error(
    serve: Callable[..., Server], monkeypatch: pytest.MonkeyPatch, how: str, where: str
) -> None:
    """README, Security: the key a call carries is redacted from errors and excerpts; before,
    only a non-2xx body was cleaned of it (a 200's excerpt, a stream's event, a redirect's
    target and a request id kept it)."""
    server = serve(_echo_key)
    ep = match_endpoint(
        "gemini",
        "chat",
        base_url=f"{server.url()}/{where}",
        allow_local_network=True,
        **_given(how, monkeypatch),
    )

    error = _failed(ep, where)
    assert server.seen[0]["headers"]["authorization"] == f"Bearer {KEY}"
    shown = str(error) + repr(vars(error))
    assert KEY[:8] not in shown  # not whole, nor its start where a field was cut
    assert "<api key redacted>" in shown


# a key of a known shape (the sanitizer writes it `<redacted>`), given in code or in the endpoint's
# own secret-named variable (the sanitizer writes it `<GEMINI_API_KEY redacted>`)
SHAPED_KEY = "sk-proj-" + "Ab3dEf6h" * 4


@pytest.mark.parametrize("how", ["api_key", "GEMINI_API_KEY"])
@pytest.mark.parametrize(
    "where",
    [
        "json200",
        "cut200",
        "event",
        "malformed",
        "redirect",
        "rid400",
        "ridbearer",
        "xapikey",
        "ctype",
    ],
)
def test_the_calls_own_key_is_written_the_documented_way_in_every_field(
    serve: Callable[..., Server], monkeypatch: pytest.MonkeyPatch, how: str, where: str
) -> None:
    """docs/errors-and-retries.md: the key the call sent is `<api key redacted>` in the message
    and in every field. Before, a field the sanitizer saw first said `<redacted>` or
    `<GEMINI_API_KEY redacted>` (request_id: `Bearer <GEMINI_API_KEY redacted>`)."""
    server = serve(_echo_key)
    if how == "api_key":
        given: dict[str, Any] = {"api_key": SHAPED_KEY}
    else:
        monkeypatch.setenv("GEMINI_API_KEY", SHAPED_KEY)
        given = {}
    ep = match_endpoint(
        "gemini", "chat", base_url=f"{server.url()}/{where}", allow_local_network=True, **given
    )

    error = _failed(ep, where)
    assert server.seen[0]["headers"]["authorization"] == f"Bearer {SHAPED_KEY}"
    fields = [str(error), *(v for v in vars(error).values() if isinstance(v, str))]
    assert not any(SHAPED_KEY[8:16].lower() in text.lower() for text in fields)  # in no case
    echoed = [text for text in fields if "redacted" in text]
    assert echoed, "the key is quoted somewhere, as the vendor echoed it"
    for text in echoed:
        assert SHAPED_KEY[:8] not in text
        assert "<api key redacted>" in text
        assert "<redacted>" not in text and "API_KEY redacted>" not in text
    if where == "ridbearer":
        assert error.request_id == "Bearer <api key redacted>"


def test_a_request_id_of_an_answer_holds_no_key(
    serve: Callable[..., Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = serve(_echo_key)
    ep = match_endpoint(
        "gemini", "chat", base_url=f"{server.url()}/rid200", allow_local_network=True, api_key=KEY
    )
    result = asyncio.run(ep.call(CHAT))
    assert result == {"ok": True} and KEY not in str(result.request_id)
    ep = match_endpoint(  # a key of a known shape: the documented placeholder all the same
        "gemini",
        "chat",
        base_url=f"{server.url()}/rid200",
        allow_local_network=True,
        api_key=SHAPED_KEY,
    )
    assert asyncio.run(ep.call(CHAT)).request_id == "<api key redacted>"


def test_a_secret_default_header_is_redacted_too(serve: Callable[..., Server]) -> None:
    token = "orgTokenValue0123456789"

    def app(conn: Conn) -> None:
        _, headers, _ = conn.request()
        echoed = headers.get("x-org-token", "")
        conn.send(response(400, json.dumps({"error": {"message": f"bad {echoed}"}}).encode()))

    server = serve(app)
    ep = match_endpoint(
        "openai",
        "chat",
        base_url=server.url(),
        allow_local_network=True,
        default_headers={"X-Org-Token": token},
    )
    with pytest.raises(APIError) as caught:
        asyncio.run(ep.call(CHAT))
    assert server.seen[0]["headers"]["x-org-token"] == token
    assert token not in str(caught.value) + repr(vars(caught.value))


# --- the bound on attempts, the waits a vendor asks for --------------------------------------------


@pytest.mark.parametrize("attempts", [11, 50])
def test_a_per_call_max_retries_above_the_bound_is_refused(
    serve: Callable[..., Server], attempts: int
) -> None:
    """README: max_retries= (at most 10), as match_endpoint(..., max_retries=11) is refused;
    before, a per-call 50 made 50 attempts."""
    server = serve(replying(503, b"{}"))
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)

    async def no_wait(seconds: float) -> None:
        return None

    async def run() -> None:
        async with ConnectionPool(sleep=no_wait) as pool:
            await ep.call(CHAT, client=pool, max_retries=attempts)

    with pytest.raises(EndpointConfigurationError, match="max_retries"):
        asyncio.run(run())
    with pytest.raises(EndpointConfigurationError, match="max_retries"):
        match_endpoint("openai", "chat", max_retries=attempts)
    assert server.seen == []


async def _waits(ep: Any) -> tuple[list[float], RateLimitError]:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    async with ConnectionPool(sleep=sleep) as pool:
        with pytest.raises(RateLimitError) as caught:
            await ep.call(CHAT, client=pool)
    return slept, caught.value


@pytest.mark.parametrize(("value", "seconds"), [("1.5", 1.5), ("0.25", 0.25), ("2.", 2.0)])
def test_a_decimal_retry_after_is_waited(
    serve: Callable[..., Server], value: str, seconds: float
) -> None:
    """Both official SDKs read Retry-After with float() ("allowing nonstandard floats",
    _parse_retry_after_header); before, a decimal was unreadable and gave the backoff."""
    server = serve(replying(429, b"{}", ("Retry-After", value)))
    ep = match_endpoint(
        "openai", "chat", base_url=server.url(), allow_local_network=True, max_retries=2
    )
    slept, error = asyncio.run(_waits(ep))
    assert error.retry_after == seconds and slept == [seconds]


# --- a connection that hangs is a never-sent connect timeout, tried again --------------------------


@pytest.fixture
def hung_port() -> Iterator[int]:
    """A port whose accept queue is full: a new connection to it hangs, nothing is sent."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    filling = []
    for _ in range(8):
        client = socket.socket()
        client.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            client.connect(("127.0.0.1", port))
        filling.append(client)
    time.sleep(0.2)  # the handshakes of those that fit complete
    yield port
    for client in filling:
        client.close()
    listener.close()


def _hung_call(port: int, **settings: Any) -> tuple[APITimeoutError, list[float]]:
    ep = match_endpoint(
        "openai",
        "chat",
        base_url=f"http://127.0.0.1:{port}/v1",
        allow_local_network=True,
        **settings,
    )
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    async def run() -> None:
        async with ConnectionPool(sleep=sleep) as pool:
            await ep.call(CHAT, client=pool)

    with pytest.raises(APITimeoutError) as caught:
        asyncio.run(run())
    return caught.value, slept


def test_a_connect_that_hangs_is_never_sent_and_tried_again(hung_port: int) -> None:
    """docs/errors-and-retries.md: a connect timeout is always tried again; before, the
    attempt's own timer fired first and the error was not known to be unsent."""
    error, slept = _hung_call(hung_port, timeout=1, max_retries=2)
    assert error.never_sent
    assert len(slept) == 1  # the second attempt was made


def test_the_connect_timeout_is_5_s_within_a_longer_timeout(hung_port: int) -> None:
    """openai-python and anthropic-sdk-python: DEFAULT_TIMEOUT = httpx.Timeout(600, connect=5.0)
    (_constants.py); before, a hung connect took the call's whole timeout."""
    error, _ = _hung_call(hung_port, timeout=30, max_retries=1)
    assert error.never_sent and "no connection within 5 s" in str(error)


# --- Ollama's /api/generate streams unless told not to ---------------------------------------------


def _ollama(conn: Conn) -> None:
    """/api/generate as Ollama answers it: NDJSON unless the body says "stream": false."""
    while True:
        _, _, body = conn.request()
        done = {"model": "llama3", "response": "", "done": True}
        done |= {"prompt_eval_count": 26, "eval_count": 2}
        if json.loads(body).get("stream", True):
            lines = [{"model": "llama3", "response": "Hi!", "done": False}, done]
            ndjson = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
            answer = response(200, ndjson, ("Content-Type", "application/x-ndjson"))
        else:
            answer = response(200, json.dumps({**done, "response": "Hi!"}).encode())
        if not conn.send(answer):
            return


def test_a_call_to_ollama_generate_asks_for_one_answer(serve: Callable[..., Server]) -> None:
    """Ollama's docs/api.md: "Streaming can be disabled by providing {"stream": false}";
    ollama-python's generate() sends stream=False by default. Before, call() sent no stream
    field and returned the raw NDJSON bytes, with no usage."""
    server = serve(_ollama)
    ep = match_endpoint("ollama", "generate", base_url=server.url() + "/api")
    result = asyncio.run(ep.call({"model": "llama3", "prompt": "hi"}))
    assert json.loads(server.seen[0]["body"])["stream"] is False
    assert result["response"] == "Hi!"
    assert result.usage is not None
    assert (result.usage.input_tokens, result.usage.output_tokens) == (26, 2)

    async def stream() -> list[Any]:
        return [event async for event in ep.stream({"model": "llama3", "prompt": "hi"})]

    assert [e["response"] for e in asyncio.run(stream())] == ["Hi!", ""]
    assert json.loads(server.seen[1]["body"])["stream"] is True


# --- a stream held in a with block is closed when the block ends ------------------------------------


def _endless(gone: threading.Event) -> Callable[[Conn], None]:
    """An SSE answer that goes on until the client closes the connection, then sets ``gone``."""

    def app(conn: Conn) -> None:
        conn.request()
        conn.send(response(200, b"", SSE, ("Content-Length", "99999999")))
        for _ in range(2000):
            if not conn.send(b'data: {"choices": [{"delta": {"content": "x"}}]}\n\n'):
                gone.set()
                return
            time.sleep(0.02)

    return app


def test_a_blocking_stream_in_a_with_block_is_closed_when_it_ends(
    serve: Callable[..., Server],
) -> None:
    """docs/streaming.md; before, a held stream left with break kept its connection (and its
    slot in the pool) until close(), and a with block was refused."""
    gone = threading.Event()
    server = serve(_endless(gone))
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)
    with ep.stream_sync(CHAT) as stream:
        for _ in stream:
            break
    assert gone.wait(30)


def test_an_async_stream_in_an_async_with_block_is_closed_when_it_ends(
    serve: Callable[..., Server],
) -> None:
    gone = threading.Event()
    server = serve(_endless(gone))
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)

    async def run() -> None:
        async with ep.stream(CHAT) as stream:
            async for _ in stream:
                break
        # the block has closed the connection: no garbage collection, no loop turn needed
        assert await asyncio.to_thread(gone.wait, 30)

    asyncio.run(run())


# --- a 200 that is an error -------------------------------------------------------------------------

# OpenAI's error body (https://platform.openai.com/docs/guides/error-codes): message, type,
# param, code under "error"
ENVELOPE = {"error": {"message": "model overloaded", "type": "server_error", "code": "overloaded"}}


def test_a_200_whose_body_is_an_error_envelope_raises(serve: Callable[..., Server]) -> None:
    """docs/errors-and-retries.md: InvalidResponseError is a successful status with a body that
    is not what the endpoint speaks; before, call() returned the envelope as a Result (while
    stream() raised the same body as a StreamError)."""
    server = serve(replying(200, json.dumps(ENVELOPE).encode()))
    ep = match_endpoint("openai", "chat", base_url=server.url(), allow_local_network=True)
    with pytest.raises(InvalidResponseError) as caught:
        asyncio.run(ep.call(CHAT))
    error = caught.value
    assert (error.status, error.error_type, error.error_code) == (200, "server_error", "overloaded")
    assert error.vendor_message == "model overloaded"


def test_a_200_answer_that_also_carries_an_error_field_is_an_answer(
    serve: Callable[..., Server],
) -> None:
    """Only a body that is nothing but an error is one: the Responses API's answer has an
    "error" field (null, or the failure of a failed response) beside its output."""
    answer = {"id": "resp_1", "object": "response", "status": "failed", "output": []}
    answer["error"] = {"code": "server_error", "message": "failed"}
    server = serve(replying(200, json.dumps(answer).encode()))
    ep = match_endpoint("openai", "responses", base_url=server.url(), allow_local_network=True)
    result = asyncio.run(ep.call({"model": "m", "input": "hi"}))
    assert result["status"] == "failed"


@pytest.mark.parametrize("named", [True, False])
def test_a_responses_stream_error_event_keeps_its_code(
    serve: Callable[..., Server], named: bool
) -> None:
    """openai-python's ResponseErrorEvent (types/responses/response_error_event.py): type
    "error", code, message, param, sequence_number at the top level. Before, the code was
    dropped, and without an ``event: error`` line the event was yielded as an answer's."""
    event = {
        "type": "error",
        "code": "rate_limit_exceeded",
        "message": "Slow down",
        "param": None,
        "sequence_number": 1,
    }
    body = ("event: error\n" if named else "") + f"data: {json.dumps(event)}\n\n"
    server = serve(replying(200, body.encode(), SSE))
    ep = match_endpoint("openai", "responses", base_url=server.url(), allow_local_network=True)

    async def run() -> None:
        async for _ in ep.stream({"model": "m", "input": "hi"}):
            pass

    with pytest.raises(StreamError) as caught:
        asyncio.run(run())
    error = caught.value
    assert (error.error_code, error.vendor_message) == ("rate_limit_exceeded", "Slow down")
