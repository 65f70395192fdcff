"""Endpoint class for Groq's OpenAI-compatible audio transcription endpoint.

The request is OpenAI's transcription form; the catalog names that request model from the
OpenAI vendor package, so this module holds only the endpoint class.

Source: https://console.groq.com/docs/api-reference#audio-transcription
Source: https://console.groq.com/docs/speech-to-text
"""

from __future__ import annotations

from provcat.endpoint import Endpoint

__all__ = ["GroqTranscriptionEndpoint"]


class GroqTranscriptionEndpoint(Endpoint):
    """Groq speech-to-text: ``POST https://api.groq.com/openai/v1/audio/transcriptions`` with a
    multipart/form-data body (the audio ``file`` or a ``url``, the Whisper ``model`` and the
    transcription options) and a Groq API key as the bearer token; it answers with the
    transcript as JSON, verbose JSON or text.
    """
