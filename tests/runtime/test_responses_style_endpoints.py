"""Vendors' Responses-style endpoints that replace their chat completions, end to end against a
loopback server: resolution by key and alias, the documented path, the bearer credential from the
vendor's key variable, the payload, and refusal of a body the endpoint does not take (nothing sent).

Expected values are the vendors' documented facts, each with the page that states it:
- Perplexity: the Agent API is ``POST https://api.perplexity.ai/v1/agent`` (``/v1/responses`` an
  alias), key ``PERPLEXITY_API_KEY``; requests take ``input`` instead of ``messages``
  (https://docs.perplexity.ai/docs/agent-api/openai-compatibility.md,
  https://docs.perplexity.ai/docs/agent-api/migrate-from-sonar/how-to.md); presets run by
  ``effort``, at most 5 fallback ``models`` and ``max_steps`` 1..100 (perplexityai 0.46.1).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from provcat import match_endpoint
from provcat.errors import EndpointConfigurationError

PERPLEXITY_BASE = "https://api.perplexity.ai"
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
    asyncio.run(ep.call(body))
    (request,) = seen
    assert request["path"] == "/v1/agent"
    assert request["headers"]["Authorization"] == f"Bearer {secret}"
    assert json.loads(request["body"]) == body
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
    ep = _perplexity(url, "agent")
    with pytest.raises(EndpointConfigurationError, match=f"perplexity/v1/agent: '{field}"):
        asyncio.run(ep.call(body))
    assert seen == []


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
