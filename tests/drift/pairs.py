"""Which request model is compared with which SDK type: the drift check's only per-vendor data.

A pair names the vendor, the catalog endpoint, the request model and one or more SDK targets
(``module:Qualified.name``; ``@N`` picks the Nth ``typing.overload`` of a function). Several
targets are merged, later ones adding fields (an SDK that splits one body into a request object
and its options). ``ignore`` lists SDK call options that are not request fields (timeouts,
extra headers, the wrapper field that holds the merged options).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NO_SDK", "PAIRS", "Pair"]

_CALL_OPTIONS = ("extra_headers", "extra_query", "extra_body", "timeout", "betas")


@dataclass(frozen=True)
class Pair:
    sdk: str  # distribution name on PyPI, pinned with == in the dev extra
    vendor: str
    endpoint: str
    model: str  # "package.module:Class"
    targets: tuple[str, ...]
    ignore: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.vendor}/{self.endpoint}:{self.model.rsplit(':', 1)[1]}"


def _openai(endpoint: str, model: str, target: str) -> Pair:
    return Pair("openai", "openai", endpoint, model, (target,))


PAIRS: tuple[Pair, ...] = (
    _openai(
        "chat/completions",
        "provcat.endpoints.protocols.openai_chat:ChatCompletionsRequest",
        "openai.types.chat.completion_create_params:CompletionCreateParamsNonStreaming",
    ),
    _openai(
        "chat/completions",
        "provcat.endpoints.protocols.openai_chat:ChatStreamOptions",
        "openai.types.chat.chat_completion_stream_options_param:ChatCompletionStreamOptionsParam",
    ),
    _openai(
        "chat/completions",
        "provcat.endpoints.protocols.openai_chat:WebSearchOptions",
        "openai.types.chat.completion_create_params:WebSearchOptions",
    ),
    _openai(
        "chat/completions",
        "provcat.endpoints.protocols.openai_chat:ModerationConfig",
        "openai.types.chat.completion_create_params:Moderation",
    ),
    _openai(
        "chat/completions",
        "provcat.endpoints.protocols.openai_chat:PromptCacheOptions",
        "openai.types.chat.completion_create_params:PromptCacheOptions",
    ),
    _openai(
        "responses",
        "provcat.providers.openai.responses:ResponsesRequest",
        "openai.types.responses.response_create_params:ResponseCreateParamsNonStreaming",
    ),
    _openai(
        "responses",
        "provcat.providers.openai.responses:ReasoningConfig",
        "openai.types.shared_params.reasoning:Reasoning",
    ),
    _openai(
        "responses",
        "provcat.providers.openai.responses:PromptTemplateReference",
        "openai.types.responses.response_prompt_param:ResponsePromptParam",
    ),
    _openai(
        "embeddings",
        "provcat.endpoints.protocols.openai_embeddings:EmbeddingsRequest",
        "openai.types.embedding_create_params:EmbeddingCreateParams",
    ),
    _openai(
        "audio/speech",
        "provcat.endpoints.protocols.openai_audio:SpeechRequest",
        "openai.types.audio.speech_create_params:SpeechCreateParams",
    ),
    _openai(
        "audio/transcriptions",
        "provcat.endpoints.protocols.openai_audio:TranscriptionRequest",
        "openai.types.audio.transcription_create_params:TranscriptionCreateParamsNonStreaming",
    ),
    _openai(
        "images/generations",
        "provcat.providers.openai.images:ImageGenerationRequest",
        "openai.types.image_generate_params:ImageGenerateParamsNonStreaming",
    ),
    _openai(
        "images/edits",
        "provcat.providers.openai.images:ImageEditRequest",
        "openai.types.image_edit_params:ImageEditParamsNonStreaming",
    ),
    _openai(
        "batches",
        "provcat.providers.openai.batches:BatchRequest",
        "openai.types.batch_create_params:BatchCreateParams",
    ),
    _openai(
        "batches",
        "provcat.providers.openai.batches:BatchOutputExpiry",
        "openai.types.batch_create_params:OutputExpiresAfter",
    ),
    Pair(
        "anthropic",
        "anthropic",
        "messages",
        "provcat.endpoints.protocols.anthropic_messages:MessagesRequest",
        ("anthropic.types.beta.message_create_params:MessageCreateParamsNonStreaming",),
    ),
    Pair(
        "anthropic",
        "anthropic",
        "messages",
        "provcat.endpoints.protocols.anthropic_messages:OutputConfig",
        ("anthropic.types.beta.beta_output_config_param:BetaOutputConfigParam",),
    ),
    Pair(
        "anthropic",
        "anthropic",
        "messages",
        "provcat.endpoints.protocols.anthropic_messages:ThinkingConfigEnabled",
        ("anthropic.types.beta.beta_thinking_config_enabled_param:BetaThinkingConfigEnabledParam",),
    ),
    Pair(
        "groq",
        "groq",
        "chat/completions",
        "provcat.providers.groq.chat:GroqChatRequest",
        ("groq.types.chat.completion_create_params:CompletionCreateParams",),
    ),
    Pair(
        "groq",
        "groq",
        "audio/transcriptions",
        "provcat.providers.groq.audio:GroqTranscriptionRequest",
        ("groq.types.audio.transcription_create_params:TranscriptionCreateParams",),
    ),
    Pair(
        "cerebras-cloud-sdk",
        "cerebras",
        "chat/completions",
        "provcat.providers.cerebras.chat:CerebrasChatRequest",
        ("cerebras.cloud.sdk.types.chat.completion_create_params:CompletionCreateParams",),
    ),
    Pair(
        "fireworks-ai",
        "fireworks",
        "chat/completions",
        "provcat.providers.fireworks.chat:FireworksChatRequest",
        ("fireworks.types.chat.completion_create_params:CompletionCreateParamsNonStreaming",),
    ),
    Pair(
        "mistralai",
        "mistral",
        "chat/completions",
        "provcat.providers.mistral.chat:MistralChatRequest",
        ("mistralai.client.models.chatcompletionrequest:ChatCompletionRequest",),
    ),
    Pair(
        "mistralai",
        "mistral",
        "embeddings",
        "provcat.providers.mistral.embed:MistralEmbeddingsRequest",
        ("mistralai.client.models.embeddingrequest:EmbeddingRequest",),
    ),
    Pair(
        "together",
        "together",
        "chat/completions",
        "provcat.providers.together.chat:TogetherChatRequest",
        ("together.types.chat.completion_create_params:CompletionCreateParamsNonStreaming",),
    ),
    Pair(
        "together",
        "together",
        "embeddings",
        "provcat.providers.together.embed:TogetherEmbeddingsRequest",
        ("together.types.embedding_create_params:EmbeddingCreateParams",),
    ),
    Pair(
        "openrouter",
        "openrouter",
        "chat/completions",
        "provcat.providers.openrouter.chat:OpenRouterChatRequest",
        ("openrouter.components.chatrequest:ChatRequest",),
    ),
    Pair(
        "openrouter",
        "openrouter",
        "chat/completions",
        "provcat.providers.openrouter.chat:OpenRouterReasoning",
        ("openrouter.components.chatrequest:ChatRequestReasoning",),
    ),
    Pair(
        "perplexityai",
        "perplexity",
        "chat/completions",
        "provcat.providers.perplexity.chat:PerplexityChatRequest",
        ("perplexity.types.chat.completion_create_params:CompletionCreateParamsNonStreaming",),
    ),
    Pair(
        "perplexityai",
        "perplexity",
        "v1/agent",
        "provcat.providers.perplexity.agent:PerplexityAgentRequest",
        ("perplexity.generated.api:ResponsesRequestInput",),
    ),
    Pair(
        "perplexityai",
        "perplexity",
        "v1/agent",
        "provcat.providers.perplexity.agent:PerplexityReasoning",
        ("perplexity.generated.api:ReasoningConfigInput",),
    ),
    Pair(
        "perplexityai",
        "perplexity",
        "v1/agent",
        "provcat.providers.perplexity.agent:PerplexityProfileReference",
        ("perplexity.generated.api:ProfileReferenceInput",),
    ),
    Pair(
        "ollama",
        "ollama",
        "generate",
        "provcat.providers.ollama.generate:OllamaGenerateRequest",
        ("ollama._types:GenerateRequest",),
    ),
    Pair(
        "ollama",
        "ollama",
        "embeddings",
        "provcat.providers.ollama.embed:OllamaEmbedRequest",
        ("ollama._types:EmbedRequest",),
    ),
    Pair(
        "exa-py",
        "exa",
        "search",
        "provcat.providers.exa.search:ExaSearchRequest",
        ("exa_py.api:Exa.search",),
        _CALL_OPTIONS,
    ),
    Pair(
        "exa-py",
        "exa",
        "findSimilar",
        "provcat.providers.exa.find_similar:ExaFindSimilarRequest",
        ("exa_py.api:Exa.find_similar",),
        _CALL_OPTIONS,
    ),
    Pair(
        "exa-py",
        "exa",
        "contents",
        "provcat.providers.exa.contents:ExaContentsRequest",
        ("exa_py.api:Exa.get_contents@-1",),
        _CALL_OPTIONS,
    ),
    Pair(
        "exa-py",
        "exa",
        "search",
        "provcat.providers.exa.contents:ExaContentsOptions",
        ("exa_py.api:ContentsOptions",),
    ),
    Pair(
        "tavily-python",
        "tavily",
        "search",
        "provcat.providers.tavily.search:TavilySearchRequest",
        ("tavily.tavily:TavilyClient.search",),
        ("timeout",),  # the HTTP client's timeout; /search sends none
    ),
    Pair(
        "tavily-python",
        "tavily",
        "extract",
        "provcat.providers.tavily.extract:TavilyExtractRequest",
        ("tavily.tavily:TavilyClient.extract",),
    ),
    Pair(
        "firecrawl-py",
        "firecrawl",
        "v2/scrape",
        "provcat.providers.firecrawl.scrape:FirecrawlScrapeRequest",
        ("firecrawl.v2.types:ScrapeRequest", "firecrawl.v2.types:ScrapeOptions"),
        ("options",),
    ),
    Pair(
        "firecrawl-py",
        "firecrawl",
        "v2/map",
        "provcat.providers.firecrawl.map:FirecrawlMapRequest",
        ("firecrawl.v2.types:MapRequest", "firecrawl.v2.types:MapOptions"),
        ("options",),
    ),
    Pair(
        "firecrawl-py",
        "firecrawl",
        "v2/crawl",
        "provcat.providers.firecrawl.crawl:FirecrawlCrawlRequest",
        ("firecrawl.v2.types:CrawlRequest",),
    ),
)

_SHARED_CHAT = (
    "the shared OpenAI Chat Completions model (openai-chat protocol), compared with the openai "
    "SDK; the vendor's own SDK is not compared yet (catalog/REVIEWS.md)"
)
_SHARED_EMBED = (
    "the shared OpenAI embeddings model (openai-embeddings protocol), compared with the openai "
    "SDK; the vendor's own SDK is not compared yet (catalog/REVIEWS.md)"
)
_CLI = "a command-line agent: its options are CLI flags, which no Python SDK types"
_AG2 = "an in-process AG2 agent: the request model is provcat's own, not a vendor HTTP body"

# Catalog endpoints (provider/endpoint) whose request model no pair compares, and why: the vendor
# publishes no official Python SDK with typed request parameters, or its SDK does not describe
# the surface the catalog uses. A test checks that every catalog endpoint is in PAIRS or here.
NO_SDK: dict[str, str] = {
    "ag2/agent": _AG2,
    "ag2/group_chat": _AG2,
    "ag2/nlip": _AG2,
    "claude_code/query_cli": _CLI,
    "codex/query_cli": _CLI,
    "deepinfra/chat/completions": _SHARED_CHAT,
    "deepinfra/embeddings": _SHARED_EMBED,
    "deepseek/chat/completions": (
        "DeepSeek publishes no Python SDK (its docs use the openai SDK with extra_body); checked "
        "by hand against https://api-docs.deepseek.com/api/create-chat-completion"
    ),
    "fireworks/embeddings": (
        "the shared OpenAI embeddings model; fireworks-ai 1.2.30 types no embeddings request"
    ),
    "gemini/chat/completions": (
        "Gemini's OpenAI-compatible surface: the shared OpenAI model plus Google's extra_body "
        "settings; google-genai types only the native generateContent API, which no catalog "
        "endpoint uses. The extra_body settings are checked against "
        "https://ai.google.dev/gemini-api/docs/openai by tests/runtime/test_vendor_chat_subsets.py"
    ),
    "gemini_code/query_cli": _CLI,
    "lattice/chat/completions": "Lattice is a local test vendor with no SDK",
    "lattice/embeddings": "Lattice is a local test vendor with no SDK",
    "nvidia_nim/chat/completions": _SHARED_CHAT,
    "nvidia_nim/embeddings": (
        "NVIDIA publishes no Python SDK for the NIM embedding API; checked by hand against "
        "https://docs.nvidia.com/nim/nemo-retriever/text-embedding/latest/reference.html"
    ),
    "ollama/chat/completions": (
        "Ollama's OpenAI-compatible /v1 surface; the ollama SDK types only the native /api "
        "routes. Its model is checked by hand against docs/api/openai-compatibility.mdx and "
        "ChatCompletionRequest in openai/openai.go"
    ),
    "pi/query_cli": _CLI,
    "xai/chat/completions": (
        "xAI's Python SDK (xai-sdk) speaks gRPC, not this REST body; the model is checked against "
        "xAI's OpenAPI spec by tests/runtime/test_vendor_chat_subsets.py"
    ),
    "xai/responses": (
        "xAI's Python SDK (xai-sdk) speaks gRPC, not this REST body; the model is checked against "
        "xAI's OpenAPI spec by tests/runtime/test_responses_style_endpoints.py"
    ),
}
