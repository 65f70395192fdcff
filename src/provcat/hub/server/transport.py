"""The HTTP/1.1 transport the hub runs on: uvicorn's httptools protocol with bounds on the request
head and the protocol's JSON error body for the errors it answers itself.

uvicorn (httptools) buffers a request's URL and headers without limit and answers a malformed
request with a plain-text 400. Here the request line plus headers may take at most
``HEAD_MAX_BYTES`` (beyond: ``431``) and the URL at most ``URL_MAX_BYTES`` (beyond: ``414``),
checked as the bytes arrive, before the app sees anything; every refusal is ``{error, message,
details}`` JSON and closes the connection.
"""

from __future__ import annotations

import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from provcat.hub.errors import (
    HubError,
    RequestHeadersTooLargeError,
    UriTooLongError,
    ValidationError,
)

__all__ = ["HEAD_MAX_BYTES", "URL_MAX_BYTES", "HubHttpProtocol", "error_bytes"]

HEAD_MAX_BYTES = 64 << 10
URL_MAX_BYTES = 16 << 10
_REASONS = {400: b"Bad Request", 414: b"URI Too Long", 431: b"Request Header Fields Too Large"}


def error_bytes(error: HubError) -> bytes:
    """A complete ``Connection: close`` HTTP/1.1 response carrying ``error``'s JSON body."""
    body = json.dumps(error.body(), sort_keys=True, separators=(",", ":")).encode("ascii")
    reason = _REASONS.get(error.status, b"Error")
    return b"".join(
        [
            b"HTTP/1.1 %d %s\r\n" % (error.status, reason),
            b"content-type: application/json\r\n",
            b"content-length: %d\r\n" % len(body),
            b"connection: close\r\n\r\n",
            body,
        ]
    )


class _Refused(Exception):
    """Raised from a parser callback to stop parsing; the error is answered by the protocol."""


class HubHttpProtocol(HttpToolsProtocol):
    """httptools with a bounded request head and JSON transport errors."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True
        self._head_bytes = 0
        self._refusal: HubError | None = None

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            self._head_bytes += len(data)
        super().data_received(data)
        if self._in_head and self._head_bytes > HEAD_MAX_BYTES and not self.transport.is_closing():
            self._refuse(
                RequestHeadersTooLargeError(
                    f"the request line and headers are larger than {HEAD_MAX_BYTES} bytes",
                    {"limit": HEAD_MAX_BYTES},
                )
            )

    def on_message_begin(self) -> None:
        self._in_head = True
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > URL_MAX_BYTES:
            self._refusal = UriTooLongError(
                f"the URL is longer than {URL_MAX_BYTES} bytes", {"limit": URL_MAX_BYTES}
            )
            raise _Refused

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._head_bytes = 0
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head = True

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request it cannot parse (or one a callback refused)."""
        error, self._refusal = self._refusal, None
        self._refuse(
            error
            or ValidationError(
                "malformed HTTP request (request line, URL or headers); URLs are ASCII, "
                "other characters percent-encoded"
            )
        )

    def _refuse(self, error: HubError) -> None:
        if not self.transport.is_closing():
            self.transport.write(error_bytes(error))
            self.transport.close()
