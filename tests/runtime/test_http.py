"""API endpoints at work: URL, headers (bearer / x-api-key / none, key read at call time, default
headers) and payload, sent with httpx to a local server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from provcat import match_endpoint
from provcat.errors import EndpointConfigurationError, ServerError


def test_bearer_call_with_defaults_and_key_read_at_call_time(
    server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = server
    ep = match_endpoint(
        "openai",
        "chat",
        base_url=f"{url}/v1",
        allow_local_network=True,  # this test's server is on 127.0.0.1
        request_defaults={"temperature": 0.2},
    )
    monkeypatch.setenv("OPENAI_API_KEY", "sk-firstkey000000")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-laterkey000000")  # read when the call is made
    result = asyncio.run(ep.call({"messages": [{"role": "user", "content": "hi"}]}))
    assert result == {"ok": True}
    (request,) = seen
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == "Bearer sk-laterkey000000"
    assert json.loads(request["body"]) == {
        "model": "gpt-6.1-terra",
        "temperature": 0.2,
        "messages": [{"role": "user", "content": "hi"}],
    }


def test_x_api_key_and_default_headers(
    server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = server
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-key0000000")
    ep = match_endpoint("anthropic", "messages", base_url=url, allow_local_network=True)
    asyncio.run(ep.call({"model": "claude-x", "max_tokens": 5, "messages": []}))
    headers = seen[0]["headers"]
    assert headers["x-api-key"] == "sk-ant-key0000000"
    assert headers["anthropic-version"] == "2026-10-21"  # the anthropic SDK's since 2.0.0
    assert "Authorization" not in headers


def test_no_auth_for_local_servers(server: tuple[str, list[dict[str, Any]]]) -> None:
    url, seen = server
    ep = match_endpoint("ollama", "generate", base_url=f"{url}/api")
    asyncio.run(ep.call({"model": "llama3", "prompt": "hi"}))
    assert seen[0]["path"] == "/api/generate"
    assert "Authorization" not in seen[0]["headers"] and "x-api-key" not in seen[0]["headers"]


def test_serialize_by_alias(
    server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = server
    monkeypatch.setenv("EXA_API_KEY", "exa-key-000000000")
    ep = match_endpoint("exa", "search", base_url=url, allow_local_network=True)
    asyncio.run(ep.call({"query": "q", "num_results": 3}))
    assert json.loads(seen[0]["body"]) == {"query": "q", "numResults": 3}


def test_multipart_upload(
    server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = server
    monkeypatch.setenv("GROQ_API_KEY", "gsk_key0000000000")
    ep = match_endpoint("groq", "whisper", base_url=url, allow_local_network=True)
    asyncio.run(ep.call({"file": b"RIFF-audio-bytes", "model": "whisper-large-v3"}))
    request = seen[0]
    assert request["headers"]["Content-Type"].startswith("multipart/form-data; boundary=")
    assert b"RIFF-audio-bytes" in request["body"] and b"whisper-large-v3" in request["body"]


def test_missing_key_is_a_clear_error_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    ep = match_endpoint("deepseek", "chat")
    with pytest.raises(EndpointConfigurationError, match="set DEEPSEEK_API_KEY") as caught:
        ep.create_payload({"messages": [{"role": "user", "content": "hi"}]})
    assert caught.value.field == "api_key"


def test_http_errors_surface_and_keys_stay_out_of_them(
    server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = server
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secretkey00000")
    ep = match_endpoint("openai", "chat", base_url=url, path="fail", allow_local_network=True)
    with pytest.raises(ServerError) as caught:
        asyncio.run(ep.call({"messages": []}))
    assert caught.value.status == 500 and caught.value.provider == "openai"
    assert "sk-secretkey00000" not in str(caught.value) + repr(caught.value.__dict__)
    assert len(seen) == 1, "a POST that reached the server is not replayed unless idempotent"


def test_payload_typo_never_reaches_the_wire(
    server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = server
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secretkey00000")
    ep = match_endpoint("openai", "chat", base_url=url, allow_local_network=True)
    with pytest.raises(EndpointConfigurationError):
        asyncio.run(ep.call({"messages": [], "temprature": 0.2}))
    assert seen == []
