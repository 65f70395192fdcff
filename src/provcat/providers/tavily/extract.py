"""Tavily page extraction: the request model and the endpoint class.

:class:`TavilyExtractRequest` lists the JSON body of ``POST https://api.tavily.com/extract``:
the URLs, extraction depth and output format, an optional ``query`` that reranks the extracted
content into ``chunks_per_source`` chunks, images, favicons, credit usage and a timeout.

Source: https://docs.tavily.com/documentation/api-reference/endpoint/extract
Source: https://tavily.com/.well-known/openapi.json
Source: https://github.com/tavily-ai/tavily-python/blob/master/tavily/tavily.py
"""

from typing import Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["TavilyExtractRequest"]


class TavilyExtractRequest(RequestModel):
    """Body of Tavily ``POST /extract``."""

    urls: str | list[str] = Field(description="URL, or list of URLs, to extract content from.")
    query: str | None = Field(
        None, description="User intent used to rerank the extracted chunks by relevance."
    )
    chunks_per_source: int | None = Field(
        None,
        ge=1,
        le=5,
        description="Most relevant chunks (up to 500 chars each) per URL; only used with query.",
    )
    extract_depth: Literal["basic", "advanced"] | None = Field(
        None,
        description="basic, or advanced for tables and embedded content at higher cost and latency.",
    )
    format: Literal["markdown", "text"] | None = Field(
        None, description="Format of the extracted content (default markdown)."
    )
    include_images: bool | None = Field(
        None, description="Add the images found on each page to the response."
    )
    include_favicon: bool | None = Field(None, description="Add each result's favicon URL.")
    include_usage: bool | None = Field(
        None, description="Add the credits this request used to the response."
    )
    timeout: float | None = Field(
        None,
        ge=1.0,
        le=60.0,
        description="Seconds to wait per extraction (default 10 for basic, 30 for advanced).",
    )
