"""Ollama's native text generation endpoint: the request model and the endpoint class.

:class:`OllamaGenerateRequest` lists the body of ``POST /api/generate`` on a local Ollama
server: the prompt fields (``model``, ``prompt``, ``suffix``, ``images``, ``system``,
``template``), output control (``format``, ``think``, ``raw``, ``stream``, ``logprobs``,
``top_logprobs``), model control (``options``, ``keep_alive``, ``truncate``, ``shift``) and the
deprecated ``context`` token list.

Source: https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-completion
Source: https://github.com/ollama/ollama/blob/main/docs/openapi.yaml
Source: https://github.com/ollama/ollama/blob/main/api/types.go
"""

from typing import Any, Literal

from pydantic import Field

from provcat.request import RequestModel

__all__ = ["OllamaGenerateRequest"]


class OllamaGenerateRequest(RequestModel):
    """Body of Ollama ``POST /api/generate``."""

    model: str = Field(description="Name of the local model, as 'model:tag', e.g. 'llama3.2'.")
    prompt: str | None = Field(None, description="Prompt text the model continues or answers.")
    suffix: str | None = Field(
        None, description="Text placed after the response, for fill-in-the-middle models."
    )
    images: list[str] | None = Field(
        None, description="Base64-encoded images for multimodal models."
    )
    think: bool | Literal["low", "medium", "high", "max"] | None = Field(
        None,
        description="Whether a thinking model reasons before answering, or how hard it reasons.",
    )
    format: Literal["json"] | dict[str, Any] | None = Field(
        None, description="Output format: 'json' mode, or a JSON schema the output must match."
    )
    options: dict[str, Any] | None = Field(
        None,
        description="Runtime model parameters from the Modelfile reference, e.g. temperature, num_ctx, seed.",
    )
    system: str | None = Field(
        None, description="System message that replaces the one set in the Modelfile."
    )
    template: str | None = Field(
        None, description="Prompt template that replaces the one set in the Modelfile."
    )
    stream: bool | None = Field(
        None,
        description="Stream partial responses; false returns one object (server default true).",
    )
    raw: bool | None = Field(
        None, description="Send the prompt as is, without applying the prompt template."
    )
    keep_alive: str | int | float | None = Field(
        None,
        description="How long the model stays loaded after the call, e.g. '5m', or seconds; 0 unloads it.",
    )
    context: list[int] | None = Field(
        None,
        description="Deprecated: token context returned by an earlier /api/generate call, for short memory.",
    )
    logprobs: bool | None = Field(
        None, description="Return log probabilities of the generated tokens."
    )
    top_logprobs: int | None = Field(
        None,
        ge=0,
        le=20,
        description="Number of most likely alternatives to return per token position when logprobs is on.",
    )
    truncate: bool | None = Field(
        None, description="Truncate the input when the rendered prompt exceeds the context length."
    )
    shift: bool | None = Field(
        None,
        description="Shift the context window instead of failing when the context limit is reached.",
    )
