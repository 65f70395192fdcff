"""Endpoint protocols: generic implementations that catalog endpoints name with ``protocol:``.

A protocol is one request/response shape that several vendors serve (OpenAI's Chat Completions is
spoken by dozens). An endpoint that names a protocol needs no Python of its own: the runtime
derives a dedicated class for it from the protocol's implementation, and its request model is the
protocol's unless the endpoint names its own with ``request_options:``.

This table is the one list of protocols: the generator checks ``protocol:`` against it and the
runtime builds endpoints from it. Importing it imports nothing else (no pydantic).
"""

from collections.abc import Mapping
from operator import itemgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

__all__ = ["COMPATIBLE_PROTOCOL", "PROTOCOLS", "Protocol"]


class Protocol(tuple[Any, ...]):
    """One generic endpoint implementation: a named tuple (fields by position and by name,
    immutable, compared as a tuple), written out because NamedTuple compiles the class's
    ``__new__`` from source, and this table is read on the cold path."""

    __slots__ = ()
    _fields = ("name", "implementation", "request_options", "summary", "docs_url")

    def __new__(
        cls,
        name: str,
        implementation: str,  # "package.module:Class", an Endpoint subclass
        request_options: str | None,  # "package.module:Model", the default request model, or None
        summary: str,
        docs_url: str,
    ) -> "Protocol":
        return tuple.__new__(cls, (name, implementation, request_options, summary, docs_url))

    if TYPE_CHECKING:

        @property
        def name(self) -> str: ...
        @property
        def implementation(self) -> str: ...
        @property
        def request_options(self) -> str | None: ...
        @property
        def summary(self) -> str: ...
        @property
        def docs_url(self) -> str: ...

    else:
        name = property(itemgetter(0))
        implementation = property(itemgetter(1))
        request_options = property(itemgetter(2))
        summary = property(itemgetter(3))
        docs_url = property(itemgetter(4))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)

    def __repr__(self) -> str:
        values = ", ".join(f"{n}={v!r}" for n, v in zip(self._fields, self, strict=True))
        return f"Protocol({values})"


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
        "provcat.endpoints.endpoint:Endpoint",
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
