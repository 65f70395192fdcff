"""Ollama's OpenAI-compatible chat: the request model of ``POST http://localhost:11434/v1/chat/completions``.

Ollama speaks only part of OpenAI's Chat Completions. Its compatibility page lists the request
fields it supports, and marks ``tool_choice``, ``logit_bias``, ``user`` and ``n`` unsupported; the
server decodes the body into a fixed Go struct (``ChatCompletionRequest`` in ``openai/openai.go``),
so any other OpenAI field (``max_completion_tokens``, ``logprobs``, ``service_tier``, audio …) is
dropped without a word. This model takes exactly the supported fields, so such a field is refused
here instead of silently ignored. ``reasoning_effort`` (or ``reasoning.effort``) takes
``high``/``medium``/``low``/``none`` only: the server rejects anything else, and ``none`` turns
thinking off. The server-internal ``_debug_render_only`` switch is left out.

Source: https://github.com/ollama/ollama/blob/main/docs/api/openai-compatibility.mdx
Source: https://github.com/ollama/ollama/blob/main/openai/openai.go  (ChatCompletionRequest, FromChatRequest)
Checked on 2026-12-01 (no SDK types this route: ollama-python covers the native /api routes).
"""

from typing import Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["OllamaOpenAIChatRequest", "OllamaReasoning", "OllamaStreamOptions"]

OllamaEffort = Literal["high", "medium", "low", "none"]


class OllamaStreamOptions(RequestModel):
    """Streaming options; Ollama reads only ``include_usage``."""

    include_usage: bool | None = Field(
        None, description="Send a final chunk with token usage before [DONE]."
    )


class OllamaReasoning(RequestModel):
    """Thinking control for thinking models."""

    effort: OllamaEffort | None = Field(None, description="Thinking effort; none disables it.")


class OllamaOpenAIChatRequest(RequestModel):
    """Body of ``POST /v1/chat/completions`` on an Ollama server."""

    model: str = Field(min_length=1, description="A pulled model's name, e.g. llama3.2.")
    messages: list[dict[str, Any]] = Field(
        description="Conversation so far: text, base64 image or video content, tool calls."
    )
    frequency_penalty: float | None = Field(
        None, description="Penalty on tokens by how often they already appeared."
    )
    presence_penalty: float | None = Field(
        None, description="Penalty on tokens that already appeared at all."
    )
    response_format: dict[str, Any] | None = Field(
        None, description="JSON mode ({type: json_object}) or a json_schema format object."
    )
    seed: int | None = Field(None, description="Sampling seed for reproducible output.")
    stop: str | list[str] | None = Field(None, description="Sequence(s) that end generation.")
    stream: bool | None = Field(None, description="Stream server-sent events.")
    stream_options: OllamaStreamOptions | None = Field(
        None, description="Streaming options (include_usage)."
    )
    temperature: float | None = Field(None, description="Sampling randomness (default 1).")
    top_p: float | None = Field(None, description="Nucleus sampling threshold (default 1).")
    max_tokens: int | None = Field(None, description="Most tokens to generate (num_predict).")
    tools: list[dict[str, Any]] | None = Field(None, description="Functions the model may call.")
    reasoning_effort: OllamaEffort | None = Field(
        None, description="Thinking effort; read only when reasoning is unset."
    )
    reasoning: OllamaReasoning | None = Field(None, description="Thinking control.")
