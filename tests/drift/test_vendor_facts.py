"""The vendor drift found on 2026-12-01, each item checked against the vendor's own page or SDK.

Expected values come from the cited vendor sources, not from provcat's output.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import get_args

import provcat_catalog
import pytest
from pydantic import ValidationError

from provcat import match_endpoint
from provcat.errors import EndpointNotFound
from tests.conftest import ROOT


def _endpoint(provider: str, endpoint: str) -> dict[str, object]:
    for p in provcat_catalog.PROVIDERS:
        if p["provider"] == provider:
            for e in p["endpoints"]:
                if e["endpoint"] == endpoint:
                    return dict(e)
    raise KeyError(f"{provider}/{endpoint}")


# --- Firecrawl: v1 is legacy; the API is served under /v2/ --------------------------------------
# Source: https://docs.firecrawl.dev/migrate-to-v2 ("API: use the new https://api.firecrawl.dev/v2/
# endpoints"; extract/jsonOptions became {type: "json", prompt, schema} format objects).


@pytest.mark.parametrize("name", ["scrape", "map", "crawl"])
def test_firecrawl_endpoints_are_the_v2_ones(name: str) -> None:
    assert match_endpoint("firecrawl", name).url == f"https://api.firecrawl.dev/v2/{name}"
    with pytest.raises(EndpointNotFound, match=f"has no endpoint 'v1/{name}'"):
        match_endpoint("firecrawl", f"v1/{name}")


@pytest.mark.parametrize(
    ("module", "cls", "v1_field"),
    [
        ("scrape", "FirecrawlScrapeRequest", "jsonOptions"),
        ("scrape", "FirecrawlScrapeRequest", "parsePDF"),
        ("scrape", "FirecrawlScrapeRequest", "changeTrackingOptions"),
        ("crawl", "FirecrawlCrawlRequest", "maxDepth"),
        ("crawl", "FirecrawlCrawlRequest", "allowBackwardLinks"),
        ("crawl", "FirecrawlCrawlRequest", "ignoreSitemap"),
        ("map", "FirecrawlMapRequest", "sitemapOnly"),
        ("map", "FirecrawlMapRequest", "useIndex"),
    ],
)
def test_firecrawl_v1_only_fields_are_rejected(module: str, cls: str, v1_field: str) -> None:
    import importlib

    model = getattr(importlib.import_module(f"provcat.providers.firecrawl.{module}"), cls)
    with pytest.raises(ValidationError, match=v1_field):
        model.model_validate({"url": "https://example.com", v1_field: True})


def test_firecrawl_v2_takes_format_objects() -> None:
    from provcat.providers.firecrawl.scrape import FirecrawlScrapeRequest

    body = {
        "url": "https://example.com",
        "formats": ["markdown", {"type": "json", "prompt": "the prices"}],
        "onlyMainContent": False,
    }
    request = FirecrawlScrapeRequest.model_validate(body)
    assert request.model_dump(by_alias=True, exclude_none=True) == body


# --- Exa: the category enum ---------------------------------------------------------------------


def test_exa_categories_are_exa_pys() -> None:
    from exa_py.api import Category

    from provcat.providers.exa.search import ExaCategory

    assert set(get_args(ExaCategory)) == set(get_args(Category))


@pytest.mark.parametrize("gone", ["tweet", "research paper", "pdf", "github"])
def test_exa_rejects_categories_it_does_not_list(gone: str) -> None:
    from provcat.providers.exa.search import ExaSearchRequest

    with pytest.raises(ValidationError, match="category"):
        ExaSearchRequest.model_validate({"query": "q", "category": gone})


def test_exa_publication_is_the_research_paper_category() -> None:
    # Source: https://exa.ai/blog/publications-search ("Research paper search is available
    # through the Exa API using the Publication category"), 2026-07-23.
    from provcat.providers.exa.search import ExaSearchRequest

    assert ExaSearchRequest(query="q", category="publication").category == "publication"


# --- DeepSeek: three thinking tiers -------------------------------------------------------------
# Source: https://api-docs.deepseek.com/guides/thinking_mode ("Requested effort | Actual mapped
# effort": minimal->low, low->low, medium->high, high->high, xhigh->high, max->max, ultra->max).
DEEPSEEK_GUIDE = {
    "minimal": "low",
    "low": "low",
    "medium": "high",
    "high": "high",
    "xhigh": "high",
    "max": "max",
    "ultra": "max",
}


def test_deepseek_effort_tiers_match_the_thinking_mode_guide() -> None:
    from provcat.providers.deepseek.chat import EFFORT_TIERS, DeepSeekChatRequest, DeepSeekEffort

    assert dict(EFFORT_TIERS) == DEEPSEEK_GUIDE
    assert set(get_args(DeepSeekEffort)) == set(DEEPSEEK_GUIDE)
    description = DeepSeekChatRequest.model_fields["reasoning_effort"].description or ""
    assert "three tiers" in description
    assert "minimal/low -> low" in description and "max/ultra -> max" in description


def test_deepseek_rejects_an_effort_the_guide_does_not_list() -> None:
    from provcat.providers.deepseek.chat import DeepSeekChatRequest

    base = {"model": "deepseek-v4-flash", "messages": [{"role": "user", "content": "hi"}]}
    assert DeepSeekChatRequest(**base, reasoning_effort="ultra").reasoning_effort == "ultra"
    with pytest.raises(ValidationError, match="reasoning_effort"):
        DeepSeekChatRequest.model_validate({**base, "reasoning_effort": "none"})


# --- OpenAI Responses: prompt (reusable prompt objects) is deprecated ---------------------------
# Source: https://developers.openai.com/api/docs/guides/prompting/migrate-from-prompt-object
MIGRATION = "https://developers.openai.com/api/docs/guides/prompting/migrate-from-prompt-object"


def test_responses_prompt_is_marked_deprecated_with_the_migration_guide() -> None:
    from provcat.providers.openai.responses import ResponsesRequest

    info = ResponsesRequest.model_fields["prompt"]
    assert MIGRATION in str(info.deprecated)
    assert ResponsesRequest.model_json_schema()["properties"]["prompt"]["deprecated"] is True
    request = ResponsesRequest.model_validate({"prompt": {"id": "pmpt_1"}})  # still accepted
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert request.prompt is not None
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)


# --- Anthropic: the sampling parameters are deprecated API parameters ---------------------------
# Source: https://platform.claude.com/docs/en/about-claude/model-deprecations#api-parameter-deprecations
# (the anthropic SDK dropped temperature/top_p/top_k in 1.0; models with sampling options still
# take them).
ANTHROPIC_DEPRECATIONS = (
    "https://platform.claude.com/docs/en/about-claude/model-deprecations#api-parameter-deprecations"
)


@pytest.mark.parametrize("name", ["temperature", "top_k", "top_p"])
def test_anthropic_sampling_parameters_are_marked_deprecated(name: str) -> None:
    from provcat.endpoints.protocols.anthropic_messages import MessagesRequest

    assert ANTHROPIC_DEPRECATIONS in str(MessagesRequest.model_fields[name].deprecated)
    assert MessagesRequest.model_json_schema()["properties"][name]["deprecated"] is True
    request = MessagesRequest.model_validate(
        {"model": "m", "max_tokens": 1, "messages": [], name: 0.5 if name != "top_k" else 5}
    )
    assert request.model_dump(exclude_none=True)[name] in (0.5, 5)  # still sent when set


# --- Anthropic: API version 2026-10-21 ----------------------------------------------------------
# Source: https://platform.claude.com/docs/en/api/migration-2026-10-21 ("If you call the API
# without an SDK, set the anthropic-version header to 2026-10-21"; the Python SDK sends it from
# 2.0.0). Under it, the sampling parameters, a document block in an assistant message and
# citations on a user message's text block are refused.


def test_anthropic_messages_sends_the_api_version_the_pinned_sdk_sends() -> None:
    import anthropic

    sent = anthropic.Anthropic(api_key="sk-ant-drift").default_headers["anthropic-version"]
    assert _endpoint("anthropic", "messages")["default_headers"] == {"anthropic-version": sent}


# --- Moved docs: no citation of a page that has moved -------------------------------------------
# Anthropic's API docs moved to platform.claude.com and Claude Code's to code.claude.com; OpenAI's
# API reference to developers.openai.com/api/reference (the openai SDK 3.57.0 links there);
# Ollama's docs/openai.md is now docs/api/openai-compatibility.mdx.
MOVED = (
    "https://docs.anthropic.com/",
    "https://platform.openai.com/docs/api-reference",
    "https://github.com/ollama/ollama/blob/main/docs/openai.md",
    "https://api.firecrawl.dev/v1",
)


def _sources() -> list[Path]:
    files = sorted((ROOT / "catalog").rglob("*.yaml"))
    files += sorted((ROOT / "src" / "provcat").rglob("*.py"))
    return files


def test_no_catalog_file_or_request_module_cites_a_moved_page() -> None:
    stale = [
        f"{path.relative_to(ROOT)}:{n}: {old}"
        for path in _sources()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for old in MOVED
        if old in line
    ]
    assert not stale, "citations of moved pages:\n" + "\n".join(stale)


def test_the_moved_pages_are_cited_at_their_new_places() -> None:
    assert _endpoint("anthropic", "messages")["docs_url"] == (
        "https://platform.claude.com/docs/en/api/messages/create"
    )
    assert _endpoint("ollama", "chat/completions")["docs_url"] == (
        "https://github.com/ollama/ollama/blob/main/docs/api/openai-compatibility.mdx"
    )
    assert re.match(
        r"https://code\.claude\.com/docs/en/",
        str(_endpoint("claude_code", "query_cli")["docs_url"]),
    )
