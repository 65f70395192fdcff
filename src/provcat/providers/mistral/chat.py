"""Mistral chat completions: the request model of ``POST https://api.mistral.ai/v1/chat/completions``.

``MistralChatRequest`` lists the body fields Mistral documents. They differ from OpenAI's:
``random_seed`` instead of ``seed``, ``safe_prompt``, ``prompt_mode``, ``min_tokens``,
``guardrails``, prompt log probabilities, its own ``tool_choice`` mode ``any`` and service tiers
(``auto``, ``standard_only``); no ``user``, ``store``, ``logit_bias`` or audio output. Messages,
tools, response formats, predicted output and guardrail configs stay plain JSON objects.

Source: https://docs.mistral.ai/api/endpoint/chat
Source: https://github.com/mistralai/client-python/blob/main/src/mistralai/client/models/chatcompletionrequest.py
Checked against mistralai 3.7.0 (tests/drift) on 2026-12-01.
"""

from typing import Annotated, Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["MistralChatRequest"]


class MistralChatRequest(RequestModel):
    """Body of Mistral ``POST /v1/chat/completions``."""

    model: str = Field(description="Model ID, e.g. mistral-medium-3-5 or mistral-small-latest.")
    messages: list[dict[str, Any]] = Field(
        description="Conversation so far, as role-tagged message objects."
    )
    temperature: float | None = Field(
        None, ge=0.0, description="Sampling temperature; Mistral recommends 0.0 to 0.7."
    )
    top_p: float | None = Field(
        None, ge=0.0, le=1.0, description="Nucleus sampling probability mass."
    )
    max_tokens: int | None = Field(
        None, ge=0, description="Cap on generated tokens; prompt plus this fits the context."
    )
    min_tokens: int | None = Field(None, ge=0, description="Minimum number of tokens to generate.")
    stream: bool | None = Field(None, description="Stream partial progress as server-sent events.")
    stop: str | list[str] | None = Field(
        None, description="Token, or tokens, at which generation stops."
    )
    random_seed: int | None = Field(
        None, ge=0, description="Seed for deterministic sampling across calls."
    )
    metadata: dict[str, Any] | None = Field(None, description="Metadata stored with the request.")
    response_format: dict[str, Any] | None = Field(
        None, description="Output format: text, json_object or json_schema."
    )
    tools: list[dict[str, Any]] | None = Field(None, description="Tools the model may call.")
    tool_choice: Literal["auto", "none", "any", "required"] | dict[str, Any] | None = Field(
        None, description="auto, none, any/required (must call a tool), or a named function."
    )
    presence_penalty: float | None = Field(
        None, description="Penalty on words and phrases that already appeared."
    )
    frequency_penalty: float | None = Field(
        None, description="Penalty on words by how often they already appeared."
    )
    repetition_penalty: float | None = Field(None, description="Penalty on repeated tokens.")
    top_k: int | None = Field(None, ge=0, description="Sample only from the k most likely tokens.")
    logprobs: bool | None = Field(None, description="Return log probabilities of output tokens.")
    top_logprobs: int | None = Field(
        None, ge=0, description="Most likely tokens returned per position; needs logprobs."
    )
    prompt_logprobs: bool | None = Field(
        None, description="Return log probabilities of the prompt tokens."
    )
    top_prompt_logprobs: int | None = Field(
        None, ge=0, description="Most likely tokens returned per prompt position."
    )
    n: int | None = Field(None, ge=1, description="Completions to return; input billed once.")
    prediction: dict[str, Any] | None = Field(
        None, description="Expected completion content, to speed up the response."
    )
    parallel_tool_calls: bool | None = Field(
        None, description="Whether the model may call several tools in parallel."
    )
    reasoning_effort: Literal["none", "minimal", "low", "medium", "high", "xhigh", "max"] | None = (
        Field(None, description="Reasoning effort; the levels a model takes depend on the model.")
    )
    prompt_mode: Literal["reasoning"] | None = Field(
        None, description="'reasoning' uses the reasoning system prompt of reasoning models."
    )
    guardrails: Annotated[list[dict[str, Any]], Field(min_length=1)] | None = Field(
        None, description="Guardrail configurations applied to the request."
    )
    prompt_cache_key: str | None = Field(
        None, description="Key that groups requests sharing a prompt prefix."
    )
    service_tier: Literal["auto", "standard_only"] | None = Field(
        None, description="Serve with priority capacity when available (auto) or standard only."
    )
    safe_prompt: bool | None = Field(
        None, description="Inject Mistral's safety prompt before the conversation."
    )
