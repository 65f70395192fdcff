"""Exa find-similar: the request model and the endpoint class.

:class:`ExaFindSimilarRequest` lists the JSON body of ``POST https://api.exa.ai/findSimilar``:
the URL to find pages like, whether to drop its own domain, and the filters and ``contents``
options shared with ``/search``. Exa's SDKs mark this endpoint deprecated in favour of
``/search``; the API still serves it. Wire names are camelCase; attributes are snake_case with
aliases, so serialize with ``by_alias=True``.

Source: https://github.com/exa-labs/openapi-spec/blob/master/exa-openapi-spec.yaml
Source: https://github.com/exa-labs/exa-py/blob/master/exa_py/api.py
Checked against exa-py 2.28.0 (tests/drift) on 2026-12-01 (``moderation`` dropped: exa-py's
find_similar does not take it).
"""

from typing import Annotated

from pydantic import Field

from provcat.endpoints.request import RequestModel
from provcat.providers.exa.contents import ExaContentsOptions
from provcat.providers.exa.search import ExaCategory, ExaFlags

__all__ = ["ExaFindSimilarRequest"]

_Domains = Annotated[list[str], Field(max_length=1200)]
_OnePhrase = Annotated[list[str], Field(max_length=1)]


class ExaFindSimilarRequest(RequestModel):
    """Body of Exa ``POST /findSimilar``."""

    url: str = Field(description="URL of the page to find similar pages for.")
    exclude_source_domain: bool | None = Field(
        None,
        alias="excludeSourceDomain",
        description="Leave out results from the same domain as url.",
    )
    num_results: int | None = Field(
        None, ge=1, le=100, alias="numResults", description="Number of results (default 10)."
    )
    include_domains: _Domains | None = Field(
        None, alias="includeDomains", description="Only return results from these domains."
    )
    exclude_domains: _Domains | None = Field(
        None, alias="excludeDomains", description="Never return results from these domains."
    )
    start_crawl_date: str | None = Field(
        None,
        alias="startCrawlDate",
        description="Deprecated: only links Exa discovered after this ISO 8601 date.",
    )
    end_crawl_date: str | None = Field(
        None,
        alias="endCrawlDate",
        description="Deprecated: only links Exa discovered before this ISO 8601 date.",
    )
    start_published_date: str | None = Field(
        None,
        alias="startPublishedDate",
        description="Only links published after this ISO 8601 date.",
    )
    end_published_date: str | None = Field(
        None,
        alias="endPublishedDate",
        description="Only links published before this ISO 8601 date.",
    )
    include_text: _OnePhrase | None = Field(
        None,
        alias="includeText",
        description="Phrase (one, up to 5 words) that result text must contain.",
    )
    exclude_text: _OnePhrase | None = Field(
        None,
        alias="excludeText",
        description="Phrase (one, up to 5 words) that result text must not contain.",
    )
    category: ExaCategory | None = Field(None, description="Data category to focus on.")
    flags: ExaFlags | None = Field(None, description="Experimental flags for Exa usage.")
    contents: ExaContentsOptions | bool | None = Field(
        None, description="What page contents to return with each result."
    )
