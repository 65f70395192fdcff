"""A response body read off the wire within bounds: the bytes received and the bytes they decode
to are each counted as they come, so no answer can make a call hold more than its bound.

httpx decodes a whole received chunk at once (a few KB of stacked gzip can become gigabytes
before anything is counted), so the raw body is read here and decompressed with a cap on each
step's output. Calls ask for ``gzip, deflate`` and accept one of those, or none: a stacked or
unknown ``Content-Encoding`` is refused. Lines of a streamed answer are cut as they arrive and
refused once one is longer than the bound, before it is whole.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterator

import httpx

__all__ = ["ACCEPT_ENCODING", "Deadline", "WireError", "chunks", "lines"]

ACCEPT_ENCODING = "gzip, deflate"
_WBITS = {"gzip": zlib.MAX_WBITS | 16, "x-gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS}


class WireError(Exception):
    """The body broke a bound or cannot be decoded (the caller types it); ``too_large`` when
    the bound it broke is the size one (the endpoint's ``max_response_bytes``)."""

    def __init__(self, message: str, *, too_large: bool = False) -> None:
        super().__init__(message)
        self.too_large = too_large


class Deadline:
    """When the next piece of a body must have arrived (loop time), moved on by the reader; never
    past ``until`` (loop time), the end of a whole call's time, when it has one."""

    __slots__ = ("at", "renewals", "seconds", "until")

    def __init__(self, seconds: float | None, until: float | None = None) -> None:
        self.seconds = seconds
        self.until = until
        self.at: float | None = None
        self.renewals = -1  # how often the reader moved it on (a message counts from the last)
        self.renew()

    def renew(self) -> None:
        self.renewals += 1
        if self.seconds is not None:
            self.at = asyncio.get_running_loop().time() + self.seconds
        if self.until is not None:
            self.at = self.until if self.at is None else min(self.at, self.until)

    @property
    def capped(self) -> bool:
        """Whether the time that ran out was the whole call's (``until``), not a piece's."""
        return self.until is not None and self.at == self.until


def _encoding(response: httpx.Response) -> str | None:
    names = [
        name.strip().lower()
        for value in response.headers.get_list("content-encoding")
        for name in value.split(",")
        if name.strip() and name.strip().lower() != "identity"
    ]
    if not names:
        return None
    if len(names) > 1:
        raise WireError(
            f"the answer is encoded {len(names)} times over ({', '.join(names)}); one encoding "
            f"of {ACCEPT_ENCODING} is accepted"
        )
    if names[0] not in _WBITS:
        raise WireError(f"the answer's content encoding {names[0][:40]!r} was not asked for")
    return names[0]


async def _raw(response: httpx.Response, deadline: Deadline | None) -> AsyncIterator[bytes]:
    if deadline is None or deadline.at is None:
        async for raw in response.aiter_raw():
            yield raw
        return
    pieces = response.aiter_raw().__aiter__()
    while True:
        try:
            async with asyncio.timeout_at(deadline.at):
                raw = await anext(pieces)
        except StopAsyncIteration:
            return
        yield raw


async def chunks(
    response: httpx.Response, limit: int, deadline: Deadline | None = None
) -> AsyncIterator[bytes]:
    """The decoded body of ``response`` in pieces; :class:`WireError` once more than ``limit``
    bytes arrived or decoded. With a ``deadline``, each piece must arrive before it."""
    if response.is_stream_consumed:  # built in memory (a test transport), already decoded
        if len(response.content) > limit:
            raise WireError(f"the answer is larger than {limit} bytes", too_large=True)
        yield response.content
        return
    encoding = _encoding(response)
    received = 0
    if encoding is None:
        async for raw in _raw(response, deadline):
            received += len(raw)
            if received > limit:
                raise WireError(f"the answer is larger than {limit} bytes", too_large=True)
            yield raw
        return
    decoder = zlib.decompressobj(_WBITS[encoding])
    decoded = 0
    first = True
    async for raw in _raw(response, deadline):
        received += len(raw)
        if received > limit:
            raise WireError(f"the answer is larger than {limit} bytes on the wire", too_large=True)
        data = raw
        while data and not decoder.eof:
            try:
                out = decoder.decompress(data, limit - decoded + 1)
            except zlib.error:
                if first and encoding == "deflate":  # raw deflate, as some servers send it
                    decoder, first = zlib.decompressobj(-zlib.MAX_WBITS), False
                    continue
                raise WireError(f"the answer's {encoding} body is corrupt") from None
            first = False
            decoded += len(out)
            if decoded > limit:
                raise WireError(f"the answer decodes to more than {limit} bytes", too_large=True)
            if out:
                yield out
            data = decoder.unconsumed_tail
    if not decoder.eof and received:
        raise WireError(f"the answer's {encoding} body ends before its end")


async def lines(pieces: AsyncIterator[bytes], limit: int) -> AsyncIterator[bytes]:
    """The lines of a body (ended by CRLF, LF or CR, the ending dropped), each refused once it
    is longer than ``limit`` bytes, while it is still arriving. A last line with no ending is
    yielded when the body ends cleanly."""
    pending: list[bytes] = []
    size = 0
    after_cr = False
    async for piece in pieces:
        if after_cr and piece.startswith(b"\n"):
            piece = piece[1:]  # the LF of a CRLF split across two pieces
        after_cr = False
        for part in piece.splitlines(keepends=True):
            if part[-1:] in (b"\n", b"\r"):
                after_cr = part[-1:] == b"\r"
                line = part.rstrip(b"\r\n")
                if pending:
                    line = b"".join(pending) + line
                    pending, size = [], 0
                if len(line) > limit:
                    raise WireError(f"a streamed line is larger than {limit} bytes", too_large=True)
                yield line
            else:
                after_cr = False
                size += len(part)
                if size > limit:
                    raise WireError(f"a streamed line is larger than {limit} bytes", too_large=True)
                pending.append(part)
    if pending:
        yield b"".join(pending)
