"""OpenAI provider package: endpoint classes for the OpenAI HTTP API.

Re-exports the eight API endpoint classes (chat completions, responses, embeddings, speech,
transcription, image generation, image editing and batches). Request models and the Codex CLI
endpoint live in their modules (``provcat.providers.openai.codex`` for Codex).
"""

from provcat.providers.openai.audio import OpenAISpeechEndpoint, OpenAITranscriptionEndpoint
from provcat.providers.openai.batches import OpenAIBatchesEndpoint
from provcat.providers.openai.chat import OpenAIChatEndpoint
from provcat.providers.openai.embeddings import OpenAIEmbeddingsEndpoint
from provcat.providers.openai.images import OpenAIImageEditEndpoint, OpenAIImageGenerationEndpoint
from provcat.providers.openai.responses import OpenAIResponsesEndpoint

__all__ = [
    "OpenAIBatchesEndpoint",
    "OpenAIChatEndpoint",
    "OpenAIEmbeddingsEndpoint",
    "OpenAIImageEditEndpoint",
    "OpenAIImageGenerationEndpoint",
    "OpenAIResponsesEndpoint",
    "OpenAISpeechEndpoint",
    "OpenAITranscriptionEndpoint",
]
