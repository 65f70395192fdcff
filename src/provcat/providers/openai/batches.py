"""OpenAI Batch API: the request model and the endpoint class.

``BatchRequest`` lists every documented body field of ``POST /v1/batches``, which starts a
batch from an uploaded JSONL file of requests.

Source: https://developers.openai.com/api/reference/resources/batches/methods/create
Source: https://github.com/openai/openai-python/blob/main/src/openai/types/batch_create_params.py
"""

from typing import Literal

from pydantic import Field

from provcat.endpoints.protocols.openai_chat import Metadata
from provcat.endpoints.request import RequestModel

__all__ = ["BatchOutputExpiry", "BatchRequest"]


class BatchOutputExpiry(RequestModel):
    """When the batch's output and error files expire."""

    anchor: Literal["created_at"] = Field(
        description="Timestamp the expiry counts from: the file's creation time."
    )
    seconds: int = Field(
        ge=3600, le=2592000, description="Lifetime after the anchor, 3600 s to 30 days."
    )


class BatchRequest(RequestModel):
    """Body of ``POST /v1/batches``."""

    completion_window: Literal["24h"] = Field(
        description="Time frame for processing the batch; only 24h is supported."
    )
    endpoint: Literal[
        "/v1/responses",
        "/v1/chat/completions",
        "/v1/embeddings",
        "/v1/completions",
        "/v1/moderations",
        "/v1/images/generations",
        "/v1/images/edits",
        "/v1/videos",
    ] = Field(description="API path that every request in the batch is sent to.")
    input_file_id: str = Field(
        description="ID of an uploaded JSONL file (purpose batch) holding the requests."
    )
    metadata: Metadata | None = Field(
        None, description="Up to 16 string key-value pairs stored with the batch."
    )
    output_expires_after: BatchOutputExpiry | None = Field(
        None, description="Expiry policy for the output and error files."
    )
