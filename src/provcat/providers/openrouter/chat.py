"""OpenRouter chat completions: the request model and the endpoint class.

``OpenRouterChatRequest`` is the JSON body of
``POST https://openrouter.ai/api/v1/chat/completions``. It holds the OpenAI-compatible fields
OpenRouter documents, the extra sampling parameters it normalises across providers
(``top_k``, ``min_p``, ``top_a``, ``repetition_penalty``), and its routing and platform fields:
model fallbacks (``models``, ``route``), provider preferences, prompt transforms, plugins, the
unified ``reasoning`` object, usage accounting, session and trace metadata, and debug options.

Small nested objects (reasoning, usage, stream options, predicted output, debug) are request
models of their own. Provider preferences, plugins, trace metadata, image settings and cache
control are large or polymorphic objects whose keys OpenRouter extends often, so they stay
plain JSON objects, as do messages, tools and response formats.

Source: https://openrouter.ai/docs/api/reference/overview
Source: https://openrouter.ai/docs/api-reference/parameters
Source: https://openrouter.ai/docs/use-cases/reasoning-tokens
Source: https://github.com/OpenRouterTeam/typescript-sdk/blob/main/src/models/chatrequest.ts
Source: https://github.com/OpenRouterTeam/python-sdk/blob/main/src/openrouter/components/chatrequest.py
Checked against openrouter 1.3.84 (tests/drift) on 2026-12-01.
"""

from typing import Annotated, Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel, SdkDeviation

__all__ = [
    "OpenRouterChatRequest",
    "OpenRouterDebugOptions",
    "OpenRouterPrediction",
    "OpenRouterReasoning",
    "OpenRouterStreamOptions",
    "OpenRouterUsage",
]

Metadata = Annotated[
    dict[Annotated[str, Field(max_length=64)], Annotated[str, Field(max_length=512)]],
    Field(max_length=16),
]
"""Up to 16 string key-value pairs (keys up to 64 characters, values up to 512)."""


OpenRouterEffort = Literal["max", "xhigh", "high", "medium", "low", "minimal", "none"]


class OpenRouterReasoning(RequestModel):
    """OpenRouter's unified reasoning-token settings."""

    sdk_deviations = tuple(
        SdkDeviation(
            "openrouter",
            name,
            "extra",
            "on OpenRouter's reasoning-tokens guide "
            "(https://openrouter.ai/docs/use-cases/reasoning-tokens); openrouter 1.3.84 types "
            "only effort and summary",
        )
        for name in ("max_tokens", "exclude", "enabled")
    )

    effort: OpenRouterEffort | None = Field(
        None, description="Reasoning effort level; 'none' turns reasoning off."
    )
    max_tokens: int | None = Field(
        None, ge=0, description="Token budget for reasoning, for models that take one."
    )
    exclude: bool | None = Field(
        None, description="Reason internally but leave the reasoning out of the response."
    )
    enabled: bool | None = Field(
        None, description="Turn reasoning on with the model's default settings."
    )
    summary: Literal["auto", "concise", "detailed"] | None = Field(
        None, description="Verbosity of the reasoning summary, where supported."
    )


class OpenRouterUsage(RequestModel):
    """Usage-accounting switch (usage is now always returned; kept for compatibility)."""

    include: bool | None = Field(None, description="Include token and cost usage details.")


class OpenRouterStreamOptions(RequestModel):
    """Options that apply only when streaming."""

    include_usage: bool | None = Field(
        None, description="Send a final chunk carrying usage statistics."
    )


class OpenRouterPrediction(RequestModel):
    """Predicted output used to cut latency when most of the answer is known."""

    type: Literal["content"] = Field(description="Prediction kind; always 'content'.")
    content: str = Field(description="Text expected to appear in the output.")


class OpenRouterDebugOptions(RequestModel):
    """Debugging aids; honoured on streaming requests only."""

    echo_upstream_body: bool | None = Field(
        None, description="Return the transformed body OpenRouter sent to the provider."
    )


class OpenRouterChatRequest(RequestModel):
    """Body of ``POST https://openrouter.ai/api/v1/chat/completions``."""

    sdk_deviations = tuple(
        SdkDeviation(
            "openrouter",
            name,
            "extra",
            "on OpenRouter's parameters reference "
            "(https://openrouter.ai/docs/api-reference/parameters), which the API still "
            "accepts; openrouter 1.3.84's ChatRequest does not type it",
        )
        for name in ("route", "transforms", "usage", "verbosity", "web_search_options")
    )

    messages: list[dict[str, Any]] = Field(
        description="Conversation so far as role/content message objects."
    )
    model: str | None = Field(
        None,
        description="Model slug, e.g. openai/gpt-4o; the account default is used if omitted.",
    )
    models: list[str] | None = Field(
        None, description="Ordered fallback models tried when the first one fails."
    )
    route: Literal["fallback"] | None = Field(
        None, description="Legacy routing mode for the models list; only 'fallback' exists."
    )
    provider: dict[str, Any] | None = Field(
        None,
        description=(
            "Provider routing preferences: order, only, ignore, allow_fallbacks, sort, "
            "data_collection, quantizations, max_price and related keys."
        ),
    )
    transforms: list[str] | None = Field(
        None, description="Prompt transforms to apply, e.g. ['middle-out']."
    )
    plugins: list[dict[str, Any]] | None = Field(
        None,
        description="Plugins with settings, e.g. web search, file parser or response healing.",
    )
    reasoning: OpenRouterReasoning | None = Field(
        None, description="Reasoning-token effort, budget and visibility."
    )
    reasoning_effort: OpenRouterEffort | None = Field(
        None, description="Shorthand for reasoning.effort; must agree with it when both are set."
    )
    prompt_cache_key: str | None = Field(
        None, description="Key that groups similar requests to raise prompt cache hit rates."
    )
    prompt_cache_options: dict[str, Any] | None = Field(
        None,
        description="Prompt-cache mode and minimum breakpoint lifetime (30m or 12h), for the "
        "OpenAI models that support it.",
    )
    deferred_tools: dict[str, Any] | None = Field(
        None, description="Opt-in, versioned router-level deferred-tool protocol."
    )
    stop_server_tools_when: list[dict[str, Any]] | None = Field(
        None, description="Conditions that stop the server-tool agent loop (any one fires)."
    )
    usage: OpenRouterUsage | None = Field(
        None, description="Usage-accounting switch (deprecated; usage is always returned)."
    )
    user: str | None = Field(
        None, description="Stable end-user identifier, used for abuse detection."
    )
    session_id: str | None = Field(
        None, max_length=256, description="Groups related requests for observability."
    )
    trace: dict[str, Any] | None = Field(
        None, description="Trace metadata (trace_id, span_name and custom keys)."
    )
    metadata: Metadata | None = Field(
        None, description="Up to 16 string key-value pairs stored with the request."
    )
    stream: bool | None = Field(None, description="Stream the answer as server-sent events.")
    stream_options: OpenRouterStreamOptions | None = Field(
        None, description="Streaming options, such as a final usage chunk."
    )
    max_tokens: int | None = Field(
        None, ge=1, description="Upper bound on completion tokens (older name)."
    )
    max_completion_tokens: int | None = Field(
        None, ge=1, description="Upper bound on completion tokens."
    )
    temperature: float | None = Field(
        None, ge=0, le=2, description="Sampling randomness; higher is more varied."
    )
    top_p: float | None = Field(None, ge=0, le=1, description="Nucleus sampling threshold.")
    top_k: int | None = Field(
        None, ge=0, description="Sample only from the k most likely tokens; 0 disables it."
    )
    min_p: float | None = Field(
        None, ge=0, le=1, description="Minimum token probability relative to the top token."
    )
    top_a: float | None = Field(
        None, ge=0, le=1, description="Dynamic cut-off based on the top token's probability."
    )
    frequency_penalty: float | None = Field(
        None, ge=-2, le=2, description="Penalty proportional to how often a token appeared."
    )
    presence_penalty: float | None = Field(
        None, ge=-2, le=2, description="Penalty on tokens that already appeared at all."
    )
    repetition_penalty: float | None = Field(
        None, gt=0, le=2, description="Multiplicative penalty on repeated tokens."
    )
    seed: int | None = Field(None, description="Seed for reproducible sampling.")
    logit_bias: dict[str, float] | None = Field(
        None, description="Token ID to bias (-100 to 100) adjustments."
    )
    logprobs: bool | None = Field(
        None, description="Return log probabilities of the output tokens."
    )
    top_logprobs: int | None = Field(
        None, ge=0, le=20, description="Most likely alternatives returned per token."
    )
    stop: str | Annotated[list[str], Field(max_length=4)] | None = Field(
        None, description="Up to 4 sequences that end generation."
    )
    response_format: dict[str, Any] | None = Field(
        None, description="Output format: text, json_object or json_schema, among others."
    )
    tools: list[dict[str, Any]] | None = Field(
        None, description="Function tools the model may call."
    )
    tool_choice: Literal["none", "auto", "required"] | dict[str, Any] | None = Field(
        None, description="Whether and which tool the model must call."
    )
    parallel_tool_calls: bool | None = Field(
        None, description="Allow several tool calls in one response."
    )
    prediction: OpenRouterPrediction | None = Field(
        None, description="Predicted output to reduce latency."
    )
    verbosity: Literal["low", "medium", "high"] | None = Field(
        None, description="How long and detailed the answer should be."
    )
    web_search_options: dict[str, Any] | None = Field(
        None, description="Native web search settings such as search_context_size."
    )
    modalities: list[Literal["text", "image", "audio"]] | None = Field(
        None, description="Output modalities to produce."
    )
    image_config: dict[str, Any] | None = Field(
        None, description="Provider-specific image generation settings, e.g. aspect_ratio."
    )
    service_tier: Literal["auto", "default", "flex", "priority", "scale"] | None = Field(
        None, description="Processing tier requested from the provider."
    )
    cache_control: dict[str, Any] | None = Field(
        None, description="Anthropic-style prompt-cache directive applied to the request."
    )
    debug: OpenRouterDebugOptions | None = Field(
        None, description="Debug options (streaming only)."
    )
