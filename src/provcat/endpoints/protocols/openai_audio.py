"""OpenAI audio: text-to-speech and speech-to-text request models and endpoint classes.

``SpeechRequest`` is the JSON body of ``POST /v1/audio/speech``; ``TranscriptionRequest`` is
the multipart form of ``POST /v1/audio/transcriptions`` (another vendor's transcription endpoint
reuses it). ``VoiceReference`` (a custom voice by id) is shared with the chat audio settings.

Source: https://developers.openai.com/api/reference/resources/audio/subresources/speech/methods/create
Source: https://developers.openai.com/api/reference/resources/audio/subresources/transcriptions/methods/create
Source: https://github.com/openai/openai-python/blob/main/src/openai/types/audio/speech_create_params.py
Source: https://github.com/openai/openai-python/blob/main/src/openai/types/audio/transcription_create_params.py
"""

from typing import Annotated, Literal

from pydantic import Field

from provcat.endpoints.protocols.openai_voice import VoiceReference
from provcat.endpoints.request import RequestModel

__all__ = ["ServerVadChunking", "SpeechRequest", "TranscriptionRequest", "VoiceReference"]


class ServerVadChunking(RequestModel):
    """Manual voice-activity-detection settings that decide where audio is cut into chunks."""

    type: Literal["server_vad"] = Field(description="Chunking kind; always 'server_vad'.")
    prefix_padding_ms: int | None = Field(
        None, ge=0, description="Audio kept before detected speech, in milliseconds."
    )
    silence_duration_ms: int | None = Field(
        None, ge=0, description="Silence that ends a speech segment, in milliseconds."
    )
    threshold: float | None = Field(
        None, ge=0.0, le=1.0, description="VAD sensitivity; higher needs louder speech."
    )


class SpeechRequest(RequestModel):
    """Body of ``POST /v1/audio/speech``."""

    input: str = Field(max_length=4096, description="Text to speak, up to 4096 characters.")
    model: str = Field(
        description="TTS model: tts-1, tts-1-hd, gpt-4o-mini-tts or a dated snapshot."
    )
    voice: str | VoiceReference = Field(
        description="Built-in voice name (alloy, ash, ballad, coral, echo, fable, onyx, nova, "
        "sage, shimmer, verse, marin, cedar) or a custom voice id."
    )
    instructions: str | None = Field(
        None, description="Extra guidance on delivery; not supported by tts-1 or tts-1-hd."
    )
    response_format: Literal["mp3", "opus", "aac", "flac", "wav", "pcm"] | None = Field(
        None, description="Audio encoding of the result (default mp3)."
    )
    speed: float | None = Field(
        None, ge=0.25, le=4.0, description="Playback speed from 0.25 to 4.0 (default 1.0)."
    )
    stream_format: Literal["sse", "audio"] | None = Field(
        None, description="Stream raw audio or server-sent events; sse not for tts-1 models."
    )


class TranscriptionRequest(RequestModel):
    """Multipart form of ``POST /v1/audio/transcriptions``."""

    file: bytes | str = Field(
        description="Audio to transcribe (flac, mp3, mp4, mpeg, mpga, m4a, ogg, wav or webm): "
        "the file content as bytes, or a path to the file."
    )
    model: str = Field(
        description="Transcription model, e.g. gpt-4o-transcribe, gpt-4o-transcribe-diarize or "
        "whisper-1."
    )
    chunking_strategy: Literal["auto"] | ServerVadChunking | None = Field(
        None, description="How the audio is split: 'auto' or manual server VAD settings."
    )
    include: list[Literal["logprobs"]] | None = Field(
        None, description="Extra data to return; logprobs needs the json response format."
    )
    keywords: list[str] | None = Field(
        None, description="Words or phrases that guide the transcription (gpt-transcribe)."
    )
    known_speaker_names: Annotated[list[str], Field(max_length=4)] | None = Field(
        None, description="Up to 4 speaker labels matching known_speaker_references."
    )
    known_speaker_references: Annotated[list[str], Field(max_length=4)] | None = Field(
        None, description="Data-URL audio samples (2 to 10 s) of the known speakers."
    )
    language: str | None = Field(
        None, description="ISO-639-1 code of the spoken language, e.g. en."
    )
    languages: list[str] | None = Field(
        None, description="Candidate ISO-639-1 languages of the audio (gpt-transcribe)."
    )
    prompt: str | None = Field(
        None, description="Text that guides style or continues a previous segment."
    )
    response_format: (
        Literal["json", "text", "srt", "verbose_json", "vtt", "diarized_json"] | None
    ) = Field(None, description="Format of the transcript returned.")
    stream: bool | None = Field(
        None, description="Whether to stream the transcript as server-sent events."
    )
    temperature: float | None = Field(
        None, ge=0.0, le=1.0, description="Sampling temperature between 0 and 1."
    )
    timestamp_granularities: list[Literal["word", "segment"]] | None = Field(
        None, description="Timestamp detail to include; needs verbose_json."
    )
