"""Exa web search: the request model and the endpoint class.

:class:`ExaSearchRequest` lists the JSON body of ``POST https://api.exa.ai/search``: the query
and search type (including the deep variants with ``additionalQueries``, ``systemPrompt`` and
``outputSchema``), result count, domain, date, text and category filters, the user's country,
moderation, streaming, and the nested ``contents`` options (see
:class:`~provcat.providers.exa.contents.ExaContentsOptions`). Wire names are camelCase;
attributes are snake_case with aliases, so serialize with ``by_alias=True``.

Source: https://exa.ai/docs/reference/search
Source: https://github.com/exa-labs/openapi-spec/blob/master/exa-openapi-spec.yaml
Source: https://github.com/exa-labs/exa-py/blob/master/exa_py/api.py
Source: https://github.com/exa-labs/exa-js/blob/master/src/index.ts
Checked against exa-py 2.28.0 (tests/drift) on 2026-12-01.
"""

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from provcat.endpoints.request import RequestModel
from provcat.providers.exa.contents import ExaContentsOptions

__all__ = ["ExaCategory", "ExaFlags", "ExaSearchRequest", "ExaUserIdentifier"]

ExaCategory = Literal[
    "company",
    "news",
    "publication",
    "personal site",
    "financial report",
    "people",
]
"""Exa's search categories, as exa-py 2.28.0 types them ("publication" is the research-paper
index launched 2026-07-23: https://exa.ai/blog/publications-search)."""

# exa-py 2.28.0 DeepOutputSchema (exa_py/api.py): "For object schemas, the API enforces max
# nesting depth 2 and max 10 total properties."
OUTPUT_SCHEMA_MAX_DEPTH = 2
OUTPUT_SCHEMA_MAX_PROPERTIES = 10


def _object_levels(schema: Any) -> tuple[int, int]:
    """(object nesting depth, total properties) of an output schema: the root object is level 1,
    an object under one of its properties (or an array's ``items``) level 2, and so on."""
    if not isinstance(schema, dict):
        return 0, 0
    deepest, total = 0, 0
    props = schema.get("properties")
    children = list(props.values()) if isinstance(props, dict) else []
    total += len(children)
    if isinstance(schema.get("items"), dict):
        children.append(schema["items"])
    for child in children:
        depth, count = _object_levels(child)
        deepest, total = max(deepest, depth), total + count
    is_object = schema.get("type") == "object" or isinstance(props, dict)
    return (deepest + 1 if is_object else deepest), total


ExaFlags = list[str]
ExaUserIdentifier = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]

_Domains = Annotated[list[str], Field(max_length=1200)]
_OnePhrase = Annotated[list[str], Field(max_length=1)]


class ExaSearchRequest(RequestModel):
    """Body of Exa ``POST /search``."""

    query: str = Field(min_length=1, description="The search query.")
    type: (
        Literal["auto", "lite", "neural", "fast", "instant", "deep-lite", "deep", "deep-reasoning"]
        | None
    ) = Field(
        None,
        description="Search method (default auto); lite is a low-cost beta with fewer "
        "parameters; fast, instant and deep-reasoning are legacy; the deep-* types synthesize "
        "output.",
    )
    category: ExaCategory | None = Field(
        None,
        description="Data category to focus on; company and people accept only some filters.",
    )
    user_location: str | None = Field(
        None, alias="userLocation", description="Two-letter ISO country code of the user, e.g. US."
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
    moderation: bool | None = Field(
        None, description="Filter unsafe content out of the results (default false)."
    )
    contents: ExaContentsOptions | bool | None = Field(
        None, description="What page contents to return with each result."
    )
    additional_queries: Annotated[list[str], Field(max_length=5)] | None = Field(
        None,
        alias="additionalQueries",
        description="Up to five alternative phrasings used by the deep search types.",
    )
    system_prompt: str | None = Field(
        None,
        alias="systemPrompt",
        description="Instructions for search planning and the synthesized output.",
    )
    output_schema: dict[str, Any] | None = Field(
        None,
        alias="outputSchema",
        description="Schema of the synthesized output: {'type': 'text'} or an object schema.",
    )

    @field_validator("output_schema")
    @classmethod
    def _output_schema_limits(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        """Exa refuses an object output schema nested deeper than 2 levels or with more than 10
        properties in all (exa-py's DeepOutputSchema); say so before the request is sent."""
        if value is None:
            return value
        depth, total = _object_levels(value)
        if depth > OUTPUT_SCHEMA_MAX_DEPTH:
            raise ValueError(
                f"outputSchema nests objects {depth} levels deep; Exa allows at most "
                f"{OUTPUT_SCHEMA_MAX_DEPTH} (the root object and one level of object properties)"
            )
        if total > OUTPUT_SCHEMA_MAX_PROPERTIES:
            raise ValueError(
                f"outputSchema has {total} properties in all; Exa allows at most "
                f"{OUTPUT_SCHEMA_MAX_PROPERTIES}"
            )
        return value

    objective: str | None = Field(
        None,
        max_length=4096,
        description="The broader goal the search serves, beyond the query itself.",
    )
    user_identifier: ExaUserIdentifier | None = Field(
        None,
        alias="userIdentifier",
        description="Opaque, non-personal id of the end user the request is made for.",
    )
    flags: ExaFlags | None = Field(None, description="Experimental flags for Exa usage.")
    stream: bool | None = Field(
        None, description="Stream the response as OpenAI-style chat completion chunks (SSE)."
    )
