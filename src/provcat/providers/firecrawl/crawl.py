"""Firecrawl v2 crawl: the request model, its webhook object, and the endpoint class.

:class:`FirecrawlCrawlRequest` lists the JSON body of ``POST https://api.firecrawl.dev/v2/crawl``,
which starts an asynchronous crawl: the start URL, an optional natural-language ``prompt`` that
derives the settings, path filters, discovery depth and page limits, link policies
(``crawlEntireDomain``, ``allowExternalLinks``, ``allowSubdomains``), ``sitemap``,
robots.txt and query-string handling, pacing (``delay``, ``maxConcurrency``), the ``webhook``
to notify and the per-page ``scrapeOptions``. v2 dropped v1's ``maxDepth`` (use
``maxDiscoveryDepth``), ``allowBackwardLinks`` (use ``crawlEntireDomain``) and
``ignoreSitemap`` (use ``sitemap``). Wire names are camelCase; attributes are snake_case with
aliases, so serialize with ``by_alias=True``.

Source: https://docs.firecrawl.dev/api-reference/endpoint/crawl-post
Source: https://docs.firecrawl.dev/migrate-to-v2
Source: https://github.com/firecrawl/firecrawl/blob/main/apps/python-sdk/firecrawl/v2/types.py
Checked against firecrawl-py 4.55.0 (tests/drift) on 2026-12-01.
"""

from typing import Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel
from provcat.providers.firecrawl.scrape import FirecrawlScrapeOptions, internal

__all__ = ["FirecrawlCrawlRequest", "FirecrawlWebhook"]


class FirecrawlWebhook(RequestModel):
    """Where and how Firecrawl reports crawl progress."""

    url: str = Field(description="URL that receives the webhook calls.")
    headers: dict[str, str] | None = Field(None, description="Headers sent with each webhook call.")
    metadata: dict[str, str] | None = Field(
        None, description="Custom metadata included in every webhook payload."
    )
    events: list[Literal["completed", "failed", "page", "started"]] | None = Field(
        None, description="Events to send (default all four)."
    )


class FirecrawlCrawlRequest(RequestModel):
    """Body of Firecrawl ``POST /v2/crawl``."""

    sdk_deviations = internal("integration")

    url: str = Field(description="Base URL to start crawling from.")
    prompt: str | None = Field(
        None, description="Natural-language instructions from which the crawl settings are derived."
    )
    include_paths: list[str] | None = Field(
        None, alias="includePaths", description="Pathname regexes; only matching URLs are crawled."
    )
    exclude_paths: list[str] | None = Field(
        None, alias="excludePaths", description="Pathname regexes; matching URLs are skipped."
    )
    max_discovery_depth: int | None = Field(
        None,
        ge=0,
        alias="maxDiscoveryDepth",
        description="Deepest link-discovery step to follow; the start URL and sitemap pages are 0.",
    )
    sitemap: Literal["skip", "include", "only"] | None = Field(
        None, description="Skip the sitemap, include it (default), or crawl only its URLs."
    )
    ignore_query_parameters: bool | None = Field(
        None,
        alias="ignoreQueryParameters",
        description="Treat URLs differing only in query string as one page (default false).",
    )
    deduplicate_similar_urls: bool | None = Field(
        None,
        alias="deduplicateSimilarURLs",
        description="Treat near-identical URLs (www, trailing slash, ...) as one page (default true).",
    )
    limit: int | None = Field(None, ge=1, description="Maximum number of pages to crawl.")
    crawl_entire_domain: bool | None = Field(
        None,
        alias="crawlEntireDomain",
        description="Follow links to sibling and parent paths, not only children (default false).",
    )
    allow_external_links: bool | None = Field(
        None, alias="allowExternalLinks", description="Follow links to other websites."
    )
    allow_subdomains: bool | None = Field(
        None, alias="allowSubdomains", description="Follow links to subdomains of the base domain."
    )
    ignore_robots_txt: bool | None = Field(
        None, alias="ignoreRobotsTxt", description="Do not obey the site's robots.txt."
    )
    robots_user_agent: str | None = Field(
        None, alias="robotsUserAgent", description="User agent whose robots.txt rules apply."
    )
    delay: float | None = Field(
        None, gt=0, description="Seconds to wait between scrapes, to respect rate limits."
    )
    max_concurrency: int | None = Field(
        None, ge=1, alias="maxConcurrency", description="Most pages scraped at once for this crawl."
    )
    webhook: str | FirecrawlWebhook | None = Field(
        None, description="Webhook URL, or webhook settings, for crawl progress events."
    )
    scrape_options: FirecrawlScrapeOptions | None = Field(
        None, alias="scrapeOptions", description="Scrape options applied to every crawled page."
    )
    regex_on_full_url: bool | None = Field(
        None,
        alias="regexOnFullURL",
        description="Match includePaths/excludePaths against the full URL, not only the path.",
    )
    zero_data_retention: bool | None = Field(
        None,
        alias="zeroDataRetention",
        description="Keep no data of this crawl (must be enabled for the team).",
    )
