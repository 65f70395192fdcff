"""What a vendor answered: a typed error for an unsuccessful status, the decoded body otherwise,
and the token usage the body reports.

Error bodies are read in the shapes vendors use: ``{"error": {"message", "type", "code"}}``,
``{"type": "error", "error": {"type", "message"}}``, ``{"error": {"code", "message", "status"}}``
and ``{"error": "message"}``. A body that is not JSON (a proxy's HTML page) gives a short,
sanitized excerpt instead. Nothing here ever holds the request's headers, so no credential can
reach an error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
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
from provcat.redact import sanitize

__all__ = ["REQUEST_ID_HEADERS", "Result", "TokenUsage", "decode", "status_error", "usage_of"]

REQUEST_ID_HEADERS = ("x-request-id", "request-id", "x-goog-request-id", "x-amzn-requestid")
EXCERPT = 200  # characters of a non-JSON error body kept in the error


@dataclass(frozen=True, slots=True)
class TokenUsage:
    """Token counts a response reports (field names as genai-prices' ``Usage``)."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None


class Result(dict[str, Any]):
    """A decoded JSON object answer, with what came with it: the status, the vendor's request id,
    and the token usage (parsed for endpoints whose ``requires_tokens`` is true)."""

    status_code: int = 200
    request_id: str | None = None
    usage: TokenUsage | None = None


def request_id(headers: httpx.Headers) -> str | None:
    for name in REQUEST_ID_HEADERS:
        value = headers.get(name)
        if value:
            return sanitize(value)[:128]
    return None


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list)):
        return None
    return sanitize(str(value))


class VendorFields(TypedDict, total=False):
    """What an error body says, as APIError's keyword arguments."""

    vendor_message: str | None
    error_type: str | None
    error_code: str | None
    excerpt: str | None


def error_fields(body: bytes) -> VendorFields:
    """The vendor's error type, code and message from ``body``, or an excerpt of it."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        text = body[: EXCERPT * 4].decode("utf-8", "replace")
        excerpt = " ".join(text.split())[:EXCERPT]
        return {"excerpt": sanitize(excerpt) or None}
    fields: VendorFields = {}
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict):
        fields["vendor_message"] = _text(error.get("message"))
        fields["error_type"] = _text(error.get("type") or error.get("status"))
        fields["error_code"] = _text(error.get("code"))
    elif isinstance(error, str):
        fields["vendor_message"] = sanitize(error)
    elif isinstance(data, dict) and "message" in data:
        fields["vendor_message"] = _text(data.get("message"))
        fields["error_type"] = _text(data.get("type"))
    else:
        fields["excerpt"] = sanitize(json.dumps(data)[:EXCERPT])
    return fields


def status_error(response: httpx.Response, body: bytes, provider: str, endpoint: str) -> APIError:
    """The typed error of an unsuccessful ``response``."""
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
            f" redirect to {sanitize(target)[:200]!r}: redirects are not followed (the credential "
            "would go along); point base_url at the final address"
        )
    return cls(
        message,
        provider=provider,
        endpoint=endpoint,
        status=status,
        request_id=request_id(response.headers),
        retry_after=retry_after(response.headers),
        **error_fields(body),
    )


def decode(
    response: httpx.Response, body: bytes, provider: str, endpoint: str, *, usage: bool
) -> Any:
    """The answer: a :class:`Result` for a JSON object, other JSON as is, text, or bytes."""
    content_type = response.headers.get("content-type", "").partition(";")[0].strip().lower()
    if content_type == "application/json" or content_type.endswith("+json"):
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError) as exc:
            raise InvalidResponseError(
                f"HTTP {response.status_code} with a body that is not valid JSON ({exc})",
                provider=provider,
                endpoint=endpoint,
                status=response.status_code,
                request_id=request_id(response.headers),
                excerpt=sanitize(body[:EXCERPT].decode("utf-8", "replace")),
            ) from None
        if not isinstance(data, dict):
            return data
        result = Result(data)
        result.status_code = response.status_code
        result.request_id = request_id(response.headers)
        result.usage = usage_of(data) if usage else None
        return result
    if content_type.startswith("text/"):
        return body.decode(response.encoding or "utf-8", "replace")
    return body


def _int(mapping: Mapping[str, Any], *path: str) -> int | None:
    value: Any = mapping
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _first(*values: int | None) -> int | None:
    return next((v for v in values if v is not None), None)


def usage_of(data: Mapping[str, Any]) -> TokenUsage | None:
    """Token usage from a response body, in the shapes vendors report it, or None."""
    u = data.get("usage")
    if isinstance(u, Mapping):
        return TokenUsage(
            input_tokens=_first(_int(u, "prompt_tokens"), _int(u, "input_tokens")),
            output_tokens=_first(_int(u, "completion_tokens"), _int(u, "output_tokens")),
            cache_read_tokens=_first(
                _int(u, "prompt_tokens_details", "cached_tokens"),
                _int(u, "input_tokens_details", "cached_tokens"),
                _int(u, "cache_read_input_tokens"),
                _int(u, "prompt_cache_hit_tokens"),
            ),
            cache_write_tokens=_int(u, "cache_creation_input_tokens"),
            reasoning_tokens=_first(
                _int(u, "completion_tokens_details", "reasoning_tokens"),
                _int(u, "output_tokens_details", "reasoning_tokens"),
            ),
        )
    meta = data.get("usageMetadata")
    if isinstance(meta, Mapping):
        return TokenUsage(
            input_tokens=_int(meta, "promptTokenCount"),
            output_tokens=_int(meta, "candidatesTokenCount"),
            cache_read_tokens=_int(meta, "cachedContentTokenCount"),
            reasoning_tokens=_int(meta, "thoughtsTokenCount"),
        )
    if "prompt_eval_count" in data or "eval_count" in data:
        return TokenUsage(
            input_tokens=_int(data, "prompt_eval_count"), output_tokens=_int(data, "eval_count")
        )
    return None
