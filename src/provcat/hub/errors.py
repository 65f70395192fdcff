"""The registry protocol's errors (protocol §4 plus the frozen decisions), one class per wire name.

Every error carries its HTTP status and its wire name, and renders as the protocol's body
``{"error": ..., "message": ..., "details": {...}}``. Messages never carry tokens: anything
shaped like a hub token (one pasted into a URL, a path or a reference) becomes ``<redacted>``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from provcat.redact import secret_shapes_hidden

__all__ = [
    "AdapterExistsError",
    "AdapterNotFoundError",
    "AuthenticationError",
    "AuthorizationError",
    "ChecksumMismatchError",
    "HubError",
    "IncompatibleBaseModelError",
    "InsufficientStorageError",
    "InternalServerError",
    "MethodNotAllowedError",
    "NotFoundError",
    "PayloadTooLargeError",
    "RangeNotSatisfiableError",
    "RegistryUnavailableError",
    "RequestHeadersTooLargeError",
    "UriTooLongError",
    "ValidationError",
    "error_class",
]


class HubError(Exception):
    """Base of every hub error: an HTTP status, a stable wire name and JSON-safe details."""

    status: ClassVar[int] = 500
    wire_name: ClassVar[str] = "HubError"

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        # a hub token, an API key or a URL password pasted where a name or URL goes is hidden
        message = secret_shapes_hidden(message)
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = dict(details or {})
        self.headers: dict[str, str] = {}  # extra response headers (Allow, Content-Range, ...)

    def body(self) -> dict[str, Any]:
        """The protocol's error body."""
        return {"error": self.wire_name, "message": self.message, "details": self.details}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class ValidationError(HubError):
    """Malformed manifest, URI, parameter, path segment, multipart body or payload."""

    status = 400
    wire_name = "ValidationError"


class AuthenticationError(HubError):
    """Missing or invalid bearer token."""

    status = 401
    wire_name = "AuthenticationError"


class AuthorizationError(HubError):
    """A valid token that is not allowed to touch this namespace."""

    status = 403
    wire_name = "AuthorizationError"


class AdapterNotFoundError(HubError):
    """Unknown (or deleted) namespace/name/version."""

    status = 404
    wire_name = "AdapterNotFoundError"


class NotFoundError(HubError):
    """No such route."""

    status = 404
    wire_name = "NotFoundError"


class MethodNotAllowedError(HubError):
    """The route exists but not with this method (the response carries ``Allow``)."""

    status = 405
    wire_name = "MethodNotAllowedError"


class AdapterExistsError(HubError):
    """The version exists (or existed: deleted versions stay tombstones) with other content."""

    status = 409
    wire_name = "AdapterExistsError"


class IncompatibleBaseModelError(HubError):
    """The adapter does not list the requested base model."""

    status = 409
    wire_name = "IncompatibleBaseModelError"


class PayloadTooLargeError(HubError):
    """The upload is larger than the server's cap."""

    status = 413
    wire_name = "PayloadTooLargeError"


class RangeNotSatisfiableError(HubError):
    """A ``Range`` that starts beyond the payload's end."""

    status = 416
    wire_name = "RangeNotSatisfiableError"


class UriTooLongError(HubError):
    """The request URL is longer than the server accepts (answered by the transport)."""

    status = 414
    wire_name = "UriTooLongError"


class RequestHeadersTooLargeError(HubError):
    """The request line and headers are larger than the server accepts."""

    status = 431
    wire_name = "RequestHeadersTooLargeError"


class InternalServerError(HubError):
    """An unexpected server fault (never carries a stack trace, path, SQL or token)."""

    status = 500
    wire_name = "InternalServerError"


class ChecksumMismatchError(HubError):
    """A payload's SHA-256 disagreed with its manifest (or the ``Digest`` header)."""

    status = 502
    wire_name = "ChecksumMismatchError"


class RegistryUnavailableError(HubError):
    """The registry (or its storage) is down, unreachable or unconfigured."""

    status = 503
    wire_name = "RegistryUnavailableError"


class InsufficientStorageError(HubError):
    """The hub's storage is full (no space left on its disk, or its quota used up): nothing was
    stored, and only the hub's operator can make room."""

    status = 507
    wire_name = "InsufficientStorageError"


_BY_NAME: dict[str, type[HubError]] = {
    cls.wire_name: cls
    for cls in (
        AdapterExistsError,
        AdapterNotFoundError,
        AuthenticationError,
        AuthorizationError,
        ChecksumMismatchError,
        IncompatibleBaseModelError,
        InsufficientStorageError,
        InternalServerError,
        MethodNotAllowedError,
        NotFoundError,
        PayloadTooLargeError,
        RangeNotSatisfiableError,
        RegistryUnavailableError,
        RequestHeadersTooLargeError,
        UriTooLongError,
        ValidationError,
    )
}
_BY_STATUS: dict[int, type[HubError]] = {
    400: ValidationError,
    401: AuthenticationError,
    403: AuthorizationError,
    404: AdapterNotFoundError,
    405: MethodNotAllowedError,
    409: AdapterExistsError,
    413: PayloadTooLargeError,
    414: UriTooLongError,
    416: RangeNotSatisfiableError,
    431: RequestHeadersTooLargeError,
    502: ChecksumMismatchError,
    503: RegistryUnavailableError,
    507: InsufficientStorageError,
}


def error_class(status: int, name: object = None) -> type[HubError]:
    """The class for a wire name, else for an HTTP status (the protocol's table), else HubError."""
    if isinstance(name, str) and name in _BY_NAME:
        return _BY_NAME[name]
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    return RegistryUnavailableError if status >= 500 else HubError
