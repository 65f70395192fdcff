"""Together AI embeddings: the request model of ``POST https://api.together.ai/v1/embeddings``.

Source: https://docs.together.ai/reference/embeddings
Source: https://github.com/togethercomputer/together-py/blob/main/src/together/types/embedding_create_params.py
Checked against together 3.1.1 (tests/drift) on 2026-12-01.
"""

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["TogetherEmbeddingsRequest"]


class TogetherEmbeddingsRequest(RequestModel):
    """Body of Together ``POST /v1/embeddings``."""

    model: str = Field(description="Embedding model name, e.g. BAAI/bge-large-en-v1.5.")
    input: str | list[str] = Field(description="Text, or texts, to embed.")
