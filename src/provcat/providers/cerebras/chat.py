"""Cerebras chat completions: the request model of ``POST https://api.cerebras.ai/v1/chat/completions``.

``CerebrasChatRequest`` lists the body fields Cerebras documents: the OpenAI-style ones it serves
plus its own reasoning controls (``reasoning_format``, ``disable_reasoning``, ``clear_thinking``),
minimum output lengths and per-model ``model_parameters``. Messages, tools, response formats and
predicted output stay plain JSON objects; the tool choice is a mode or a selector object.

Source: https://inference-docs.cerebras.ai/api-reference/chat-completions
Source: https://github.com/Cerebras/cerebras-cloud-sdk-python/blob/main/src/cerebras/cloud/sdk/types/chat/completion_create_params.py
Checked against cerebras-cloud-sdk 1.91.0 (tests/drift) on 2026-12-01.
"""

from typing import Annotated, Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel, SdkDeviation

__all__ = ["CerebrasChatRequest", "CerebrasStreamOptions"]


class CerebrasStreamOptions(RequestModel):
    """Options that only apply when ``stream`` is true."""

    include_usage: bool | None = Field(
        None, description="Whether a final chunk carries the token usage."
    )


class CerebrasChatRequest(RequestModel):
    """Body of Cerebras ``POST /v1/chat/completions``."""

    sdk_deviations = tuple(
        SdkDeviation(
            "cerebras-cloud-sdk",
            name,
            "missing",
            f"the {header} request header the SDK can set, not a body field",
        )
        for name, header in (
            ("cf_ray", "CF-RAY"),
            ("x_amz_cf_id", "X-Amz-Cf-Id"),
            ("x_delay_time", "X-delay-time"),
        )
    )

    messages: list[dict[str, Any]] = Field(
        description="Conversation so far, as role-tagged message objects."
    )
    model: str = Field(description="Model ID, e.g. gpt-oss-120b.")
    clear_thinking: bool | None = Field(
        None, description="Drop reasoning from messages before the latest user message."
    )
    disable_reasoning: bool | None = Field(
        None, description="Turn reasoning off for reasoning models."
    )
    frequency_penalty: float | None = Field(
        None, ge=-2.0, le=2.0, description="Penalty on tokens by how often they already appeared."
    )
    logit_bias: dict[str, float] | None = Field(
        None, description="Bias added to the logits of the given token IDs."
    )
    logprobs: bool | None = Field(None, description="Return log probabilities of output tokens.")
    max_completion_tokens: int | None = Field(
        None, ge=0, description="Cap on generated tokens, reasoning tokens included."
    )
    max_tokens: int | None = Field(None, ge=0, description="Cap on generated tokens.")
    min_completion_tokens: int | None = Field(
        None, ge=0, description="Minimum tokens to generate; 0 or unset lets the model decide."
    )
    min_tokens: int | None = Field(
        None, ge=0, description="Minimum tokens to generate; 0 or unset lets the model decide."
    )
    model_parameters: dict[str, Any] | None = Field(
        None, description="Model-specific parameters, checked against the model's own schema."
    )
    n: int | None = Field(None, ge=1, description="Number of choices to generate.")
    parallel_tool_calls: bool | None = Field(
        None, description="Whether the model may call several tools in one turn."
    )
    prediction: dict[str, Any] | None = Field(
        None, description="Predicted output ({type: content, content}) to speed up the response."
    )
    presence_penalty: float | None = Field(
        None, ge=-2.0, le=2.0, description="Penalty on tokens that already appeared at all."
    )
    prompt_cache_key: str | None = Field(
        None, description="Opaque key for requests likely to share prompt prefixes."
    )
    reasoning_effort: Literal["none", "low", "medium", "high"] | None = Field(
        None, description="Reasoning effort of reasoning models."
    )
    reasoning_format: Literal["none", "parsed", "text_parsed", "raw", "hidden"] | None = Field(
        None, description="How reasoning is returned: a separate field, in the text, or hidden."
    )
    response_format: dict[str, Any] | None = Field(
        None, description="Output format: text, json_object or json_schema."
    )
    seed: int | None = Field(None, description="Seed for best-effort deterministic sampling.")
    service_tier: Literal["auto", "default", "flex", "priority"] | None = Field(
        None, description="Processing tier for the request."
    )
    stop: str | Annotated[list[str], Field(max_length=4)] | None = Field(
        None, description="Up to 4 sequences at which generation stops."
    )
    stream: bool | None = Field(None, description="Stream the response as server-sent events.")
    stream_options: CerebrasStreamOptions | None = Field(
        None, description="Streaming options; only with stream=true."
    )
    temperature: float | None = Field(
        None, ge=0.0, le=2.0, description="Sampling temperature between 0 and 2."
    )
    tool_choice: Literal["none", "auto", "required"] | dict[str, Any] | None = Field(
        None, description="Whether and which tool the model calls: a mode or a selector."
    )
    tools: list[dict[str, Any]] | None = Field(None, description="Tools the model may call.")
    top_logprobs: int | None = Field(
        None, ge=0, le=20, description="Most likely tokens returned per position; needs logprobs."
    )
    top_p: float | None = Field(
        None, ge=0.0, le=1.0, description="Nucleus sampling probability mass."
    )
    user: str | None = Field(None, description="End-user ID that helps detect abuse.")
