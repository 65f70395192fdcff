"""Mistral embeddings: the request model of ``POST https://api.mistral.ai/v1/embeddings``.

Source: https://docs.mistral.ai/api/endpoint/embeddings
Source: https://github.com/mistralai/client-python/blob/main/src/mistralai/client/models/embeddingrequest.py
Checked against mistralai 3.7.0 (tests/drift) on 2026-12-01.
"""

from typing import Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["MistralEmbeddingsRequest"]


class MistralEmbeddingsRequest(RequestModel):
    """Body of Mistral ``POST /v1/embeddings``."""

    model: str = Field(description="Embedding model ID, e.g. mistral-embed or codestral-embed.")
    input: str | list[str] = Field(description="Text, or texts, to embed.")
    metadata: dict[str, Any] | None = Field(None, description="Metadata stored with the request.")
    output_dimension: int | None = Field(
        None, ge=1, description="Size of the output vectors, for models that support it."
    )
    output_dtype: Literal["float", "int8", "uint8", "binary", "ubinary"] | None = Field(
        None, description="Numeric type of the returned vectors."
    )
    encoding_format: Literal["float", "base64"] | None = Field(
        None, description="Return vectors as float lists or base64 strings."
    )
