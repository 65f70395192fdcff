"""Usage on every chat-like answer by default, a stream's usage once it ends, and estimate_cost
fed a call's result. The bodies and events are the vendors' documented examples (sources beside
each), with counts of our choosing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from provcat import estimate_cost, match_endpoint
from provcat.models.usage import TokenUsage
from tests.runtime.test_calls import Script, answer, call, pool_for, sse


@pytest.fixture(autouse=True)
def _keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "MISTRAL_API_KEY"):
        monkeypatch.setenv(name, "sk-test")


def test_an_anthropic_answer_carries_usage_with_the_default_settings() -> None:
    # https://platform.claude.com/docs/en/api/messages (response example)
    body = {
        "id": "msg_013Zva2CMHLNnXjNJJKqJ2EF",
        "type": "message",
        "role": "assistant",
        "content": [{"type": "text", "text": "Hi! My name is Claude."}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 2095, "output_tokens": 503},
    }
    ep = match_endpoint("anthropic", "messages")
    result = call(ep, Script(answer(200, body)), {"model": "m", "max_tokens": 9, "messages": []})
    assert result.usage == TokenUsage(input_tokens=2095, output_tokens=503)


@pytest.mark.parametrize(("provider", "endpoint"), [("openai", "embeddings"), ("mistral", "embed")])
def test_an_embeddings_answer_carries_usage(provider: str, endpoint: str) -> None:
    # https://platform.openai.com/docs/api-reference/embeddings/object
    body = {"object": "list", "data": [], "usage": {"prompt_tokens": 8, "total_tokens": 8}}
    ep = match_endpoint(provider, endpoint)
    result = call(ep, Script(answer(200, body)), {"input": "x", "model": "m"})
    assert result.usage == TokenUsage(input_tokens=8)


def test_requires_tokens_off_leaves_usage_unset() -> None:
    body = {"usage": {"prompt_tokens": 8, "completion_tokens": 1}}
    ep = match_endpoint("openai", "chat", requires_tokens=False)
    assert call(ep, Script(answer(200, body)), {"messages": []}).usage is None


def test_estimate_cost_takes_a_calls_result() -> None:
    body = {"usage": {"prompt_tokens": 1000, "completion_tokens": 100}}
    result = call(match_endpoint("openai", "chat"), Script(answer(200, body)), {"messages": []})
    by_result = estimate_cost("openai", "gpt-6.1-terra", result)
    assert by_result == estimate_cost(
        "openai", "gpt-6.1-terra", {"input_tokens": 1000, "output_tokens": 100}
    )
    silent = call(match_endpoint("openai", "chat"), Script(answer(200, {"id": "x"})))
    with pytest.raises(TypeError, match="Result carries no usage"):
        estimate_cost("openai", "gpt-6.1-terra", silent)


# https://platform.openai.com/docs/api-reference/chat-streaming (the last chunk, sent with
# stream_options.include_usage, has empty choices and the usage)
OPENAI_CHAT_STREAM = (
    'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,'
    '"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}],"usage":null}\n\n',
    'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,'
    '"delta":{"content":"lo"},"finish_reason":"stop"}],"usage":null}\n\n',
    'data: {"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":9,'
    '"completion_tokens":2,"total_tokens":11,"prompt_tokens_details":{"cached_tokens":0}}}\n\n',
    "data: [DONE]\n\n",
)


def test_a_chat_stream_asks_for_usage_and_has_it_once_ended() -> None:
    script = Script(sse(*OPENAI_CHAT_STREAM))
    ep = match_endpoint("openai", "chat")

    async def run() -> tuple[Any, list[Any], Any]:
        async with pool_for(script) as pool:
            stream = ep.stream({"messages": []}, client=pool)
            before = stream.usage
            events = [event async for event in stream]
            return before, events, stream.usage

    before, events, usage = asyncio.run(run())
    assert before is None and len(events) == 3
    assert usage == TokenUsage(input_tokens=9, output_tokens=2, cache_read_tokens=0)
    sent = json.loads(script.requests[0].content)
    assert sent["stream"] is True and sent["stream_options"] == {"include_usage": True}


def test_a_callers_stream_options_are_kept() -> None:
    script = Script(sse(*OPENAI_CHAT_STREAM))
    ep = match_endpoint("openai", "chat")
    stream = ep.stream_sync(
        {"messages": [], "stream_options": {"include_usage": False}}, client=pool_for(script)
    )
    assert len(list(stream)) == 3
    assert json.loads(script.requests[0].content)["stream_options"] == {"include_usage": False}
    assert stream.usage == TokenUsage(input_tokens=9, output_tokens=2, cache_read_tokens=0)


def test_an_anthropic_stream_has_its_usage_once_ended() -> None:
    # https://platform.claude.com/docs/en/build-with-claude/streaming (basic streaming request)
    script = Script(
        sse(
            "event: message_start\n"
            'data: {"type":"message_start","message":{"id":"msg_1","type":"message",'
            '"role":"assistant","content":[],"model":"claude-x","stop_reason":null,'
            '"usage":{"input_tokens":25,"output_tokens":1}}}\n\n',
            "event: content_block_start\n"
            'data: {"type":"content_block_start","index":0,"content_block":{"type":"text",'
            '"text":""}}\n\n',
            "event: content_block_delta\n"
            'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta",'
            '"text":"Hello"}}\n\n',
            'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
            "event: message_delta\n"
            'data: {"type":"message_delta","delta":{"stop_reason":"end_turn",'
            '"stop_sequence":null},"usage":{"output_tokens":15}}\n\n',
            'event: message_stop\ndata: {"type":"message_stop"}\n\n',
        )
    )
    ep = match_endpoint("anthropic", "messages")
    stream = ep.stream_sync(
        {"model": "m", "max_tokens": 9, "messages": []}, client=pool_for(script)
    )
    assert len(list(stream)) == 6
    assert stream.usage == TokenUsage(input_tokens=25, output_tokens=15)
