"""xAI Responses API: the request model of ``POST https://api.x.ai/v1/responses``.

xAI calls this "the recommended way to interact with xAI models" and its Chat Completions API
"Deprecated" ("Legacy endpoint, limited updates"). The body is OpenAI Responses-shaped but not
OpenAI's: xAI adds ``search_parameters`` (live search), ``max_turns``, ``min_p``, ``top_k``,
``reasoning_effort``, ``logprobs``/``top_logprobs`` (0..8), and has none of OpenAI's
``conversation`` or ``prompt`` objects, image options or access programs, so OpenAI's ``ResponsesRequest`` cannot serve it. Fields xAI's spec marks unsupported or kept
"only for compatibility" (``background``, ``metadata``, ``truncation``, ``reasoning.summary`` and
``reasoning.generate_summary``) and ``context_management`` ("parsed but not yet executed") are
left out: xAI would accept and ignore them, so a caller is told here instead. Inputs, tools, tool
choices and text formats are polymorphic and stay plain JSON objects; reasoning, search
parameters and search sources are request models.

Source: https://docs.x.ai/developers/model-capabilities/text/comparison
Source: https://docs.x.ai/developers/rest-api-reference/inference
Source: https://github.com/xai-org/xai-sdk-ts/blob/main/spec/openapi.json  (xAI's REST OpenAPI
        spec, ``ModelRequest``, ``ReasoningConfiguration``, ``SearchParameters``, ``SearchSource``;
        read at commit 41e766acb9160402c47301beca97764ace073ffc on 2026-12-01)
No Python SDK to compare with: xai-sdk (Python) speaks gRPC, not this REST body.
"""

from typing import Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = [
    "XaiNewsSource",
    "XaiReasoning",
    "XaiResponsesRequest",
    "XaiRssSource",
    "XaiSearchParameters",
    "XaiServiceTier",
    "XaiWebSource",
    "XaiXSource",
]


XaiServiceTier = Literal["auto", "default", "priority", "fast"]
"""The spec's ServiceTier enum is default/priority/fast while the field descriptions say "Valid:
auto, priority, fast"; both spellings are taken."""


class XaiReasoning(RequestModel):
    """Reasoning settings; the accepted efforts depend on the model (GET /v1/models lists them)."""

    effort: str | None = Field(
        None, description="How hard a reasoning model thinks, e.g. low, medium, high, xhigh."
    )


class XaiWebSource(RequestModel):
    """Live search over the web."""

    type: Literal["web"]
    country: str | None = Field(None, description="ISO 3166-1 alpha-2 country to search in.")
    allowed_websites: list[str] | None = Field(
        None, max_length=5, description="Only these sites (not with excluded_websites)."
    )
    excluded_websites: list[str] | None = Field(
        None, max_length=5, description="Never these sites (not with allowed_websites)."
    )
    safe_search: bool | None = Field(None, description="Leave out mature content (default true).")


class XaiNewsSource(RequestModel):
    """Live search over news."""

    type: Literal["news"]
    country: str | None = Field(None, description="ISO 3166-1 alpha-2 country to search in.")
    excluded_websites: list[str] | None = Field(
        None, max_length=5, description="Never these sites."
    )
    safe_search: bool | None = Field(None, description="Leave out mature content (default true).")


class XaiXSource(RequestModel):
    """Live search over X posts."""

    type: Literal["x"]
    included_x_handles: list[str] | None = Field(None, description="Only posts by these handles.")
    excluded_x_handles: list[str] | None = Field(None, description="Never posts by these handles.")
    x_handles: list[str] | None = Field(
        None,
        deprecated="x_handles is deprecated in favour of included_x_handles (xAI's spec)",
        description="Deprecated spelling of included_x_handles.",
    )
    post_favorite_count: int | None = Field(None, description="Minimum likes of a post.")
    post_view_count: int | None = Field(None, description="Minimum views of a post.")


class XaiRssSource(RequestModel):
    """Live search over one RSS feed."""

    type: Literal["rss"]
    links: list[str] = Field(min_length=1, max_length=1, description="The feed's URL.")


class XaiSearchParameters(RequestModel):
    """Live search settings; they take precedence over a web_search_preview tool."""

    mode: Literal["off", "on", "auto"] | None = Field(
        None, description="off: no search; on: always search; auto: the model decides."
    )
    sources: list[XaiWebSource | XaiNewsSource | XaiXSource | XaiRssSource] | None = Field(
        None, description="Where to search; web and X when omitted."
    )
    from_date: str | None = Field(None, description="Earliest result date, YYYY-MM-DD.")
    to_date: str | None = Field(None, description="Latest result date, YYYY-MM-DD.")
    max_search_results: int | None = Field(
        None, ge=1, le=30, description="Most search results to use (default 15)."
    )
    return_citations: bool | None = Field(None, description="Return citations (default true).")


class XaiResponsesRequest(RequestModel):
    """Body of ``POST https://api.x.ai/v1/responses``."""

    model: str | None = Field(
        None, description="Model name, e.g. grok-4.3 (GET /v1/models lists them)."
    )
    input: str | list[dict[str, Any]] = Field(
        description="The prompt: text, or a list of messages, earlier outputs and tool outputs."
    )
    instructions: str | None = Field(
        None, description="System prompt; not together with previous_response_id."
    )
    previous_response_id: str | None = Field(
        None, description="Continue a stored conversation from this response."
    )
    store: bool | None = Field(None, description="Store the response for 30 days (default true).")
    include: list[str] | None = Field(
        None, description="Extra output, e.g. reasoning.encrypted_content."
    )
    max_output_tokens: int | None = Field(
        None, ge=1, description="Most visible output tokens (reasoning not counted)."
    )
    max_turns: int | None = Field(
        None, ge=1, description="Most agentic tool-calling turns for this request."
    )
    reasoning: XaiReasoning | None = Field(None, description="Reasoning settings.")
    reasoning_effort: str | None = Field(
        None, description="Shorthand for reasoning.effort, read only when reasoning is unset."
    )
    search_parameters: XaiSearchParameters | None = Field(
        None, description="Live search over web, news, X and RSS."
    )
    text: dict[str, Any] | None = Field(
        None, description="Output format: text, json_object or json_schema."
    )
    tools: list[dict[str, Any]] | None = Field(
        None,
        max_length=350,
        description="Functions and server-side tools (web_search, x_search, …); at most 350.",
    )
    tool_choice: str | dict[str, Any] | None = Field(
        None, description="none, auto, required, or a named function."
    )
    parallel_tool_calls: bool | None = Field(None, description="Allow parallel tool calls.")
    temperature: float | None = Field(None, ge=0, le=2, description="Sampling randomness.")
    top_p: float | None = Field(None, gt=0, le=1, description="Nucleus sampling threshold.")
    top_k: int | None = Field(None, ge=1, description="Sample only the k likeliest tokens.")
    min_p: float | None = Field(
        None, ge=0, le=1, description="Drop tokens below min_p times the likeliest's probability."
    )
    logprobs: bool | None = Field(
        None, description="Return output token log probabilities (ignored by grok-4.20 and newer)."
    )
    top_logprobs: int | None = Field(
        None, ge=0, le=8, description="Alternatives per position; needs logprobs."
    )
    service_tier: XaiServiceTier | None = Field(
        None, description="Processing tier; priority and fast are interchangeable."
    )
    prompt_cache_key: str | None = Field(None, description="Routing key for prompt caching.")
    safety_identifier: str | None = Field(
        None, description="Stable (hashed) id of the end user behind the request."
    )
    user: str | None = Field(None, description="End-user identifier for abuse monitoring.")
    stream: bool | None = Field(None, description="Stream server-sent events.")
