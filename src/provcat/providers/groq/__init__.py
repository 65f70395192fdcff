"""Groq vendor package: OpenAI-compatible chat and audio transcription endpoints.

Both endpoints take OpenAI-shaped requests, whose models live in the OpenAI vendor package.
"""

from provcat.providers.groq.audio import GroqTranscriptionEndpoint
from provcat.providers.groq.chat import GroqChatEndpoint

__all__ = ["GroqChatEndpoint", "GroqTranscriptionEndpoint"]
