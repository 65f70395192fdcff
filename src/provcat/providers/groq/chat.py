"""Groq chat completions: the request model of ``POST https://api.groq.com/openai/v1/chat/completions``.

``GroqChatRequest`` lists Groq's documented body fields. Messages, tools, tool choices, response
formats, documents, Compound settings and search settings are polymorphic or Groq-internal and
stay plain JSON objects. Fields Groq documents as "not yet supported by any of our models"
(``logit_bias``, ``logprobs``, ``top_logprobs``, the penalties, ``metadata``, ``store``) are kept,
as the API accepts them.

Source: https://console.groq.com/docs/api-reference#chat-create
Source: https://console.groq.com/docs/reasoning
Source: https://github.com/groq/groq-python/blob/main/src/groq/types/chat/completion_create_params.py
Checked against groq 1.7.0 (tests/drift) on 2026-12-01.
"""

from typing import Annotated, Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["GroqChatRequest", "GroqFunctionCallOption"]


class GroqFunctionCallOption(RequestModel):
    """Forces the model to call one named function (deprecated ``function_call`` form)."""

    name: str = Field(description="Name of the function the model must call.")


class GroqChatRequest(RequestModel):
    """Body of Groq ``POST /openai/v1/chat/completions``."""

    messages: list[dict[str, Any]] = Field(
        description="Conversation so far, as a list of role-tagged message objects."
    )
    model: str = Field(description="Model ID, e.g. llama-3.3-70b-versatile or openai/gpt-oss-120b.")
    citation_options: Literal["enabled", "disabled"] | None = Field(
        None, description="Whether answers cite the documents or web results they used."
    )
    compound_custom: dict[str, Any] | None = Field(
        None, description="Models and tools used by the Compound systems."
    )
    disable_tool_validation: bool | None = Field(
        None, description="Return tool calls without checking them against tools."
    )
    documents: list[dict[str, Any]] | None = Field(
        None, description="Documents (text or JSON sources) the model may cite."
    )
    exclude_domains: list[str] | None = Field(
        None, description="Deprecated (use search_settings.exclude_domains)."
    )
    frequency_penalty: float | None = Field(
        None, ge=-2.0, le=2.0, description="Frequency penalty; not yet supported by any model."
    )
    function_call: Literal["none", "auto", "required"] | GroqFunctionCallOption | None = Field(
        None, description="Deprecated in favour of tool_choice."
    )
    functions: list[dict[str, Any]] | None = Field(
        None, description="Deprecated in favour of tools."
    )
    include_domains: list[str] | None = Field(
        None, description="Deprecated (use search_settings.include_domains)."
    )
    include_reasoning: bool | None = Field(
        None,
        description="Whether the response carries a reasoning field; not with reasoning_format.",
    )
    logit_bias: dict[str, int] | None = Field(
        None, description="Token likelihood changes; not yet supported by any model."
    )
    logprobs: bool | None = Field(
        None, description="Return token log probabilities; not yet supported by any model."
    )
    max_completion_tokens: int | None = Field(None, ge=1, description="Cap on generated tokens.")
    max_tokens: int | None = Field(
        None, ge=1, description="Deprecated in favour of max_completion_tokens."
    )
    metadata: dict[str, str] | None = Field(None, description="Not currently supported.")
    n: int | None = Field(
        None, ge=1, le=1, description="Number of choices; only 1 is supported (else 400)."
    )
    parallel_tool_calls: bool | None = Field(
        None, description="Whether the model may call several tools in one turn."
    )
    presence_penalty: float | None = Field(
        None, ge=-2.0, le=2.0, description="Presence penalty; not yet supported by any model."
    )
    reasoning_effort: Literal["none", "default", "low", "medium", "high"] | None = Field(
        None,
        description="Reasoning effort: none/default for qwen3; low/medium/high for gpt-oss and "
        "qwen3.8.",
    )
    reasoning_format: Literal["hidden", "raw", "parsed"] | None = Field(
        None, description="How reasoning tokens are returned; not with include_reasoning."
    )
    response_format: dict[str, Any] | None = Field(
        None, description="Output format: text, json_object, or json_schema on supported models."
    )
    search_settings: dict[str, Any] | None = Field(
        None, description="Web search settings (country, domains, images) for search tools."
    )
    seed: int | None = Field(None, description="Seed for best-effort deterministic sampling.")
    service_tier: Literal["auto", "on_demand", "flex", "performance"] | None = Field(
        None, description="Service tier (default on_demand)."
    )
    stop: str | Annotated[list[str], Field(max_length=4)] | None = Field(
        None, description="Up to 4 sequences at which generation stops."
    )
    store: bool | None = Field(None, description="Not currently supported.")
    stream: bool | None = Field(None, description="Stream partial deltas as server-sent events.")
    temperature: float | None = Field(
        None, ge=0.0, le=2.0, description="Sampling temperature between 0 and 2."
    )
    tool_choice: Literal["none", "auto", "required"] | dict[str, Any] | None = Field(
        None, description="Whether and which tool the model calls."
    )
    tools: Annotated[list[dict[str, Any]], Field(max_length=128)] | None = Field(
        None, description="Tools the model may call (at most 128 functions)."
    )
    top_logprobs: int | None = Field(
        None, ge=0, le=20, description="Alternatives per token; not yet supported by any model."
    )
    top_p: float | None = Field(
        None, ge=0.0, le=1.0, description="Nucleus sampling probability mass."
    )
    user: str | None = Field(None, description="End-user ID used to detect abuse.")
