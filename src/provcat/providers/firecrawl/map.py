"""Firecrawl v1 map: the request model and the endpoint class.

:class:`FirecrawlMapRequest` lists the JSON body of ``POST https://api.firecrawl.dev/v1/map``,
which lists the URLs of a site: the start URL, an optional ``search`` that ranks them, sitemap
handling, subdomains, the link limit, the timeout and use of Firecrawl's index. Wire names are
camelCase; attributes are snake_case with aliases, so serialize with ``by_alias=True``.

Source: https://github.com/firecrawl/firecrawl/blob/main/apps/api/v1-openapi.json
Source: https://github.com/firecrawl/firecrawl/blob/main/apps/python-sdk/firecrawl/v1/client.py
"""

from pydantic import Field

from provcat.request import RequestModel

__all__ = ["FirecrawlMapRequest"]


class FirecrawlMapRequest(RequestModel):
    """Body of Firecrawl ``POST /v1/map``."""

    url: str = Field(description="Base URL of the site to map.")
    search: str | None = Field(None, description="Query that orders the links by relevance.")
    ignore_sitemap: bool | None = Field(
        None, alias="ignoreSitemap", description="Do not read the site's sitemap."
    )
    sitemap_only: bool | None = Field(
        None, alias="sitemapOnly", description="Only return links found in the sitemap."
    )
    include_subdomains: bool | None = Field(
        None,
        alias="includeSubdomains",
        description="Include subdomains of the site (default true).",
    )
    limit: int | None = Field(
        None, ge=1, le=30000, description="Maximum number of links to return (default 5000)."
    )
    timeout: int | None = Field(None, gt=0, description="Timeout in milliseconds; none by default.")
    use_index: bool | None = Field(
        None, alias="useIndex", description="Use Firecrawl's index of known URLs (default true)."
    )
