"""The bundled catalog describes lionagi 0.36.0's 18 production providers and 37 endpoints
(the lionagi inventory, §2, §3, §3.1, §5), with the ADR's deliberate changes. Providers added
since (YAML-only ones) are tested in tests/runtime/test_yaml_only_providers.py."""

from __future__ import annotations

import importlib
from typing import Any

import provcat_catalog
import pytest
from pydantic import BaseModel

from provcat.endpoints.agentic import AgenticEndpoint
from provcat.endpoints.endpoint import Endpoint
from provcat.endpoints.protocols import PROTOCOLS

PROVIDER_ALIASES = {
    "openai": (),
    "codex": ("openai-codex",),
    "anthropic": (),
    "claude_code": ("claude", "claude-code"),
    "ollama": (),
    "lattice": (),
    "tavily": (),
    "exa": (),
    "firecrawl": (),
    "perplexity": (),
    "nvidia_nim": ("nim", "nvidia"),
    "deepseek": (),
    "gemini": ("gemini-api",),
    "gemini_code": ("gemini-cli", "gemini-code", "gemini_cli"),
    "groq": (),
    "pi": ("pi-code", "pi_code"),
    "openrouter": ("open-router",),
    "ag2": ("autogen",),
}

# (provider, endpoint) -> (aliases, type, base_url, auth_type, api_key_env); inventory §3, with
# the two self-aliases dropped (openrouter chat/completions, ollama generate).
ENDPOINTS: dict[tuple[str, str], tuple[tuple[str, ...], str, str | None, str, str | None]] = {
    ("openai", "chat/completions"): (
        ("chat",),
        "api",
        "https://api.openai.com/v1",
        "bearer",
        "OPENAI_API_KEY",
    ),
    ("codex", "query_cli"): (("cli", "code"), "agentic", None, "none", None),
    ("openai", "audio/speech"): (
        ("tts",),
        "api",
        "https://api.openai.com/v1",
        "bearer",
        "OPENAI_API_KEY",
    ),
    ("openai", "audio/transcriptions"): (
        ("stt", "whisper"),
        "api",
        "https://api.openai.com/v1",
        "bearer",
        "OPENAI_API_KEY",
    ),
    ("openai", "batches"): (
        ("batch",),
        "api",
        "https://api.openai.com/v1",
        "bearer",
        "OPENAI_API_KEY",
    ),
    ("openai", "images/generations"): (
        ("dalle", "image"),
        "api",
        "https://api.openai.com/v1",
        "bearer",
        "OPENAI_API_KEY",
    ),
    ("openai", "images/edits"): (
        ("image_edit",),
        "api",
        "https://api.openai.com/v1",
        "bearer",
        "OPENAI_API_KEY",
    ),
    ("openai", "embeddings"): (
        ("embed",),
        "api",
        "https://api.openai.com/v1",
        "bearer",
        "OPENAI_API_KEY",
    ),
    ("openai", "responses"): (
        ("response",),
        "api",
        "https://api.openai.com/v1",
        "bearer",
        "OPENAI_API_KEY",
    ),
    ("anthropic", "messages"): (
        ("chat",),
        "api",
        "https://api.anthropic.com/v1",
        "x-api-key",
        "ANTHROPIC_API_KEY",
    ),
    ("claude_code", "query_cli"): (("cli", "code"), "agentic", None, "none", None),
    ("ollama", "chat/completions"): (("chat",), "api", "http://localhost:11434/v1", "none", None),
    ("ollama", "embeddings"): (("embed",), "api", "http://localhost:11434/api", "none", None),
    ("ollama", "generate"): (("completion",), "api", "http://localhost:11434/api", "none", None),
    ("lattice", "chat/completions"): (("chat",), "api", "http://127.0.0.1:8080/v1", "none", None),
    ("lattice", "embeddings"): (("embed",), "api", "http://127.0.0.1:8080/v1", "none", None),
    ("tavily", "search"): ((), "api", "https://api.tavily.com", "bearer", "TAVILY_API_KEY"),
    ("tavily", "extract"): ((), "api", "https://api.tavily.com", "bearer", "TAVILY_API_KEY"),
    ("exa", "search"): ((), "api", "https://api.exa.ai", "x-api-key", "EXA_API_KEY"),
    ("exa", "contents"): (
        ("get_contents",),
        "api",
        "https://api.exa.ai",
        "x-api-key",
        "EXA_API_KEY",
    ),
    ("exa", "findSimilar"): (
        ("find_similar", "similar"),
        "api",
        "https://api.exa.ai",
        "x-api-key",
        "EXA_API_KEY",
    ),
    ("firecrawl", "v2/scrape"): (
        ("scrape",),
        "api",
        "https://api.firecrawl.dev",
        "bearer",
        "FIRECRAWL_API_KEY",
    ),
    ("firecrawl", "v2/map"): (
        ("map",),
        "api",
        "https://api.firecrawl.dev",
        "bearer",
        "FIRECRAWL_API_KEY",
    ),
    ("firecrawl", "v2/crawl"): (
        ("crawl",),
        "api",
        "https://api.firecrawl.dev",
        "bearer",
        "FIRECRAWL_API_KEY",
    ),
    ("perplexity", "chat/completions"): (
        ("chat",),
        "api",
        "https://api.perplexity.ai",
        "bearer",
        "PERPLEXITY_API_KEY",
    ),
    # not in lionagi: the Agent API, which replaced Sonar chat completions on 2026-09-27
    # (https://docs.perplexity.ai/docs/agent-api/openai-compatibility.md: POST /v1/agent)
    ("perplexity", "v1/agent"): (
        ("agent", "responses"),
        "api",
        "https://api.perplexity.ai",
        "bearer",
        "PERPLEXITY_API_KEY",
    ),
    ("nvidia_nim", "chat/completions"): (
        ("chat",),
        "api",
        "https://integrate.api.nvidia.com/v1",
        "bearer",
        "NVIDIA_NIM_API_KEY",
    ),
    ("nvidia_nim", "embeddings"): (
        ("embed",),
        "api",
        "https://integrate.api.nvidia.com/v1",
        "bearer",
        "NVIDIA_NIM_API_KEY",
    ),
    ("deepseek", "chat/completions"): (
        ("chat",),
        "api",
        "https://api.deepseek.com/v1",
        "bearer",
        "DEEPSEEK_API_KEY",
    ),
    ("gemini", "chat/completions"): (
        ("chat",),
        "api",
        "https://generativelanguage.googleapis.com/v1beta/openai",
        "bearer",
        "GEMINI_API_KEY",
    ),
    ("gemini_code", "query_cli"): (("cli",), "agentic", None, "none", None),
    ("groq", "chat/completions"): (
        ("chat",),
        "api",
        "https://api.groq.com/openai/v1",
        "bearer",
        "GROQ_API_KEY",
    ),
    ("groq", "audio/transcriptions"): (
        ("stt", "whisper"),
        "api",
        "https://api.groq.com/openai/v1",
        "bearer",
        "GROQ_API_KEY",
    ),
    ("pi", "query_cli"): (("cli", "code"), "agentic", None, "none", None),
    ("openrouter", "chat/completions"): (
        ("chat",),
        "api",
        "https://openrouter.ai/api/v1",
        "bearer",
        "OPENROUTER_API_KEY",
    ),
    ("ag2", "group_chat"): (("chat", "groupchat"), "agentic", None, "none", None),
    ("ag2", "agent"): (("ask", "beta"), "agentic", None, "none", None),
    ("ag2", "nlip"): (("nlip_remote", "remote"), "agentic", None, "none", None),
}

# §3.1: defaults the classes applied, now explicit catalog data; those whose models the vendors
# deprecated or retired moved to current models with the inventory (issue #12)
REQUEST_DEFAULTS = {
    ("openai", "chat/completions"): {"model": "gpt-6.1-terra"},
    ("openai", "embeddings"): {"model": "text-embedding-3-small"},
    ("nvidia_nim", "chat/completions"): {"model": "meta/llama-3.3-70b-instruct"},
    ("nvidia_nim", "embeddings"): {"model": "nvidia/nv-embed-v1"},
    ("deepseek", "chat/completions"): {"model": "deepseek-flash"},
    ("gemini", "chat/completions"): {"model": "gemini-3.8-flash"},
    ("groq", "chat/completions"): {"model": "openai/gpt-oss-120b"},
    ("openrouter", "chat/completions"): {"model": "google/gemini-3.1-flash-lite"},
}
TIMEOUT_120 = {
    ("openai", "audio/speech"),
    ("openai", "audio/transcriptions"),
    ("openai", "images/generations"),
    ("openai", "images/edits"),
    ("tavily", "search"),
    ("tavily", "extract"),
    ("exa", "search"),
    ("exa", "contents"),
    ("exa", "findSimilar"),
    ("firecrawl", "v2/scrape"),
    ("firecrawl", "v2/map"),
    ("firecrawl", "v2/crawl"),
    ("groq", "audio/transcriptions"),
}
REQUIRES_TOKENS = {
    ("openai", "chat/completions"),
    ("openai", "embeddings"),
    ("openai", "responses"),
    ("perplexity", "chat/completions"),
    ("perplexity", "v1/agent"),
    ("nvidia_nim", "chat/completions"),
    ("deepseek", "chat/completions"),
    ("gemini", "chat/completions"),
    ("groq", "chat/completions"),
    ("openrouter", "chat/completions"),
}
IDEMPOTENT = {("openai", "batches"), ("openai", "images/generations"), ("openai", "images/edits")}
BY_ALIAS = {k for k in ENDPOINTS if k[0] in ("exa", "firecrawl", "lattice")}


def _lionagi() -> list[Any]:
    """The bundled providers that lionagi 0.36.0 has."""
    return [p for p in provcat_catalog.PROVIDERS if p["provider"] in PROVIDER_ALIASES]


def _endpoints() -> dict[tuple[str, str], Any]:
    return {(p["provider"], e["endpoint"]): e for p in _lionagi() for e in p["endpoints"]}


def test_providers_and_their_aliases() -> None:
    found = {p["provider"]: p["aliases"] for p in _lionagi()}
    assert len(found) == 18
    assert found == {k: tuple(sorted(v)) for k, v in PROVIDER_ALIASES.items()}
    assert "scripted" not in found, "scripted is test-only"


def test_the_global_provider_key_space_is_lionagis_minus_scripted() -> None:
    keys = "openai, codex, openai-codex, anthropic, claude_code, claude-code, claude, ollama, lattice, tavily, exa, firecrawl, perplexity, nvidia_nim, nvidia, nim, deepseek, gemini, gemini-api, gemini_code, gemini-code, gemini_cli, gemini-cli, groq, pi, pi-code, pi_code, openrouter, open-router, ag2, autogen"
    ours = [k for k, v in provcat_catalog.PROVIDER_INDEX.items() if v in PROVIDER_ALIASES]
    assert sorted(ours) == sorted(keys.split(", "))


def test_endpoints_aliases_types_urls_and_auth() -> None:
    found = {
        key: (e["aliases"], e["type"], e["base_url"], e["auth_type"], e["api_key_env"])
        for key, e in _endpoints().items()
    }
    assert found == {k: (tuple(sorted(v[0])), *v[1:]) for k, v in ENDPOINTS.items()}
    assert len(found) == 38


def test_config_facts_of_section_3_1() -> None:
    for key, e in _endpoints().items():
        agentic = e["type"] == "agentic"
        assert e["request_defaults"] == REQUEST_DEFAULTS.get(key, {}), key
        assert e["timeout"] == (3600 if agentic else 120 if key in TIMEOUT_120 else 600), key
        # lionagi's requires_tokens endpoints say so in the YAML; since issue #25 every API
        # endpoint parses the usage its answers report by default
        assert e["requires_tokens"] == (not agentic), key
        assert key not in REQUIRES_TOKENS or not agentic, key
        assert e["idempotent_retries"] == (key in IDEMPOTENT), key
        assert e["serialize_by_alias"] == (key in BY_ALIAS), key
        assert e["method"] == "POST"
    # lionagi sends 2023-06-01; the catalog follows the anthropic SDK (2.0+) to 2026-10-21
    assert _endpoints()[("anthropic", "messages")]["default_headers"] == {
        "anthropic-version": "2026-10-21"
    }


def test_self_aliases_are_dropped_and_the_yaml_says_so() -> None:
    from tests.conftest import ROOT

    for provider, endpoint in (("openrouter", "chat/completions"), ("ollama", "generate")):
        assert endpoint not in _endpoints()[(provider, endpoint)]["aliases"]
        text = (ROOT / "catalog" / "providers" / f"{provider}.yaml").read_text(encoding="utf-8")
        assert f"Dropped the self-alias '{endpoint}'" in text


@pytest.mark.parametrize("key", sorted(ENDPOINTS))
def test_each_class_and_request_model_is_real(key: tuple[str, str]) -> None:
    e = _endpoints()[key]
    assert (e["class"] is None) != (e["protocol"] is None), "exactly one of class and protocol"
    if e["class"] is not None:
        module, _, name = e["class"].partition(":")
        cls = getattr(importlib.import_module(module), name)
        assert issubclass(cls, AgenticEndpoint) == (e["type"] == "agentic")
    else:
        assert e["protocol"] in PROTOCOLS and e["type"] == "api"
        module, _, name = PROTOCOLS[e["protocol"]].implementation.partition(":")
        cls = getattr(importlib.import_module(module), name)
    assert issubclass(cls, Endpoint)
    module, _, name = e["request_options"].partition(":")
    model = getattr(importlib.import_module(module), name)
    assert issubclass(model, BaseModel)
    assert model.model_config.get("extra") == "forbid"
    doc = importlib.import_module(module).__doc__ or ""
    assert "Source: http" in doc, f"{module} names no source URL"


def test_every_class_serves_exactly_one_endpoint() -> None:
    classes = [e["class"] for e in _endpoints().values() if e["class"] is not None]
    assert len(classes) == len(set(classes))


def test_no_endpoint_class_is_an_empty_subclass() -> None:
    """Shapes that endpoints share are protocols; a class of its own must add behaviour."""
    for e in _endpoints().values():
        if e["class"] is None:
            continue
        module, _, name = e["class"].partition(":")
        cls = getattr(importlib.import_module(module), name)
        own = {k for k in vars(cls) if not k.startswith("__") and k != "_ENDPOINT_META"}
        assert own, f"{e['class']} adds nothing: use a protocol"


def test_model_policies_of_section_5() -> None:
    policies = {p["provider"]: p["policy"] for p in _lionagi() if p["policy"]}
    assert provcat_catalog.MODEL_ALIAS_INDEX == {
        "claude": "claude_code/sonnet",
        "claude-code": "claude_code/sonnet",
        "claude_code": "claude_code/sonnet",
        "codex": "codex/gpt-5.3-codex-spark",
        "gemini-code": "gemini_code/gemini-4-argon",
        "gemini_code": "gemini_code/gemini-4-argon",
        "gemini-cli": "gemini_code/gemini-4-argon",
        "gemini_cli": "gemini_code/gemini-4-argon",
        # gemini-2.5-flash was shut down on 2026-12-01 (issue #12)
        "pi": "pi/gemini-3.8-flash",
        "pi-code": "pi/gemini-3.8-flash",
        "pi_code": "pi/gemini-3.8-flash",
    }
    assert policies["claude_code"]["effort_kwarg"] == "effort"
    assert policies["codex"]["effort_kwarg"] == "reasoning_effort"
    assert policies["pi"]["effort_kwarg"] == "thinking"
    assert policies["gemini_code"]["effort_mode"] == "model_name"
    assert policies["gemini"]["effort_mode"] == "none"
    assert policies["claude_code"]["yolo_kwargs"] == {"permission_mode": "bypassPermissions"}
    assert policies["codex"]["yolo_kwargs"] == {"full_auto": True, "skip_git_repo_check": True}
    assert policies["codex"]["bypass_kwargs"] == {
        "bypass_approvals": True,
        "skip_git_repo_check": True,
    }
    assert policies["codex"]["fast_kwargs"] == {"fast_mode": True}
    assert policies["gemini_code"]["bypass_kwargs"] == {"yolo": True}
    assert policies["pi"]["yolo_kwargs"] == {"no_tools": False}
    assert [p for p, v in policies.items() if v["fast_kwargs"]] == ["codex"]
