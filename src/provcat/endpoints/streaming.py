"""Events of a streamed answer: server-sent events (parsed by httpx-sse) or newline-delimited
JSON, chosen by the response's content type, each decoded from JSON.

An error event (``event: error``, or an event whose JSON is an ``{"error": ...}`` envelope) raises
:class:`~provcat.errors.StreamError`; a malformed event raises
:class:`~provcat.errors.InvalidResponseError`. ``[DONE]`` ends a stream.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
from httpx_sse import EventSource

from provcat.endpoints.responses import error_fields, request_id
from provcat.errors import InvalidResponseError, StreamError
from provcat.redact import sanitize

__all__ = ["events"]


def _decode(text: str, response: httpx.Response, provider: str, endpoint: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise InvalidResponseError(
            f"a streamed event is not valid JSON ({exc})",
            provider=provider,
            endpoint=endpoint,
            status=response.status_code,
            request_id=request_id(response.headers),
            excerpt=sanitize(text[:200]),
        ) from None


def _error(text: str, response: httpx.Response, provider: str, endpoint: str) -> StreamError:
    return StreamError(
        "the stream carried an error event",
        provider=provider,
        endpoint=endpoint,
        status=response.status_code,
        request_id=request_id(response.headers),
        **error_fields(text.encode()),
    )


def _is_error(data: Any) -> bool:
    return isinstance(data, dict) and "error" in data and data.get("type") in (None, "error")


async def events(
    response: httpx.Response, provider: str, endpoint: str, max_event_bytes: int
) -> AsyncIterator[Any]:
    """The decoded events of ``response`` (a streamed, successful response)."""
    content_type = response.headers.get("content-type", "").partition(";")[0].strip().lower()
    if content_type == "text/event-stream":
        async for sse in EventSource(response).aiter_sse():
            if len(sse.data) > max_event_bytes:
                raise InvalidResponseError(
                    f"a streamed event is larger than {max_event_bytes} bytes",
                    provider=provider,
                    endpoint=endpoint,
                    status=response.status_code,
                )
            if sse.data.strip() == "[DONE]":
                return
            if sse.event == "error":
                raise _error(sse.data, response, provider, endpoint)
            if not sse.data:
                continue
            data = _decode(sse.data, response, provider, endpoint)
            if _is_error(data):
                raise _error(sse.data, response, provider, endpoint)
            yield data
    elif content_type in ("application/x-ndjson", "application/jsonl", "application/json"):
        async for line in response.aiter_lines():
            if len(line) > max_event_bytes:
                raise InvalidResponseError(
                    f"a streamed line is larger than {max_event_bytes} bytes",
                    provider=provider,
                    endpoint=endpoint,
                    status=response.status_code,
                )
            if not line.strip():
                continue
            data = _decode(line, response, provider, endpoint)
            if _is_error(data):
                raise _error(line, response, provider, endpoint)
            yield data
    else:
        raise InvalidResponseError(
            f"expected an event stream, got content type {content_type or 'none'!r}",
            provider=provider,
            endpoint=endpoint,
            status=response.status_code,
            request_id=request_id(response.headers),
        )
