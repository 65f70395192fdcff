"""Perplexity Agent API: the request model of ``POST https://api.perplexity.ai/v1/agent``.

The Agent API replaced Sonar chat completions (see the ``chat/completions`` endpoint's notes in
``catalog/providers/perplexity.yaml``). Its body is Responses-shaped (``input`` instead of
``messages``) and picks what runs by ``preset``/``effort``, ``model`` or a ``models`` fallback
chain. Perplexity's OpenAI-compatibility page names ``POST /v1/agent`` the canonical endpoint and
accepts ``POST /v1/responses`` as an alias for OpenAI SDKs; perplexityai's
``client.responses.create`` posts to the alias. Inputs, tools, tool choices, skills and output
formats are polymorphic and stay plain JSON objects; the reasoning and profile objects are
request models.

Source: https://docs.perplexity.ai/docs/agent-api/openai-compatibility.md
Source: https://docs.perplexity.ai/docs/agent-api/migrate-from-sonar/how-to.md
Source: https://docs.perplexity.ai/api-reference/responses-post
Source: https://docs.perplexity.ai/docs/cookbook/examples/agent-api-presets/README
Checked against perplexityai 0.46.1 (tests/drift: ``perplexity.generated.api:ResponsesRequestInput``,
the pydantic model ``client.responses.create`` validates its body with) on 2026-12-01.
"""

from typing import Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["PerplexityAgentRequest", "PerplexityProfileReference", "PerplexityReasoning"]

PRESET_DEPRECATION = (
    "preset is deprecated in favour of effort (perplexityai 0.46.1: 'Use effort instead. If both "
    "are supplied, effort takes precedence when non-null.')"
)


class PerplexityReasoning(RequestModel):
    """How much the model reasons before answering."""

    effort: Literal["none", "minimal", "low", "medium", "high", "xhigh"] | None = Field(
        None, description="Reasoning effort level."
    )


class PerplexityProfileReference(RequestModel):
    """A custom agent profile saved in the account, by id."""

    id: str = Field(description="The profile's id.")
    type: Literal["custom"] = Field(description="Profile kind; only custom profiles exist.")
    version: str | None = Field(None, description="Profile version; the latest when omitted.")


class PerplexityAgentRequest(RequestModel):
    """Body of ``POST https://api.perplexity.ai/v1/agent``."""

    input: str | list[dict[str, Any]] = Field(
        description="The prompt: a string, or a list of role/content and tool-output items."
    )
    effort: str | None = Field(
        None,
        description=(
            "Preset (task intensity) to run: fast, low, medium, high or xhigh. It bundles a model, "
            "search settings, steps, system prompt and tools; takes precedence over preset."
        ),
    )
    preset: str | None = Field(
        None,
        deprecated=PRESET_DEPRECATION,
        description="Preset name; deprecated, use effort.",
    )
    model: str | None = Field(
        None,
        description=(
            "Model in provider/model form, e.g. perplexity/sonar or openai/gpt-5.5. Required "
            "when neither models nor a preset/effort is given."
        ),
    )
    models: list[str] | None = Field(
        None,
        max_length=5,
        description="Fallback chain of provider/model names, tried in order; beats model.",
    )
    instructions: str | None = Field(None, description="System instructions for the model.")
    language_preference: str | None = Field(
        None, description="Preferred answer language as an ISO 639-1 code."
    )
    max_output_tokens: int | None = Field(None, ge=1, description="Upper bound on output tokens.")
    max_steps: int | None = Field(
        None, ge=1, le=100, description="Most research-loop steps; overrides the preset's."
    )
    reasoning: PerplexityReasoning | None = Field(None, description="Reasoning effort.")
    response_format: dict[str, Any] | None = Field(
        None, description="Structured output: a text, json_schema or regex format object."
    )
    tools: list[dict[str, Any]] | None = Field(
        None,
        description=(
            "Tools: web_search, fetch_url, people_search, finance_search, sandbox, mcp, "
            "function (and image search); a tool listed overrides only that tool of the preset."
        ),
    )
    tool_choice: Literal["none", "auto", "required"] | dict[str, Any] | None = Field(
        None, description="Whether and which tool the model must call."
    )
    skills: list[dict[str, Any]] | None = Field(
        None, description="Built-in (office …) or inline skills the model may load."
    )
    profile: PerplexityProfileReference | None = Field(
        None, description="A saved custom profile to run."
    )
    previous_response_id: str | None = Field(
        None, description="Continue from a completed earlier response instead of resending it."
    )
    store: bool | None = Field(None, description="false hides the response from later retrieval.")
    background: bool | None = Field(
        None, description="Queue the run and poll GET /v1/responses/{id} for the result."
    )
    stream: bool | None = Field(None, description="Stream events as server-sent events.")
    temperature: float | None = Field(None, description="Sampling randomness.")
    top_p: float | None = Field(None, description="Nucleus sampling threshold.")
    prompt_cache_key: str | None = Field(
        None, description="Key grouping requests that share a cacheable prompt prefix."
    )
    service_tier: Literal["auto", "default", "flex", "priority", "fast"] | None = Field(
        None, description="Processing tier."
    )
    step_budget_reminder: bool | None = Field(
        None, description="Remind the model of its remaining step budget."
    )
