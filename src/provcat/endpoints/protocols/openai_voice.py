"""A custom voice by id: shared by OpenAI's speech request and the chat request's audio output.

Its own module so that the chat request does not import the audio requests (cold start).
Source: https://developers.openai.com/api/reference/resources/audio/subresources/speech/methods/create
"""

from pydantic import Field

from provcat.endpoints.request import RequestModel

__all__ = ["VoiceReference"]


class VoiceReference(RequestModel):
    """A custom voice, named by its id instead of a built-in voice name."""

    id: str = Field(description="Custom voice ID, e.g. voice_1234.")
