"""Google vendor package: Gemini's OpenAI-compatible chat endpoint and the Gemini CLI endpoint.

The Gemini CLI request model lives in :mod:`provcat.providers.google.gemini_code`.
"""

from provcat.providers.google.chat import GeminiChatEndpoint

__all__ = ["GeminiChatEndpoint"]
