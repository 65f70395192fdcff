"""NVIDIA NIM chat completions: the endpoint class.

NVIDIA's hosted NIM API is OpenAI-compatible, so this endpoint's request model is the OpenAI
Chat Completions model (``provcat.providers.openai.chat.ChatCompletionsRequest``); the catalog
links the two and this module holds only the endpoint class.

Source: https://docs.nvidia.com/nim/large-language-models/latest/api-reference.html
"""

from __future__ import annotations

from provcat.endpoint import Endpoint

__all__ = ["NvidiaNimChatEndpoint"]


class NvidiaNimChatEndpoint(Endpoint):
    """NVIDIA NIM chat completions endpoint.

    Reaches ``POST https://integrate.api.nvidia.com/v1/chat/completions`` (or the same path on a
    self-hosted NIM) with an OpenAI-style chat completions body.
    """
