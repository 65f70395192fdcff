"""Endpoint protocols: generic implementations that catalog endpoints name with ``protocol:``.

A protocol is one request/response shape that several vendors serve (OpenAI's Chat Completions is
spoken by dozens). An endpoint that names a protocol needs no Python of its own: the runtime
derives a dedicated class for it from the protocol's implementation, and its request model is the
protocol's unless the endpoint names its own with ``request_options:``.

This table is the one list of protocols: the generator checks ``protocol:`` against it and the
runtime builds endpoints from it. Importing it imports nothing else (no pydantic).
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

__all__ = ["COMPATIBLE_PROTOCOL", "PROTOCOLS", "Protocol"]


class Protocol(NamedTuple):
    """One generic endpoint implementation."""

    name: str
    implementation: str  # "package.module:Class", an Endpoint subclass
    request_options: str | None  # "package.module:Model", the default request model, or None
    summary: str
    docs_url: str


def _table(*protocols: Protocol) -> Mapping[str, Protocol]:
    return MappingProxyType({p.name: p for p in sorted(protocols, key=lambda p: p.name)})


PROTOCOLS: Mapping[str, Protocol] = _table(
    Protocol(
        "openai-chat",
        "provcat.endpoints.endpoint:Endpoint",
        "provcat.endpoints.protocols.openai_chat:ChatCompletionsRequest",
        "Chat Completions: a JSON body of messages in, a chat completion (or an SSE stream) out.",
        "https://developers.openai.com/api/reference/resources/chat/subresources/completions/methods/create",
    ),
    Protocol(
        "openai-embeddings",
        "provcat.endpoints.endpoint:Endpoint",
        "provcat.endpoints.protocols.openai_embeddings:EmbeddingsRequest",
        "Embeddings: a JSON body with the input text(s) in, a list of vectors out.",
        "https://developers.openai.com/api/reference/resources/embeddings/methods/create",
    ),
    Protocol(
        "openai-transcriptions",
        "provcat.endpoints.endpoint:Endpoint",
        "provcat.endpoints.protocols.openai_audio:TranscriptionRequest",
        "Speech to text: a multipart form with the audio file in, the transcript out.",
        "https://developers.openai.com/api/reference/resources/audio/subresources/transcriptions/methods/create",
    ),
    Protocol(
        "openai-speech",
        "provcat.endpoints.endpoint:Endpoint",
        "provcat.endpoints.protocols.openai_audio:SpeechRequest",
        "Text to speech: a JSON body with the text and voice in, audio bytes out.",
        "https://developers.openai.com/api/reference/resources/audio/subresources/speech/methods/create",
    ),
    Protocol(
        "anthropic-messages",
        "provcat.providers.anthropic.messages:MessagesEndpoint",
        "provcat.endpoints.protocols.anthropic_messages:MessagesRequest",
        "Messages: a JSON body of messages in, a message (or an SSE stream) out.",
        "https://platform.claude.com/docs/en/api/messages/create",
    ),
    Protocol(
        "http",
        "provcat.endpoints.endpoint:Endpoint",
        None,
        "Any JSON (or multipart, or GET query) API: the endpoint names its request model with "
        "request_options, or sends schemaless JSON without one.",
        "https://www.rfc-editor.org/rfc/rfc9110",
    ),
)

# The protocol of an endpoint built with openai_compatible=True for an unlisted service.
COMPATIBLE_PROTOCOL = "openai-chat"
