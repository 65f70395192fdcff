"""OpenAI Chat Completions: the request model and the endpoint class.

``ChatCompletionsRequest`` lists every documented top-level body field of
``POST /v1/chat/completions``, including the deprecated fields the API still accepts
(``max_tokens``, ``functions``, ``function_call``, ``prompt_cache_retention``). Other vendors'
OpenAI-compatible chat endpoints reuse this model. The small nested objects (audio output,
stream options, predicted output, web search options, prompt caching and moderation settings)
are typed as request models of their own; messages, tools and response formats are polymorphic
and stay plain JSON objects. The sub-models for prompt caching, moderation and the reasoning
effort vocabulary are shared with the Responses request model.

Source: https://developers.openai.com/api/reference/resources/chat/subresources/completions/methods/create
Source: https://github.com/openai/openai-python/blob/main/src/openai/types/chat/completion_create_params.py
"""

from typing import Annotated, Any, Literal

from pydantic import Field

from provcat.endpoints.protocols.openai_voice import VoiceReference
from provcat.endpoints.request import RequestModel

__all__ = [
    "ApproximateLocation",
    "ChatAudioOutput",
    "ChatCompletionsRequest",
    "ChatStreamOptions",
    "FunctionCallOption",
    "FunctionDefinition",
    "Metadata",
    "ModerationConfig",
    "ModerationPolicy",
    "ModerationPolicyRule",
    "PredictionContent",
    "PromptCacheOptions",
    "ReasoningEffort",
    "ServiceTier",
    "WebSearchLocation",
    "WebSearchOptions",
]

ReasoningEffort = Literal["none", "minimal", "low", "medium", "high", "xhigh", "max"]
"""Documented values of the reasoning effort setting for OpenAI reasoning models."""

ServiceTier = Literal["auto", "default", "flex", "scale", "priority", "fast"]
"""Documented processing tiers a Chat Completions request may ask for."""

Metadata = Annotated[
    dict[Annotated[str, Field(max_length=64)], Annotated[str, Field(max_length=512)]],
    Field(max_length=16),
]
"""Up to 16 string key-value pairs (keys up to 64 characters, values up to 512)."""


class ChatAudioOutput(RequestModel):
    """Settings for spoken output, needed when ``modalities`` includes ``audio``."""

    format: Literal["wav", "aac", "mp3", "flac", "opus", "pcm16"] = Field(
        description="Encoding of the generated audio."
    )
    voice: str | VoiceReference = Field(
        description="Built-in voice name (e.g. alloy, coral, marin, cedar) or a custom voice id."
    )


class ChatStreamOptions(RequestModel):
    """Options that only apply when ``stream`` is true."""

    include_obfuscation: bool | None = Field(
        None, description="Whether stream deltas carry random padding against side channels."
    )
    include_usage: bool | None = Field(
        None, description="Whether a final chunk with token usage is sent before [DONE]."
    )


class PredictionContent(RequestModel):
    """Predicted output, such as a file being regenerated, to speed up the response."""

    type: Literal["content"] = Field(description="Kind of prediction; always 'content'.")
    content: str | list[dict[str, Any]] = Field(
        description="Expected output text, as a string or a list of text content parts."
    )


class ApproximateLocation(RequestModel):
    """Approximate whereabouts of the user, to localise web search results."""

    city: str | None = Field(None, description="City name in free text, e.g. San Francisco.")
    country: str | None = Field(
        None, min_length=2, max_length=2, description="Two-letter ISO 3166-1 country code."
    )
    region: str | None = Field(None, description="Region or state in free text.")
    timezone: str | None = Field(None, description="IANA time zone, e.g. America/Los_Angeles.")


class WebSearchLocation(RequestModel):
    """User location hint for the web search tool."""

    type: Literal["approximate"] = Field(description="Kind of location; always 'approximate'.")
    approximate: ApproximateLocation = Field(description="The approximate location fields.")


class WebSearchOptions(RequestModel):
    """Settings for the built-in web search used by search-enabled chat models."""

    search_context_size: Literal["low", "medium", "high"] | None = Field(
        None, description="How much context window to spend on search results (default medium)."
    )
    user_location: WebSearchLocation | None = Field(
        None, description="Approximate user location used to localise results."
    )


class PromptCacheOptions(RequestModel):
    """Prompt caching controls for models that support explicit cache breakpoints."""

    mode: Literal["implicit", "explicit"] | None = Field(
        None, description="Whether OpenAI adds an implicit cache breakpoint (default implicit)."
    )
    ttl: Literal["30m"] | None = Field(
        None, description="Minimum lifetime of the breakpoints written; only 30m is supported."
    )


class ModerationPolicyRule(RequestModel):
    """What moderation does with one side of the exchange."""

    mode: Literal["score", "block"] = Field(
        description="Only score the content, or block it when flagged."
    )


class ModerationPolicy(RequestModel):
    """Moderation behaviour for the request input and the generated output."""

    input: ModerationPolicyRule | None = Field(None, description="Policy for the input.")
    output: ModerationPolicyRule | None = Field(None, description="Policy for the output.")


class ModerationConfig(RequestModel):
    """Moderation run on the request input and on the generated output."""

    model: str = Field(description="Moderation model to use, e.g. omni-moderation-latest.")
    policy: ModerationPolicy | None = Field(
        None, description="How flagged input and output are handled."
    )


class FunctionDefinition(RequestModel):
    """A callable function in the deprecated ``functions`` list."""

    name: str = Field(
        max_length=64,
        pattern=r"^[a-zA-Z0-9_-]+$",
        description="Function name: letters, digits, underscores and dashes, up to 64 chars.",
    )
    description: str | None = Field(
        None, description="What the function does, to help the model decide when to call it."
    )
    parameters: dict[str, Any] | None = Field(
        None, description="JSON Schema of the arguments; omitted means no parameters."
    )


class FunctionCallOption(RequestModel):
    """Forces the model to call one named function (deprecated ``function_call`` form)."""

    name: str = Field(description="Name of the function the model must call.")


class ChatCompletionsRequest(RequestModel):
    """Body of ``POST /v1/chat/completions``."""

    model: str = Field(description="Model ID that generates the completion, e.g. gpt-4o or o3.")
    messages: list[dict[str, Any]] = Field(
        description="Conversation so far, as a list of role-tagged message objects."
    )
    audio: ChatAudioOutput | None = Field(
        None, description="Voice and format of spoken output when audio is requested."
    )
    frequency_penalty: float | None = Field(
        None,
        ge=-2.0,
        le=2.0,
        description="Penalty on tokens in proportion to how often they already appeared.",
    )
    function_call: Literal["none", "auto"] | FunctionCallOption | None = Field(
        None, description="Deprecated in favour of tool_choice: which function, if any, to call."
    )
    functions: list[FunctionDefinition] | None = Field(
        None, description="Deprecated in favour of tools: functions the model may call."
    )
    logit_bias: dict[str, Annotated[int, Field(ge=-100, le=100)]] | None = Field(
        None, description="Bias from -100 to 100 added to the logits of the given token IDs."
    )
    logprobs: bool | None = Field(
        None, description="Whether to return log probabilities of the output tokens."
    )
    max_completion_tokens: int | None = Field(
        None, ge=1, description="Cap on generated tokens, reasoning tokens included."
    )
    max_tokens: int | None = Field(
        None,
        ge=1,
        description="Deprecated cap on generated tokens; not accepted by o-series models.",
    )
    metadata: Metadata | None = Field(
        None, description="Up to 16 string key-value pairs stored with the completion."
    )
    modalities: list[Literal["text", "audio"]] | None = Field(
        None, description="Output types to generate: text, and audio for audio-capable models."
    )
    moderation: ModerationConfig | None = Field(
        None, description="Moderation to run on the input and the generated output."
    )
    n: int | None = Field(
        None, ge=1, le=128, description="Number of completion choices to generate."
    )
    parallel_tool_calls: bool | None = Field(
        None, description="Whether the model may issue several tool calls in one turn."
    )
    prediction: PredictionContent | None = Field(
        None, description="Expected output content used for predicted-output speedups."
    )
    presence_penalty: float | None = Field(
        None,
        ge=-2.0,
        le=2.0,
        description="Penalty on tokens that already appeared, nudging towards new topics.",
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
    reasoning_effort: ReasoningEffort | None = Field(
        None, description="How much reasoning effort a reasoning model spends."
    )
    response_format: dict[str, Any] | None = Field(
        None,
        description="Output format object: type text, json_object or json_schema with a schema.",
    )
    safety_identifier: str | None = Field(
        None,
        max_length=64,
        description="Stable, preferably hashed, end-user ID used for abuse detection.",
    )
    seed: int | None = Field(
        None, description="Seed for best-effort deterministic sampling (beta)."
    )
    service_tier: ServiceTier | None = Field(
        None, description="Processing tier for the request; auto when unset."
    )
    stop: str | Annotated[list[str], Field(max_length=4)] | None = Field(
        None, description="Up to 4 sequences at which generation stops."
    )
    store: bool | None = Field(
        None, description="Whether to store the completion for distillation or evals."
    )
    stream: bool | None = Field(
        None, description="Whether to stream the response as server-sent events."
    )
    stream_options: ChatStreamOptions | None = Field(
        None, description="Streaming options; only set together with stream=true."
    )
    temperature: float | None = Field(
        None, ge=0.0, le=2.0, description="Sampling temperature; higher means more random."
    )
    tool_choice: Literal["none", "auto", "required"] | dict[str, Any] | None = Field(
        None, description="Whether and which tool the model calls: a mode or a tool selector."
    )
    tools: list[dict[str, Any]] | None = Field(
        None, description="Function or custom tools the model may call."
    )
    top_logprobs: int | None = Field(
        None,
        ge=0,
        le=20,
        description="How many most likely tokens to return per position; needs logprobs.",
    )
    top_p: float | None = Field(
        None, ge=0.0, le=1.0, description="Nucleus sampling probability mass to sample from."
    )
    user: str | None = Field(
        None,
        description="Deprecated end-user ID; replaced by safety_identifier and prompt_cache_key.",
    )
    verbosity: Literal["low", "medium", "high"] | None = Field(
        None, description="How terse or detailed the answer should be (default medium)."
    )
    web_search_options: WebSearchOptions | None = Field(
        None, description="Settings for the built-in web search of search models."
    )
