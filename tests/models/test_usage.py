"""Each vendor's usage shape read into one TokenUsage, and estimate_cost fed each of them.

The field meanings come from the vendors' docs and SDK types (cited beside each case): the SDK
objects below are the vendors' own classes from openai-python and anthropic-sdk-python. Expected
costs are worked out by hand from acme-large-2's prices (Anthropic's published Claude Sonnet 4.5
prices: $3 input, $0.30 cache read, $3.75 cache write, $6 1-hour cache write, $15 output per
million tokens), not read from provcat.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

from provcat import estimate_cost
from provcat.errors import PricingUnavailable
from provcat.models.usage import TokenUsage, UsageTracker, usage_of
from provcat.models.usage_input import to_usage
from tests.models.inventory_catalog import use_acme


@pytest.fixture(autouse=True)
def acme() -> Iterator[dict[str, Any]]:
    yield from use_acme()


# 1200 input tokens of which 1000 cached, 300 output tokens of which 100 reasoning:
# 200 x $3 + 1000 x $0.30 + 300 x $15 = 600 + 300 + 4500 micro-dollars
SAME_REQUEST = Decimal("0.0054")
SAME_USAGE = TokenUsage(
    input_tokens=1200, output_tokens=300, cache_read_tokens=1000, reasoning_tokens=100
)


def nonzero(usage: TokenUsage) -> dict[str, int]:
    """The counts reported, without the zeros some vendors report for what was not used."""
    return {k: v for k, v in usage.as_dict().items() if v}


VENDOR_SHAPES = {
    # https://platform.openai.com/docs/api-reference/chat/object (usage); prompt_tokens includes
    # cached_tokens, completion_tokens includes reasoning_tokens
    "openai-chat": {
        "prompt_tokens": 1200,
        "completion_tokens": 300,
        "total_tokens": 1500,
        "prompt_tokens_details": {"cached_tokens": 1000, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": 100,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    },
    # https://platform.openai.com/docs/api-reference/responses/object (usage)
    "openai-responses": {
        "input_tokens": 1200,
        "input_tokens_details": {"cached_tokens": 1000},
        "output_tokens": 300,
        "output_tokens_details": {"reasoning_tokens": 100},
        "total_tokens": 1500,
    },
    # https://ai.google.dev/api/generate-content#UsageMetadata: promptTokenCount includes the
    # cached content; candidatesTokenCount excludes the thoughts
    "gemini": {
        "promptTokenCount": 1200,
        "cachedContentTokenCount": 1000,
        "candidatesTokenCount": 200,
        "thoughtsTokenCount": 100,
        "totalTokenCount": 1500,
    },
    # google-genai's GenerateContentResponseUsageMetadata, dumped (snake_case)
    "gemini-sdk": {
        "prompt_token_count": 1200,
        "cached_content_token_count": 1000,
        "candidates_token_count": 200,
        "thoughts_token_count": 100,
        "total_token_count": 1500,
    },
    # ... with the per-modality counts a real answer carries: `prompt_tokens_details` is also
    # OpenAI Chat Completions' name, and read as Chat's it was an error
    "gemini-sdk-details": {
        "prompt_token_count": 1200,
        "cached_content_token_count": 1000,
        "candidates_token_count": 200,
        "thoughts_token_count": 100,
        "total_token_count": 1500,
        "prompt_tokens_details": [{"modality": "TEXT", "token_count": 1200}],
        "cache_tokens_details": [{"modality": "TEXT", "token_count": 1000}],
    },
}


@pytest.mark.parametrize("shape", sorted(VENDOR_SHAPES))
def test_each_vendor_shape_reads_into_the_same_usage_and_cost(shape: str) -> None:
    raw = VENDOR_SHAPES[shape]
    assert nonzero(to_usage(raw)) == nonzero(SAME_USAGE)
    assert estimate_cost("acme", "acme-large-2", raw).total == SAME_REQUEST
    assert estimate_cost("acme", "acme-large-2", {"id": "x", "usage": raw}).total == SAME_REQUEST


# xAI's answers in both OpenAI shapes, with the fields xAI adds to every usage: cost_in_usd_ticks
# (https://docs.x.ai/developers/cost-tracking: "returned via a cost_in_usd_ticks field in the usage
# object of chat completions, Responses API ..."), num_sources_used, and in Responses the
# server-side tools' counts (https://docs.x.ai/developers/tools/tool-usage-details). None is a
# token count; the counts are SAME_USAGE's without its reasoning part.
XAI_SHAPES = {
    "chat": {
        "prompt_tokens": 1200,
        "completion_tokens": 300,
        "total_tokens": 1500,
        "prompt_tokens_details": {
            "text_tokens": 1200,
            "audio_tokens": 0,
            "image_tokens": 0,
            "cached_tokens": 1000,
        },
        "num_sources_used": 0,
        "cost_in_usd_ticks": 37756000,
    },
    "responses": {
        "input_tokens": 1200,
        "input_tokens_details": {"cached_tokens": 1000},
        "output_tokens": 300,
        "total_tokens": 1500,
        "num_sources_used": 0,
        "num_server_side_tools_used": 1,
        "cost_in_usd_ticks": 37756000,
        "server_side_tool_usage_details": {"web_search_calls": 0, "x_search_calls": 0},
        "context_details": {"input_tokens": 1200, "output_tokens": 300},
    },
}


@pytest.mark.parametrize("shape", sorted(XAI_SHAPES))
def test_xai_usage_fields_are_accepted_and_change_no_count(shape: str) -> None:
    raw = XAI_SHAPES[shape]
    assert nonzero(to_usage(raw)) == {
        "input_tokens": 1200,
        "cache_read_tokens": 1000,
        "output_tokens": 300,
    }
    assert estimate_cost("acme", "acme-large-2", raw).total == SAME_REQUEST
    assert estimate_cost("acme", "acme-large-2", {"id": "x", "usage": raw}).total == SAME_REQUEST


@pytest.mark.parametrize("shape", sorted(XAI_SHAPES))
def test_xai_search_calls_are_read_so_an_unpriced_search_is_not_costed_as_free(shape: str) -> None:
    # tool-usage-details: server_side_tool_usage_details counts the calls of each server-side
    # tool, which xAI bills per call; a model that lists no fee (as xAI's list none) has a cost
    # with searches refused rather than given without them
    raw = {
        **XAI_SHAPES[shape],
        "server_side_tool_usage_details": {"web_search_calls": 10, "x_search_calls": 2},
    }
    usage = to_usage(raw)
    assert (usage.web_searches, usage.social_searches) == (10, 2)
    with pytest.raises(PricingUnavailable, match="10 web searches"):
        estimate_cost("acme", "acme-large-2", raw)


def test_openrouter_usage_cost_fields_are_accepted_and_its_cache_writes_read() -> None:
    # https://openrouter.ai/docs/use-cases/usage-accounting (Response Format), as printed: `cost`,
    # `cost_details` (and `is_byok`, https://openrouter.ai/docs/agent-sdk/typescript/models/
    # openresponsesusage) are what OpenRouter charged; `cache_write_tokens` "is the number of tokens
    # that were written to the cache", within prompt_tokens (total_tokens 196 = 194 + 2)
    raw = {
        "completion_tokens": 2,
        "completion_tokens_details": {"reasoning_tokens": 0},
        "cost": 0.95,
        "cost_details": {"upstream_inference_cost": 19},
        "prompt_tokens": 194,
        "prompt_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 100, "audio_tokens": 0},
        "total_tokens": 196,
    }
    assert nonzero(to_usage(raw)) == {
        "input_tokens": 194,
        "cache_write_tokens": 100,
        "output_tokens": 2,
    }
    # 94 x $3 + 100 x $3.75 + 2 x $15
    expected = Decimal("0.000282") + Decimal("0.000375") + Decimal("0.00003")
    assert estimate_cost("acme", "acme-large-2", raw).total == expected
    assert estimate_cost("acme", "acme-large-2", {**raw, "is_byok": False}).total == expected
    responses = {
        "input_tokens": 1200,
        "input_tokens_details": {"cached_tokens": 1000},
        "output_tokens": 300,
        "output_tokens_details": {"reasoning_tokens": 100},
        "total_tokens": 1500,
        "cost": 0.0054,
        "is_byok": False,
        "cost_details": {"upstream_inference_cost": None},
    }
    assert estimate_cost("acme", "acme-large-2", responses).total == SAME_REQUEST


@pytest.mark.parametrize("seconds", [None, 12])
def test_mistral_usage_with_prompt_audio_seconds_is_read_as_chat_usage(seconds: int | None) -> None:
    # Mistral's UsageInfo (mistralai's src/mistralai/client/models/usageinfo.py, generated from
    # Mistral's OpenAPI): prompt_tokens, completion_tokens, total_tokens, and the optional,
    # nullable prompt_audio_seconds and service_tier ("standard or priority")
    raw = {
        "prompt_tokens": 1200,
        "completion_tokens": 300,
        "total_tokens": 1500,
        "prompt_audio_seconds": seconds,
        "service_tier": "standard",
    }
    assert to_usage(raw) == TokenUsage(input_tokens=1200, output_tokens=300)
    # 1200 x $3 + 300 x $15
    assert estimate_cost("acme", "acme-large-2", raw).total == Decimal("0.0081")
    mistral = pytest.importorskip("mistralai.client.models")
    sdk = mistral.UsageInfo(
        prompt_tokens=1200, completion_tokens=300, total_tokens=1500, prompt_audio_seconds=seconds
    )
    assert to_usage(sdk) == TokenUsage(input_tokens=1200, output_tokens=300)


def test_anthropic_input_tokens_exclude_the_cache_reads_and_writes() -> None:
    # https://platform.claude.com/docs/en/build-with-claude/prompt-caching (tracking cache
    # performance): total input = input_tokens + cache_creation_input_tokens
    # + cache_read_input_tokens
    raw = {
        "input_tokens": 100,
        "cache_read_input_tokens": 1000,
        "cache_creation_input_tokens": 2000,
        "cache_creation": {"ephemeral_5m_input_tokens": 1500, "ephemeral_1h_input_tokens": 500},
        "output_tokens": 50,
        "service_tier": "standard",
    }
    assert to_usage(raw) == TokenUsage(
        input_tokens=3100,
        output_tokens=50,
        cache_read_tokens=1000,
        cache_write_tokens=2000,
        cache_write_1h_tokens=500,
    )
    # 100 x $3 + 1000 x $0.30 + 1500 x $3.75 + 500 x $6 + 50 x $15
    cost = estimate_cost("acme", "acme-large-2", raw)
    assert cost.total == Decimal("0.000300") + Decimal("0.000300") + Decimal("0.005625") + Decimal(
        "0.003"
    ) + Decimal("0.00075")


def test_anthropic_billed_web_searches_are_counted() -> None:
    # https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool (usage):
    # "server_tool_use": {"web_search_requests": N} counts the searches billed per 1,000
    raw = {"input_tokens": 10, "output_tokens": 5, "server_tool_use": {"web_search_requests": 3}}
    assert to_usage(raw) == TokenUsage(input_tokens=10, output_tokens=5, web_searches=3)
    assert to_usage(raw).as_dict() == {"input_tokens": 10, "output_tokens": 5, "web_searches": 3}


def test_ollama_counts() -> None:
    # https://github.com/ollama/ollama/blob/main/docs/api.md (a final response's fields)
    raw = {"prompt_eval_count": 26, "eval_count": 298, "eval_duration": 4709213000}
    assert to_usage(raw) == TokenUsage(input_tokens=26, output_tokens=298)
    assert usage_of({"model": "llama3", "done": True, **raw}) == to_usage(raw)


def test_the_vendors_own_sdk_objects() -> None:
    openai_types = pytest.importorskip("openai.types")
    from openai.types.completion_usage import CompletionTokensDetails, PromptTokensDetails
    from openai.types.responses import ResponseUsage
    from openai.types.responses.response_usage import InputTokensDetails, OutputTokensDetails

    chat = openai_types.CompletionUsage(
        prompt_tokens=1200,
        completion_tokens=300,
        total_tokens=1500,
        prompt_tokens_details=PromptTokensDetails(cached_tokens=1000),
        completion_tokens_details=CompletionTokensDetails(reasoning_tokens=100),
    )
    responses = ResponseUsage(
        input_tokens=1200,
        input_tokens_details=InputTokensDetails(cached_tokens=1000, cache_write_tokens=0),
        output_tokens=300,
        output_tokens_details=OutputTokensDetails(reasoning_tokens=100),
        total_tokens=1500,
    )
    for usage in (chat, responses):
        assert estimate_cost("acme", "acme-large-2", usage).total == SAME_REQUEST
    anthropic_types = pytest.importorskip("anthropic.types")
    claude = anthropic_types.Usage(
        input_tokens=200, cache_read_input_tokens=1000, output_tokens=300
    )
    assert to_usage(claude) == TokenUsage(
        input_tokens=1200, output_tokens=300, cache_read_tokens=1000
    )
    assert estimate_cost("acme", "acme-large-2", claude).total == SAME_REQUEST


def test_an_object_carrying_usage_is_read_through_it() -> None:
    class Answer:  # a call's result, a stream, a vendor SDK's response
        usage = SAME_USAGE

    assert estimate_cost("acme", "acme-large-2", Answer()).total == SAME_REQUEST

    class Silent:
        usage = None

    with pytest.raises(TypeError, match="carries no usage: the answer reported none"):
        estimate_cost("acme", "acme-large-2", Silent())
    with pytest.raises(TypeError, match="usage is None: the answer reported no token usage"):
        estimate_cost("acme", "acme-large-2", None)


@pytest.mark.parametrize(
    ("usage", "text"),
    [
        # a typo in each vendor's own shape names that shape's field
        (
            {"prompt_tokens": 10, "completion_tokenz": 5},
            "no field 'completion_tokenz' .*did you mean 'completion_tokens'",
        ),
        (
            {"input_tokens": 10, "cache_read_input_tokens": 2, "output_tokns": 1},
            "no field 'output_tokns' .*Anthropic Messages.*did you mean 'output_tokens'",
        ),
        (
            {"promptTokenCount": 10, "candidateTokenCount": 5},
            "no field 'candidateTokenCount' .*did you mean 'candidatesTokenCount'",
        ),
        # another shape's name for the same count names this shape's
        (
            {"prompt_tokens": 10, "output_tokens": 5},
            "no field 'output_tokens' .*did you mean 'completion_tokens'",
        ),
        # ... or, when the record already holds it, says to drop the other
        (
            {"input_tokens": 10, "cache_read_input_tokens": 2, "cache_read_tokens": 2},
            "no field 'cache_read_tokens' .*it already has 'cache_read_input_tokens', the "
            "Anthropic Messages name for cache_read_tokens: drop 'cache_read_tokens'",
        ),
        (
            {"prompt_tokens": 10, "output_tokens": 5, "completion_tokens": 5},
            "no field 'output_tokens' .*it already has 'completion_tokens'.*drop 'output_tokens'",
        ),
        (
            {
                "prompt_tokens": 10,
                "completion_tokens": 5,
                "prompt_tokens_details": {"cached_tokens": 2},
                "cache_read_input_tokens": 2,
            },
            "it already has 'prompt_tokens_details.cached_tokens'.*drop 'cache_read_input_tokens'",
        ),
        (
            {"input_tokens": 10, "completion_tokens": 5},
            "no field 'input_tokens' .*did you mean 'prompt_tokens'",
        ),
        ({"input_tokens": 10, "outptu_tokens": 5}, "did you mean 'output_tokens'"),
    ],
)
def test_an_unknown_field_names_the_field_meant(usage: dict[str, Any], text: str) -> None:
    with pytest.raises(ValueError, match=text):
        estimate_cost("acme", "acme-large-2", usage)


@pytest.mark.parametrize(
    "usage",
    [
        {"prompt_tokens": "10", "completion_tokens": 5},
        {"prompt_tokens": 10, "prompt_tokens_details": {"cached_tokens": 2.0}},
        {"promptTokenCount": True},
    ],
)
def test_a_count_that_is_not_an_int_is_refused_not_costed_as_zero(usage: dict[str, Any]) -> None:
    with pytest.raises(TypeError, match="must be an int"):
        estimate_cost("acme", "acme-large-2", usage)


def test_a_stream_tracker_merges_anthropic_start_and_delta_usage() -> None:
    # https://platform.claude.com/docs/en/build-with-claude/streaming (basic streaming request)
    tracker = UsageTracker()
    tracker.add(
        {
            "type": "message_start",
            "message": {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "content": [],
                "usage": {"input_tokens": 25, "output_tokens": 1},
            },
        }
    )
    assert tracker.usage == TokenUsage(input_tokens=25, output_tokens=1)
    tracker.add({"type": "content_block_delta", "index": 0, "delta": {"text": "Hello"}})
    tracker.add(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": 15},
        }
    )
    assert tracker.usage == TokenUsage(input_tokens=25, output_tokens=15)


def test_the_google_genai_sdk_object_is_read_as_gemini_usage() -> None:
    """The SDK's own object, as `response.usage_metadata` gives it (google-genai's types)."""
    types = pytest.importorskip("google.genai.types")
    usage = types.GenerateContentResponseUsageMetadata(
        prompt_token_count=1200,
        cached_content_token_count=1000,
        candidates_token_count=200,
        thoughts_token_count=100,
        total_token_count=1500,
        prompt_tokens_details=[types.ModalityTokenCount(modality="TEXT", token_count=1200)],
    )
    assert nonzero(to_usage(usage)) == nonzero(SAME_USAGE)
    assert estimate_cost("acme", "acme-large-2", usage).total == SAME_REQUEST


def test_the_google_genai_response_object_is_read_through_its_usage_metadata() -> None:
    """The whole answer, as `client.models.generate_content` returns it (google-genai's
    `GenerateContentResponse`, whose usage is `usage_metadata`, not `usage`)."""
    types = pytest.importorskip("google.genai.types")
    response = types.GenerateContentResponse(
        usage_metadata=types.GenerateContentResponseUsageMetadata(
            prompt_token_count=1200,
            cached_content_token_count=1000,
            candidates_token_count=200,
            thoughts_token_count=100,
            total_token_count=1500,
        )
    )
    assert nonzero(to_usage(response)) == nonzero(SAME_USAGE)
    assert estimate_cost("acme", "acme-large-2", response).total == SAME_REQUEST
    with pytest.raises(TypeError, match=r"usage \(GenerateContentResponse\) has none of the"):
        estimate_cost("acme", "acme-large-2", types.GenerateContentResponse())


def test_a_usage_prints_the_counts_reported_and_nothing_the_vendor_left_out() -> None:
    # found by a first-hour audit: print(result.usage) showed 16 fields, 13 of them None
    usage = TokenUsage(input_tokens=9, output_tokens=2, cache_read_tokens=0)
    shown = repr(usage)
    assert "None" not in shown
    assert eval(shown, {"TokenUsage": TokenUsage}) == usage  # the constructor's own words
    options = TokenUsage(input_tokens=1, options=(("search_context_size", "low"),))
    assert eval(repr(options), {"TokenUsage": TokenUsage}) == options
