"""Perplexity Sonar chat completions: the request model and the endpoint class.

``PerplexityChatRequest`` is the JSON body of ``POST https://api.perplexity.ai/chat/completions``.
It covers the OpenAI-style sampling fields Perplexity documents plus its search controls
(search mode, domain, language, date and recency filters, image filters, the search classifier
and search switch, web search options, media overrides and the streaming format). The small
nested objects (web search options, user location, media overrides) are request models of
their own; messages and the structured-output ``response_format`` stay plain JSON objects.

Undocumented internal fields that Perplexity's generated SDK also carries (names with a leading
underscore, thread and tenant settings, ``best_of``, ``n``, tool calling) are left out.

Source: https://docs.perplexity.ai/api-reference/chat-completions-post
Source: https://docs.perplexity.ai/guides/pro-search-stream-mode-guide
Source: https://github.com/perplexityai/perplexity-py/blob/main/src/perplexity/types/chat/completion_create_params.py
Checked against perplexityai 0.46.1 (tests/drift) on 2026-12-01: the internal fields it types
are recorded as deviations below, so a field it adds shows up as drift.
"""

from typing import Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel, SdkDeviation

_INTERNAL = (
    "_debug_pro_search",
    "_force_new_agent",
    "_inputs",
    "_prompt_token_length",
    "best_of",
    "country",
    "cum_logprobs",
    "diverse_first_token",
    "file_workspace_id",
    "has_image_url",
    "latitude",
    "logprobs",
    "longitude",
    "n",
    "num_images",
    "num_search_results",
    "parallel_tool_calls",
    "ranking_model",
    "response_formatting_locale",
    "response_metadata",
    "safe_search",
    "search_internal_properties",
    "search_tenant",
    "thread_id",
    "tool_choice",
    "tools",
    "top_logprobs",
    "updated_after_timestamp",
    "updated_before_timestamp",
    "use_threads",
    "user_original_query",
)
"""Fields perplexityai's generated types carry that Perplexity's API reference does not document
(the user's location is documented inside web_search_options.user_location instead)."""

__all__ = [
    "PerplexityChatRequest",
    "PerplexityMediaOverrides",
    "PerplexityMediaResponse",
    "PerplexityUserLocation",
    "PerplexityWebSearchOptions",
]


class PerplexityUserLocation(RequestModel):
    """Approximate location of the end user, used to localise search results."""

    latitude: float | None = Field(None, ge=-90, le=90, description="Latitude in degrees.")
    longitude: float | None = Field(None, ge=-180, le=180, description="Longitude in degrees.")
    country: str | None = Field(None, description="Two-letter ISO 3166 country code.")
    city: str | None = Field(None, description="City name.")
    region: str | None = Field(None, description="Region or state name.")


class PerplexityWebSearchOptions(RequestModel):
    """Settings for how much web context is retrieved and which search flavour runs."""

    search_context_size: Literal["low", "medium", "high"] | None = Field(
        None, description="How much retrieved web content is given to the model."
    )
    search_type: Literal["fast", "pro", "auto"] | None = Field(
        None, description="Fast search, Pro Search, or automatic choice between them."
    )
    user_location: PerplexityUserLocation | None = Field(
        None, description="End-user location used to localise results."
    )
    image_results_enhanced_relevance: bool | None = Field(
        None, description="Apply stricter relevance filtering to returned images."
    )


class PerplexityMediaOverrides(RequestModel):
    """Switches for the kinds of media attached to the answer."""

    return_videos: bool | None = Field(None, description="Attach related videos.")
    return_images: bool | None = Field(None, description="Attach related images.")


class PerplexityMediaResponse(RequestModel):
    """Media settings of the response."""

    overrides: PerplexityMediaOverrides | None = Field(
        None, description="Per-request switches for returned media kinds."
    )


class PerplexityChatRequest(RequestModel):
    """Body of ``POST https://api.perplexity.ai/chat/completions``."""

    sdk_deviations = (
        *(
            SdkDeviation(
                "perplexityai",
                name,
                "missing",
                "undocumented on https://docs.perplexity.ai/api-reference/chat-completions-post; "
                "perplexityai types it from Perplexity's full internal spec, with no description",
            )
            for name in _INTERNAL
        ),
        SdkDeviation(
            "perplexityai",
            "media_response",
            "extra",
            "documented on https://docs.perplexity.ai/api-reference/chat-completions-post "
            "(media_response.overrides); perplexityai 0.46.1 does not type it",
        ),
    )

    model: str = Field(
        description=(
            "Sonar model name: sonar, sonar-pro, sonar-reasoning, sonar-reasoning-pro "
            "or sonar-deep-research."
        )
    )
    messages: list[dict[str, Any]] = Field(
        description="Conversation so far as role/content message objects."
    )
    search_mode: Literal["web", "academic", "sec"] | None = Field(
        None, description="Source pool: general web, scholarly sources, or SEC filings."
    )
    reasoning_effort: Literal["minimal", "low", "medium", "high"] | None = Field(
        None, description="Reasoning depth for sonar-deep-research."
    )
    max_tokens: int | None = Field(None, ge=1, description="Upper bound on completion tokens.")
    temperature: float | None = Field(
        None, ge=0, lt=2, description="Sampling randomness; higher is more varied."
    )
    top_p: float | None = Field(None, ge=0, le=1, description="Nucleus sampling threshold.")
    top_k: int | None = Field(
        None, ge=0, le=2048, description="Top-k sampling cut-off; 0 disables it."
    )
    presence_penalty: float | None = Field(
        None, ge=-2, le=2, description="Penalty on tokens that already appeared at all."
    )
    frequency_penalty: float | None = Field(
        None, ge=-2, le=2, description="Penalty proportional to how often a token appeared."
    )
    stop: str | list[str] | None = Field(
        None, description="Sequence or sequences that end generation."
    )
    stream: bool | None = Field(None, description="Stream the answer as server-sent events.")
    stream_mode: Literal["full", "concise"] | None = Field(
        None, description="Chunk format when streaming: full message objects or compact deltas."
    )
    response_format: dict[str, Any] | None = Field(
        None, description="Structured output: a text, json_schema or regex format object."
    )
    web_search_options: PerplexityWebSearchOptions | None = Field(
        None, description="Search context size, search type and user location."
    )
    media_response: PerplexityMediaResponse | None = Field(
        None, description="Overrides for returned images and videos."
    )
    language_preference: str | None = Field(
        None, description="Preferred answer language as an ISO 639-1 code."
    )
    search_domain_filter: list[str] | None = Field(
        None,
        max_length=20,
        description="Domains or URLs to search; prefix with '-' to exclude one.",
    )
    search_language_filter: list[str] | None = Field(
        None, max_length=10, description="ISO 639-1 language codes search results must have."
    )
    search_recency_filter: Literal["hour", "day", "week", "month", "year"] | None = Field(
        None, description="Only use sources published within this recent window."
    )
    search_after_date_filter: str | None = Field(
        None, description="Only use sources published after this date (MM/DD/YYYY)."
    )
    search_before_date_filter: str | None = Field(
        None, description="Only use sources published before this date (MM/DD/YYYY)."
    )
    last_updated_after_filter: str | None = Field(
        None, description="Only use sources last updated after this date (MM/DD/YYYY)."
    )
    last_updated_before_filter: str | None = Field(
        None, description="Only use sources last updated before this date (MM/DD/YYYY)."
    )
    image_domain_filter: list[str] | None = Field(
        None, description="Domains returned images may come from; '-' prefix excludes."
    )
    image_format_filter: list[str] | None = Field(
        None, description="File formats returned images must have, e.g. png or jpg."
    )
    return_images: bool | None = Field(None, description="Include image results in the answer.")
    return_related_questions: bool | None = Field(
        None, description="Include suggested follow-up questions."
    )
    disable_search: bool | None = Field(
        None, description="Answer from model knowledge only, without web search."
    )
    enable_search_classifier: bool | None = Field(
        None, description="Let a classifier decide whether the query needs a web search."
    )
