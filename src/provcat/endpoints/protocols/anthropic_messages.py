"""Request model and endpoint class for Anthropic's Messages API (``POST /v1/messages``).

``MessagesRequest`` lists every top-level body field of the create-message call: the generally
available ones and the beta ones that the API accepts when the matching ``anthropic-beta``
header is sent (``billing_policy``, ``compaction``, ``container`` as an object,
``context_management``, ``diagnostics``, ``fallback_credit_token``, ``fallbacks``,
``mcp_servers``, ``speed``, ``thread`` and ``output_config.task_budget``). Header-only parameters
(``anthropic-beta``, ``anthropic-user-profile-id``, ``anthropic-workspace-id``) are not body
fields and are left out, as is the deprecated beta ``output_format`` field, which
``output_config.format`` replaces. Small documented objects are
nested request models; messages, tool definitions, system text blocks and context-management
edits are large or polymorphic and stay plain JSON objects.

Source: https://platform.claude.com/docs/en/api/messages/create
Source: https://platform.claude.com/docs/en/api/beta/messages/create
Source: https://github.com/anthropics/anthropic-sdk-python/blob/main/src/anthropic/types/message_create_params.py
Source: https://github.com/anthropics/anthropic-sdk-python/blob/main/src/anthropic/types/beta/message_create_params.py
Source: https://platform.claude.com/docs/en/about-claude/model-deprecations#api-parameter-deprecations
Checked against anthropic 2.14.0 (tests/drift) on 2026-12-01. The sampling parameters
(``temperature``, ``top_k``, ``top_p``) are deprecated API parameters that only models with
sampling options take, under API version 2023-06-01; the SDK dropped them in 1.0, the model keeps
them marked deprecated.

What the API version an endpoint sends refuses on top of this model (2026-10-21 refuses the
sampling parameters) is checked by the endpoint class,
:class:`provcat.providers.anthropic.messages.MessagesEndpoint`.
"""

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from provcat.endpoints.request import RequestModel, SdkDeviation

__all__ = [
    "BillingPolicy",
    "CacheControlEphemeral",
    "CompactionConfig",
    "ContainerParams",
    "ContainerSkill",
    "ContextManagementConfig",
    "DiagnosticsParams",
    "FallbackCreditToken",
    "FallbackParams",
    "JSONOutputFormat",
    "MCPServerToolConfiguration",
    "MCPServerURLDefinition",
    "MessagesRequest",
    "Metadata",
    "OutputConfig",
    "ThinkingConfig",
    "ThinkingConfigAdaptive",
    "ThinkingConfigDisabled",
    "ThinkingConfigEnabled",
    "ThreadContinue",
    "ThreadCreate",
    "TokenTaskBudget",
    "ToolChoice",
    "ToolChoiceAny",
    "ToolChoiceAuto",
    "ToolChoiceNone",
    "ToolChoiceTool",
]

SAMPLING_DEPRECATIONS = (
    "https://platform.claude.com/docs/en/about-claude/model-deprecations#api-parameter-deprecations"
)
_SAMPLING = (
    "Deprecated API parameter, taken only by models that support sampling options and only "
    "under API version 2023-06-01: " + SAMPLING_DEPRECATIONS
)


EffortLevel = Literal["low", "medium", "high", "xhigh", "max"]
ThinkingDisplay = Literal["summarized", "omitted", "updates"]
Speed = Literal["standard", "fast"]


class BillingPolicy(RequestModel):
    """Which organization is billed for the request (beta)."""

    type: Literal["billing_policy"] = Field(description="Object kind; only billing_policy.")
    bill_to: Literal["self", "user_profile"] | None = Field(
        None,
        description="self (default) bills you; user_profile bills the customer behind the "
        "anthropic-user-profile-id header, or the request is rejected.",
    )


class CompactionConfig(RequestModel):
    """Makes the request a compaction request: the conversation comes back summarized (beta)."""

    type: Literal["summarize"] = Field(description="Compaction kind; only summarize.")
    instructions: str | None = Field(
        None, description="Replaces the server's summarization prompt for this request."
    )


class ThreadCreate(RequestModel):
    """Asks the server to hold this conversation's state under the response's id (beta)."""

    type: Literal["create"] = Field(description="Start a server-held thread.")


class ThreadContinue(RequestModel):
    """Resumes a server-held thread, so only the new turn's messages are sent (beta)."""

    type: Literal["continue"] = Field(description="Continue a server-held thread.")
    previous_message_id: str = Field(description="Id (msg_...) of the previous response.")


class CacheControlEphemeral(RequestModel):
    """An ephemeral prompt-cache breakpoint."""

    type: Literal["ephemeral"] = Field(description="Kind of cache breakpoint; only ephemeral.")
    ttl: Literal["5m", "1h"] | None = Field(
        None, description="How long the cached prefix lives; the API default is 5 minutes."
    )


class ContainerSkill(RequestModel):
    """One skill to load into the code-execution container (beta)."""

    skill_id: str = Field(description="Identifier of the skill to load.")
    type: Literal["anthropic", "custom"] = Field(
        description="Whether the skill is built in (anthropic) or user defined (custom)."
    )
    version: str | None = Field(
        None, description="Skill version to load, or 'latest' for the newest one."
    )


class ContainerParams(RequestModel):
    """Object form of ``container``: a container id plus skills to load (beta)."""

    id: str | None = Field(None, description="Identifier of an existing container to reuse.")
    skills: list[ContainerSkill] | None = Field(
        None, description="Skills to make available inside the container."
    )


class ContextManagementConfig(RequestModel):
    """Server-side context editing applied before the model sees the prompt (beta)."""

    edits: list[dict[str, Any]] | None = Field(
        None,
        description=(
            "Ordered context edits, e.g. clear_tool_uses_20250919, clear_thinking_20251015 "
            "or compact_20260112 objects."
        ),
    )


class DiagnosticsParams(RequestModel):
    """Request-level diagnostics for prompt-cache reporting (beta)."""

    previous_message_id: str | None = Field(
        None,
        description=(
            "Id (msg_...) of this client's previous response, compared to explain cache misses; "
            "null opts in on the first turn."
        ),
    )


class FallbackCreditToken(RequestModel):
    """Object form of ``fallback_credit_token``: the token with a redemption mode (beta)."""

    token: str = Field(description="Opaque token taken from a refused response's stop_details.")
    mode: Literal["strict", "best_effort"] | None = Field(
        None,
        description="strict rejects the retry when redemption fails; best_effort still serves it.",
    )


class JSONOutputFormat(RequestModel):
    """A JSON schema the model's output must follow (structured outputs)."""

    type: Literal["json_schema"] = Field(description="Output format kind; only json_schema.")
    json_schema: dict[str, Any] = Field(
        alias="schema", description="JSON Schema that the response text must satisfy."
    )


class TokenTaskBudget(RequestModel):
    """A total token budget shared across contexts of one task (beta)."""

    type: Literal["tokens"] = Field(description="Budget unit; only tokens is supported.")
    total: int = Field(ge=0, description="Total token budget across all contexts of the task.")
    remaining: int | None = Field(
        None, ge=0, description="Tokens still left in the budget; defaults to the total."
    )


class OutputConfig(RequestModel):
    """Options that shape the model's output."""

    effort: EffortLevel | None = Field(
        None, description="How many tokens the model may spend; higher means more thorough."
    )
    format: JSONOutputFormat | None = Field(
        None, description="Structured-output schema the response has to follow."
    )
    task_budget: TokenTaskBudget | None = Field(
        None, description="Token budget across contexts, for client-side compaction (beta)."
    )


class ThinkingConfigEnabled(RequestModel):
    """Extended thinking with a fixed token budget."""

    type: Literal["enabled"] = Field(description="Turns extended thinking on with a budget.")
    budget_tokens: int = Field(
        ge=1024, description="Tokens available for reasoning; at least 1024 and below max_tokens."
    )
    display: ThinkingDisplay | None = Field(
        None,
        description="Return thinking summarized, omitted (signature kept) or as updates; the "
        "default depends on the model.",
    )
    block_binding: dict[str, Any] | None = Field(
        None,
        description="What happens when a thinking block sent back fails the conversation check.",
    )


class ThinkingConfigDisabled(RequestModel):
    """Extended thinking switched off."""

    type: Literal["disabled"] = Field(description="Turns extended thinking off.")


class ThinkingConfigAdaptive(RequestModel):
    """Adaptive thinking: the model decides how much to think."""

    type: Literal["adaptive"] = Field(description="Lets the model choose its thinking depth.")
    display: ThinkingDisplay | None = Field(
        None, description="Return thinking summarized (default) or omit it, keeping the signature."
    )


ThinkingConfig = Annotated[
    ThinkingConfigEnabled | ThinkingConfigDisabled | ThinkingConfigAdaptive,
    Field(discriminator="type"),
]


class ToolChoiceAuto(RequestModel):
    """The model decides whether to call tools."""

    type: Literal["auto"] = Field(description="Let the model decide whether to use tools.")
    disable_parallel_tool_use: bool | None = Field(
        None, description="If true the model emits at most one tool call."
    )


class ToolChoiceAny(RequestModel):
    """The model must call one of the provided tools."""

    type: Literal["any"] = Field(description="Require a call to some provided tool.")
    disable_parallel_tool_use: bool | None = Field(
        None, description="If true the model emits exactly one tool call."
    )


class ToolChoiceTool(RequestModel):
    """The model must call the named tool."""

    type: Literal["tool"] = Field(description="Require a call to the tool given by name.")
    name: str = Field(description="Name of the tool the model has to call.")
    disable_parallel_tool_use: bool | None = Field(
        None, description="If true the model emits exactly one tool call."
    )


class ToolChoiceNone(RequestModel):
    """The model may not call tools."""

    type: Literal["none"] = Field(description="Forbid tool use for this request.")


ToolChoice = Annotated[
    ToolChoiceAuto | ToolChoiceAny | ToolChoiceTool | ToolChoiceNone,
    Field(discriminator="type"),
]


class FallbackParams(RequestModel):
    """One substitute model tried when the requested model declines for policy reasons (beta)."""

    model: str = Field(description="Model to retry the request on.")
    max_tokens: int | None = Field(
        None, ge=0, description="Override of max_tokens for this fallback attempt only."
    )
    output_config: OutputConfig | None = Field(
        None, description="Override of output_config for this fallback attempt only."
    )
    speed: Speed | None = Field(
        None, description="Override of the speed mode for this fallback attempt only."
    )
    thinking: ThinkingConfig | None = Field(
        None, description="Override of the thinking config for this fallback attempt only."
    )


class MCPServerToolConfiguration(RequestModel):
    """Which tools of a remote MCP server the model may use (beta)."""

    allowed_tools: list[str] | None = Field(
        None, description="Names of the server's tools to expose; all when omitted."
    )
    enabled: bool | None = Field(None, description="Whether the server's tools are enabled.")


class MCPServerURLDefinition(RequestModel):
    """A remote MCP server reached over URL by the MCP connector (beta)."""

    type: Literal["url"] = Field(description="Connection kind; only url.")
    url: str = Field(description="URL of the MCP server.")
    name: str = Field(description="Name that identifies the server in tool calls.")
    authorization_token: str | None = Field(
        None, description="OAuth bearer token sent to the MCP server."
    )
    tool_configuration: MCPServerToolConfiguration | None = Field(
        None, description="Restricts or disables the server's tools."
    )


class Metadata(RequestModel):
    """Metadata describing the request."""

    user_id: str | None = Field(
        None, description="Opaque id (uuid or hash) of the end user, used for abuse detection."
    )


MAX_STRICT_TOOLS = 20
"""Most tools with ``strict: true`` in one request: "Strict tools per request | 20", in the
schema complexity limits of
https://platform.claude.com/docs/en/build-with-claude/structured-outputs#schema-complexity-limits
(non-strict tools do not count)."""


class MessagesRequest(RequestModel):
    """Body of ``POST /v1/messages``: create a model response for a conversation."""

    sdk_deviations = (
        *(
            SdkDeviation(
                "anthropic",
                name,
                "missing",
                f"sent as the {header} header, not in the body "
                "(https://platform.claude.com/docs/en/api/beta/messages/create)",
            )
            for name, header in (
                ("betas", "anthropic-beta"),
                ("user_profile_id", "anthropic-user-profile-id"),
                ("workspace_id", "anthropic-workspace-id"),
            )
        ),
        *(
            SdkDeviation(
                "anthropic",
                name,
                "extra",
                "deprecated sampling parameter (" + SAMPLING_DEPRECATIONS + "); the anthropic SDK "
                "dropped it in 1.0, but API version 2023-06-01 still takes it on the models that "
                "support sampling options, so the model keeps it, marked deprecated "
                "(MessagesEndpoint refuses it under 2026-10-21)",
            )
            for name in ("temperature", "top_k", "top_p")
        ),
    )

    model: str = Field(description="Model that generates the reply, e.g. claude-sonnet-4-5.")
    max_tokens: int = Field(
        ge=0,
        description="Upper bound on generated tokens; 0 only pre-warms the prompt cache.",
    )
    messages: list[dict[str, Any]] = Field(
        max_length=100_000,
        description="Alternating user/assistant turns, each with a role and string or block content.",
    )
    billing_policy: BillingPolicy | None = Field(
        None, description="Which organization is billed for the request (beta)."
    )
    cache_control: CacheControlEphemeral | None = Field(
        None, description="Automatic cache breakpoint placed on the last cacheable block."
    )
    compaction: CompactionConfig | None = Field(
        None,
        description="Summarize the conversation into a compaction block instead of replying (beta).",
    )
    container: str | ContainerParams | None = Field(
        None,
        description="Container id to reuse, or (beta) an object with an id and skills to load.",
    )
    context_management: ContextManagementConfig | None = Field(
        None, description="Server-side context editing such as clearing old tool results (beta)."
    )
    diagnostics: DiagnosticsParams | None = Field(
        None,
        description="Asks for prompt-cache miss diagnostics against a previous message (beta).",
    )
    fallback_credit_token: str | FallbackCreditToken | None = Field(
        None,
        description="Token from a refused response that bills the retry's warm prefix as cache reads (beta).",
    )
    fallbacks: list[FallbackParams] | Literal["default"] | None = Field(
        None,
        description="Substitute models tried in order when the model declines, or 'default' (beta).",
    )
    inference_geo: str | None = Field(
        None, description="Geographic region for inference; the workspace default when omitted."
    )
    mcp_servers: list[MCPServerURLDefinition] | None = Field(
        None, description="Remote MCP servers whose tools the model may call (beta)."
    )
    metadata: Metadata | None = Field(None, description="Metadata about the request.")
    output_config: OutputConfig | None = Field(
        None, description="Output options: effort level, JSON output format, task budget."
    )
    service_tier: Literal["auto", "standard_only"] | None = Field(
        None, description="Use priority capacity when available (auto) or standard capacity only."
    )
    speed: Speed | None = Field(
        None,
        description="Inference speed mode; fast costs more and only some models support it (beta).",
    )
    stop_sequences: list[str] | None = Field(
        None, description="Strings that end generation when the model produces them."
    )
    stream: bool | None = Field(
        None, description="Stream the response incrementally as server-sent events."
    )
    system: str | list[dict[str, Any]] | None = Field(
        None, description="System prompt, as plain text or a list of text content blocks."
    )
    temperature: float | None = Field(
        None,
        ge=0.0,
        le=1.0,
        deprecated=_SAMPLING,
        description="Deprecated: sampling randomness from 0.0 to 1.0; defaults to 1.0.",
    )
    thinking: ThinkingConfig | None = Field(
        None, description="Extended thinking configuration: enabled, disabled or adaptive."
    )
    thread: Annotated[ThreadCreate | ThreadContinue, Field(discriminator="type")] | None = Field(
        None, description="Server-held conversation state: create or continue (beta)."
    )
    tool_choice: ToolChoice | None = Field(
        None, description="How the model may use tools: auto, any, a named tool, or none."
    )
    tools: list[dict[str, Any]] | None = Field(
        None,
        description="Client tool definitions and server tools the model may call; at most "
        f"{MAX_STRICT_TOOLS} of them with strict: true.",
    )

    @field_validator("tools")
    @classmethod
    def _strict_tools_limit(cls, value: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        """Anthropic refuses more than 20 tools with ``strict: true`` in one request (the
        structured-outputs page's schema complexity limits); say so before the request is sent.
        The 24 optional and 16 union-typed parameters the same table bounds are checked per
        tool by the ``anthropic-strict`` tool-schema target."""
        if value is None:
            return value
        strict = sum(1 for tool in value if isinstance(tool, dict) and tool.get("strict") is True)
        if strict > MAX_STRICT_TOOLS:
            raise ValueError(
                f"{strict} tools have strict: true; Anthropic allows at most "
                f"{MAX_STRICT_TOOLS} strict tools per request (non-strict tools do not count)"
            )
        return value

    top_k: int | None = Field(
        None,
        ge=0,
        deprecated=_SAMPLING,
        description="Deprecated: sample only from the K most likely tokens at each step.",
    )
    top_p: float | None = Field(
        None,
        ge=0.0,
        le=1.0,
        deprecated=_SAMPLING,
        description="Deprecated: nucleus sampling, a cumulative probability cut-off.",
    )
