"""OpenAI-compatible chat endpoints whose vendor takes only part of OpenAI's fields, end to end
against a loopback server: the vendor's documented fields go through unchanged, the OpenAI fields
it does not take are refused before anything is sent.

Expected values come from the vendors' own pages:
- Ollama: https://github.com/ollama/ollama/blob/main/docs/api/openai-compatibility.mdx lists the
  supported request fields of /v1/chat/completions and marks tool_choice, logit_bias, user and n
  unsupported; reasoning_effort takes "high", "medium", "low", "none".
- xAI: the ChatRequest schema of xAI's REST OpenAPI spec
  (https://github.com/xai-org/xai-sdk-ts/blob/main/spec/openapi.json, commit 41e766a), whose
  properties and bounds are transcribed below.
- Gemini: https://ai.google.dev/gemini-api/docs/openai ("Thinking" and "extra_body") sends Gemini
  settings as ``{"extra_body": {"google": {...}}}`` in the JSON body: ``cached_content`` and
  ``thinking_config`` (``thinking_budget``, ``thinking_level``, ``include_thoughts``), and says
  ``reasoning_effort`` and ``thinking_config`` cannot be used at the same time;
  https://ai.google.dev/gemini-api/docs/thinking says a request may not carry both
  ``thinking_level`` and ``thinking_budget``.
"""

from __future__ import annotations

from typing import Any

import pytest

from provcat import match_endpoint
from provcat.errors import EndpointDeprecated
from tests.runtime.exchange import refused, sent_unchanged

# Ollama's compatibility page, "Supported request fields" of /v1/chat/completions (checked ones).
OLLAMA_SUPPORTED = {
    "model", "messages", "frequency_penalty", "presence_penalty", "response_format", "seed",
    "stop", "stream", "stream_options", "temperature", "top_p", "max_tokens", "tools",
    "reasoning_effort", "reasoning",
}  # fmt: skip
OLLAMA_UNSUPPORTED = ("tool_choice", "logit_bias", "user", "n")

# xAI's spec, ChatRequest properties; logit_bias is "(Unsupported)" and web_search_options "only
# included for compatibility", so the model leaves both out.
XAI_CHAT_SPEC = {
    "deferred", "frequency_penalty", "logit_bias", "logprobs", "max_completion_tokens",
    "max_tokens", "messages", "model", "n", "parallel_tool_calls", "presence_penalty",
    "prompt_cache_key", "reasoning_effort", "response_format", "safety_identifier",
    "search_parameters", "seed", "service_tier", "stop", "stream", "stream_options",
    "temperature", "tool_choice", "tools", "top_logprobs", "top_p", "user", "web_search_options",
}  # fmt: skip
XAI_CHAT_LEFT_OUT = {"logit_bias", "web_search_options"}


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
    request = sent_unchanged(ep, body, seen, "/v1/chat/completions")
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
    refused(_ollama(url), body, seen, f"ollama/chat/completions: '{field}")


def test_xai_chat_model_takes_the_spec_fields_xai_acts_on() -> None:
    from provcat.providers.xai.chat import XaiChatRequest

    assert set(XaiChatRequest.model_fields) == XAI_CHAT_SPEC - XAI_CHAT_LEFT_OUT


def _xai(url: str) -> Any:
    with pytest.warns(EndpointDeprecated, match="successor 'responses'"):  # xAI prefers responses
        return match_endpoint("xai", "chat", base_url=url + "/v1", allow_local_network=True)


def test_xai_chat_sends_live_search_and_a_deferred_request(
    server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = server
    monkeypatch.setenv("XAI_API_KEY", "xai-sentinel-0123456789abcdef")
    body = {
        "model": "grok-4.3",
        "messages": [{"role": "user", "content": "Headlines?"}],
        "search_parameters": {"mode": "on", "sources": [{"type": "news", "country": "BE"}]},
        "deferred": True,
        "service_tier": "priority",
    }
    sent_unchanged(_xai(url), body, seen, "/v1/chat/completions")


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"logit_bias": {"1": 5}}, "logit_bias"),
        ({"web_search_options": {}}, "web_search_options"),
        ({"audio": {"voice": "alloy", "format": "mp3"}}, "audio"),
        ({"store": True}, "store"),
        ({"top_logprobs": 9}, "top_logprobs"),
        ({"stop": ["a", "b", "c", "d", "e"]}, "stop"),
        ({"service_tier": "flex"}, "service_tier"),
        ({"stream_options": {}}, "stream_options"),
    ],
)
def test_xai_chat_refuses_what_xai_does_not_take_and_sends_nothing(
    extra: dict[str, Any],
    field: str,
    server: tuple[str, list[dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, seen = server
    monkeypatch.setenv("XAI_API_KEY", "xai-sentinel-0123456789abcdef")
    body = {"model": "grok-4.3", "messages": [{"role": "user", "content": "hi"}], **extra}
    refused(_xai(url), body, seen, f"xai/chat/completions: '{field}")


def test_xai_chat_max_tokens_is_deprecated_in_favour_of_max_completion_tokens() -> None:
    from provcat.providers.xai.chat import XaiChatRequest

    request = XaiChatRequest(model="grok-4.3", messages=[], max_tokens=10)
    with pytest.warns(DeprecationWarning, match="max_completion_tokens"):
        assert request.max_tokens == 10


def _gemini(url: str) -> Any:
    return match_endpoint(
        "gemini", "chat", base_url=url + "/v1beta/openai", allow_local_network=True
    )


# The request bodies of Google's page, with the openai SDK's outer extra_body merged away.
GEMINI_DOCUMENTED_BODIES = [
    {"extra_body": {"google": {"cached_content": "cachedContents/XXX"}}},
    {
        "extra_body": {
            "google": {"thinking_config": {"thinking_budget": 800, "include_thoughts": True}}
        }
    },
    {"extra_body": {"google": {"thinking_config": {"thinking_level": "low"}}}},
    {"reasoning_effort": "low"},
]


@pytest.mark.parametrize("extra", GEMINI_DOCUMENTED_BODIES)
def test_gemini_chat_sends_googles_extra_body_unchanged(
    extra: dict[str, Any],
    server: tuple[str, list[dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, seen = server
    monkeypatch.setenv("GEMINI_API_KEY", "gemini-sentinel-0123456789abcdef")
    body = {
        "model": "gemini-3.8-flash",
        "messages": [{"role": "user", "content": "Explain to me how AI works"}],
        **extra,
    }
    sent_unchanged(_gemini(url), body, seen, "/v1beta/openai/chat/completions")


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (
            {
                "reasoning_effort": "low",
                "extra_body": {"google": {"thinking_config": {"thinking_budget": 0}}},
            },
            "reasoning_effort and extra_body.google.thinking_config",
        ),
        (
            {
                "extra_body": {
                    "google": {"thinking_config": {"thinking_budget": 0, "thinking_level": "low"}}
                }
            },
            "thinking_budget and thinking_level",
        ),
        ({"extra_body": {"google": {"thinking_confg": {}}}}, "thinking_confg"),
        ({"extra_body": {"gogle": {}}}, "gogle"),
        (
            {"extra_body": {"google": {"thinking_config": {"thinking_level": "max"}}}},
            "'minimal', 'low', 'medium' or 'high'",
        ),
        ({"extra_body": {"google": {"thinking_config": {"thinking_budget": -2}}}}, "-1"),
    ],
)
def test_gemini_chat_refuses_conflicting_or_misspelled_settings_and_sends_nothing(
    extra: dict[str, Any],
    words: str,
    server: tuple[str, list[dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, seen = server
    monkeypatch.setenv("GEMINI_API_KEY", "gemini-sentinel-0123456789abcdef")
    body = {"model": "gemini-3.8-flash", "messages": [{"role": "user", "content": "hi"}], **extra}
    error = refused(_gemini(url), body, seen, "gemini/chat/completions")
    assert words in str(error)
    assert "gemini-sentinel" not in str(error)
