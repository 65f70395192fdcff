"""The README's calling example runs as written against a local stand-in for a chat API."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest

from tests.conftest import ROOT


class _ChatAPI(BaseHTTPRequestHandler):
    """Answers chat completions as the OpenAI-compatible APIs do: JSON, SSE when asked, and a 429
    under /busy."""

    requests: ClassVar[list[dict[str, Any]]] = []  # what was asked (a test swaps in its own)

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(request)
        if "/busy/" in self.path:
            body = json.dumps({"error": {"message": "Rate limit exceeded", "type": "rate_limit"}})
            self._send(429, "application/json", body.encode(), {"Retry-After": "2"})
        elif request.get("stream"):
            chunks = [{"choices": [{"delta": {"content": word}}]} for word in ("Hi", " there")]
            events = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
            self._send(200, "text/event-stream", events.encode())
        else:
            body = {
                "choices": [{"message": {"role": "assistant", "content": "Hi there"}}],
                "usage": {"prompt_tokens": 9, "completion_tokens": 2, "total_tokens": 11},
            }
            self._send(200, "application/json", json.dumps(body).encode())

    def _send(
        self, status: int, kind: str, body: bytes, extra: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture
def chat_api() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _ChatAPI)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _example(name: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- example: {name} -->\n```python\n(.*?)```", text, re.S)
    assert found, f"README has no example {name!r}"
    return found.group(1)


def test_the_calling_example(
    chat_api: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MISTRAL_API_KEY", "sk-readme-example-000000")
    namespace: dict[str, Any] = {}
    exec(compile(_example("calling"), "README.md", "exec"), namespace)
    asyncio.run(namespace["main"](chat_api))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Hi there TokenUsage(input_tokens=9, output_tokens=2")
    assert lines[1] == "Hi there"
    assert lines[2] == "RateLimitError 429 2.0 Rate limit exceeded"


def test_the_imodel_example_calls_through_its_endpoint(
    chat_api: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MISTRAL_API_KEY", "sk-readme-example-000000")
    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(_ChatAPI, "requests", seen)
    namespace: dict[str, Any] = {}
    exec(compile(_example("imodel"), "README.md", "exec"), namespace)
    assert namespace["ask"](chat_api) == "Hi there"
    assert [(r["model"], r["temperature"]) for r in seen] == [("mistral-small-latest", 0.2)]
