"""OpenAI-compatible chat endpoints whose vendor takes only part of OpenAI's fields, end to end
against a loopback server: the vendor's documented fields go through unchanged, the OpenAI fields
it does not take are refused before anything is sent.

Expected values come from the vendors' own pages:
- Ollama: https://github.com/ollama/ollama/blob/main/docs/api/openai-compatibility.mdx lists the
  supported request fields of /v1/chat/completions and marks tool_choice, logit_bias, user and n
  unsupported; reasoning_effort takes "high", "medium", "low", "none".
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from provcat import match_endpoint
from provcat.errors import EndpointConfigurationError

# Ollama's compatibility page, "Supported request fields" of /v1/chat/completions (checked ones).
OLLAMA_SUPPORTED = {
    "model", "messages", "frequency_penalty", "presence_penalty", "response_format", "seed",
    "stop", "stream", "stream_options", "temperature", "top_p", "max_tokens", "tools",
    "reasoning_effort", "reasoning",
}  # fmt: skip
OLLAMA_UNSUPPORTED = ("tool_choice", "logit_bias", "user", "n")


def _ollama(url: str) -> Any:
    return match_endpoint("ollama", "chat", base_url=url + "/v1", allow_local_network=True)


def test_ollama_chat_model_takes_exactly_the_documented_fields() -> None:
    from provcat.providers.ollama.openai_chat import OllamaOpenAIChatRequest

    assert set(OllamaOpenAIChatRequest.model_fields) == OLLAMA_SUPPORTED


def test_ollama_chat_sends_a_documented_body_unchanged(
    server: tuple[str, list[dict[str, Any]]],
) -> None:
    url, seen = server
    ep = _ollama(url)
    assert ep.request_model is not None
    assert ep.request_model.__name__ == "OllamaOpenAIChatRequest"
    body = {
        "model": "llama3.2",
        "messages": [{"role": "user", "content": "Hello!"}],
        "reasoning_effort": "none",
        "stream_options": {"include_usage": True},
        "max_tokens": 64,
    }
    asyncio.run(ep.call(body))
    (request,) = seen
    assert request["path"] == "/v1/chat/completions"
    assert json.loads(request["body"]) == body
    assert "Authorization" not in request["headers"]  # Ollama takes no key


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        *(({name: "x"}, name) for name in OLLAMA_UNSUPPORTED),
        ({"max_completion_tokens": 10}, "max_completion_tokens"),
        ({"logprobs": True}, "logprobs"),
        ({"reasoning_effort": "minimal"}, "reasoning_effort"),
        ({"reasoning": {"effort": "xhigh"}}, "reasoning"),
        ({"stream_options": {"include_obfuscation": True}}, "stream_options"),
    ],
)
def test_ollama_chat_refuses_openai_fields_it_drops_and_sends_nothing(
    extra: dict[str, Any], field: str, server: tuple[str, list[dict[str, Any]]]
) -> None:
    url, seen = server
    body = {"model": "llama3.2", "messages": [{"role": "user", "content": "hi"}], **extra}
    with pytest.raises(EndpointConfigurationError, match=f"ollama/chat/completions: '{field}"):
        asyncio.run(_ollama(url).call(body))
    assert seen == []
