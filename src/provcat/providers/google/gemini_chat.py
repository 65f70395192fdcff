"""Gemini's OpenAI-compatible Chat Completions: OpenAI's body plus Google's ``extra_body``.

Google's compatibility layer takes the Chat Completions body and, for Gemini features OpenAI's
API has no field for, a top-level ``extra_body`` object holding a ``google`` object. With the
openai Python SDK that is ``extra_body={"extra_body": {"google": {...}}}``: the SDK merges its own
``extra_body`` argument into the body, so the JSON carries the inner ``extra_body`` key. The page
documents two such settings: ``cached_content`` (a context cache made with Gemini's caching API)
and ``thinking_config`` (Gemini's own thinking controls: a token budget for Gemini 2.5 models, a
thinking level for Gemini 3 models, and whether thought summaries come back).

``reasoning_effort`` and ``thinking_config`` control the same thing, and the page says they
cannot be used at the same time; Gemini 3's guide says a request may not carry both
``thinking_level`` and ``thinking_budget``. Both are refused here, before anything is sent.

Source: https://ai.google.dev/gemini-api/docs/openai  (sections "Thinking" and "extra_body")
Source: https://ai.google.dev/gemini-api/docs/thinking  (thinking budgets and levels)
Source: https://ai.google.dev/gemini-api/docs/caching  (cached content names)
"""

from typing import Literal, Self

from pydantic import Field, model_validator

from provcat.endpoints.protocols.openai_chat import ChatCompletionsRequest
from provcat.endpoints.request import RequestModel

__all__ = [
    "GeminiChatRequest",
    "GeminiExtraBody",
    "GeminiOptions",
    "GeminiThinkingConfig",
    "ThinkingLevel",
]

ThinkingLevel = Literal["minimal", "low", "medium", "high"]
"""Gemini 3's thinking levels; which of them a model accepts is in its inventory entry."""


class GeminiThinkingConfig(RequestModel):
    """Gemini's native thinking controls, passed through the compatibility layer."""

    thinking_budget: int | None = Field(
        None,
        ge=-1,
        description=(
            "Thinking tokens for Gemini 2.5 models: 0 turns thinking off where the model "
            "allows it, -1 lets the model decide."
        ),
    )
    thinking_level: ThinkingLevel | None = Field(
        None, description="How much Gemini 3 models think before answering."
    )
    include_thoughts: bool | None = Field(
        None, description="Return thought summaries with the answer."
    )

    @model_validator(mode="after")
    def _one_control(self) -> Self:
        if self.thinking_budget is not None and self.thinking_level is not None:
            raise ValueError(
                "thinking_budget and thinking_level cannot both be set: use thinking_level for "
                "Gemini 3 models, thinking_budget for Gemini 2.5 models"
            )
        return self


class GeminiOptions(RequestModel):
    """The ``google`` object: Gemini settings that OpenAI's body has no field for."""

    cached_content: str | None = Field(
        None,
        min_length=1,
        description="Name of a context cache to answer from, e.g. cachedContents/abc123.",
    )
    thinking_config: GeminiThinkingConfig | None = Field(
        None, description="Gemini's own thinking controls (instead of reasoning_effort)."
    )


class GeminiExtraBody(RequestModel):
    """The body's ``extra_body`` object, which holds the ``google`` settings."""

    google: GeminiOptions | None = Field(None, description="Gemini-specific settings.")


class GeminiChatRequest(ChatCompletionsRequest):
    """Body of ``POST https://generativelanguage.googleapis.com/v1beta/openai/chat/completions``."""

    extra_body: GeminiExtraBody | None = Field(
        None, description="Gemini features without an OpenAI field: cached content, thinking."
    )

    @model_validator(mode="after")
    def _one_thinking_control(self) -> Self:
        google = self.extra_body.google if self.extra_body is not None else None
        if self.reasoning_effort is not None and google is not None and google.thinking_config:
            raise ValueError(
                "reasoning_effort and extra_body.google.thinking_config cannot be used together "
                "(Google's OpenAI-compatibility page): set one of them"
            )
        return self
