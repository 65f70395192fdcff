"""Groq speech to text: the request model of ``POST https://api.groq.com/openai/v1/audio/transcriptions``.

Groq takes the audio as an uploaded ``file`` or a ``url`` to fetch it from (one of the two), and
fewer options than OpenAI's endpoint (no chunking, diarization, streaming or logprobs).

Source: https://console.groq.com/docs/api-reference#audio-transcription
Source: https://console.groq.com/docs/speech-to-text
Source: https://github.com/groq/groq-python/blob/main/src/groq/types/audio/transcription_create_params.py
Checked against groq 1.7.0 (tests/drift) on 2026-12-01.
"""

from typing import Literal

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["GroqTranscriptionRequest"]


class GroqTranscriptionRequest(RequestModel):
    """Multipart form of Groq ``POST /openai/v1/audio/transcriptions``."""

    model: str = Field(description="whisper-large-v3 or whisper-large-v3-turbo.")
    file: bytes | str | None = Field(
        None,
        description="Audio to transcribe, as the file content or a path; or give url instead.",
    )
    url: str | None = Field(
        None, description="URL of the audio (or a base64 data URL); or give file instead."
    )
    language: str | None = Field(None, description="ISO-639-1 code of the spoken language.")
    prompt: str | None = Field(
        None, description="Text that guides style or continues a previous segment."
    )
    response_format: Literal["json", "text", "verbose_json"] | None = Field(
        None, description="Format of the transcript returned (default json)."
    )
    temperature: float | None = Field(
        None, ge=0.0, le=1.0, description="Sampling temperature between 0 and 1."
    )
    timestamp_granularities: list[Literal["word", "segment"]] | None = Field(
        None, description="Timestamp detail to include; needs verbose_json."
    )
