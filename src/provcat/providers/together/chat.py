"""Together AI chat completions: the request model of ``POST https://api.together.ai/v1/chat/completions``.

``TogetherChatRequest`` lists the body fields Together documents. They differ from OpenAI's:
``logprobs`` is a count (0 to 20), not a switch; extra sampling controls (``top_k``, ``min_p``,
``repetition_penalty``); ``echo``, ``safety_model``, ``compliance``,
``context_length_exceeded_behavior``, ``chat_template_kwargs`` and a ``reasoning`` switch;
``reasoning_effort`` is low, medium or high. Messages, tools and response formats stay plain JSON
objects.

Source: https://docs.together.ai/reference/chat-completions
Source: https://github.com/togethercomputer/together-py/blob/main/src/together/types/chat/completion_create_params.py
Checked against together 3.1.1 (tests/drift) on 2026-12-01.
"""

from typing import Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["TogetherChatRequest", "TogetherFunctionCallName", "TogetherReasoning"]


class TogetherFunctionCallName(RequestModel):
    """Forces a call of one named function (the ``function_call`` object form)."""

    name: str = Field(description="Name of the function to call.")


class TogetherReasoning(RequestModel):
    """Reasoning switch for models that can toggle it."""

    enabled: bool | None = Field(None, description="Whether the model reasons before answering.")


class TogetherChatRequest(RequestModel):
    """Body of Together ``POST /v1/chat/completions``."""

    messages: list[dict[str, Any]] = Field(
        description="Conversation so far, as role-tagged message objects."
    )
    model: str = Field(description="Model name, e.g. openai/gpt-oss-120b.")
    chat_template_kwargs: dict[str, Any] | None = Field(
        None, description="Extra settings passed to the model's chat template."
    )
    compliance: Literal["hipaa"] | None = Field(
        None, description="Compliance regime to serve under."
    )
    context_length_exceeded_behavior: Literal["truncate", "error"] | None = Field(
        None, description="When max_tokens overflows the context: truncate it, or fail with 400."
    )
    echo: bool | None = Field(None, description="Include the prompt in the response.")
    frequency_penalty: float | None = Field(
        None, ge=-2.0, le=2.0, description="Penalty on repeating already mentioned tokens."
    )
    function_call: Literal["none", "auto"] | TogetherFunctionCallName | None = Field(
        None, description="Which function, if any, to call (older form of tool_choice)."
    )
    logit_bias: dict[str, float] | None = Field(
        None, description="Adjusts the likelihood of specific token IDs."
    )
    logprobs: int | None = Field(
        None, ge=0, le=20, description="Return log probabilities of the top k tokens per step."
    )
    max_tokens: int | None = Field(None, ge=1, description="Maximum number of tokens to generate.")
    min_p: float | None = Field(
        None, ge=0.0, le=1.0, description="Minimum-probability sampling, an alternative to top_p."
    )
    n: int | None = Field(None, ge=1, description="Number of completions to generate.")
    presence_penalty: float | None = Field(
        None, ge=-2.0, le=2.0, description="Penalty that favours new topics."
    )
    reasoning: TogetherReasoning | None = Field(
        None, description="Reasoning switch for models that support toggling it."
    )
    reasoning_effort: Literal["low", "medium", "high"] | None = Field(
        None, description="How much reasoning effort the model applies."
    )
    repetition_penalty: float | None = Field(
        None, description="Penalty on repeated sequences; higher means less repetition."
    )
    response_format: dict[str, Any] | None = Field(
        None, description="Output format: text, json_object or json_schema."
    )
    safety_model: str | None = Field(
        None, description="Moderation model that validates the generated tokens."
    )
    seed: int | None = Field(None, description="Seed for reproducibility.")
    stop: list[str] | None = Field(None, description="Sequences at which generation stops.")
    stream: bool | None = Field(None, description="Stream tokens as server-sent events.")
    temperature: float | None = Field(None, ge=0.0, description="Sampling randomness.")
    tool_choice: str | dict[str, Any] | None = Field(
        None, description="Which tool, if any, is called: auto by default, or a tool selector."
    )
    tools: list[dict[str, Any]] | None = Field(None, description="Tools the model may call.")
    top_k: int | None = Field(None, ge=1, description="Sample only from the k most likely tokens.")
    top_p: float | None = Field(
        None, ge=0.0, le=1.0, description="Nucleus sampling probability threshold."
    )
