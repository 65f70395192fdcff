"""Firecrawl API v1 (https://api.firecrawl.dev/v1): scrape a page, map a site, crawl a site."""

from provcat.providers.firecrawl.crawl import FirecrawlCrawlEndpoint
from provcat.providers.firecrawl.map import FirecrawlMapEndpoint
from provcat.providers.firecrawl.scrape import FirecrawlScrapeEndpoint

__all__ = ["FirecrawlCrawlEndpoint", "FirecrawlMapEndpoint", "FirecrawlScrapeEndpoint"]
