"""Firecrawl v2 map: the request model of ``POST https://api.firecrawl.dev/v2/map``.

:class:`FirecrawlMapRequest` lists the URLs of a site: the start URL, an optional ``search`` that
ranks them, ``sitemap`` handling (v2's one setting replaces v1's ``ignoreSitemap`` and
``sitemapOnly``), subdomains, query-string handling, the link limit, the timeout and location.
Wire names are camelCase; attributes are snake_case with aliases, so serialize with
``by_alias=True``.

Source: https://docs.firecrawl.dev/api-reference/endpoint/map
Source: https://github.com/firecrawl/firecrawl/blob/main/apps/python-sdk/firecrawl/v2/types.py
Checked against firecrawl-py 4.55.0 (tests/drift) on 2026-12-01.
"""

from typing import Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel
from provcat.providers.firecrawl.scrape import FirecrawlLocation, internal

__all__ = ["FirecrawlMapRequest"]


class FirecrawlMapRequest(RequestModel):
    """Body of Firecrawl ``POST /v2/map``."""

    sdk_deviations = internal("integration")

    url: str = Field(description="Base URL of the site to map.")
    search: str | None = Field(None, description="Query that orders the links by relevance.")
    sitemap: Literal["only", "include", "skip"] | None = Field(
        None, description="Use only the sitemap, include it (default), or skip it."
    )
    include_subdomains: bool | None = Field(
        None, alias="includeSubdomains", description="Include subdomains of the site."
    )
    ignore_query_parameters: bool | None = Field(
        None,
        alias="ignoreQueryParameters",
        description="Treat URLs differing only in query string as one.",
    )
    limit: int | None = Field(None, ge=1, description="Maximum number of links to return.")
    timeout: int | None = Field(None, gt=0, description="Timeout in milliseconds.")
    location: FirecrawlLocation | None = Field(
        None, description="Country and languages to emulate."
    )
    threat_protection: dict[str, Any] | None = Field(
        None, alias="threatProtection", description="Threat protection settings."
    )
    audit_metadata: dict[str, Any] | None = Field(
        None, alias="auditMetadata", description="Caller metadata recorded with the request."
    )
