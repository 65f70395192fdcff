"""Events of a streamed answer: server-sent events or newline-delimited JSON, chosen by the
response's content type, each decoded from JSON.

Lines are cut from the body as it arrives (:mod:`provcat.endpoints.wire`): a line, or the data of
one event, is refused once it is longer than the bound, while it is still arriving, and each event
must arrive within the endpoint's timeout of the one before. Server-sent events are parsed as the
WHATWG specification says (``data:`` lines joined by newlines, ``:`` comments, an event dispatched
at a blank line, an unfinished last event dropped).

An error event (``event: error``, an event whose JSON is an ``{"error": ...}`` envelope, or one of
type ``"error"``, as the Responses API's) raises :class:`~provcat.errors.StreamError`; a malformed
event raises :class:`~provcat.errors.InvalidResponseError`. ``[DONE]`` ends a stream.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from typing import Any

import httpx

from provcat.endpoints.responses import clean, error_fields, request_id
from provcat.endpoints.wire import Deadline, WireError, chunks, lines
from provcat.errors import InvalidResponseError, StreamError

__all__ = ["events"]


def _invalid(
    message: str,
    response: httpx.Response,
    provider: str,
    endpoint: str,
    secrets: Iterable[str],
    **more: Any,
) -> InvalidResponseError:
    return InvalidResponseError(
        message,
        provider=provider,
        endpoint=endpoint,
        status=response.status_code,
        request_id=request_id(response.headers, secrets),
        **more,
    )


def _decode(
    data: bytes, response: httpx.Response, provider: str, endpoint: str, secrets: Iterable[str]
) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise _invalid(
            f"a streamed event is not valid JSON ({type(exc).__name__})",
            response,
            provider,
            endpoint,
            secrets,
            excerpt=clean(data[:400].decode("utf-8", "replace"), secrets, limit=200),
        ) from None


def _error(
    data: bytes, response: httpx.Response, provider: str, endpoint: str, secrets: Iterable[str]
) -> StreamError:
    return StreamError(
        "the stream carried an error event",
        provider=provider,
        endpoint=endpoint,
        status=response.status_code,
        request_id=request_id(response.headers, secrets),
        **error_fields(data, secrets),
    )


def _is_error(data: Any) -> bool:
    """An error envelope, or an event of type "error" (the Responses API's carries its code
    and message at the top level) even without an ``event: error`` line. A chunk whose
    ``error`` is null or empty is a normal chunk, as for the openai SDK (``data.get("error")``)."""
    return isinstance(data, dict) and (
        data.get("type") == "error" or (bool(data.get("error")) and data.get("type") is None)
    )


async def _sse(
    body: AsyncIterator[bytes], limit: int, deadline: Deadline
) -> AsyncIterator[tuple[bytes, bytes]]:
    """(event name, data) of each server-sent event. Each line received renews the deadline (a
    keep-alive comment, ``: ping``, included), as any bytes renew the official SDKs' read
    timeout. A byte order mark before the first line is dropped, as the WHATWG parsing rules
    say."""
    data: list[bytes] = []
    size = 0
    name = b""
    first = True
    async for line in lines(body, limit):
        deadline.renew()
        if first:
            line, first = line.removeprefix(b"\xef\xbb\xbf"), False
        if not line:
            if data:
                yield name, b"\n".join(data)
            data, size, name = [], 0, b""
            continue
        if line[:1] == b":":
            continue
        field, _, value = line.partition(b":")
        if value[:1] == b" ":
            value = value[1:]
        if field == b"data":
            size += len(value) + 1
            if size > limit:
                raise WireError(f"a streamed event is larger than {limit} bytes", too_large=True)
            data.append(value)
        elif field == b"event":
            name = value


async def events(
    response: httpx.Response,
    provider: str,
    endpoint: str,
    max_event_bytes: int,
    deadline: Deadline,
    *,
    secrets: Iterable[str] = (),
) -> AsyncIterator[Any]:
    """The decoded events of ``response`` (a streamed, successful response); each line must
    arrive before ``deadline``, which each line moves on. ``secrets``, the call's credentials,
    are written ``<api key redacted>`` wherever an error quotes the answer."""
    given = response.headers.get("content-type", "").partition(";")[0].strip()
    content_type = given.lower()  # compared as lower case; quoted as sent (a key keeps its case)
    # the stream as a whole may run long: only each line is bounded in time, each event in bytes
    body = chunks(response, 1 << 62, deadline)
    try:
        if content_type == "text/event-stream":
            async for name, data in _sse(body, max_event_bytes, deadline):
                if data.strip() == b"[DONE]":
                    return
                if name == b"error":
                    raise _error(data, response, provider, endpoint, secrets)
                if not data:
                    continue
                event = _decode(data, response, provider, endpoint, secrets)
                if _is_error(event):
                    raise _error(data, response, provider, endpoint, secrets)
                yield event
        elif content_type in ("application/x-ndjson", "application/jsonl", "application/json"):
            async for line in lines(body, max_event_bytes):
                deadline.renew()
                if not line.strip():
                    continue
                event = _decode(line, response, provider, endpoint, secrets)
                if _is_error(event):
                    raise _error(line, response, provider, endpoint, secrets)
                yield event
        else:
            raise _invalid(
                f"expected an event stream, got content type {clean(given, secrets, cut=80) or 'none'!r}",
                response,
                provider,
                endpoint,
                secrets,
            )
    except WireError as exc:
        # the bound a line or an event broke is the endpoint's, named as call() names it
        message = f"{exc} (max_response_bytes)" if exc.too_large else str(exc)
        raise _invalid(message, response, provider, endpoint, secrets) from None
