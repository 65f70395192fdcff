"""NVIDIA NIM text embeddings: the request model and the endpoint class.

``NvidiaNimEmbeddingsRequest`` is the JSON body of ``POST /v1/embeddings`` on NVIDIA's NeMo
Retriever embedding NIMs, hosted at ``https://integrate.api.nvidia.com/v1/embeddings`` or
self-hosted. Besides the OpenAI embedding fields it carries NVIDIA's retrieval extensions:
``input_type`` (query or passage), ``truncate``, ``modality`` and ``embedding_type``.

Source: https://docs.nvidia.com/nim/nemo-retriever/embedding/latest/reference.html
Source: https://docs.nvidia.com/nim/nemo-retriever/embedding/2.4/reference.html
Source: https://docs.nvidia.com/nim/nemo-retriever/text-embedding/2.2.0/reference.html
Reviewed on 2026-12-01: NVIDIA's embedding NIM docs moved from ``nemo-retriever/text-embedding/``
to ``nemo-retriever/embedding/``; the body fields those references show (model, input,
input_type, modality, truncate, dimensions, embedding_type) match this model.
"""

from typing import Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["EmbeddingModality", "NvidiaNimEmbeddingsRequest"]

EmbeddingModality = Literal["text", "image", "text_image"]
"""Kinds of content one embedding input may hold."""


class NvidiaNimEmbeddingsRequest(RequestModel):
    """Body of ``POST /v1/embeddings`` on an NVIDIA retrieval embedding NIM."""

    model: str = Field(description="Embedding model ID, e.g. nvidia/llama-3.2-nv-embedqa-1b-v2.")
    input: str | list[str] = Field(
        description="Text (or image data URL) to embed, or a list of them."
    )
    input_type: Literal["query", "passage"] | None = Field(
        None, description="Embed as a search query or as a document passage."
    )
    encoding_format: Literal["float", "base64"] | None = Field(
        None, description="Return vectors as float arrays or base64 strings."
    )
    truncate: Literal["NONE", "START", "END"] | None = Field(
        None, description="Cut over-long input from the start or end, or reject it (NONE)."
    )
    dimensions: int | None = Field(
        None, ge=1, description="Shortened output size for Matryoshka-capable models."
    )
    embedding_type: Literal["float", "binary", "ubinary", "int8", "uint8"] | None = Field(
        None, description="Numeric type of the returned vectors."
    )
    modality: EmbeddingModality | list[EmbeddingModality] | None = Field(
        None, description="Content kind of the input, one value or one per input item."
    )
    user: str | None = Field(None, description="Identifier of the end user, for tracking.")
