"""TokenUsage: one record of the tokens a request used, whatever shape the vendor reported it in.

The fields are genai-prices' ``Usage`` names and meanings (see :mod:`provcat.models.cost`):
``input_tokens`` is the whole input, cache reads, cache writes and audio included;
``output_tokens`` the whole output, reasoning, citation and audio tokens included. Each vendor's
own usage shape is read into it (the field mappings, with the page or SDK type each comes from,
are in :data:`SHAPES`): an answer's usage (:func:`usage_of`), a stream's
(:class:`UsageTracker`), and any usage a caller hands :func:`provcat.estimate_cost`
(:func:`provcat.models.usage_input.to_usage`, which refuses a field that belongs to no shape and
names the field meant).

Shapes are recognised by their field names, never by the provider: an OpenAI-compatible vendor's
answer reads as OpenAI's does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from provcat.models.prices import FEE_COUNTS

__all__ = [
    "COUNT_FIELDS",
    "GENAI",
    "SHAPES",
    "USAGE_FIELDS",
    "Shape",
    "TokenUsage",
    "UsageTracker",
    "shape_of",
    "usage_of",
]

USAGE_FIELDS = (
    "input_tokens",
    "cache_write_tokens",
    "cache_read_tokens",
    "output_tokens",
    "input_audio_tokens",
    "cache_audio_read_tokens",
    "output_audio_tokens",
    "cache_write_1h_tokens",
    "reasoning_tokens",
    "citation_tokens",
    # what a model's fees are billed by (genai-prices' ``requests``, and billed tool calls)
    *(COUNT_FIELDS := tuple(FEE_COUNTS.values())),
)


@dataclass(frozen=True, slots=True)
class TokenUsage:
    """Token counts of one request, and the requests and billed tool calls a model's fees count
    (genai-prices' ``Usage`` names; None: not reported); ``options``: the request options the
    vendor reports the request ran with, as ``(name, value)`` pairs (Perplexity's
    ``search_context_size``), which pick a fee where :func:`provcat.estimate_cost`'s
    ``options`` name none."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None
    input_audio_tokens: int | None = None
    cache_audio_read_tokens: int | None = None
    output_audio_tokens: int | None = None
    cache_write_1h_tokens: int | None = None
    citation_tokens: int | None = None
    requests: int | None = None
    web_searches: int | None = None
    social_searches: int | None = None
    storage_searches: int | None = None
    code_executions: int | None = None
    options: tuple[tuple[str, str], ...] = ()

    def as_dict(self) -> dict[str, int]:
        """The counts reported, by field name (what :func:`provcat.estimate_cost` also takes;
        ``options`` are not counts and are left out)."""
        return {f: v for f in USAGE_FIELDS if (v := getattr(self, f)) is not None}

    def __repr__(self) -> str:
        """The counts reported and the options, as the constructor takes them: a count the
        vendor did not report (None) is left out, as it would be left out of the call."""
        shown = [f"{name}={value!r}" for name, value in self.as_dict().items()]
        if self.options:
            shown.append(f"options={self.options!r}")
        return f"TokenUsage({', '.join(shown)})"


def _int(mapping: Any, *path: str) -> int | None:
    value: Any = mapping
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _sum(*values: int | None) -> int | None:
    given = [v for v in values if v is not None]
    return sum(given) if given else None


def _first(*values: int | None) -> int | None:
    return next((v for v in values if v is not None), None)


# --- each shape: its field names and how it reads into TokenUsage -------------------------------


def _chat(u: Mapping[str, Any]) -> TokenUsage:
    """OpenAI Chat Completions and Embeddings (``CompletionUsage`` in openai-python,
    src/openai/types/completion_usage.py; https://developers.openai.com/api/reference/chat/object):
    ``prompt_tokens`` counts the whole prompt, its ``prompt_tokens_details.cached_tokens`` and
    ``audio_tokens`` included; ``completion_tokens`` counts the whole completion, its
    ``completion_tokens_details.reasoning_tokens`` and ``audio_tokens`` included. DeepSeek's
    ``prompt_cache_hit_tokens`` (https://api-docs.deepseek.com/api/create-chat-completion) is
    its name for the cached part."""
    web, social, code = _tool_calls(u)
    return TokenUsage(
        input_tokens=_int(u, "prompt_tokens"),
        output_tokens=_int(u, "completion_tokens"),
        cache_read_tokens=_first(
            _int(u, "prompt_tokens_details", "cached_tokens"), _int(u, "prompt_cache_hit_tokens")
        ),
        cache_write_tokens=_int(u, "prompt_tokens_details", "cache_write_tokens"),
        reasoning_tokens=_int(u, "completion_tokens_details", "reasoning_tokens"),
        input_audio_tokens=_int(u, "prompt_tokens_details", "audio_tokens"),
        output_audio_tokens=_int(u, "completion_tokens_details", "audio_tokens"),
        web_searches=web,
        social_searches=social,
        code_executions=code,
    )


def _tool_calls(u: Mapping[str, Any]) -> tuple[int | None, int | None, int | None]:
    """The billed server-side tool calls xAI counts by tool in its usage
    (``server_side_tool_usage_details``: ``web_search_calls``, ``x_search_calls``,
    ``code_interpreter_calls``; https://docs.x.ai/developers/tools/tool-usage-details), as web
    searches, social searches and code executions: read, so a cost is refused where the catalog
    lists no fee for them rather than given without them."""
    return (
        _int(u, "server_side_tool_usage_details", "web_search_calls"),
        _int(u, "server_side_tool_usage_details", "x_search_calls"),
        _int(u, "server_side_tool_usage_details", "code_interpreter_calls"),
    )


def _responses(u: Mapping[str, Any]) -> TokenUsage:
    """OpenAI Responses (``ResponseUsage`` in openai-python, src/openai/types/responses/
    response_usage.py; https://developers.openai.com/api/reference/responses/object):
    ``input_tokens`` includes ``input_tokens_details.cached_tokens``, ``output_tokens`` includes
    ``output_tokens_details.reasoning_tokens``."""
    web, social, code = _tool_calls(u)
    return TokenUsage(
        input_tokens=_int(u, "input_tokens"),
        output_tokens=_int(u, "output_tokens"),
        cache_read_tokens=_int(u, "input_tokens_details", "cached_tokens"),
        cache_write_tokens=_int(u, "input_tokens_details", "cache_write_tokens"),
        reasoning_tokens=_int(u, "output_tokens_details", "reasoning_tokens"),
        web_searches=web,
        social_searches=social,
        code_executions=code,
    )


def _messages(u: Mapping[str, Any]) -> TokenUsage:
    """Anthropic Messages (``Usage`` in anthropic-sdk-python, src/anthropic/types/usage.py;
    https://platform.claude.com/docs/en/build-with-claude/prompt-caching#tracking-cache-performance):
    ``input_tokens`` counts only the input after the last cache breakpoint, so the whole input is
    ``input_tokens + cache_creation_input_tokens + cache_read_input_tokens``;
    ``cache_creation.ephemeral_1h_input_tokens`` is the part written for one hour;
    ``output_tokens`` includes ``output_tokens_details.thinking_tokens``;
    ``server_tool_use.web_search_requests`` counts the billed web searches."""
    cache_read = _int(u, "cache_read_input_tokens")
    cache_write = _int(u, "cache_creation_input_tokens")
    return TokenUsage(
        input_tokens=_sum(_int(u, "input_tokens"), cache_read, cache_write),
        output_tokens=_int(u, "output_tokens"),
        cache_read_tokens=cache_read,
        cache_write_tokens=cache_write,
        cache_write_1h_tokens=_int(u, "cache_creation", "ephemeral_1h_input_tokens"),
        reasoning_tokens=_int(u, "output_tokens_details", "thinking_tokens"),
        web_searches=_int(u, "server_tool_use", "web_search_requests"),
    )


def _modality(details: Any, modality: str) -> int | None:
    if not isinstance(details, list):
        return None
    counts = [
        _int(d, "tokenCount") if "tokenCount" in d else _int(d, "token_count")
        for d in details
        if isinstance(d, Mapping) and str(d.get("modality", "")).upper() == modality
    ]
    return _sum(*counts)


def _gemini(u: Mapping[str, Any], camel: bool = True) -> TokenUsage:
    """Gemini ``usageMetadata`` (https://ai.google.dev/api/generate-content#UsageMetadata;
    snake_case in google-genai's ``GenerateContentResponseUsageMetadata``):
    ``promptTokenCount`` includes ``cachedContentTokenCount``; the tool-use prompt
    (``toolUsePromptTokenCount``) is input too; ``candidatesTokenCount`` excludes the thinking
    tokens (``thoughtsTokenCount``), which are billed as output; audio counts are the ``AUDIO``
    entries of the ``*TokensDetails`` lists."""

    def name(camel_name: str) -> str:
        if camel:
            return camel_name
        return "".join("_" + c.lower() if c.isupper() else c for c in camel_name)

    thoughts = _int(u, name("thoughtsTokenCount"))
    return TokenUsage(
        input_tokens=_sum(
            _int(u, name("promptTokenCount")), _int(u, name("toolUsePromptTokenCount"))
        ),
        output_tokens=_sum(_int(u, name("candidatesTokenCount")), thoughts),
        cache_read_tokens=_int(u, name("cachedContentTokenCount")),
        reasoning_tokens=thoughts,
        input_audio_tokens=_modality(u.get(name("promptTokensDetails")), "AUDIO"),
        cache_audio_read_tokens=_modality(u.get(name("cacheTokensDetails")), "AUDIO"),
        output_audio_tokens=_modality(u.get(name("candidatesTokensDetails")), "AUDIO"),
    )


def _perplexity(u: Mapping[str, Any]) -> TokenUsage:
    """Perplexity's Sonar chat completions (``UsageInfo`` in perplexityai, src/perplexity/types/
    shared/usage_info.py; https://docs.perplexity.ai/api-reference/sonar-post):
    ``prompt_tokens`` and ``completion_tokens`` leave out ``citation_tokens`` and
    ``reasoning_tokens``, which Perplexity counts and bills apart (its pricing page's Deep
    Research example, https://docs.perplexity.ai/docs/getting-started/pricing: 7,163 output,
    20,016 citation and 73,997 reasoning tokens, each priced on its own), so the whole output is
    their sum, as genai-prices' Perplexity extractor reads it; ``num_search_queries`` counts the
    searches Sonar Deep Research bills (the ``web_search`` fee); ``search_context_size`` is the
    request option the request fees depend on; ``cost`` is Perplexity's own reckoning (not
    read)."""
    reasoning = _int(u, "reasoning_tokens")
    citation = _int(u, "citation_tokens")
    size = u.get("search_context_size")
    return TokenUsage(
        input_tokens=_int(u, "prompt_tokens"),
        output_tokens=_sum(_int(u, "completion_tokens"), reasoning, citation),
        reasoning_tokens=reasoning,
        citation_tokens=citation,
        web_searches=_int(u, "num_search_queries"),
        options=(("search_context_size", size),) if isinstance(size, str) and size else (),
    )


def _ollama(u: Mapping[str, Any]) -> TokenUsage:
    """Ollama's ``/api/chat`` and ``/api/generate`` (https://github.com/ollama/ollama/blob/main/
    docs/api.md#response): ``prompt_eval_count`` input tokens, ``eval_count`` output tokens."""
    return TokenUsage(
        input_tokens=_int(u, "prompt_eval_count"), output_tokens=_int(u, "eval_count")
    )


def _genai(u: Mapping[str, Any]) -> TokenUsage:
    counts: dict[str, Any] = {f: u.get(f) for f in USAGE_FIELDS if f in u}
    return TokenUsage(**counts)


_GEMINI_FIELDS = (
    "promptTokenCount",
    "candidatesTokenCount",
    "totalTokenCount",
    "cachedContentTokenCount",
    "thoughtsTokenCount",
    "toolUsePromptTokenCount",
    "promptTokensDetails",
    "candidatesTokensDetails",
    "cacheTokensDetails",
    "toolUsePromptTokensDetails",
    "trafficType",
)


# xAI's additions to the OpenAI shapes: `cost_in_usd_ticks`, what the request was billed, in every
# Chat Completions and Responses usage (https://docs.x.ai/developers/cost-tracking);
# `num_sources_used`, the live-search sources (xAI's chat `Usage`, as the xai-openapi types have
# it); in Responses also the server-side tools run (`num_server_side_tools_used`), their count by
# tool (`server_side_tool_usage_details`; https://docs.x.ai/developers/tools/tool-usage-details)
# and `context_details`. Of them, the web and X search calls are read (billed searches:
# `_tool_calls`, with the code interpreter's); the rest are accepted and not read.
_XAI_FIELDS = (
    "cost_in_usd_ticks",
    "num_sources_used",
    "num_server_side_tools_used",
    "server_side_tool_usage_details",
    "context_details",
)

# OpenRouter's additions to the OpenAI shapes, in every usage it returns
# (https://openrouter.ai/docs/use-cases/usage-accounting): `cost`, what it charged, `is_byok`, and
# `cost_details` (the upstream cost of a bring-your-own-key request). Accepted and not read; its
# `prompt_tokens_details.cache_write_tokens`, the tokens written to the cache (part of
# `prompt_tokens`: the page's example totals prompt and completion tokens alone), is read as
# Chat Completions' cache writes.
_OPENROUTER_FIELDS = ("cost", "is_byok", "cost_details")

# Mistral's additions to Chat Completions usage (``UsageInfo`` in mistralai, src/mistralai/client/
# models/usageinfo.py, generated from Mistral's OpenAPI): `prompt_audio_seconds`, the length of the
# audio in the prompt (null without audio), and `service_tier` (standard or priority). Neither is
# a token count: they are accepted and not read.
_MISTRAL_FIELDS = ("prompt_audio_seconds", "service_tier")


_GEMINI_NAMES = {
    "input_tokens": "promptTokenCount",
    "output_tokens": "candidatesTokenCount",
    "cache_read_tokens": "cachedContentTokenCount",
    "reasoning_tokens": "thoughtsTokenCount",
}


@dataclass(frozen=True, slots=True)
class Shape:
    """One vendor's usage shape: its name, the fields that tell it apart, every field it may hold
    (token counts and the other facts vendors put beside them), and its reader."""

    name: str
    marks: frozenset[str]
    fields: frozenset[str]
    read: Callable[[Mapping[str, Any]], TokenUsage]
    names: Mapping[str, str]  # genai-prices' name -> this shape's name for the same count


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


# A usage holding the marks of two shapes is read as the first: Perplexity's usage holds OpenAI
# Chat Completions' marks too, so it comes first. google-genai's `prompt_tokens_details` is Chat
# Completions' name as well: of the shapes a usage's marks name, the first that holds all its
# fields is the one (see `shape_of`). The genai-prices shape is the fallback.
SHAPES: tuple[Shape, ...] = (
    Shape(
        "Perplexity Sonar",
        frozenset({"citation_tokens", "num_search_queries", "search_context_size"}),
        frozenset(
            {
                "prompt_tokens",
                "completion_tokens",
                "total_tokens",
                "citation_tokens",
                "num_search_queries",
                "reasoning_tokens",
                "search_context_size",
                "cost",
            }
        ),
        _perplexity,
        {
            "input_tokens": "prompt_tokens",
            "output_tokens": "completion_tokens",
            "reasoning_tokens": "reasoning_tokens",
            "citation_tokens": "citation_tokens",
            "web_searches": "num_search_queries",
        },
    ),
    Shape(
        "OpenAI Chat Completions",
        frozenset(
            {
                "prompt_tokens",
                "completion_tokens",
                "prompt_tokens_details",
                "completion_tokens_details",
            }
        ),
        frozenset(
            {
                "prompt_tokens",
                "completion_tokens",
                "total_tokens",
                "prompt_tokens_details",
                "completion_tokens_details",
                # DeepSeek's cache counts; Groq's timings (https://console.groq.com/docs/api-reference)
                "prompt_cache_hit_tokens",
                "prompt_cache_miss_tokens",
                "queue_time",
                "prompt_time",
                "completion_time",
                "total_time",
                *_XAI_FIELDS,
                *_OPENROUTER_FIELDS,
                *_MISTRAL_FIELDS,
            }
        ),
        _chat,
        {
            "input_tokens": "prompt_tokens",
            "output_tokens": "completion_tokens",
            "cache_read_tokens": "prompt_tokens_details.cached_tokens",
            "cache_write_tokens": "prompt_tokens_details.cache_write_tokens",
            "reasoning_tokens": "completion_tokens_details.reasoning_tokens",
            "input_audio_tokens": "prompt_tokens_details.audio_tokens",
            "output_audio_tokens": "completion_tokens_details.audio_tokens",
        },
    ),
    Shape(
        "OpenAI Responses",
        frozenset({"input_tokens_details", "total_tokens"}),
        frozenset(
            {
                "input_tokens",
                "output_tokens",
                "total_tokens",
                "input_tokens_details",
                "output_tokens_details",
                *_XAI_FIELDS,
                *_OPENROUTER_FIELDS,
            }
        ),
        _responses,
        {
            "input_tokens": "input_tokens",
            "output_tokens": "output_tokens",
            "cache_read_tokens": "input_tokens_details.cached_tokens",
            "cache_write_tokens": "input_tokens_details.cache_write_tokens",
            "reasoning_tokens": "output_tokens_details.reasoning_tokens",
        },
    ),
    Shape(
        "Anthropic Messages",
        frozenset(
            {
                "cache_creation_input_tokens",
                "cache_read_input_tokens",
                "cache_creation",
                "server_tool_use",
                "service_tier",
                "inference_geo",
                "speed",
            }
        ),
        frozenset(
            {
                "input_tokens",
                "output_tokens",
                "cache_creation_input_tokens",
                "cache_read_input_tokens",
                "cache_creation",
                "output_tokens_details",
                "server_tool_use",
                "service_tier",
                "inference_geo",
                "speed",
            }
        ),
        _messages,
        {
            "input_tokens": "input_tokens",
            "output_tokens": "output_tokens",
            "cache_read_tokens": "cache_read_input_tokens",
            "cache_write_tokens": "cache_creation_input_tokens",
            "cache_write_1h_tokens": "cache_creation.ephemeral_1h_input_tokens",
            "reasoning_tokens": "output_tokens_details.thinking_tokens",
            "web_searches": "server_tool_use.web_search_requests",
        },
    ),
    Shape(
        "Gemini usageMetadata",
        frozenset(_GEMINI_FIELDS),
        frozenset(_GEMINI_FIELDS),
        _gemini,
        _GEMINI_NAMES,
    ),
    Shape(
        "Gemini usage_metadata (google-genai)",
        frozenset(_snake(f) for f in _GEMINI_FIELDS) - {"traffic_type"},
        frozenset(_snake(f) for f in _GEMINI_FIELDS),
        lambda u: _gemini(u, camel=False),
        {k: _snake(v) for k, v in _GEMINI_NAMES.items()},
    ),
    Shape(
        "Ollama",
        frozenset({"prompt_eval_count", "eval_count"}),
        frozenset(
            {
                "prompt_eval_count",
                "eval_count",
                "total_duration",
                "load_duration",
                "prompt_eval_duration",
                "eval_duration",
            }
        ),
        _ollama,
        {"input_tokens": "prompt_eval_count", "output_tokens": "eval_count"},
    ),
)
GENAI = Shape(
    "genai-prices",
    frozenset(USAGE_FIELDS),
    frozenset(USAGE_FIELDS),
    _genai,
    {f: f for f in USAGE_FIELDS},
)
_PERPLEXITY, _RESPONSES, _ANTHROPIC = (
    next(s for s in SHAPES if s.name == name)
    for name in ("Perplexity Sonar", "OpenAI Responses", "Anthropic Messages")
)


def _first_marked() -> dict[str, int]:
    """Each mark -> the place in ``SHAPES`` of the first shape it marks."""
    first: dict[str, int] = {}
    for place, shape in enumerate(SHAPES):
        for mark in shape.marks:
            first.setdefault(mark, place)
    return first


_FIRST_MARKED = _first_marked()


def shape_of(usage: Mapping[str, Any]) -> Shape:
    """Of the shapes whose marks ``usage`` holds, the first (in ``SHAPES`` order) that holds every
    field of ``usage``, else the first of them (whose error names the field it lacks).
    ``output_tokens_details``
    alone is both OpenAI Responses' (``reasoning_tokens``) and Anthropic's (``thinking_tokens``):
    its content tells. ``citation_tokens`` is both Perplexity's mark and genai-prices' name: a
    usage of genai-prices' names only is genai-prices'."""
    places = sorted({_FIRST_MARKED[k] for k in usage if k in _FIRST_MARKED})
    if places:
        # the first marked shape that holds every field the usage has, else the first marked
        shape = next(
            (SHAPES[p] for p in places if usage.keys() <= SHAPES[p].fields), SHAPES[places[0]]
        )
        if shape is _PERPLEXITY and usage.keys() <= GENAI.fields:
            return GENAI
        return shape
    details = usage.get("output_tokens_details")
    if isinstance(details, Mapping):
        return _ANTHROPIC if "thinking_tokens" in details else _RESPONSES
    return GENAI


def usage_of(data: Mapping[str, Any]) -> TokenUsage | None:
    """The usage an answer's body (or a streamed event) reports, or None when it reports none.

    Lenient: fields a shape does not know are ignored (vendors add some)."""
    raw = data.get("usage")
    if isinstance(raw, Mapping):
        return shape_of(raw).read(raw)
    meta = data.get("usageMetadata")
    if isinstance(meta, Mapping):
        return _gemini(meta)
    if "prompt_eval_count" in data or "eval_count" in data:
        return _ollama(data)
    return None


class UsageTracker:
    """The usage of a stream, kept up to date event by event; :attr:`usage` after the last one.

    Vendors report it differently: OpenAI Chat Completions in a last chunk (with
    ``stream_options.include_usage``), Responses in its ``response.completed`` event, Anthropic
    in ``message_start`` (input and cache counts) then ``message_delta`` (the output count, and
    any count that changed: https://platform.claude.com/docs/en/build-with-claude/streaming),
    Gemini in every chunk's ``usageMetadata`` (the last is the total), Ollama in its last line,
    Groq in its last chunk's ``x_groq.usage`` (https://console.groq.com/docs/api-reference).
    Later counts replace earlier ones field by field."""

    __slots__ = ("_raw", "usage")

    def __init__(self) -> None:
        self._raw: dict[str, Any] = {}
        self.usage: TokenUsage | None = None

    def add(self, event: Any) -> None:
        """Read what ``event`` says about usage, if anything."""
        if not isinstance(event, Mapping):
            return
        # Groq sends the stream's usage in its last chunk's ``x_groq`` without being asked
        for holder in (event, event.get("message"), event.get("response"), event.get("x_groq")):
            if not isinstance(holder, Mapping):
                continue
            raw = holder.get("usage")
            if isinstance(raw, Mapping):
                self._raw.update((k, v) for k, v in raw.items() if v is not None)
                self.usage = shape_of(self._raw).read(self._raw)
                return
        found = usage_of(event)
        if found is not None:
            self.usage = found
