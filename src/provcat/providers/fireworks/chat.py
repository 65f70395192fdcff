"""Fireworks AI chat completions: the request model of
``POST https://api.fireworks.ai/inference/v1/chat/completions``.

``FireworksChatRequest`` lists the body fields Fireworks documents: the OpenAI-style ones plus its
sampling controls (``top_k``, ``min_p``, ``typical_p``, ``repetition_penalty``, Mirostat),
context handling (``context_length_exceeded_behavior``, ``prompt_truncate_len``), echo and raw
output, speculative decoding, reasoning controls (``reasoning_effort`` as a level, a budget or a
switch; ``reasoning_history``; Anthropic-style ``thinking``) and prompt-cache keys. Messages,
tools, response formats and predicted output stay plain JSON objects.

Source: https://docs.fireworks.ai/api-reference/post-chatcompletions
Source: https://github.com/fw-ai-external/python-sdk/blob/main/src/fireworks/types/chat/completion_create_params.py
Checked against fireworks-ai 1.2.30 (tests/drift) on 2026-12-01.
"""

from typing import Annotated, Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = [
    "FireworksChatRequest",
    "FireworksFunctionName",
    "FireworksThinkingDisabled",
    "FireworksThinkingEnabled",
]


class FireworksFunctionName(RequestModel):
    """Forces a call of one named function (deprecated ``function_call`` object form)."""

    name: str = Field(description="Name of the function to call.")


class FireworksThinkingEnabled(RequestModel):
    """Extended thinking on (Anthropic-compatible form)."""

    type: Literal["enabled"] = Field(description="Turns thinking on.")
    budget_tokens: int | None = Field(
        None, ge=1024, description="Tokens available for reasoning; at least 1024."
    )


class FireworksThinkingDisabled(RequestModel):
    """Extended thinking off (Anthropic-compatible form)."""

    type: Literal["disabled"] = Field(description="Turns thinking off.")


class FireworksChatRequest(RequestModel):
    """Body of Fireworks ``POST /inference/v1/chat/completions``."""

    messages: list[dict[str, Any]] = Field(
        description="Conversation so far, as role-tagged message objects."
    )
    model: str = Field(description="Model name, e.g. accounts/fireworks/models/gpt-oss-120b.")
    context_length_exceeded_behavior: Literal["error", "truncate"] | None = Field(
        None, description="When prompt plus max_tokens overflow: fail, or cut max_tokens."
    )
    echo: bool | None = Field(None, description="Echo the prompt back with the completion.")
    echo_last: int | None = Field(
        None, ge=0, description="Echo back the last N prompt tokens with the completion."
    )
    frequency_penalty: float | None = Field(
        None, ge=-2.0, le=2.0, description="Penalty on tokens by how often they already appeared."
    )
    function_call: Literal["auto", "none"] | FireworksFunctionName | None = Field(
        None, description="Deprecated in favour of tool_choice (transformed into it)."
    )
    functions: list[dict[str, Any]] | None = Field(
        None, description="Deprecated in favour of tools (transformed into them)."
    )
    ignore_eos: bool | None = Field(
        None, description="Keep generating past the end-of-sequence token."
    )
    logit_bias: dict[str, float] | None = Field(
        None, description="Bias added to the logits of the given token IDs."
    )
    logprobs: bool | int | None = Field(
        None, description="Include log probabilities: true, or the number of alternatives."
    )
    max_completion_tokens: int | None = Field(
        None, ge=1, description="Alias of max_tokens; not together with it."
    )
    max_tokens: int | None = Field(None, ge=1, description="Cap on generated tokens.")
    metadata: dict[str, str] | None = Field(
        None, description="Metadata stored with the request for tracing or distillation."
    )
    min_p: float | None = Field(
        None, ge=0.0, le=1.0, description="Minimum probability of a token to be considered."
    )
    mirostat_lr: float | None = Field(None, description="Mirostat sampling learning rate.")
    mirostat_target: float | None = Field(None, description="Mirostat target perplexity.")
    n: int | None = Field(None, ge=1, description="Completions to generate per prompt.")
    parallel_tool_calls: bool | None = Field(None, description="Enable parallel function calling.")
    perf_metrics_in_response: bool | None = Field(
        None, description="Include performance metrics in the response body."
    )
    prediction: dict[str, Any] | str | None = Field(
        None, description="Predicted output (object or text) for speculative decoding."
    )
    presence_penalty: float | None = Field(
        None, ge=-2.0, le=2.0, description="Penalty on tokens that already appeared at all."
    )
    prompt_cache_isolation_key: str | None = Field(
        None, description="Key that separates prompt-cache entries."
    )
    prompt_cache_key: str | None = Field(
        None, description="Key that routes requests to the same backend for cache hits."
    )
    prompt_truncate_len: int | None = Field(
        None, ge=1, description="Size in tokens to which the chat prompt is truncated."
    )
    raw_output: bool | None = Field(None, description="Return the model's raw output.")
    reasoning_effort: Literal["low", "medium", "high", "none"] | int | bool | None = Field(
        None, description="Reasoning: a level, a token budget, or a switch."
    )
    reasoning_history: Literal["disabled", "interleaved", "preserved"] | None = Field(
        None, description="How earlier assistant reasoning is included on later turns."
    )
    repetition_penalty: float | None = Field(
        None, description="Penalty on repeated tokens; 1.0 means none."
    )
    response_format: dict[str, Any] | None = Field(
        None, description="Output format: json_object, json_schema or grammar."
    )
    return_token_ids: bool | None = Field(None, description="Return token IDs alongside the text.")
    safe_tokenization: bool | None = Field(
        None, description="Never read special tokens out of user-provided content."
    )
    seed: int | None = Field(None, description="Random seed for deterministic sampling.")
    service_tier: Literal["auto", "default", "flex", "priority"] | None = Field(
        None, description="Processing tier; only priority changes the serving."
    )
    speculation: str | list[int] | None = Field(
        None, description="Speculative decoding prompt, or its token IDs."
    )
    stop: str | Annotated[list[str], Field(max_length=4)] | None = Field(
        None, description="Up to 4 sequences at which generation stops."
    )
    stream: bool | None = Field(None, description="Stream partial progress as server-sent events.")
    temperature: float | None = Field(
        None, ge=0.0, le=2.0, description="Sampling temperature between 0 and 2."
    )
    thinking: (
        Annotated[FireworksThinkingEnabled | FireworksThinkingDisabled, Field(discriminator="type")]
        | None
    ) = Field(None, description="Extended thinking (Anthropic-compatible); or reasoning_effort.")
    tool_choice: Literal["auto", "none", "any", "required"] | dict[str, Any] | None = Field(
        None, description="Whether and which tool the model calls."
    )
    tools: list[dict[str, Any]] | None = Field(None, description="Tools the model may call.")
    top_k: int | None = Field(None, ge=0, description="Sample only from the k most likely tokens.")
    top_logprobs: int | None = Field(
        None, ge=0, le=5, description="Most likely tokens returned per position, 0 to 5."
    )
    top_p: float | None = Field(
        None, ge=0.0, le=1.0, description="Nucleus sampling probability mass."
    )
    typical_p: float | None = Field(None, ge=0.0, le=1.0, description="Typical-p sampling mass.")
    user: str | None = Field(None, description="End-user ID that helps detect abuse.")
