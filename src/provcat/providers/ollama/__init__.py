"""Ollama, a local model server on http://localhost:11434.

Three endpoints: chat through Ollama's OpenAI-compatible ``/v1/chat/completions`` (request body
is the OpenAI chat model), and the native ``/api/generate`` and ``/api/embed`` routes with their
own request models.
"""

from provcat.providers.ollama.chat import OllamaChatEndpoint
from provcat.providers.ollama.embed import OllamaEmbedEndpoint
from provcat.providers.ollama.generate import OllamaGenerateEndpoint

__all__ = ["OllamaChatEndpoint", "OllamaEmbedEndpoint", "OllamaGenerateEndpoint"]
