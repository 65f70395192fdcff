"""OpenAI embeddings: the request model and the endpoint class.

``EmbeddingsRequest`` lists every documented body field of ``POST /v1/embeddings``.

Source: https://developers.openai.com/api/reference/resources/embeddings/methods/create
Source: https://github.com/openai/openai-python/blob/main/src/openai/types/embedding_create_params.py
"""

from typing import Annotated, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["EmbeddingsRequest"]


class EmbeddingsRequest(RequestModel):
    """Body of ``POST /v1/embeddings``."""

    input: (
        Annotated[str, Field(min_length=1)]
        | Annotated[list[str], Field(min_length=1, max_length=2048)]
        | Annotated[list[int], Field(min_length=1, max_length=2048)]
        | Annotated[list[list[int]], Field(min_length=1, max_length=2048)]
    ) = Field(
        description="Text or token IDs to embed: a string, or up to 2048 strings or token arrays."
    )
    model: str = Field(description="Embedding model ID, e.g. text-embedding-3-small.")
    dimensions: int | None = Field(
        None, ge=1, description="Size of the output vectors (text-embedding-3 and later)."
    )
    encoding_format: Literal["float", "base64"] | None = Field(
        None, description="Return embeddings as float lists or base64 strings."
    )
    user: str | None = Field(
        None, description="End-user ID that helps OpenAI monitor and detect abuse."
    )
