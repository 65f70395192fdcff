"""Vendors' Responses-style endpoints that replace their chat completions, end to end against a
loopback server: resolution by key and alias, the documented path, the bearer credential from the
vendor's key variable, the payload, and refusal of a body the endpoint does not take (nothing sent).

Expected values are the vendors' documented facts, each with the page that states it:
- Perplexity: the Agent API is ``POST https://api.perplexity.ai/v1/agent`` (``/v1/responses`` an
  alias), key ``PERPLEXITY_API_KEY``; requests take ``input`` instead of ``messages``
  (https://docs.perplexity.ai/docs/agent-api/openai-compatibility.md,
  https://docs.perplexity.ai/docs/agent-api/migrate-from-sonar/how-to.md); presets run by
  ``effort``, at most 5 fallback ``models`` and ``max_steps`` 1..100 (perplexityai 0.46.1).
- xAI: ``POST https://api.x.ai/v1/responses``, key ``XAI_API_KEY``
  (https://docs.x.ai/developers/quickstart); the body's fields, which are required, and the bounds
  are transcribed below from xAI's OpenAPI spec (``ModelRequest`` in
  https://github.com/xai-org/xai-sdk-ts/blob/main/spec/openapi.json at commit 41e766a).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from provcat import match_endpoint
from tests.runtime.exchange import refused, sent_unchanged

PERPLEXITY_BASE = "https://api.perplexity.ai"
XAI_BASE = "https://api.x.ai/v1"
XAI_KEY = "XAI_API_KEY"

# xAI's OpenAPI spec, ModelRequest: every property, and the required ones.
XAI_SPEC_FIELDS = {
    "background", "context_management", "include", "input", "instructions", "logprobs",
    "max_output_tokens", "max_turns", "metadata", "min_p", "model", "parallel_tool_calls",
    "previous_response_id", "prompt_cache_key", "reasoning", "reasoning_effort",
    "safety_identifier", "search_parameters", "service_tier", "store", "stream", "temperature",
    "text", "tool_choice", "tools", "top_k", "top_logprobs", "top_p", "truncation", "user",
}  # fmt: skip
XAI_SPEC_REQUIRED = {"input"}
# Left out: what the spec marks unsupported or "only maintained for compatibility" (xAI accepts
# and ignores it), and context_management, "parsed but not yet executed".
XAI_LEFT_OUT = {"background", "context_management", "metadata", "truncation"}
PERPLEXITY_KEY = "PERPLEXITY_API_KEY"


def _perplexity(url: str, endpoint: str) -> Any:
    return match_endpoint(
        "perplexity",
        endpoint,
        base_url=url + urlsplit(PERPLEXITY_BASE).path,
        allow_local_network=True,  # the loopback server stands in for the vendor
    )


@pytest.mark.parametrize("name", ["v1/agent", "agent", "responses"])
def test_perplexity_agent_api_posts_input_to_v1_agent(
    name: str, server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = server
    secret = "pplx-sentinel-0123456789abcdef"
    monkeypatch.setenv(PERPLEXITY_KEY, secret)
    ep = _perplexity(url, name)
    assert ep.config.provider == "perplexity" and ep.config.endpoint == "v1/agent"
    assert ep.request_model is not None and ep.request_model.__name__ == "PerplexityAgentRequest"
    body = {
        "input": "What changed in the Agent API this month?",
        "effort": "low",
        "tools": [{"type": "web_search", "filters": {"search_recency_filter": "month"}}],
        "max_steps": 3,
    }
    request = sent_unchanged(ep, body, seen, "/v1/agent")
    assert request["headers"]["Authorization"] == f"Bearer {secret}"
    assert secret not in repr(ep) + repr(ep.config)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        # a Sonar chat body: the Agent API takes input, not messages
        ({"model": "sonar", "messages": [{"role": "user", "content": "hi"}]}, "input"),
        ({"input": "hi", "messages": []}, "messages"),
        # more than 5 fallback models
        ({"input": "hi", "models": [f"openai/m{i}" for i in range(6)]}, "models"),
        # max_steps above 100
        ({"input": "hi", "max_steps": 101}, "max_steps"),
        # a reasoning effort the SDK does not list
        ({"input": "hi", "reasoning": {"effort": "ultra"}}, "reasoning"),
    ],
)
def test_perplexity_agent_api_refuses_a_body_it_does_not_take_and_sends_nothing(
    body: dict[str, Any],
    field: str,
    server: tuple[str, list[dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, seen = server
    monkeypatch.setenv(PERPLEXITY_KEY, "pplx-sentinel-0123456789abcdef")
    refused(_perplexity(url, "agent"), body, seen, f"perplexity/v1/agent: '{field}")


def test_perplexity_preset_is_deprecated_in_favour_of_effort() -> None:
    from provcat.providers.perplexity.agent import PerplexityAgentRequest

    request = PerplexityAgentRequest(input="hi", preset="fast")
    with pytest.warns(DeprecationWarning, match="effort"):
        assert request.preset == "fast"


def test_the_retired_sonar_chat_endpoint_still_resolves_and_says_it_is_retired() -> None:
    import provcat_catalog

    record = next(p for p in provcat_catalog.PROVIDERS if p["provider"] == "perplexity")
    chat = next(e for e in record["endpoints"] if e["endpoint"] == "chat/completions")
    assert "Retired" in chat["description"] and "v1/agent" in chat["description"]


def test_xai_responses_model_has_exactly_the_spec_fields_xai_acts_on() -> None:
    from provcat.providers.xai.responses import XaiReasoning, XaiResponsesRequest

    fields = XaiResponsesRequest.model_fields
    assert set(fields) == XAI_SPEC_FIELDS - XAI_LEFT_OUT
    assert {name for name, f in fields.items() if f.is_required()} == XAI_SPEC_REQUIRED
    # ReasoningConfiguration: effort, plus summary/generate_summary "only for compatibility"
    assert set(XaiReasoning.model_fields) == {"effort"}


def test_xai_responses_resolves_and_posts_to_v1_responses(
    server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = server
    secret = "xai-sentinel-0123456789abcdef"
    monkeypatch.setenv(XAI_KEY, secret)
    ep = match_endpoint(
        "xai", "response", base_url=url + urlsplit(XAI_BASE).path, allow_local_network=True
    )
    assert ep.config.endpoint == "responses"
    assert ep.request_model is not None and ep.request_model.__name__ == "XaiResponsesRequest"
    body = {
        "model": "grok-4.3",
        "input": [{"role": "user", "content": "What is 101*3?"}],
        "search_parameters": {"mode": "auto", "sources": [{"type": "x"}]},
        "max_turns": 2,
    }
    request = sent_unchanged(ep, body, seen, "/v1/responses")
    assert request["headers"]["Authorization"] == f"Bearer {secret}"
    assert secret not in repr(ep) + repr(ep.config)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        # a Chat Completions body: Responses takes input, not messages
        ({"model": "grok-4.3", "messages": [{"role": "user", "content": "hi"}]}, "input"),
        # OpenAI-only Responses fields xAI does not take
        ({"input": "hi", "conversation": "conv_1"}, "conversation"),
        ({"input": "hi", "prompt": {"id": "pmpt_1"}}, "prompt"),
        # bounds from xAI's spec
        ({"input": "hi", "top_logprobs": 9}, "top_logprobs"),
        ({"input": "hi", "search_parameters": {"max_search_results": 31}}, "search_parameters"),
        ({"input": "hi", "search_parameters": {"sources": [{"type": "rss"}]}}, "search_parameters"),
        ({"input": "hi", "service_tier": "flex"}, "service_tier"),
        # accepted by xAI only for compatibility, then ignored
        ({"input": "hi", "truncation": "auto"}, "truncation"),
        ({"input": "hi", "reasoning": {"summary": "auto"}}, "reasoning"),
    ],
)
def test_xai_responses_refuses_what_xai_does_not_take_and_sends_nothing(
    body: dict[str, Any],
    field: str,
    server: tuple[str, list[dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, seen = server
    monkeypatch.setenv(XAI_KEY, "xai-sentinel-0123456789abcdef")
    ep = match_endpoint(
        "xai", "responses", base_url=url + urlsplit(XAI_BASE).path, allow_local_network=True
    )
    refused(ep, body, seen, f"xai/responses: '{field}")
