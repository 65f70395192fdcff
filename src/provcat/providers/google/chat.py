"""Endpoint class for Gemini's OpenAI-compatible Chat Completions endpoint.

The request body is OpenAI's Chat Completions body; the catalog names that request model from
the OpenAI vendor package, so this module holds only the endpoint class.

Source: https://ai.google.dev/gemini-api/docs/openai
"""

from __future__ import annotations

from provcat.endpoint import Endpoint

__all__ = ["GeminiChatEndpoint"]


class GeminiChatEndpoint(Endpoint):
    """Gemini API, OpenAI-compatible chat: ``POST
    https://generativelanguage.googleapis.com/v1beta/openai/chat/completions`` with an OpenAI
    Chat Completions JSON body and a Gemini API key as the bearer token; it answers with a chat
    completion, or a server-sent event stream when ``stream`` is true.
    """
