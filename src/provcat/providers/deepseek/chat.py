"""DeepSeek chat completions: the request model and the endpoint class.

``DeepSeekChatRequest`` is the JSON body of ``POST https://api.deepseek.com/chat/completions``
(current models: ``deepseek-flash`` and ``deepseek-v4-pro``; the catalog's ``models:`` inventory
holds their lifecycle, including the retired ``deepseek-chat``/``deepseek-reasoner``). Beyond the OpenAI-style fields it carries DeepSeek's
``thinking`` switch and ``reasoning_effort``. The small nested objects (thinking switch, response
format, stream options) are request models of their own; messages, tools and an object-form
``tool_choice`` stay plain JSON objects.

``frequency_penalty`` and ``presence_penalty`` are kept: the API still accepts them, although
thinking mode ignores them (as it ignores ``temperature`` and ``top_p``).

Source: https://api-docs.deepseek.com/api/create-chat-completion
Source: https://api-docs.deepseek.com/guides/thinking_mode
Reviewed against both pages on 2026-12-01: the thinking-mode guide now documents three effort
tiers (``EFFORT_TIERS``), where it used to document two.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = [
    "EFFORT_TIERS",
    "DeepSeekChatRequest",
    "DeepSeekResponseFormat",
    "DeepSeekStreamOptions",
    "DeepSeekThinking",
]


DeepSeekEffort = Literal["minimal", "low", "medium", "high", "xhigh", "max", "ultra"]
"""The reasoning_effort values DeepSeek accepts."""

EFFORT_TIERS: Mapping[str, str] = MappingProxyType(
    {
        "minimal": "low",
        "low": "low",
        "medium": "high",
        "high": "high",
        "xhigh": "high",
        "max": "max",
        "ultra": "max",
    }
)
"""Requested effort -> the tier DeepSeek runs (thinking-mode guide, "Thinking Effort Control")."""


def _effort_description() -> str:
    tiers: dict[str, list[str]] = {}
    for requested, tier in EFFORT_TIERS.items():
        tiers.setdefault(tier, []).append(requested)
    runs = "; ".join(f"{'/'.join(names)} -> {tier}" for tier, names in tiers.items())
    return f"Thinking effort; the API runs three tiers: {runs} (default high)."


class DeepSeekThinking(RequestModel):
    """Switch between thinking (chain-of-thought) and non-thinking mode."""

    type: Literal["enabled", "disabled"] = Field(
        description="'enabled' turns thinking mode on, 'disabled' turns it off."
    )


class DeepSeekResponseFormat(RequestModel):
    """Output format of the completion."""

    type: Literal["text", "json_object"] = Field(
        description="'json_object' enables JSON Output mode; 'text' is the default."
    )


class DeepSeekStreamOptions(RequestModel):
    """Options that apply only when streaming."""

    include_usage: bool | None = Field(
        None, description="Send a final chunk with token usage before [DONE]."
    )


class DeepSeekChatRequest(RequestModel):
    """Body of ``POST https://api.deepseek.com/chat/completions``."""

    messages: list[dict[str, Any]] = Field(
        min_length=1, description="Conversation so far as role/content message objects."
    )
    model: str = Field(
        description=(
            "Model ID, such as deepseek-flash or deepseek-v4-pro (the catalog's model "
            "inventory lists the current and retired ones)."
        )
    )
    thinking: DeepSeekThinking | None = Field(
        None, description="Turn thinking mode on or off; it is on by default."
    )
    reasoning_effort: DeepSeekEffort | None = Field(None, description=_effort_description())
    frequency_penalty: float | None = Field(
        None, ge=-2, le=2, description="Penalty proportional to how often a token appeared."
    )
    presence_penalty: float | None = Field(
        None, ge=-2, le=2, description="Penalty on tokens that already appeared at all."
    )
    max_tokens: int | None = Field(
        None, ge=1, description="Upper bound on generated tokens, reasoning included."
    )
    response_format: DeepSeekResponseFormat | None = Field(
        None, description="Plain text or JSON Output mode."
    )
    stop: str | Annotated[list[str], Field(max_length=16)] | None = Field(
        None, description="Up to 16 sequences that end generation."
    )
    stream: bool | None = Field(None, description="Stream the answer as server-sent events.")
    stream_options: DeepSeekStreamOptions | None = Field(
        None, description="Streaming options; only valid when stream is true."
    )
    temperature: float | None = Field(
        None, ge=0, le=2, description="Sampling randomness; higher is more varied."
    )
    top_p: float | None = Field(None, ge=0, le=1, description="Nucleus sampling threshold.")
    tools: list[dict[str, Any]] | None = Field(
        None, max_length=128, description="Function tools the model may call (at most 128)."
    )
    tool_choice: Literal["none", "auto", "required"] | dict[str, Any] | None = Field(
        None, description="Whether and which tool the model must call."
    )
    logprobs: bool | None = Field(
        None, description="Return log probabilities of the output tokens."
    )
    top_logprobs: int | None = Field(
        None,
        ge=0,
        le=20,
        description="Most likely alternatives returned per token; needs logprobs.",
    )
