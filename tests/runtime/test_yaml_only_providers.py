"""Six real OpenAI-compatible providers declared in YAML alone, end to end against a loopback
server: resolution, payload, the bearer credential from the vendor's key variable, the path.

Expected values are the vendors' documented facts (base URL, key variable), each with the page
that states it, not read back from our catalog.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any
from urllib.parse import urlsplit

import provcat_catalog
import pytest

from provcat import match_endpoint, resolve
from provcat.endpoints.registry import EndpointRegistry
from provcat.errors import EndpointDeprecated
from tests.runtime.conftest import Recorder

# provider -> (documented base URL, documented API-key variable, source)
DOCUMENTED = {
    "mistral": (
        "https://api.mistral.ai/v1",
        "MISTRAL_API_KEY",
        "https://docs.mistral.ai/getting-started/quickstarts/developer/first-api-request",
    ),
    "together": (
        "https://api.together.ai/v1",
        "TOGETHER_API_KEY",
        "https://docs.together.ai/docs/inference/openai-compatibility",
    ),
    "fireworks": (
        "https://api.fireworks.ai/inference/v1",
        "FIREWORKS_API_KEY",
        "https://docs.fireworks.ai/getting-started/quickstart",
    ),
    "xai": ("https://api.x.ai/v1", "XAI_API_KEY", "https://docs.x.ai/developers/quickstart"),
    "cerebras": (
        "https://api.cerebras.ai/v1",
        "CEREBRAS_API_KEY",
        "https://inference-docs.cerebras.ai/resources/openai",
    ),
    "deepinfra": (
        "https://api.deepinfra.com/v1/openai",
        "DEEPINFRA_TOKEN",
        "https://docs.deepinfra.com/account/authentication",
    ),
}


# The request model each endpoint validates with: the vendor's own where it has one (compared with
# the vendor's SDK by tests/drift), else the shared OpenAI model of the protocol.
CHAT_MODEL = {
    "cerebras": "CerebrasChatRequest",
    "deepinfra": "ChatCompletionsRequest",
    "fireworks": "FireworksChatRequest",
    "mistral": "MistralChatRequest",
    "together": "TogetherChatRequest",
    "xai": "XaiChatRequest",
}
EMBED_MODEL = {
    "deepinfra": "EmbeddingsRequest",
    "fireworks": "EmbeddingsRequest",
    "mistral": "MistralEmbeddingsRequest",
    "together": "TogetherEmbeddingsRequest",
}


@pytest.fixture
def chat_server(server: tuple[str, list[dict[str, Any]]]) -> tuple[str, list[dict[str, Any]]]:
    """The loopback server, answering like a chat completions endpoint."""
    Recorder.reply = {"object": "chat.completion", "choices": []}
    return server


def _record(provider: str) -> dict[str, Any]:
    return next(dict(p) for p in provcat_catalog.PROVIDERS if p["provider"] == provider)


@pytest.mark.parametrize("provider", sorted(DOCUMENTED))
def test_the_provider_has_no_python_and_its_documented_facts(provider: str) -> None:
    base_url, key_env, _source = DOCUMENTED[provider]
    record = _record(provider)
    assert record["module"] is None
    for endpoint in record["endpoints"]:
        assert endpoint["class"] is None and endpoint["protocol"] is not None
        assert endpoint["base_url"] == base_url
        assert endpoint["api_key_env"] == key_env and endpoint["auth_type"] == "bearer"
    [row] = [r for r in EndpointRegistry.list_providers() if r["provider"] == provider]
    assert row["availability"] == "available"


@pytest.mark.parametrize("provider", sorted(DOCUMENTED))
def test_chat_resolves_builds_its_payload_and_calls_a_loopback_server(
    provider: str, chat_server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = chat_server
    base_url, key_env, _source = DOCUMENTED[provider]
    secret = f"sk-{provider}-sentinel-0123456789"
    monkeypatch.setenv(key_env, secret)
    deprecated = resolve(provider, "chat").lifecycle is not None  # xAI's, in favour of responses
    with pytest.warns(EndpointDeprecated) if deprecated else contextlib.nullcontext():
        ep = match_endpoint(
            f" {provider.upper()} ",
            "chat",
            base_url=url + urlsplit(base_url).path,
            allow_local_network=True,  # the loopback server stands in for the vendor
        )
    assert type(ep).__module__ == "provcat.endpoints.protocols"  # a class derived for this endpoint
    assert ep.config.provider == provider
    assert ep.request_model is not None and ep.request_model.__name__ == CHAT_MODEL[provider]
    messages = [{"role": "user", "content": "hi"}]
    payload = ep.payload({"messages": messages})
    default_model = _record(provider)["endpoints"][0]["request_defaults"]["model"]
    assert payload == {"model": default_model, "messages": messages}
    result = asyncio.run(ep.call({"messages": messages, "temperature": 0.1}))
    assert result == {"object": "chat.completion", "choices": []}
    (request,) = seen
    assert request["path"] == urlsplit(base_url).path + "/chat/completions"
    assert request["headers"]["Authorization"] == f"Bearer {secret}"
    assert json.loads(request["body"]) == {
        "model": default_model,
        "messages": messages,
        "temperature": 0.1,
    }
    assert secret not in repr(ep) + repr(ep.config)


@pytest.mark.parametrize("provider", ["mistral", "fireworks", "deepinfra", "together"])
def test_embeddings_speak_the_embeddings_protocol(
    provider: str, server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = server
    base_url, key_env, _source = DOCUMENTED[provider]
    monkeypatch.setenv(key_env, "sk-sentinel-0123456789")
    ep = match_endpoint(
        provider, "embed", base_url=url + urlsplit(base_url).path, allow_local_network=True
    )
    assert ep.request_model is not None and ep.request_model.__name__ == EMBED_MODEL[provider]
    asyncio.run(ep.call({"input": "hello", "model": "m"}))
    assert seen[0]["path"] == urlsplit(base_url).path + "/embeddings"
    assert json.loads(seen[0]["body"]) == {"input": "hello", "model": "m"}
