"""Firecrawl v2 scrape: the request model and the per-page scrape options crawl shares.

:class:`FirecrawlScrapeRequest` lists the JSON body of ``POST https://api.firecrawl.dev/v2/scrape``:
the URL, the output ``formats`` (names, or format objects such as ``{"type": "json", "schema":
...}`` or ``{"type": "screenshot", "fullPage": true}``), content filters, browser settings
(``headers``, ``waitFor``, ``mobile``, ``actions``, ``location``, ``proxy``, ``blockAds``),
document ``parsers``, caching (``maxAge``, ``minAge``, ``storeInCache``), and the safety
options (``lockdown``, ``checkPromptInjection``, ``redactPII``, ``threatProtection``).
:class:`FirecrawlScrapeOptions` holds the options that ``/v2/crawl`` takes as ``scrapeOptions``.
Wire names are camelCase; attributes are snake_case with aliases, so serialize with
``by_alias=True``.

v1 is legacy: v2 replaced ``jsonOptions``/``changeTrackingOptions`` with format objects,
``parsePDF`` with ``parsers``, and dropped the FIRE-1 ``agent`` from scrape.

Source: https://docs.firecrawl.dev/api-reference/endpoint/scrape
Source: https://docs.firecrawl.dev/migrate-to-v2
Source: https://github.com/firecrawl/firecrawl/blob/main/apps/python-sdk/firecrawl/v2/types.py
Checked against firecrawl-py 4.55.0 (tests/drift) on 2026-12-01.
"""

from typing import Annotated, Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel, SdkDeviation

__all__ = ["FirecrawlLocation", "FirecrawlScrapeOptions", "FirecrawlScrapeRequest"]

FirecrawlFormat = Literal[
    "markdown",
    "summary",
    "html",
    "rawHtml",
    "links",
    "images",
    "screenshot",
    "json",
    "changeTracking",
    "attributes",
    "branding",
    "product",
    "menu",
    "query",
    "audio",
    "video",
]
"""Format names v2 takes as plain strings; the others are objects with a ``type``."""

# Options the SDK has that are not request fields for a caller, shared with map and crawl.
INTERNAL = {
    "integration": "an SDK-set tag naming the integration that sent the request",
    "fast_mode": "a server-internal switch, not in the v2 API reference",
    "use_mock": "a server-internal test switch, not in the v2 API reference",
}


def internal(*names: str) -> tuple[SdkDeviation, ...]:
    """Deviations for SDK options that provcat leaves out on purpose."""
    return tuple(
        SdkDeviation("firecrawl-py", name, "missing", f"{INTERNAL[name]}; left out on purpose")
        for name in names
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


class FirecrawlScrapeOptions(RequestModel):
    """Per-page scrape options, shared by /v2/scrape and /v2/crawl's scrapeOptions."""

    sdk_deviations = (
        *internal("integration", "fast_mode", "use_mock"),
        SdkDeviation(
            "firecrawl-py",
            "formats",
            "values",
            "firecrawl-py also accepts the snake_case spellings raw_html and change_tracking and "
            "sends them as rawHtml and changeTracking, the only spellings of the v2 API",
        ),
    )

    formats: list[FirecrawlFormat | dict[str, Any]] | None = Field(
        None,
        description="Outputs to return (default ['markdown']): names, or objects with a type.",
    )
    headers: dict[str, str] | None = Field(
        None, description="HTTP headers sent with the page request, e.g. cookies or user agent."
    )
    include_tags: list[str] | None = Field(
        None, alias="includeTags", description="HTML tags or selectors to keep."
    )
    exclude_tags: list[str] | None = Field(
        None, alias="excludeTags", description="HTML tags or selectors to remove."
    )
    only_main_content: bool | None = Field(
        None,
        alias="onlyMainContent",
        description="Drop headers, navigation and footers (default true).",
    )
    timeout: int | None = Field(None, gt=0, description="Request timeout in milliseconds.")
    wait_for: int | None = Field(
        None,
        ge=0,
        alias="waitFor",
        description="Milliseconds to wait before reading the page.",
    )
    mobile: bool | None = Field(None, description="Emulate a mobile device (default false).")
    parsers: list[str | dict[str, Any]] | None = Field(
        None, description="Document parsers, e.g. 'pdf' or {'type': 'pdf', 'maxPages': 10}."
    )
    actions: Annotated[list[dict[str, Any]], Field(max_length=50)] | None = Field(
        None,
        description="Browser actions run before scraping (wait, click, write, press, scroll, ...).",
    )
    location: FirecrawlLocation | None = Field(
        None, description="Country and languages to emulate."
    )
    skip_tls_verification: bool | None = Field(
        None, alias="skipTlsVerification", description="Skip TLS certificate verification."
    )
    remove_base64_images: bool | None = Field(
        None,
        alias="removeBase64Images",
        description="Replace inline base64 images with a placeholder (default true).",
    )
    block_ads: bool | None = Field(
        None, alias="blockAds", description="Block ads and cookie pop-ups (default true)."
    )
    proxy: Literal["basic", "stealth", "enhanced", "auto"] | None = Field(
        None, description="Proxy type; auto retries with a stronger proxy on failure."
    )
    max_age: int | None = Field(
        None,
        ge=0,
        alias="maxAge",
        description="Reuse indexed content younger than this many milliseconds; 0 bypasses it.",
    )
    min_age: int | None = Field(
        None, ge=0, alias="minAge", description="Only reuse indexed content at least this old (ms)."
    )
    store_in_cache: bool | None = Field(
        None, alias="storeInCache", description="Store the page in Firecrawl's index and cache."
    )
    lockdown: bool | None = Field(None, description="Lockdown mode (see the v2 scrape reference).")
    check_prompt_injection: bool | None = Field(
        None,
        alias="checkPromptInjection",
        description="Fail the scrape when the page content carries a prompt injection.",
    )
    redact_pii: bool | dict[str, Any] | None = Field(
        None, alias="redactPII", description="Redact personal data: true, or redaction options."
    )
    threat_protection: dict[str, Any] | None = Field(
        None, alias="threatProtection", description="Threat protection settings."
    )
    audit_metadata: dict[str, Any] | None = Field(
        None, alias="auditMetadata", description="Caller metadata recorded with the request."
    )
    profile: dict[str, Any] | None = Field(
        None, description="Browser profile to scrape with (saved cookies and storage)."
    )
    domain_tools: bool | None = Field(
        None, alias="domainTools", description="Enable Alexandria domain-tool discovery."
    )
    tool_detail: Literal["compact", "summary", "full"] | None = Field(
        None, alias="toolDetail", description="How much of the discovered domain tools to return."
    )


class FirecrawlScrapeRequest(FirecrawlScrapeOptions):
    """Body of Firecrawl ``POST /v2/scrape``."""

    url: str = Field(description="URL of the page to scrape.")
