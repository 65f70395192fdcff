"""What a vendor answered: a typed error for an unsuccessful status, the decoded body otherwise,
and the token usage the body reports.

Error bodies are read in the shapes vendors use: ``{"error": {"message", "type", "code"}}``,
``{"type": "error", "error": {"type", "message"}}``, ``{"error": {"code", "message", "status"}}``
and ``{"error": "message"}``. A body that is not JSON (a proxy's HTML page) gives a short,
sanitized excerpt instead. Nothing here ever holds the request's headers; a credential the
vendor echoes back (in a body, an event or a header) is written ``<api key redacted>`` wherever
the answer is quoted: the endpoint passes the call's ``secrets``, taken out before the sanitizer
runs (which would write them otherwise), and takes them out of every error once more before it
leaves the call (``Endpoint._redacting``).

A 200 whose body is nothing but an error envelope is an error too
(:class:`~provcat.errors.InvalidResponseError`, with the vendor's type, code and message).
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterable
from typing import Any, TypedDict

import httpx

from provcat.endpoints.retry import retry_after
from provcat.errors import (
    APIError,
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    InvalidResponseError,
    NotFoundError,
    RateLimitError,
    ServerError,
)
from provcat.models.usage import TokenUsage, usage_of
from provcat.redact import MAX_LENGTH, redact_secrets

__all__ = ["REQUEST_ID_HEADERS", "Result", "TokenUsage", "decode", "status_error", "usage_of"]

REQUEST_ID_HEADERS = ("x-request-id", "request-id", "x-goog-request-id", "x-amzn-requestid")
EXCERPT = 200  # characters of a non-JSON error body kept in the error


class Result(dict[str, Any]):
    """A decoded JSON object answer, with what came with it: the status, the vendor's request id,
    and the token usage it reports (:class:`~provcat.models.usage.TokenUsage`; parsed unless the
    endpoint's ``requires_tokens`` is off)."""

    status_code: int = 200
    request_id: str | None = None
    usage: TokenUsage | None = None


# what the sanitizer writes for a secret: <api key redacted>, <OPENAI_API_KEY redacted>, <redacted>
_PLACEHOLDER = re.compile(r"<[^<>]*redacted>")


def clean(
    text: str, secrets: Iterable[str] = (), *, limit: int = MAX_LENGTH, cut: int | None = None
) -> str:
    """``text`` of an answer, sanitized: each of the call's ``secrets`` (its key, a secret
    default header's value) written ``<api key redacted>`` first, then every other secret; then
    its first ``cut`` characters, a placeholder that the cut would split kept whole."""
    text = redact_secrets(text, secrets, limit=limit)
    if cut is None or len(text) <= cut:
        return text
    for found in _PLACEHOLDER.finditer(text):
        if found.start() >= cut:
            break
        if found.end() > cut:
            return text[: found.end()]
    return text[:cut]


def request_id(headers: httpx.Headers, secrets: Iterable[str] = ()) -> str | None:
    for name in REQUEST_ID_HEADERS:
        value = headers.get(name)
        if value:
            return clean(value, secrets, cut=128)
    return None


def excerpt(body: bytes, secrets: Iterable[str] = ()) -> str:
    """The start of ``body`` as short text, sanitized before it is cut (a secret that straddles
    the cut is redacted whole)."""
    text = body[: EXCERPT * 8].decode("utf-8", "replace")
    return clean(text, secrets, limit=EXCERPT * 8, cut=EXCERPT)


def _text(value: Any, secrets: Iterable[str]) -> str | None:
    if value is None or isinstance(value, (dict, list)):
        return None
    return clean(str(value), secrets)


class VendorFields(TypedDict, total=False):
    """What an error body says, as APIError's keyword arguments."""

    vendor_message: str | None
    error_type: str | None
    error_code: str | None
    excerpt: str | None


def error_fields(body: bytes, secrets: Iterable[str] = ()) -> VendorFields:
    """The vendor's error type, code and message from ``body``, or an excerpt of it."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return {"excerpt": excerpt(body, secrets) or None}
    fields: VendorFields = {}
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict):
        fields["vendor_message"] = _text(error.get("message"), secrets)
        fields["error_type"] = _text(error.get("type") or error.get("status"), secrets)
        fields["error_code"] = _text(error.get("code"), secrets)
    elif isinstance(error, str):
        fields["vendor_message"] = clean(error, secrets)
    elif isinstance(data, dict) and "message" in data:
        # a bare error, such as the Responses API's stream event
        # {"type": "error", "code": "rate_limit_exceeded", "message": ..., "param": ...}
        fields["vendor_message"] = _text(data.get("message"), secrets)
        fields["error_type"] = _text(data.get("type"), secrets)
        fields["error_code"] = _text(data.get("code"), secrets)
    else:
        fields["excerpt"] = excerpt(body, secrets)
    return fields


def status_error(
    response: httpx.Response,
    body: bytes,
    provider: str,
    endpoint: str,
    *,
    secrets: Iterable[str] = (),
) -> APIError:
    """The typed error of an unsuccessful ``response``; ``secrets`` are the call's credentials,
    written ``<api key redacted>`` wherever the answer echoed them."""
    status = response.status_code
    cls: type[APIError]
    if status in (400, 422):
        cls = BadRequestError
    elif status in (401, 403):
        cls = AuthenticationError
    elif status == 404:
        cls = NotFoundError
    elif status == 429:
        cls = RateLimitError
    elif status >= 500:
        cls = ServerError
    else:
        cls = APIStatusError
    message = f"HTTP {status}"
    if 300 <= status < 400:
        target = response.headers.get("location", "")
        message += (
            f" redirect to {clean(target, secrets, cut=200)!r}: redirects are not followed (the "
            "credential would go along); point base_url at the final address"
        )
    return cls(
        message,
        provider=provider,
        endpoint=endpoint,
        status=status,
        request_id=request_id(response.headers, secrets),
        retry_after=retry_after(response.headers),
        **error_fields(body, secrets),
    )


# What an error body holds besides its "error" object: Anthropic's {"type": "error", "error":
# {...}, "request_id": ...} (https://platform.claude.com/docs/en/api/errors)
_ENVELOPE_KEYS = frozenset({"error", "type", "request_id"})


def _is_error_envelope(data: dict[str, Any]) -> bool:
    """Whether ``data`` is only an error body (an "error" object, no field of an answer): some
    gateways answer an error with a 200, and such a body is no result."""
    return (
        isinstance(data.get("error"), dict)
        and data.keys() <= _ENVELOPE_KEYS
        and data.get("type") in (None, "error")
    )


def decode(
    response: httpx.Response,
    body: bytes,
    provider: str,
    endpoint: str,
    *,
    usage: bool,
    secrets: Iterable[str] = (),
) -> Any:
    """The answer: a :class:`Result` for a JSON object, other JSON as is, text, or bytes.
    ``secrets`` (the call's credentials) are taken out of the request id and of an error."""
    content_type = response.headers.get("content-type", "").partition(";")[0].strip().lower()
    if content_type == "application/json" or content_type.endswith("+json"):
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            reason = (
                "nested too deep" if isinstance(exc, RecursionError) else clean(str(exc), secrets)
            )
            raise InvalidResponseError(
                f"HTTP {response.status_code} with a body that is not valid JSON ({reason})",
                provider=provider,
                endpoint=endpoint,
                status=response.status_code,
                request_id=request_id(response.headers, secrets),
                excerpt=excerpt(body, secrets),
            ) from None
        if not isinstance(data, dict):
            return data
        if _is_error_envelope(data):
            raise InvalidResponseError(
                f"HTTP {response.status_code} whose body is an error, not an answer",
                provider=provider,
                endpoint=endpoint,
                status=response.status_code,
                request_id=request_id(response.headers, secrets),
                **error_fields(body, secrets),
            )
        result = Result(data)
        result.status_code = response.status_code
        result.request_id = request_id(response.headers, secrets)
        result.usage = usage_of(data) if usage else None
        return result
    if content_type.startswith("text/"):
        return body.decode(_charset(response), "replace")
    return body


def _charset(response: httpx.Response) -> str:
    """The answer's declared charset when Python knows it, else UTF-8."""
    try:
        name = response.charset_encoding or "utf-8"
        codecs.lookup(name)
    except (LookupError, ValueError):
        return "utf-8"
    return name
