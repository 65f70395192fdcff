"""Ollama's native text generation endpoint: the request model and the endpoint class.

:class:`OllamaGenerateRequest` lists the body of ``POST /api/generate`` on a local Ollama
server: the prompt fields (``model``, ``prompt``, ``suffix``, ``images``, ``system``,
``template``), output control (``format``, ``think``, ``raw``, ``stream``, ``logprobs``,
``top_logprobs``), model control (``options``, ``keep_alive``, ``truncate``, ``shift``), the
deprecated ``context`` token list, and the experimental image-generation settings (``width``,
``height``, ``steps``).

Source: https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-completion
Source: https://github.com/ollama/ollama/blob/main/docs/openapi.yaml
Source: https://github.com/ollama/ollama/blob/main/api/types.go
Source: https://github.com/ollama/ollama-python/blob/main/ollama/_types.py
Checked against ollama 0.6.3 (tests/drift) on 2026-12-01.
"""

from typing import Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel, SdkDeviation

__all__ = ["OllamaGenerateRequest"]


class OllamaGenerateRequest(RequestModel):
    """Body of Ollama ``POST /api/generate``."""

    # "Certain endpoints stream responses as JSON objects. Streaming can be disabled by
    # providing {"stream": false}" (docs/api.md, Streaming responses); ollama-python's
    # generate() sends stream=False unless asked to stream.
    streams_by_default = True

    sdk_deviations = (
        SdkDeviation(
            "ollama",
            "format",
            "values",
            "ollama-python types '' as its placeholder for no format; the API documents only "
            "'json' or a JSON schema, and the model spells no format as null "
            "(https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-completion)",
        ),
        *(
            SdkDeviation(
                "ollama",
                name,
                "extra",
                f"the server's GenerateRequest takes {name} (api/types.go, "
                "https://github.com/ollama/ollama/blob/main/api/types.go); ollama-python does "
                "not type it yet",
            )
            for name in ("truncate", "shift")
        ),
    )

    model: str = Field(
        min_length=1, description="Name of the local model, as 'model:tag', e.g. 'llama3.2'."
    )
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
    width: int | None = Field(
        None, ge=1, description="Image width in pixels (experimental image generation models)."
    )
    height: int | None = Field(
        None, ge=1, description="Image height in pixels (experimental image generation models)."
    )
    steps: int | None = Field(
        None, ge=1, description="Diffusion steps (experimental image generation models)."
    )
    truncate: bool | None = Field(
        None, description="Truncate the input when the rendered prompt exceeds the context length."
    )
    shift: bool | None = Field(
        None,
        description="Shift the context window instead of failing when the context limit is reached.",
    )
