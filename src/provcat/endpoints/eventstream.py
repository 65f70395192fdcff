"""EventStream: what :meth:`Endpoint.stream` returns: the vendor's decoded events, and the usage
they reported, known once the stream has ended."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from provcat.models.usage import TokenUsage, UsageTracker

__all__ = ["EventStream"]


class EventStream:
    """An async iterator of a stream's raw events (dicts decoded from JSON, as the vendor sent
    them). :attr:`usage` is the token usage the events reported so far: after the last event,
    the stream's whole usage (None if the vendor reported none).

    The connection is closed when the events run out, when the stream raises an error, by
    ``aclose()``, at the end of an ``async with`` block (``async with chat.stream(request) as
    stream:``), or soon after the stream is garbage collected (the event loop closes it). A
    ``break`` out of an ``async for`` over a stream still held in a variable closes nothing:
    Python does not tell an iterator it was left, so hold it in an ``async with`` block."""

    __slots__ = ("_events", "_tracker")

    def __init__(self, events: AsyncIterator[Any]) -> None:
        self._events = events
        self._tracker = UsageTracker()

    @property
    def usage(self) -> TokenUsage | None:
        return self._tracker.usage

    def __aiter__(self) -> EventStream:
        return self

    async def __anext__(self) -> Any:
        event = await self._events.__anext__()
        self._tracker.add(event)
        return event

    async def aclose(self) -> None:
        aclose = getattr(self._events, "aclose", None)
        if aclose is not None:
            await aclose()

    async def __aenter__(self) -> EventStream:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
