"""Lattice chat completions: the request model, its nested objects, and the endpoint class.

Lattice is a pure-Rust inference engine whose ``lattice serve`` command (and the ``lattice_serve``
daemon that Lattice Studio starts) is a local, keyless, OpenAI-compatible HTTP server, bound by
default to ``http://127.0.0.1:8080/v1``. :class:`LatticeChatRequest` lists the fields that
server reads from a ``POST /v1/chat/completions`` body: the OpenAI ones it honours plus its own
``top_k``, ``repetition_penalty``, ``reasoning_budget`` and ``lora`` extensions.

Fields the server refuses outright (``tools``, ``tool_choice``) and OpenAI fields it silently
ignores (``frequency_penalty``, ``presence_penalty``, ``logit_bias``, ``user``) are left out,
so the model rejects them instead of sending a setting that cannot take effect. ``n`` is kept
but bounded to 1, the only value the server accepts. Serialize with ``by_alias=True``: the
JSON schema of ``response_format.json_schema`` travels under the wire name ``schema``.

Source: https://pypi.org/project/lionagi/0.36.0/ (lionagi/providers/lattice/chat.py, _config.py)
Source: https://github.com/ohdearquant/lattice/blob/main/docs/serve-http-api.md
Source: https://github.com/ohdearquant/lattice/blob/main/crates/inference/src/serve/contract.rs
"""

from typing import Annotated, Any, Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = [
    "LatticeChatRequest",
    "LatticeJsonSchemaFormat",
    "LatticeLoraSelection",
    "LatticeResponseFormat",
]

_U64_MAX = (1 << 64) - 1


class LatticeLoraSelection(RequestModel):
    """One resident LoRA adapter, and its weight, in a request's adapter mixture."""

    id: int = Field(ge=0, description="Adapter id as the server lists it under GET /v1/lora.")
    scale: float = Field(
        allow_inf_nan=False, description="Multiplier applied to the adapter's alpha/rank scale."
    )


class LatticeJsonSchemaFormat(RequestModel):
    """The ``json_schema`` object of a structured-output ``response_format``."""

    name: str | None = Field(None, description="Name the client gives the schema.")
    strict: bool | None = Field(None, description="Ask for strict schema enforcement.")
    schema_: dict[str, Any] | None = Field(
        None, alias="schema", description="JSON Schema document the reply must match."
    )


class LatticeResponseFormat(RequestModel):
    """Reply format: plain text, or JSON constrained by a schema (``lattice_serve`` only)."""

    type: Literal["text", "json_schema"] = Field(
        description="'text', or 'json_schema', which only the lattice_serve daemon accepts."
    )
    json_schema: LatticeJsonSchemaFormat | None = Field(
        None, description="Schema settings; used when type is 'json_schema'."
    )


class LatticeChatRequest(RequestModel):
    """Body of Lattice ``POST /v1/chat/completions``."""

    model: str = Field(description="Model id the server was started with; it must match exactly.")
    messages: list[dict[str, Any]] = Field(
        min_length=1,
        max_length=4096,
        description="Conversation in OpenAI form (system/user/assistant roles); the last one must be from the user.",
    )
    max_tokens: int | None = Field(
        None, ge=1, description="Token budget of the reply; `lattice serve` caps it at 4096."
    )
    max_completion_tokens: int | None = Field(
        None, ge=1, description="Newer OpenAI name of max_tokens; must equal it when both are set."
    )
    temperature: float | None = Field(
        None, ge=0.0, le=2.0, description="Sampling temperature (server default 0.7)."
    )
    top_p: float | None = Field(
        None, gt=0.0, le=1.0, description="Nucleus sampling mass in (0, 1] (server default 0.9)."
    )
    top_k: int | None = Field(
        None,
        ge=0,
        description="Top-k sampling limit; applied by the lattice_serve daemon, ignored by `lattice serve`.",
    )
    repetition_penalty: float | None = Field(
        None,
        description="Repetition penalty; applied by the lattice_serve daemon, ignored by `lattice serve`.",
    )
    seed: int | None = Field(
        None, ge=0, le=_U64_MAX, description="Sampling seed, an unsigned 64-bit integer."
    )
    stream: bool | None = Field(
        None, description="Stream the reply as server-sent events; not allowed with images."
    )
    stop: str | Annotated[list[str], Field(min_length=1, max_length=4)] | None = Field(
        None, description="Stop string, or a list of one to four non-empty stop strings."
    )
    reasoning_budget: int | None = Field(
        None,
        ge=0,
        description="Token cap on the model's <think> block before the answer; 0 or absent means no cap.",
    )
    response_format: LatticeResponseFormat | None = Field(
        None, description="Reply format constraint; plain text unless the daemon takes a schema."
    )
    logprobs: bool | None = Field(
        None, description="Return log probabilities of the sampled tokens; not with stream."
    )
    top_logprobs: int | None = Field(
        None,
        ge=0,
        le=20,
        description="Alternatives to return per token position; needs logprobs true.",
    )
    n: int | None = Field(
        None, ge=1, le=1, description="Number of choices; the server generates only one."
    )
    lora: list[LatticeLoraSelection] | None = Field(
        None,
        description="Resident LoRA adapters to apply, in order; an empty list pins the base model.",
    )
