"""Lattice embeddings: the request model and the endpoint class.

:class:`LatticeEmbedRequest` lists the body of ``POST /v1/embeddings`` on a local Lattice server
(``lattice serve`` started on a vision-language checkpoint, or the ``lattice_serve`` daemon with
an embedding model). Each item of ``input`` is a text, or an inline ``data:`` image in the
OpenAI ``image_url`` part shape; the returned vectors are already L2-normalized.

Source: https://pypi.org/project/lionagi/0.36.0/ (lionagi/providers/lattice/embed.py, _config.py)
Source: https://github.com/ohdearquant/lattice/blob/main/docs/serve-http-api.md
Source: https://github.com/ohdearquant/lattice/blob/main/crates/inference/src/serve/embeddings.rs
"""

from typing import Annotated, Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["LatticeEmbedRequest"]


class LatticeEmbedRequest(RequestModel):
    """Body of Lattice ``POST /v1/embeddings``."""

    model: str | None = Field(
        None, description="Model id; echoed back, since the server serves exactly one model."
    )
    input: str | Annotated[list[str | dict[str, Any]], Field(max_length=4096)] = Field(
        description="A text, or up to 4096 items: texts and inline data-URI image_url parts."
    )
    pooling: Literal["mean_visual", "last_token"] | None = Field(
        None, description="How each item's hidden states are pooled (server default mean_visual)."
    )
