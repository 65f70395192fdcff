"""Ollama's OpenAI-compatible chat completions endpoint class.

The request body of this endpoint is the OpenAI chat completions body, so this module holds no
request model: the catalog pairs :class:`OllamaChatEndpoint` with the OpenAI chat request model.

Source: https://github.com/ollama/ollama/blob/main/docs/api/openai-compatibility.mdx
"""

from __future__ import annotations

from provcat.endpoint import Endpoint

__all__ = ["OllamaChatEndpoint"]


class OllamaChatEndpoint(Endpoint):
    """Chat completions from a local Ollama server through its OpenAI-compatible API.

    Reaches ``POST http://localhost:11434/v1/chat/completions``; the body is an OpenAI chat
    completions request and the server needs no API key.
    """
