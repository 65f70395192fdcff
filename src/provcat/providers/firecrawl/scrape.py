"""Firecrawl v1 scrape: the request model, the shared scrape options, and the endpoint class.

:class:`FirecrawlScrapeRequest` lists the JSON body of ``POST https://api.firecrawl.dev/v1/scrape``:
the URL, output ``formats`` and their options (``jsonOptions``, ``changeTrackingOptions``),
content filters, browser settings (``headers``, ``waitFor``, ``mobile``, ``actions``,
``location``, ``proxy``, ``blockAds``), caching (``maxAge``, ``storeInCache``), the FIRE-1
``agent`` and ``zeroDataRetention``. :class:`FirecrawlScrapeOptions` holds the options that
``/v1/crawl`` also takes as its ``scrapeOptions`` object. Wire names are camelCase; attributes
are snake_case with aliases, so serialize with ``by_alias=True``.

Left out on purpose: the deprecated ``extract`` (use ``jsonOptions``) and ``geolocation`` (use
``location``) objects, and server-internal fields (``origin``, ``integration``, ``useMock``,
``fastMode``, ``__experimental_*``).

Source: https://github.com/firecrawl/firecrawl/blob/main/apps/api/v1-openapi.json
Source: https://github.com/firecrawl/firecrawl/blob/main/apps/api/src/controllers/v1/types.ts
"""

from typing import Annotated, Any, Literal

from pydantic import Field

from provcat.request import RequestModel

__all__ = [
    "FirecrawlChangeTrackingOptions",
    "FirecrawlExtractAgent",
    "FirecrawlJsonOptions",
    "FirecrawlLocation",
    "FirecrawlScrapeAgent",
    "FirecrawlScrapeJsonOptions",
    "FirecrawlScrapeOptions",
    "FirecrawlScrapeRequest",
]

FirecrawlFormat = Literal[
    "markdown",
    "html",
    "rawHtml",
    "links",
    "screenshot",
    "screenshot@fullPage",
    "json",
    "summary",
    "changeTracking",
    "extract",
]


class FirecrawlJsonOptions(RequestModel):
    """LLM extraction settings used with the 'json' format."""

    schema_: dict[str, Any] | None = Field(
        None, alias="schema", description="JSON Schema the extracted data must follow."
    )
    system_prompt: str | None = Field(
        None, max_length=10000, alias="systemPrompt", description="System prompt for extraction."
    )
    prompt: str | None = Field(
        None, max_length=10000, description="Extraction prompt, usable without a schema."
    )


class FirecrawlExtractAgent(RequestModel):
    """Agent that drives a JSON extraction."""

    model: Literal["FIRE-1"] | None = Field(None, description="Agent model; FIRE-1.")


class FirecrawlScrapeJsonOptions(FirecrawlJsonOptions):
    """JSON extraction settings of a single scrape, which may name the FIRE-1 agent."""

    agent: FirecrawlExtractAgent | None = Field(
        None, description="Agent to run the extraction with."
    )


class FirecrawlLocation(RequestModel):
    """Country and languages the request is made from."""

    country: str | None = Field(
        None,
        description="ISO 3166-1 alpha-2 country code, e.g. 'US' (default); picks the proxy and locale.",
    )
    languages: list[str] | None = Field(
        None, description="Preferred Accept-Language locales in priority order, e.g. 'en-US'."
    )


class FirecrawlChangeTrackingOptions(RequestModel):
    """Settings of the 'changeTracking' format (beta; needs 'markdown' too)."""

    modes: list[Literal["git-diff", "json"]] | None = Field(
        None, description="How changes are reported: a git-style diff, or compared JSON."
    )
    schema_: dict[str, Any] | None = Field(
        None, alias="schema", description="JSON Schema of the data compared in 'json' mode."
    )
    prompt: str | None = Field(None, description="Extraction prompt for 'json' mode.")
    tag: str | None = Field(
        None, description="Separate change-tracking history to compare against."
    )


class FirecrawlScrapeOptions(RequestModel):
    """Per-page scrape options, shared by /v1/scrape and /v1/crawl's scrapeOptions."""

    formats: list[FirecrawlFormat] | None = Field(
        None,
        description="Outputs to return (default ['markdown']); only one screenshot variant at a time.",
    )
    only_main_content: bool | None = Field(
        None,
        alias="onlyMainContent",
        description="Drop headers, navigation and footers (default true).",
    )
    include_tags: list[str] | None = Field(
        None, alias="includeTags", description="HTML tags or selectors to keep."
    )
    exclude_tags: list[str] | None = Field(
        None, alias="excludeTags", description="HTML tags or selectors to remove."
    )
    headers: dict[str, str] | None = Field(
        None, description="HTTP headers sent with the page request, e.g. cookies or user agent."
    )
    wait_for: int | None = Field(
        None,
        ge=0,
        le=60000,
        alias="waitFor",
        description="Milliseconds to wait before reading the page; at most half of timeout.",
    )
    mobile: bool | None = Field(None, description="Emulate a mobile device (default false).")
    skip_tls_verification: bool | None = Field(
        None,
        alias="skipTlsVerification",
        description="Skip TLS certificate verification (default false).",
    )
    timeout: int | None = Field(
        None, gt=0, description="Request timeout in milliseconds (default 30000)."
    )
    parse_pdf: bool | None = Field(
        None,
        alias="parsePDF",
        description="Convert PDFs to markdown (billed per page) instead of returning base64 (default true).",
    )
    json_options: FirecrawlJsonOptions | None = Field(
        None, alias="jsonOptions", description="Settings of the 'json' extraction format."
    )
    actions: Annotated[list[dict[str, Any]], Field(max_length=50)] | None = Field(
        None,
        description="Browser actions run before scraping (wait, click, write, press, scroll, screenshot, ...).",
    )
    location: FirecrawlLocation | None = Field(
        None, description="Country and languages to emulate."
    )
    remove_base64_images: bool | None = Field(
        None,
        alias="removeBase64Images",
        description="Replace inline base64 images with a placeholder (default true).",
    )
    block_ads: bool | None = Field(
        None, alias="blockAds", description="Block ads and cookie pop-ups (default true)."
    )
    proxy: Literal["basic", "stealth", "auto"] | None = Field(
        None, description="Proxy type (default basic); auto retries with stealth on failure."
    )
    change_tracking_options: FirecrawlChangeTrackingOptions | None = Field(
        None, alias="changeTrackingOptions", description="Settings of the 'changeTracking' format."
    )
    max_age: int | None = Field(
        None,
        ge=0,
        alias="maxAge",
        description="Accept a cached copy younger than this many milliseconds (default 0: no cache).",
    )
    store_in_cache: bool | None = Field(
        None,
        alias="storeInCache",
        description="Store the page in Firecrawl's index and cache (default true).",
    )


class FirecrawlScrapeAgent(RequestModel):
    """The FIRE-1 agent that interacts with the page before it is scraped."""

    model: Literal["FIRE-1"] | None = Field(None, description="Agent model; FIRE-1.")
    prompt: str = Field(description="What the agent should do on the page.")


class FirecrawlScrapeRequest(FirecrawlScrapeOptions):
    """Body of Firecrawl ``POST /v1/scrape``."""

    url: str = Field(description="URL of the page to scrape.")
    json_options: FirecrawlScrapeJsonOptions | None = Field(
        None, alias="jsonOptions", description="Settings of the 'json' extraction format."
    )
    agent: FirecrawlScrapeAgent | None = Field(
        None, description="FIRE-1 agent that acts on the page before scraping."
    )
    zero_data_retention: bool | None = Field(
        None,
        alias="zeroDataRetention",
        description="Keep no data of this request (must be enabled for the team).",
    )
