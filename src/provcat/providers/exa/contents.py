"""Exa page contents: the request model, the content-option objects, and the endpoint class.

:class:`ExaContentsRequest` lists the JSON body of ``POST https://api.exa.ai/contents``: the
pages to fetch (``urls``, or the deprecated ``ids``) and, as top-level fields, what to return
for each (``text``, ``highlights``, ``summary``, ``extras``, ``subpages``) and how fresh it must
be (``maxAgeHours``, ``livecrawlTimeout``, the deprecated ``livecrawl``). The same options,
gathered in :class:`ExaContentsOptions`, form the nested ``contents`` object of ``/search`` and
``/findSimilar``. Wire names are camelCase; attributes are snake_case with aliases, so
serialize with ``by_alias=True``.

Source: https://exa.ai/docs/reference/get-contents
Source: https://github.com/exa-labs/openapi-spec/blob/master/exa-openapi-spec.yaml
Source: https://github.com/exa-labs/exa-py/blob/master/exa_py/api.py
Source: https://github.com/exa-labs/exa-js/blob/master/src/index.ts
Checked against exa-py 2.28.0 (tests/drift) on 2026-12-01.
"""

from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from provcat.endpoints.request import RequestModel, SdkDeviation

__all__ = [
    "ExaContentsOptions",
    "ExaContentsRequest",
    "ExaExtrasOptions",
    "ExaHighlightsOptions",
    "ExaSummaryOptions",
    "ExaTextOptions",
]

ExaSectionTag = Literal[
    "unspecified", "header", "navigation", "banner", "body", "sidebar", "footer", "metadata"
]
ExaLivecrawl = Literal["never", "fallback", "preferred", "always", "auto"]


class ExaTextOptions(RequestModel):
    """Options for the full page text, returned as markdown."""

    max_characters: int | None = Field(
        None, ge=1, alias="maxCharacters", description="Character limit on each page's text."
    )
    include_html_tags: bool | None = Field(
        None, alias="includeHtmlTags", description="Keep HTML tags in the text (default false)."
    )
    verbosity: Literal["compact", "standard", "full"] | None = Field(
        None, description="How much of the page to keep (default compact); needs a fresh crawl."
    )
    include_sections: list[ExaSectionTag] | None = Field(
        None,
        alias="includeSections",
        description="Only keep these semantic page sections; needs a fresh crawl.",
    )
    exclude_sections: list[ExaSectionTag] | None = Field(
        None,
        alias="excludeSections",
        description="Drop these semantic page sections; needs a fresh crawl.",
    )


class ExaHighlightsOptions(RequestModel):
    """Options for the query-relevant excerpts of each page."""

    query: str | None = Field(None, description="Query that steers which excerpts are chosen.")
    max_characters: int | None = Field(
        None, ge=1, alias="maxCharacters", description="Total length of the excerpts per page."
    )
    num_sentences: int | None = Field(
        None,
        ge=1,
        alias="numSentences",
        description="Deprecated: sentences per excerpt; use maxCharacters.",
    )
    highlights_per_url: int | None = Field(
        None,
        ge=1,
        alias="highlightsPerUrl",
        description="Deprecated: excerpts per page; use maxCharacters.",
    )


class ExaSummaryOptions(RequestModel):
    """Options for the LLM-written summary of each page."""

    query: str | None = Field(None, description="Question the summary should answer.")
    schema_: dict[str, Any] | None = Field(
        None, alias="schema", description="JSON Schema for a structured summary."
    )


class ExaExtrasOptions(RequestModel):
    """Extra data taken from each page."""

    links: int | None = Field(None, ge=0, description="Number of page links to return.")
    image_links: int | None = Field(
        None, ge=0, alias="imageLinks", description="Number of image URLs to return."
    )


class ExaContentsOptions(RequestModel):
    """What to return for each page, and how fresh it must be."""

    sdk_deviations: ClassVar[tuple[SdkDeviation, ...]] = (
        SdkDeviation(
            "exa-py",
            "filterEmptyResults",
            "extra",
            "exa-py sends filter_empty_results inside contents from search_and_contents "
            "(CONTENTS_OPTIONS_TYPES in exa_py/api.py) but leaves it out of the ContentsOptions "
            "TypedDict",
        ),
    )

    text: ExaTextOptions | bool | None = Field(
        None, description="Return the page text: true for defaults, or text options."
    )
    highlights: ExaHighlightsOptions | bool | None = Field(
        None, description="Return query-relevant excerpts: true for defaults, or options."
    )
    summary: ExaSummaryOptions | bool | None = Field(
        None, description="Return an LLM summary: true for defaults, or summary options."
    )
    context: dict[str, Any] | bool | None = Field(
        None, description="Deprecated: use highlights or text instead."
    )
    snapshot_as_of: str | None = Field(
        None,
        alias="snapshotAsOf",
        description="ISO 8601 instant: return the newest stored version at or before it.",
    )
    livecrawl: ExaLivecrawl | None = Field(
        None, description="Deprecated live-crawl policy; use maxAgeHours instead."
    )
    livecrawl_timeout: int | None = Field(
        None,
        ge=0,
        alias="livecrawlTimeout",
        description="Live-crawl timeout in milliseconds (default 10000).",
    )
    max_age_hours: int | None = Field(
        None,
        ge=-1,
        alias="maxAgeHours",
        description="Oldest cached copy to accept, in hours; 0 always crawls, -1 never does.",
    )
    filter_empty_results: bool | None = Field(
        None,
        alias="filterEmptyResults",
        description="Drop results that came back without contents (default true).",
    )
    subpages: int | None = Field(
        None, ge=0, description="Number of linked subpages to fetch per result (default 0)."
    )
    subpage_target: str | list[str] | None = Field(
        None,
        alias="subpageTarget",
        description="Keyword(s) that pick which subpages to fetch, e.g. 'about'.",
    )
    extras: ExaExtrasOptions | None = Field(
        None, description="Extra per-page data: links and image links."
    )


class ExaContentsRequest(ExaContentsOptions):
    """Body of Exa ``POST /contents``: pages to fetch plus top-level content options."""

    sdk_deviations = (
        SdkDeviation(
            "exa-py",
            "ids",
            "extra",
            "the /contents API still takes the deprecated ids instead of urls "
            "(https://exa.ai/docs/reference/get-contents); exa-py maps results to urls itself",
        ),
        SdkDeviation(
            "exa-py",
            "urls",
            "required",
            "urls or the deprecated ids: a validator requires one of the two",
        ),
    )

    urls: list[str] | None = Field(None, min_length=1, description="URLs of the pages to fetch.")
    ids: list[str] | None = Field(
        None,
        min_length=1,
        description="Deprecated: document ids from earlier search results; use urls.",
    )

    metadata: dict[str, Any] | bool | None = Field(
        None, description="Return page metadata: true for defaults, or metadata options."
    )
    flags: list[str] | None = Field(None, description="Experimental flags for Exa usage.")
    user_identifier: str | None = Field(
        None,
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_-]+$",
        alias="userIdentifier",
        description="Opaque, non-personal id of the end user the request is made for.",
    )

    @model_validator(mode="after")
    def _needs_pages(self) -> "ExaContentsRequest":
        if self.urls is None and self.ids is None:
            raise ValueError("set urls (or the deprecated ids)")
        return self
