"""Endpoint class for Groq's OpenAI-compatible Chat Completions endpoint.

The request body is OpenAI's Chat Completions body; the catalog names that request model from
the OpenAI vendor package, so this module holds only the endpoint class.

Source: https://console.groq.com/docs/api-reference#chat-create
Source: https://console.groq.com/docs/openai
"""

from __future__ import annotations

from provcat.endpoint import Endpoint

__all__ = ["GroqChatEndpoint"]


class GroqChatEndpoint(Endpoint):
    """Groq chat: ``POST https://api.groq.com/openai/v1/chat/completions`` with an OpenAI Chat
    Completions JSON body and a Groq API key as the bearer token; it answers with a chat
    completion, or a server-sent event stream when ``stream`` is true.
    """
