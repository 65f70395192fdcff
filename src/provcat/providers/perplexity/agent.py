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

from pydantic import Field, field_validator

from provcat.endpoints.request import RequestModel

__all__ = ["PerplexityAgentRequest", "PerplexityProfileReference", "PerplexityReasoning"]

# Inline skills' sizes, in UTF-8 bytes (perplexityai 0.46.1, types/response_create_params.py,
# SkillInlineSkill: "Short discovery description, limited to 1,024 UTF-8 bytes"; "Instructions
# returned by `load_skill`, limited to 65,536 UTF-8 bytes per skill and 262,144 bytes across
# the request"; https://docs.perplexity.ai/api-reference/responses-post).
SKILL_DESCRIPTION_MAX_BYTES = 1_024
SKILL_INSTRUCTIONS_MAX_BYTES = 65_536
SKILLS_INSTRUCTIONS_MAX_BYTES = 262_144

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
        None,
        description="Built-in (office …) or inline skills the model may load; an inline skill's "
        "description up to 1,024 UTF-8 bytes, its instructions up to 65,536 (262,144 in all).",
    )

    @field_validator("skills")
    @classmethod
    def _inline_skill_sizes(cls, value: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        """Perplexity bounds inline skills: a description of at most 1,024 UTF-8 bytes,
        instructions of at most 65,536 per skill and 262,144 across the request; say so before
        the request is sent."""
        if value is None:
            return value
        total = 0
        for i, skill in enumerate(value):
            if not isinstance(skill, dict) or skill.get("type") != "inline":
                continue
            for key, most in (
                ("description", SKILL_DESCRIPTION_MAX_BYTES),
                ("instructions", SKILL_INSTRUCTIONS_MAX_BYTES),
            ):
                text = skill.get(key)
                size = len(text.encode("utf-8")) if isinstance(text, str) else 0
                if size > most:
                    raise ValueError(
                        f"skills[{i}].{key} has {size} UTF-8 bytes; Perplexity allows at most "
                        f"{most} for an inline skill"
                    )
                if key == "instructions":
                    total += size
        if total > SKILLS_INSTRUCTIONS_MAX_BYTES:
            raise ValueError(
                f"the inline skills' instructions have {total} UTF-8 bytes in all; Perplexity "
                f"allows at most {SKILLS_INSTRUCTIONS_MAX_BYTES} across the request"
            )
        return value

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
