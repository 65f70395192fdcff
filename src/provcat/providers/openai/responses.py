"""OpenAI Responses API: the request model and the endpoint class.

``ResponsesRequest`` lists every documented top-level body field of ``POST /v1/responses``.
Inputs, tools, tool choices and output formats are polymorphic and stay plain JSON objects;
the small documented objects (reasoning, text, prompt template, conversation, context
management and stream options) are request models. Prompt caching and moderation settings and
the metadata type are shared with the Chat Completions model.

Source: https://developers.openai.com/api/reference/resources/responses/methods/create
Source: https://github.com/openai/openai-python/blob/main/src/openai/types/responses/response_create_params.py
Source: https://developers.openai.com/api/docs/guides/prompting/migrate-from-prompt-object
Checked against openai 3.57.0 (tests/drift) on 2026-12-01.

``prompt`` (a reusable prompt object) is deprecated: OpenAI deprecated reusable prompts on
2026-06-03 and scheduled ``v1/prompts`` to shut down on 2026-11-30; the migration guide moves the
prompt text into ``input``/``instructions``. The field stays, marked deprecated, while the API and
the SDK still take it.
"""

from typing import Any, Literal

from pydantic import Field

from provcat.endpoints.protocols.openai_chat import (
    Metadata,
    ModerationConfig,
    PromptCacheOptions,
    ReasoningEffort,
)
from provcat.endpoints.request import RequestModel

__all__ = [
    "AccessPrograms",
    "BackgroundOptions",
    "ContextManagementEntry",
    "ConversationReference",
    "PromptTemplateReference",
    "ReasoningConfig",
    "ResponseIncludable",
    "ResponsesImageOptions",
    "ResponsesRequest",
    "ResponsesStreamOptions",
    "TextConfig",
]

PROMPT_DEPRECATION = (
    "Reusable prompt objects are deprecated (2026-06-03; v1/prompts shut down 2026-11-30): "
    "put the prompt text in input/instructions, see "
    "https://developers.openai.com/api/docs/guides/prompting/migrate-from-prompt-object"
)

ResponseIncludable = Literal[
    "file_search_call.results",
    "web_search_call.results",
    "web_search_call.action.sources",
    "message.input_image.image_url",
    "computer_call_output.output.image_url",
    "code_interpreter_call.outputs",
    "reasoning.encrypted_content",
    "message.output_text.logprobs",
]
"""Extra output data the ``include`` list may ask for."""


class AccessPrograms(RequestModel):
    """Domain-specific access programs a request runs under."""

    cyber: Literal["standard", "daybreak_blue", "daybreak_red"] | None = Field(
        None, description="Cyber access program; resolved from the model's tier when omitted."
    )


class BackgroundOptions(RequestModel):
    """Options of background execution (with background=true)."""

    completion_window: Literal["soonest", "2h", "8h"] | None = Field(
        None, description="soonest (default), or the discounted 2h/8h windows (no streaming)."
    )
    continuation_id: str | None = Field(
        None, description="Opaque id that groups related background requests for priority."
    )


class ResponsesImageOptions(RequestModel):
    """Request-level image options."""

    context_compression: Literal["auto", "enabled", "disabled"] | None = Field(
        None, description="Image context optimisation: auto (default), enabled or disabled."
    )


class ContextManagementEntry(RequestModel):
    """One context management rule, e.g. automatic compaction."""

    type: str = Field(description="Kind of context management; currently only 'compaction'.")
    compact_threshold: int | None = Field(
        None, ge=1, description="Token count at which compaction is triggered."
    )


class ConversationReference(RequestModel):
    """A stored conversation, named by its id."""

    id: str = Field(description="ID of the conversation the response belongs to.")


class PromptTemplateReference(RequestModel):
    """A stored prompt template and the values for its variables."""

    id: str = Field(description="ID of the prompt template.")
    variables: dict[str, str | dict[str, Any]] | None = Field(
        None, description="Values for template variables: strings or input text/image/file parts."
    )
    version: str | None = Field(None, description="Template version to use.")


class ReasoningConfig(RequestModel):
    """Settings for reasoning models (gpt-5 and o-series)."""

    context: Literal["auto", "current_turn", "all_turns"] | None = Field(
        None, description="Which earlier reasoning items are shown to the model on later turns."
    )
    effort: ReasoningEffort | None = Field(
        None, description="How much reasoning effort the model spends."
    )
    generate_summary: Literal["auto", "concise", "detailed"] | None = Field(
        None, description="Deprecated alias of summary."
    )
    mode: str | None = Field(
        None, description="Reasoning execution mode, e.g. 'standard' or 'pro'."
    )
    summary: Literal["auto", "concise", "detailed"] | None = Field(
        None, description="Whether and how verbosely to summarise the reasoning."
    )


class TextConfig(RequestModel):
    """Options for the model's text output."""

    format: dict[str, Any] | None = Field(
        None, description="Output format object: type text, json_schema or json_object."
    )
    verbosity: Literal["low", "medium", "high"] | None = Field(
        None, description="How terse or detailed the answer should be (default medium)."
    )


class ResponsesStreamOptions(RequestModel):
    """Options that only apply when ``stream`` is true."""

    include_obfuscation: bool | None = Field(
        None, description="Whether stream deltas carry random padding against side channels."
    )


class ResponsesRequest(RequestModel):
    """Body of ``POST /v1/responses``."""

    access_programs: AccessPrograms | None = Field(
        None, description="Domain-specific access programs to use for this request."
    )
    background: bool | None = Field(
        None, description="Whether to run the response in the background."
    )
    background_options: BackgroundOptions | None = Field(
        None, description="Completion window and grouping of background execution."
    )
    context_management: list[ContextManagementEntry] | None = Field(
        None, description="Context management rules, such as compaction, for this request."
    )
    conversation: str | ConversationReference | None = Field(
        None, description="Conversation (id or object) whose items are prepended and extended."
    )
    image: ResponsesImageOptions | None = Field(None, description="Request-level image options.")
    include: list[ResponseIncludable] | None = Field(
        None, description="Extra output data to include in the response."
    )
    input: str | list[dict[str, Any]] | None = Field(
        None, description="Input to the model: a string or a list of input items."
    )
    instructions: str | None = Field(
        None, description="System or developer message placed at the start of the context."
    )
    max_output_tokens: int | None = Field(
        None, ge=1, description="Cap on generated tokens, reasoning tokens included."
    )
    max_tool_calls: int | None = Field(
        None, ge=1, description="Cap on the total number of built-in tool calls."
    )
    metadata: Metadata | None = Field(
        None, description="Up to 16 string key-value pairs stored with the response."
    )
    model: str | None = Field(
        None, description="Model ID that generates the response, e.g. gpt-4o or o3."
    )
    moderation: ModerationConfig | None = Field(
        None, description="Moderation to run on the input and the generated output."
    )
    parallel_tool_calls: bool | None = Field(
        None, description="Whether the model may run tool calls in parallel."
    )
    previous_response_id: str | None = Field(
        None,
        description="ID of the previous response, for multi-turn state; not with conversation.",
    )
    prompt: PromptTemplateReference | None = Field(
        None,
        deprecated=PROMPT_DEPRECATION,
        description="Deprecated: stored prompt template and its variables.",
    )
    prompt_cache_key: str | None = Field(
        None, description="Key that groups similar requests to raise prompt cache hit rates."
    )
    prompt_cache_options: PromptCacheOptions | None = Field(
        None, description="Prompt caching mode and breakpoint lifetime."
    )
    prompt_cache_retention: Literal["in_memory", "24h"] | None = Field(
        None,
        description="Deprecated (use prompt_cache_options.ttl): maximum prompt cache retention.",
    )
    reasoning: ReasoningConfig | None = Field(
        None, description="Reasoning settings for gpt-5 and o-series models."
    )
    safety_identifier: str | None = Field(
        None,
        max_length=64,
        description="Stable, preferably hashed, end-user ID used for abuse detection.",
    )
    service_tier: (
        Literal["auto", "default", "flex", "scale", "priority", "fast", "ultrafast"] | None
    ) = Field(None, description="Processing tier for the request; auto when unset.")
    store: bool | None = Field(
        None, description="Whether to store the response for later retrieval."
    )
    stream: bool | None = Field(
        None, description="Whether to stream the response as server-sent events."
    )
    stream_options: ResponsesStreamOptions | None = Field(
        None, description="Streaming options; only set together with stream=true."
    )
    temperature: float | None = Field(
        None, ge=0.0, le=2.0, description="Sampling temperature; higher means more random."
    )
    text: TextConfig | None = Field(None, description="Text output settings: format and verbosity.")
    tool_choice: Literal["none", "auto", "required"] | dict[str, Any] | None = Field(
        None, description="Whether and which tool the model uses: a mode or a tool selector."
    )
    tools: list[dict[str, Any]] | None = Field(
        None, description="Built-in, MCP, function or custom tools the model may call."
    )
    top_logprobs: int | None = Field(
        None, ge=0, le=20, description="How many most likely tokens to return per position."
    )
    top_p: float | None = Field(
        None, ge=0.0, le=1.0, description="Nucleus sampling probability mass to sample from."
    )
    truncation: Literal["auto", "disabled"] | None = Field(
        None, description="Drop early items when input overflows (auto) or fail (disabled)."
    )
    user: str | None = Field(
        None,
        description="Deprecated end-user ID; replaced by safety_identifier and prompt_cache_key.",
    )
