"""Tavily web search: the request model and the endpoint class.

:class:`TavilySearchRequest` lists the JSON body of ``POST https://api.tavily.com/search``:
the query, depth and topic, result and chunk counts, date filters (``time_range``,
``start_date``/``end_date`` and the older news-only ``days``), what to include in the answer
(LLM answer, raw content, images and their descriptions, favicons, credit usage), domain and
country filters, ``auto_parameters`` and ``exact_match``.

Source: https://docs.tavily.com/documentation/api-reference/endpoint/search
Source: https://tavily.com/.well-known/openapi.json
Source: https://github.com/tavily-ai/tavily-python/blob/master/tavily/tavily.py
Checked against tavily-python 0.8.5 (tests/drift) on 2026-12-01.
"""

from typing import Annotated, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel, SdkDeviation

_DOCS = "https://docs.tavily.com/documentation/api-reference/endpoint/search"

__all__ = ["TavilySearchRequest"]


class TavilySearchRequest(RequestModel):
    """Body of Tavily ``POST /search``."""

    sdk_deviations = (
        *(
            SdkDeviation(
                "tavily-python",
                name,
                "extra",
                f"a documented body field ({_DOCS}); tavily-python passes it through **kwargs",
            )
            for name in ("chunks_per_source", "include_image_descriptions")
        ),
        SdkDeviation(
            "tavily-python",
            "time_range",
            "values",
            f"the API reference also takes the short forms d, w, m and y ({_DOCS}); "
            "tavily-python types only the long ones",
        ),
    )

    query: str = Field(description="Search query; Tavily advises keeping it under 400 characters.")
    search_depth: Literal["advanced", "basic", "fast", "ultra-fast"] | None = Field(
        None,
        description="Latency/relevance trade-off; advanced and fast return chunks (default basic).",
    )
    chunks_per_source: int | None = Field(
        None,
        ge=1,
        le=3,
        description="Most relevant chunks (up to 500 chars each) per source, for advanced/fast depth.",
    )
    max_results: int | None = Field(
        None, ge=0, le=20, description="Maximum number of search results (default 5)."
    )
    topic: Literal["general", "news", "finance"] | None = Field(
        None, description="Search category (default general)."
    )
    time_range: Literal["day", "week", "month", "year", "d", "w", "m", "y"] | None = Field(
        None, description="Only results published or updated within this period before today."
    )
    start_date: str | None = Field(
        None, description="Only results published or updated on or after this date (YYYY-MM-DD)."
    )
    end_date: str | None = Field(
        None, description="Only results published or updated on or before this date (YYYY-MM-DD)."
    )
    days: int | None = Field(
        None,
        gt=0,
        description="Older news-topic filter: days back from today to include; time_range supersedes it.",
    )
    include_answer: bool | Literal["basic", "advanced"] | None = Field(
        None,
        description="Add an LLM answer: true or 'basic' for a quick one, 'advanced' for a detailed one.",
    )
    include_raw_content: bool | Literal["markdown", "text"] | None = Field(
        None,
        description="Add each result's cleaned page content: true or 'markdown', or 'text'.",
    )
    include_images: bool | None = Field(
        None, description="Also run an image search and return its results."
    )
    include_image_descriptions: bool | None = Field(
        None, description="With include_images, add a text description of each image."
    )
    include_favicon: bool | None = Field(None, description="Add each result's favicon URL.")
    include_domains_mode: Literal["restrict", "prefer"] | None = Field(
        None, description="Whether include_domains restricts the results or only prefers them."
    )
    max_age_hours: int | None = Field(
        None, ge=0, description="Oldest cached page content to accept, in hours."
    )
    fetch_timeout: float | None = Field(
        None, gt=0, description="Seconds to wait for fetching a page's content."
    )
    cache_fallback: bool | None = Field(
        None, description="Fall back to cached content when a live fetch fails."
    )
    language: str | None = Field(None, description="Language to search in, e.g. 'en'.")
    filter_by_language: bool | None = Field(
        None, description="Only return results in the requested language."
    )
    include_domains: Annotated[list[str], Field(max_length=300)] | None = Field(
        None, description="Only return results from these domains (up to 300, wildcards allowed)."
    )
    exclude_domains: Annotated[list[str], Field(max_length=150)] | None = Field(
        None, description="Never return results from these domains (up to 150)."
    )
    country: str | None = Field(
        None,
        description="Boost results from this country, given by its lower-case English name; general topic only.",
    )
    auto_parameters: bool | None = Field(
        None,
        description="Let Tavily choose search settings from the query; explicit values still win.",
    )
    include_usage: bool | None = Field(
        None, description="Add the credits this request used to the response."
    )
    exact_match: bool | None = Field(
        None, description="Only return results containing the quoted phrases of the query verbatim."
    )
