"""One text stream over each chat-like protocol, fed recorded vendor streams.

Each recording is written from the vendor's documented example stream (the page beside it), cut
to the events that matter and with the vendor's own field names and order; the expected deltas
are what those pages say the events mean (text pieces, a tool call's id, name and argument
pieces, the stop reason, the usage).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from provcat import Delta, TokenUsage, match_endpoint, text_stream, text_stream_sync
from tests.runtime.test_calls import Script, answer, pool_for, sse


@pytest.fixture(autouse=True)
def _keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.setenv(name, "sk-test")


def data(event: dict[str, Any], name: str | None = None) -> str:
    head = f"event: {name}\n" if name else ""
    return f"{head}data: {json.dumps(event)}\n\n"


def summary(deltas: list[Delta]) -> dict[str, Any]:
    """What a user assembles from the deltas: the text, each tool call, the end."""
    calls: dict[int, dict[str, Any]] = {}
    for d in deltas:
        if d.kind == "tool_call":
            assert d.tool_index is not None
            call = calls.setdefault(
                d.tool_index, {"id": d.tool_id, "name": d.tool_name, "args": ""}
            )
            assert (call["id"], call["name"]) == (d.tool_id, d.tool_name)  # repeated on each
            call["args"] += d.arguments
    end = deltas[-1]
    assert end.kind == "end" and all(d.kind != "end" for d in deltas[:-1])
    return {
        "text": "".join(d.text for d in deltas if d.kind == "text"),
        "reasoning": "".join(d.text for d in deltas if d.kind == "reasoning"),
        "tools": [
            {"id": c["id"], "name": c["name"], "arguments": json.loads(c["args"])}
            for _, c in sorted(calls.items())
        ],
        "stop": end.stop_reason,
        "usage": end.usage,
    }


# https://platform.openai.com/docs/guides/function-calling#streaming (the tool-call chunks) and
# https://platform.openai.com/docs/api-reference/chat-streaming (the usage chunk)
OPENAI_CHAT = [
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [
            {
                "index": 0,
                "delta": {"role": "assistant", "content": "Let me check."},
                "finish_reason": None,
            }
        ],
    },
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [
            {
                "index": 0,
                "delta": {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_DdmO9pD3xa9XTPNJ32zg2hcA",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": ""},
                        }
                    ]
                },
                "finish_reason": None,
            }
        ],
    },
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [
            {
                "index": 0,
                "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '{"'}}]},
                "finish_reason": None,
            }
        ],
    },
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [
            {
                "index": 0,
                "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "location"}}]},
                "finish_reason": None,
            }
        ],
    },
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [
            {
                "index": 0,
                "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '":"'}}]},
                "finish_reason": None,
            }
        ],
    },
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [
            {
                "index": 0,
                "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "Paris, France"}}]},
                "finish_reason": None,
            }
        ],
    },
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [
            {
                "index": 0,
                "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '"}'}}]},
                "finish_reason": None,
            }
        ],
    },
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
    },
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [],
        "usage": {"prompt_tokens": 82, "completion_tokens": 18, "total_tokens": 100},
    },
]


def test_an_openai_chat_stream_through_the_endpoint() -> None:
    script = Script(sse(*(data(e) for e in OPENAI_CHAT), "data: [DONE]\n\n"))
    ep = match_endpoint("openai", "chat")
    deltas = list(ep.stream_text_sync({"messages": []}, client=pool_for(script)))
    assert summary(deltas) == {
        "text": "Let me check.",
        "reasoning": "",
        "tools": [
            {
                "id": "call_DdmO9pD3xa9XTPNJ32zg2hcA",
                "name": "get_weather",
                "arguments": {"location": "Paris, France"},
            }
        ],
        "stop": "tool_calls",
        "usage": TokenUsage(input_tokens=82, output_tokens=18),
    }
    assert deltas[0].event == OPENAI_CHAT[0]  # the raw event stays available


# https://platform.claude.com/docs/en/build-with-claude/streaming ("Streaming request with tool
# use": a text block, then a tool_use block whose input arrives as partial JSON)
ANTHROPIC = [
    (
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": "msg_014p7gG3wDgGV9EUtLvnow3U",
                "type": "message",
                "role": "assistant",
                "model": "claude-x",
                "stop_sequence": None,
                "usage": {"input_tokens": 472, "output_tokens": 2},
                "content": [],
                "stop_reason": None,
            },
        },
    ),
    (
        "content_block_start",
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    ),
    ("ping", {"type": "ping"}),
    (
        "content_block_delta",
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": "Okay"},
        },
    ),
    (
        "content_block_delta",
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": ", let's check the weather."},
        },
    ),
    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
    (
        "content_block_start",
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {
                "type": "tool_use",
                "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
                "name": "get_weather",
                "input": {},
            },
        },
    ),
    (
        "content_block_delta",
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": ""},
        },
    ),
    (
        "content_block_delta",
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": '{"location":'},
        },
    ),
    (
        "content_block_delta",
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {
                "type": "input_json_delta",
                "partial_json": ' "San Francisco, CA", "unit": "fahrenheit"}',
            },
        },
    ),
    ("content_block_stop", {"type": "content_block_stop", "index": 1}),
    (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 89},
        },
    ),
    ("message_stop", {"type": "message_stop"}),
]


def test_an_anthropic_stream_through_the_endpoint() -> None:
    script = Script(sse(*(data(e, name) for name, e in ANTHROPIC)))
    ep = match_endpoint("anthropic", "messages")

    async def run() -> list[Delta]:
        async with pool_for(script) as pool:
            request = {"model": "m", "max_tokens": 9, "messages": []}
            return [d async for d in ep.stream_text(request, client=pool)]

    assert summary(asyncio.run(run())) == {
        "text": "Okay, let's check the weather.",
        "reasoning": "",
        "tools": [
            {
                "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
                "name": "get_weather",
                "arguments": {"location": "San Francisco, CA", "unit": "fahrenheit"},
            }
        ],
        "stop": "tool_use",
        "usage": TokenUsage(input_tokens=472, output_tokens=89),
    }


# https://platform.openai.com/docs/api-reference/responses-streaming (response.output_text.delta,
# response.output_item.added, response.function_call_arguments.delta, response.completed)
RESPONSES = [
    {
        "type": "response.created",
        "sequence_number": 0,
        "response": {"id": "resp_1", "status": "in_progress", "usage": None},
    },
    {
        "type": "response.output_item.added",
        "sequence_number": 1,
        "output_index": 0,
        "item": {"id": "msg_1", "type": "message", "role": "assistant", "content": []},
    },
    {
        "type": "response.output_text.delta",
        "sequence_number": 2,
        "item_id": "msg_1",
        "output_index": 0,
        "content_index": 0,
        "delta": "Hi",
    },
    {
        "type": "response.output_text.delta",
        "sequence_number": 3,
        "item_id": "msg_1",
        "output_index": 0,
        "content_index": 0,
        "delta": " there",
    },
    {
        "type": "response.output_item.added",
        "sequence_number": 4,
        "output_index": 1,
        "item": {
            "id": "fc_1",
            "type": "function_call",
            "status": "in_progress",
            "arguments": "",
            "call_id": "call_1",
            "name": "get_weather",
        },
    },
    {
        "type": "response.function_call_arguments.delta",
        "sequence_number": 5,
        "item_id": "fc_1",
        "output_index": 1,
        "delta": '{"location": "Pa',
    },
    {
        "type": "response.function_call_arguments.delta",
        "sequence_number": 6,
        "item_id": "fc_1",
        "output_index": 1,
        "delta": 'ris"}',
    },
    {
        "type": "response.completed",
        "sequence_number": 7,
        "response": {
            "id": "resp_1",
            "status": "completed",
            "usage": {
                "input_tokens": 36,
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens": 87,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": 123,
            },
        },
    },
]


def test_an_openai_responses_stream_through_the_endpoint() -> None:
    script = Script(sse(*(data(e, e["type"]) for e in RESPONSES)))
    ep = match_endpoint("openai", "responses")
    deltas = list(ep.stream_text_sync({"model": "m", "input": "hi"}, client=pool_for(script)))
    assert summary(deltas) == {
        "text": "Hi there",
        "reasoning": "",
        "tools": [{"id": "call_1", "name": "get_weather", "arguments": {"location": "Paris"}}],
        "stop": "completed",
        "usage": TokenUsage(
            input_tokens=36, output_tokens=87, cache_read_tokens=0, reasoning_tokens=0
        ),
    }


# https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent (each chunk a
# GenerateContentResponse; thought parts with "thought": true; usageMetadata on every chunk)
GEMINI = [
    {
        "candidates": [
            {
                "content": {
                    "parts": [{"text": "Thinking about it", "thought": True}],
                    "role": "model",
                },
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 9,
            "candidatesTokenCount": 0,
            "thoughtsTokenCount": 4,
        },
    },
    {
        "candidates": [{"content": {"parts": [{"text": "The sky"}], "role": "model"}, "index": 0}],
        "usageMetadata": {
            "promptTokenCount": 9,
            "candidatesTokenCount": 2,
            "thoughtsTokenCount": 4,
        },
    },
    {
        "candidates": [
            {
                "content": {
                    "parts": [
                        {"text": " is blue."},
                        {
                            "functionCall": {
                                "name": "find_theaters",
                                "args": {"location": "Mountain View, CA"},
                            }
                        },
                    ],
                    "role": "model",
                },
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 9,
            "candidatesTokenCount": 7,
            "thoughtsTokenCount": 4,
            "totalTokenCount": 20,
        },
    },
]

# https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion (streaming
# response lines; the last has done: true with the counts) and its tool-calling example
OLLAMA = [
    {
        "model": "llama3.2",
        "created_at": "2023-08-04T08:52:19.385406455-07:00",
        "message": {"role": "assistant", "content": "The"},
        "done": False,
    },
    {
        "model": "llama3.2",
        "created_at": "2023-08-04T08:52:19.385406455-07:00",
        "message": {
            "role": "assistant",
            "content": " sky",
            "tool_calls": [
                {
                    "function": {
                        "name": "get_current_weather",
                        "arguments": {"format": "celsius", "location": "Paris, FR"},
                    }
                }
            ],
        },
        "done": False,
    },
    {
        "model": "llama3.2",
        "created_at": "2023-08-04T19:22:45.499127Z",
        "message": {"role": "assistant", "content": ""},
        "done": True,
        "done_reason": "stop",
        "total_duration": 4883583458,
        "prompt_eval_count": 26,
        "prompt_eval_duration": 342546000,
        "eval_count": 282,
        "eval_duration": 4535599000,
    },
]


async def _replay(events: list[Any]) -> AsyncIterator[Any]:
    for event in events:
        yield event


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        (
            GEMINI,
            {
                "text": "The sky is blue.",
                "reasoning": "Thinking about it",
                "tools": [
                    {
                        "id": None,
                        "name": "find_theaters",
                        "arguments": {"location": "Mountain View, CA"},
                    }
                ],
                "stop": "STOP",
                "usage": TokenUsage(
                    input_tokens=9, output_tokens=11, reasoning_tokens=4
                ),  # candidates + thoughts
            },
        ),
        (
            OLLAMA,
            {
                "text": "The sky",
                "reasoning": "",
                "tools": [
                    {
                        "id": None,
                        "name": "get_current_weather",
                        "arguments": {"format": "celsius", "location": "Paris, FR"},
                    }
                ],
                "stop": "stop",
                "usage": TokenUsage(input_tokens=26, output_tokens=282),
            },
        ),
    ],
    ids=["gemini", "ollama"],
)
def test_gemini_and_ollama_streams(events: list[Any], expected: dict[str, Any]) -> None:
    async def run() -> list[Delta]:
        return [d async for d in text_stream(_replay(events))]

    assert summary(asyncio.run(run())) == expected
    assert summary(list(text_stream_sync(events))) == expected


def test_a_stream_with_no_usage_ends_with_none_and_unknown_events_are_skipped() -> None:
    deltas = list(text_stream_sync([{"type": "ping"}, "keep-alive", {"something": "else"}]))
    assert deltas == [Delta("end")]


def test_an_error_event_still_raises_through_the_text_stream() -> None:
    from provcat.errors import StreamError

    script = Script(
        sse(
            data(ANTHROPIC[0][1], "message_start"),
            data(
                {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
                "error",
            ),
        )
    )
    ep = match_endpoint("anthropic", "messages")
    with pytest.raises(StreamError, match="Overloaded"):
        list(
            ep.stream_text_sync(
                {"model": "m", "max_tokens": 9, "messages": []}, client=pool_for(script)
            )
        )


def test_a_status_error_before_the_text_stream_is_typed() -> None:
    from provcat.errors import BadRequestError

    script = Script(answer(400, {"error": {"message": "bad"}}))
    with pytest.raises(BadRequestError):
        list(
            match_endpoint("openai", "chat").stream_text_sync(
                {"messages": []}, client=pool_for(script)
            )
        )


def test_a_chunk_whose_error_is_null_is_a_normal_chunk() -> None:
    # the openai SDK raises only when a chunk's "error" is set (openai 3.57.0, _streaming.py:
    # Stream.__stream__ tests `data.get("error")`); some compatible servers send "error": null
    chunk = {
        "id": "c",
        "object": "chat.completion.chunk",
        "error": None,
        "choices": [{"index": 0, "delta": {"content": "Hello"}, "finish_reason": "stop"}],
    }
    script = Script(sse(data(chunk), "data: [DONE]\n\n"))
    deltas = list(
        match_endpoint("openai", "chat").stream_text_sync({"messages": []}, client=pool_for(script))
    )
    assert summary(deltas)["text"] == "Hello"


def test_a_refusal_is_its_own_delta_in_chat_and_responses_streams() -> None:
    # Chat Completions streams a refusal in `delta.refusal` (openai 3.57.0,
    # lib/streaming/chat/_completions.py emits "refusal.delta"); Responses in its
    # `response.refusal.delta` event (types/responses/response_refusal_delta_event.py)
    chat = [
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {"role": "assistant", "refusal": "I can't "}}],
        },
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "choices": [
                {"index": 0, "delta": {"refusal": "help with that."}, "finish_reason": "stop"}
            ],
        },
    ]
    responses = [
        {
            "type": "response.refusal.delta",
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "delta": "I can't ",
            "sequence_number": 3,
        },
        {
            "type": "response.refusal.delta",
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "delta": "help with that.",
            "sequence_number": 4,
        },
        {"type": "response.completed", "response": {"status": "completed"}},
    ]
    for events in (chat, responses):
        deltas = list(text_stream_sync(events))
        assert [d.kind for d in deltas] == ["refusal", "refusal", "end"]
        assert "".join(d.text for d in deltas) == "I can't help with that."
        assert summary(deltas)["text"] == ""


def test_a_mistral_stream_of_content_chunks_gives_text_and_reasoning() -> None:
    # Mistral's reasoning models stream `delta.content` as a list of chunks: a ThinkChunk
    # {"type": "thinking", "thinking": [TextChunk...]} and TextChunks (mistralai 3.7.0,
    # client/models/deltamessage.py: content is str | list[ContentChunk]; thinkchunk.py)
    events = [
        {
            "id": "m",
            "object": "chat.completion.chunk",
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "role": "assistant",
                        "content": [
                            {
                                "type": "thinking",
                                "thinking": [
                                    {"type": "text", "text": "The user "},
                                    {"type": "text", "text": "greets me."},
                                ],
                            }
                        ],
                    },
                    "finish_reason": None,
                }
            ],
        },
        {
            "id": "m",
            "object": "chat.completion.chunk",
            "choices": [
                {
                    "index": 0,
                    "delta": {"content": [{"type": "text", "text": "Hello "}]},
                    "finish_reason": None,
                }
            ],
        },
        {
            "id": "m",
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {"content": "there!"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 9, "total_tokens": 14},
        },
    ]
    found = summary(list(text_stream_sync(events)))
    assert (found["reasoning"], found["text"]) == ("The user greets me.", "Hello there!")
    assert found["usage"] == TokenUsage(input_tokens=5, output_tokens=9)


def test_a_groq_stream_reports_the_usage_groq_sends_in_x_groq(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Groq's last chunk carries the stream's usage in `x_groq.usage` ("Usage information for
    # the stream. Only sent in the final chunk": groq 1.7.0, types/chat/chat_completion_chunk.py)
    from provcat import estimate_cost

    monkeypatch.setenv("GROQ_API_KEY", "gsk-test")
    chunks = [
        {
            "id": "g",
            "object": "chat.completion.chunk",
            "x_groq": {"id": "req_1"},
            "choices": [
                {"index": 0, "delta": {"role": "assistant", "content": "Hi"}, "finish_reason": None}
            ],
        },
        {
            "id": "g",
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            "x_groq": {
                "id": "req_1",
                "usage": {"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19},
            },
        },
    ]
    script = Script(sse(*(data(c) for c in chunks), "data: [DONE]\n\n"))
    ep = match_endpoint("groq", "chat")
    request = {"model": "openai/gpt-oss-120b", "messages": []}
    with ep.stream_sync(request, client=pool_for(script)) as stream:
        deltas = list(text_stream_sync(stream))
    assert deltas[-1].usage == TokenUsage(input_tokens=12, output_tokens=7)
    assert stream.usage == TokenUsage(input_tokens=12, output_tokens=7)
    assert estimate_cost("groq", "openai/gpt-oss-120b", stream).total > 0
