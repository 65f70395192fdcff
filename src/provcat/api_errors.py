"""The errors of a call to a vendor's API: its HTTP status, a timeout, a broken connection, a
body that is not what the endpoint speaks. Messages never carry a credential.

Also importable from :mod:`provcat.errors`, which loads this module when one is first named.
"""

from __future__ import annotations

__all__ = [
    "APIConnectionError",
    "APIError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "InvalidResponseError",
    "LocalNetworkRefused",
    "NotFoundError",
    "RateLimitError",
    "ServerError",
    "StreamError",
]


class APIError(RuntimeError):
    """Base of every error of a call to a vendor's API. Never carries a credential.

    ``status`` is the HTTP status (None when no response came back); ``request_id`` is the
    vendor's request id header; ``error_type``, ``error_code`` and ``vendor_message`` come from the
    vendor's JSON error body; ``excerpt`` is a short, sanitized start of a body that was not JSON.
    """

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        endpoint: str,
        status: int | None = None,
        request_id: str | None = None,
        error_type: str | None = None,
        error_code: str | None = None,
        vendor_message: str | None = None,
        excerpt: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.provider = provider
        self.retry_after = retry_after
        self.endpoint = endpoint
        self.status = status
        self.request_id = request_id
        self.error_type = error_type
        self.error_code = error_code
        self.vendor_message = vendor_message
        self.excerpt = excerpt
        where = f"{provider}/{endpoint}"
        parts = [f"{where}: {message}"]
        if vendor_message:
            kind = "/".join(x for x in (error_type, error_code) if x)
            parts.append(f"vendor says{f' ({kind})' if kind else ''}: {vendor_message}")
        elif excerpt:
            parts.append(f"body: {excerpt!r}")
        if request_id:
            parts.append(f"request id {request_id}")
        super().__init__("; ".join(parts))


class BadRequestError(APIError):
    """400 or 422: the vendor refused the request as written."""


class AuthenticationError(APIError):
    """401 or 403: the credential is missing, wrong or not allowed this."""


class NotFoundError(APIError):
    """404: no such route, model or resource."""


class RateLimitError(APIError):
    """429: slow down; ``retry_after`` is the wait the vendor asked for, in seconds, if any."""


class ServerError(APIError):
    """5xx: the vendor failed."""


class APIStatusError(APIError):
    """Any other unsuccessful status (408, 409, an unexpected 3xx redirect, ...)."""


class APITimeoutError(APIError):
    """The call did not complete within the endpoint's timeout."""


class APIConnectionError(APIError):
    """No response: the connection could not be made or broke. ``never_sent`` is true when the
    request provably never reached the server (the connection was never made)."""

    never_sent: bool = False


class LocalNetworkRefused(APIConnectionError):
    """The host resolves to a loopback, private, link-local, multicast or reserved address and the
    endpoint does not allow the local network; nothing was sent."""


class InvalidResponseError(APIError):
    """A successful status with a body that is not what the endpoint speaks (bad JSON, a broken
    event stream), or a body larger than the bound."""


class StreamError(APIError):
    """The vendor sent an error event in the middle of a stream."""
