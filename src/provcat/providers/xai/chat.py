"""xAI Chat Completions: the request model of ``POST https://api.x.ai/v1/chat/completions``.

xAI marks this API deprecated in favour of its Responses API (``provcat.providers.xai.responses``)
but still serves it. Its body differs from OpenAI's: xAI adds ``search_parameters`` (live search)
and ``deferred`` (answer later under a request id), takes ``top_logprobs`` 0..8, ``stop`` as a
list of up to 4 strings and its own ``service_tier`` values, and has none of OpenAI's audio
output, modalities, predictions, metadata/store, verbosity, moderation or prompt-cache options.
Fields the spec marks unsupported or "only included for compatibility" (``logit_bias``,
``web_search_options``) are left out, so a caller is told instead of silently ignored;
``max_tokens`` is deprecated in favour of ``max_completion_tokens``.

Source: https://github.com/xai-org/xai-sdk-ts/blob/main/spec/openapi.json  (xAI's REST OpenAPI
        spec, ``ChatRequest``; read at commit 41e766acb9160402c47301beca97764ace073ffc on 2026-12-01)
Source: https://docs.x.ai/developers/rest-api-reference/inference/chat
Source: https://docs.x.ai/developers/model-capabilities/text/comparison
No Python SDK to compare with: xai-sdk (Python) speaks gRPC, not this REST body.
"""

from typing import Any

from pydantic import Field

from provcat.endpoints.request import RequestModel
from provcat.providers.xai.responses import XaiSearchParameters, XaiServiceTier

__all__ = ["XaiChatRequest", "XaiChatStreamOptions"]

MAX_TOKENS_DEPRECATION = "max_tokens is deprecated in favour of max_completion_tokens (xAI's spec)"


class XaiChatStreamOptions(RequestModel):
    """Options that apply when ``stream`` is true."""

    include_usage: bool = Field(description="Send a final chunk with token usage before [DONE].")


class XaiChatRequest(RequestModel):
    """Body of ``POST https://api.x.ai/v1/chat/completions``."""

    model: str = Field(description="Model name, e.g. grok-4.3 (GET /v1/models lists them).")
    messages: list[dict[str, Any]] = Field(
        description="Conversation so far: role/content messages, text and images."
    )
    deferred: bool | None = Field(
        None,
        description="Return a request_id; fetch the answer from /v1/chat/deferred-completion.",
    )
    frequency_penalty: float | None = Field(
        None, ge=-2, le=2, description="Penalty by how often a token appeared (not reasoning)."
    )
    presence_penalty: float | None = Field(
        None, ge=-2, le=2, description="Penalty on tokens that appeared at all (not reasoning)."
    )
    logprobs: bool | None = Field(
        None, description="Return output token log probabilities (ignored by grok-4.20 and newer)."
    )
    top_logprobs: int | None = Field(
        None, ge=0, le=8, description="Alternatives per position; needs logprobs."
    )
    max_completion_tokens: int | None = Field(
        None, ge=1, description="Most visible output tokens (reasoning not counted)."
    )
    max_tokens: int | None = Field(
        None, ge=1, deprecated=MAX_TOKENS_DEPRECATION, description="Deprecated output limit."
    )
    n: int | None = Field(None, ge=1, description="Number of choices to generate.")
    parallel_tool_calls: bool | None = Field(
        None, description="false limits the model to one tool call."
    )
    prompt_cache_key: str | None = Field(None, description="Routing key for prompt caching.")
    reasoning_effort: str | None = Field(
        None, description="Reasoning effort; accepted values depend on the model."
    )
    response_format: dict[str, Any] | None = Field(
        None, description="Output format: text, json_object or json_schema."
    )
    safety_identifier: str | None = Field(
        None, description="Stable (hashed) id of the end user behind the request."
    )
    search_parameters: XaiSearchParameters | None = Field(
        None, description="Live search over web, news, X and RSS; no search when unset."
    )
    seed: int | None = Field(None, description="Best-effort deterministic sampling seed.")
    service_tier: XaiServiceTier | None = Field(
        None, description="Processing tier; priority and fast are interchangeable."
    )
    stop: list[str] | None = Field(
        None, max_length=4, description="Up to 4 stop sequences (not reasoning models)."
    )
    stream: bool | None = Field(None, description="Stream server-sent events.")
    stream_options: XaiChatStreamOptions | None = Field(
        None, description="Streaming options; only with stream."
    )
    temperature: float | None = Field(None, ge=0, le=2, description="Sampling randomness.")
    top_p: float | None = Field(None, gt=0, le=1, description="Nucleus sampling threshold.")
    tool_choice: str | dict[str, Any] | None = Field(
        None, description="none, auto, required, or a named function."
    )
    tools: list[dict[str, Any]] | None = Field(
        None, max_length=350, description="Functions the model may call; at most 350."
    )
    user: str | None = Field(None, description="End-user identifier for abuse monitoring.")
