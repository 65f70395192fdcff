"""Which failures a call tries again by default, how many attempts, and the blocking forms.

The classification is issue #25's: an answer by which the server says it did nothing (408, 409,
429, 503, 529) and a request that never reached it are retried for every POST; a failure after
which the vendor may have done the work (500, 502, 504, a timeout after sending) only where the
endpoint's ``idempotent_retries`` is on. 529 is Anthropic's "overloaded_error"
(https://platform.claude.com/docs/en/api/errors); the other statuses are RFC 9110's.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from provcat import match_endpoint
from provcat.endpoints.pool import ConnectionPool
from provcat.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    EndpointConfigurationError,
    RateLimitError,
    ServerError,
)
from tests.runtime.conftest import Records, record
from tests.runtime.test_calls import Script, answer, call, pool_for, sse

ROOT = Path(__file__).resolve().parents[2]
CHAT = {"messages": [{"role": "user", "content": "hi"}]}


@pytest.fixture(autouse=True)
def _keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ALPHA_API_KEY"):
        monkeypatch.setenv(name, "sk-test")


@pytest.mark.parametrize("status", [408, 409, 429, 503, 529])
def test_a_refused_answer_is_retried_for_a_chat_post_by_default(status: int) -> None:
    ep = match_endpoint("openai", "chat")
    assert ep.config.idempotent_retries is False and ep.config.max_retries == 3
    script = Script(answer(status, {"error": {"message": "busy"}}), answer(200, {"id": "ok"}))
    assert call(ep, script, CHAT) == {"id": "ok"}
    assert len(script.requests) == 2 and len(script.slept) == 1


def test_a_refused_answer_is_retried_up_to_max_retries_then_raised() -> None:
    ep = match_endpoint("anthropic", "messages")
    script = Script(answer(529, {"type": "error", "error": {"type": "overloaded_error"}}))
    with pytest.raises(ServerError) as caught:
        call(ep, script, {"model": "m", "max_tokens": 1, "messages": []})
    assert caught.value.status == 529 and caught.value.error_type == "overloaded_error"
    assert len(script.requests) == 3


@pytest.mark.parametrize("status", [500, 502, 504])
def test_a_5xx_that_may_have_done_the_work_is_not_replayed_on_a_chat_call(status: int) -> None:
    ep = match_endpoint("openai", "chat", max_retries=4)
    script = Script(answer(status, {}), answer(200, {"id": "ok"}))
    with pytest.raises(ServerError):
        call(ep, script, CHAT)
    assert len(script.requests) == 1  # one request: the vendor may have billed it


@pytest.mark.parametrize("status", [500, 502, 504])
def test_a_5xx_is_replayed_where_idempotent_retries_is_on(status: int) -> None:
    ep = match_endpoint("openai", "chat", max_retries=4, idempotent_retries=True)
    script = Script(answer(status, {}), answer(200, {"id": "ok"}))
    assert call(ep, script, CHAT) == {"id": "ok"}
    assert len(script.requests) == 2


def test_a_timeout_after_sending_is_not_replayed_but_a_connect_timeout_is() -> None:
    def read_timeout(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    def connect_timeout(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectTimeout("timed out", request=request)

    ep = match_endpoint("openai", "chat", timeout=2)
    script = Script(read_timeout, answer(200, {}))
    with pytest.raises(APITimeoutError):
        call(ep, script, CHAT)
    assert len(script.requests) == 1
    script = Script(connect_timeout, connect_timeout, answer(200, {"id": "ok"}))
    assert call(ep, script, CHAT) == {"id": "ok"}
    assert len(script.requests) == 3


def test_a_name_that_does_not_resolve_is_retried_and_then_raised() -> None:
    lookups: list[str] = []

    async def no_dns(host: str, port: int) -> list[str]:
        lookups.append(host)
        raise httpx.ConnectError(f"cannot resolve {host}: [Errno -2] Name or service not known")

    script = Script(answer(200, {}))

    async def run() -> Any:
        pool = ConnectionPool(
            transport=httpx.MockTransport(script), resolver=no_dns, sleep=script.sleep
        )
        async with pool:
            return await match_endpoint("openai", "chat").call(CHAT, client=pool)

    with pytest.raises(APIConnectionError, match=r"cannot resolve api\.openai\.com") as caught:
        asyncio.run(run())
    assert caught.value.never_sent and lookups == ["api.openai.com"] * 3
    assert script.requests == [] and len(script.slept) == 2


def test_a_429_asking_for_more_than_the_sdks_maximum_is_not_retried_on_a_chat_call() -> None:
    """openai-python 3.57.0's _should_retry refuses a Retry-After above MAX_RETRY_AFTER_DELAY
    (120 s): the error is raised at once, its retry_after saying how long the vendor asked."""
    ep = match_endpoint("openai", "chat")
    script = Script(answer(429, {}, **{"retry-after": "86400"}), answer(200, {"id": "ok"}))
    with pytest.raises(RateLimitError) as caught:
        call(ep, script, CHAT)
    assert caught.value.retry_after == 86400.0
    assert script.slept == [] and len(script.requests) == 1


def test_max_retries_per_call_overrides_the_endpoints() -> None:
    ep = match_endpoint("openai", "chat")
    script = Script(answer(503, {}))
    with pytest.raises(ServerError):
        call(ep, script, CHAT, max_retries=5)
    assert len(script.requests) == 5
    script = Script(answer(503, {}))
    with pytest.raises(ServerError):
        call(ep, script, CHAT, max_retries=1)
    assert len(script.requests) == 1


@pytest.mark.parametrize("bad", [0, -1, True, 2.5, "3"])
def test_a_bad_max_retries_per_call_is_refused_before_any_traffic(bad: Any) -> None:
    script = Script(answer(200, {}))
    with pytest.raises(EndpointConfigurationError, match="total number of attempts"):
        call(match_endpoint("openai", "chat"), script, CHAT, max_retries=bad)
    assert script.requests == []


def test_max_retries_is_set_per_endpoint_in_the_catalog(
    base: Records, use_catalog: Callable[[Records], Any]
) -> None:
    chat = record(base, "alpha")["endpoints"][0]
    assert chat["max_retries"] == 3  # EndpointConfig's default, written by the generator
    chat["max_retries"] = 5
    use_catalog(base)
    ep = match_endpoint("alpha", chat["endpoint"], base_url="https://alpha.example/v1")
    assert ep.config.max_retries == 5
    script = Script(answer(429, {}))

    async def run() -> None:
        async with pool_for(script) as pool:
            await ep.call({"model": "a"}, client=pool)

    with pytest.raises(APIError):
        asyncio.run(run())
    assert len(script.requests) == 5


def test_the_bundled_snapshot_records_max_retries_for_every_endpoint() -> None:
    import provcat_catalog.data as data

    for provider in data.PROVIDERS:
        for ep in provider["endpoints"]:
            assert isinstance(ep["max_retries"], int) and ep["max_retries"] >= 1


# --- the blocking forms ---------------------------------------------------------------------


def test_call_sync_answers_and_retries_as_call_does() -> None:
    script = Script(answer(503, {}), answer(200, {"id": "ok", "usage": {"prompt_tokens": 3}}))
    pool = pool_for(script)
    result = match_endpoint("openai", "chat").call_sync(CHAT, client=pool)
    assert result == {"id": "ok", "usage": {"prompt_tokens": 3}} and result.status_code == 200
    assert len(script.requests) == 2


def test_call_sync_raises_the_typed_error() -> None:
    script = Script(answer(500, {"error": {"message": "boom"}}))
    with pytest.raises(ServerError, match="boom"):
        match_endpoint("openai", "chat").call_sync(CHAT, client=pool_for(script))


def test_call_sync_works_where_an_event_loop_is_already_running() -> None:
    """A notebook runs the caller's code inside its own running loop."""
    script = Script(answer(200, {"id": "ok"}))

    async def notebook_cell() -> Any:
        return match_endpoint("openai", "chat").call_sync(CHAT, client=pool_for(script))

    assert asyncio.run(notebook_cell()) == {"id": "ok"}


def test_stream_sync_yields_the_events_and_closes_when_left_early() -> None:
    script = Script(
        sse(
            'data: {"choices": [{"index": 0, "delta": {"content": "He"}}]}\n\n',
            'data: {"choices": [{"index": 0, "delta": {"content": "llo"}}]}\n\n',
            "data: [DONE]\n\n",
        )
    )
    ep = match_endpoint("openai", "chat")
    events = list(ep.stream_sync(CHAT, client=pool_for(script)))
    assert [e["choices"][0]["delta"]["content"] for e in events] == ["He", "llo"]
    first = next(iter(ep.stream_sync(CHAT, client=pool_for(script))))
    assert first["choices"][0]["delta"]["content"] == "He"


# --- Ctrl-C ----------------------------------------------------------------------------------


class _Hanging(BaseHTTPRequestHandler):
    """Reads a request, sends the start of an answer, then waits until the client goes away."""

    arrived: threading.Event
    closed: threading.Event

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        streaming = self.path.startswith("/stream/")
        self.send_header("Content-Type", "text/event-stream" if streaming else "application/json")
        if not streaming:
            self.send_header("Content-Length", "100000")
        self.end_headers()
        if streaming:
            self.wfile.write(b'data: {"choices": [{"index": 0, "delta": {"content": "x"}}]}\n\n')
        self.wfile.flush()
        type(self).arrived.set()
        self.connection.settimeout(30)
        try:
            while self.connection.recv(1024):
                pass
        except OSError:
            pass
        type(self).closed.set()

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture
def hanging() -> Iterator[tuple[str, type[_Hanging]]]:
    handler = type(
        "Handler", (_Hanging,), {"arrived": threading.Event(), "closed": threading.Event()}
    )
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    finally:
        httpd.shutdown()
        httpd.server_close()


CHILD = """
import signal
import sys

# Ctrl-C raises KeyboardInterrupt, as in a terminal, even when this test runs in a background job
# (whose children inherit SIGINT ignored, and Python then installs no handler)
signal.signal(signal.SIGINT, signal.default_int_handler)

from provcat import match_endpoint

base_url, mode = sys.argv[1], sys.argv[2]
ep = match_endpoint("openai", "chat", base_url=base_url, allow_local_network=True, timeout=60)
try:
    if mode == "call":
        ep.call_sync({"messages": []})
    else:
        for event in ep.stream_sync({"messages": []}):
            print("event", flush=True)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("cancelled", flush=True)
    sys.exit(130)
"""


@pytest.mark.parametrize("mode", ["call", "stream"])
def test_ctrl_c_cancels_a_blocking_call_cleanly(
    mode: str, hanging: tuple[str, type[_Hanging]], tmp_path: Path
) -> None:
    base_url, handler = hanging
    if mode == "stream":
        base_url += "/stream"
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(CHILD))
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, str(script), base_url, mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    try:
        assert handler.arrived.wait(60), child.stderr.read() if child.poll() is not None else ""
        time.sleep(0.2)  # the child is now blocked waiting for the rest of the answer
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=20)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert out.strip().endswith("cancelled") and "finished" not in out
    assert time.monotonic() - sent < 10
    assert "Traceback" not in err and "Task was destroyed" not in err, err
    assert handler.closed.wait(10)  # the connection was closed, not left hanging
