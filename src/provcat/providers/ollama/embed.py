"""Ollama's native embedding endpoint: the request model and the endpoint class.

:class:`OllamaEmbedRequest` lists the body of ``POST /api/embed`` on a local Ollama server
(``model``, ``input``, ``truncate``, ``dimensions``, ``keep_alive``, ``options``). The older
``/api/embeddings`` route is superseded by this one and is not modelled.

Source: https://github.com/ollama/ollama/blob/main/docs/api.md#generate-embeddings
Source: https://github.com/ollama/ollama/blob/main/docs/openapi.yaml
Source: https://github.com/ollama/ollama/blob/main/api/types.go
Source: https://github.com/ollama/ollama-python/blob/main/ollama/_types.py
Checked against ollama 0.6.3 (tests/drift) on 2026-12-01.
"""

from typing import Any

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["OllamaEmbedRequest"]


class OllamaEmbedRequest(RequestModel):
    """Body of Ollama ``POST /api/embed``."""

    model: str = Field(
        min_length=1, description="Name of the local embedding model, e.g. 'all-minilm'."
    )
    input: str | list[str] = Field(description="One text, or a list of texts, to embed.")
    truncate: bool | None = Field(
        None,
        description="Cut each input to the context length; when false an overlong input is an error (server default true).",
    )
    dimensions: int | None = Field(
        None, ge=1, description="Shorten each returned embedding to this many dimensions."
    )
    keep_alive: str | int | float | None = Field(
        None,
        description="How long the model stays loaded after the call, e.g. '5m', or seconds; 0 unloads it.",
    )
    options: dict[str, Any] | None = Field(
        None, description="Runtime model parameters from the Modelfile reference, e.g. num_ctx."
    )
