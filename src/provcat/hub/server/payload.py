"""Payload responses: digest headers, ``Range`` (single range, RFC 9110) and ``HEAD``."""

from __future__ import annotations

import base64
import re

from provcat.hub.errors import RangeNotSatisfiableError

__all__ = ["digest_headers", "etag_matches", "parse_range"]

_RANGE = re.compile(r"bytes=([0-9]*)-([0-9]*)")
# a byte position with more digits than this is past the end of any payload (and int() of
# thousands of digits is refused by Python's integer-string limit): clamp it instead of parsing
_MAX_DIGITS = 18
_HUGE = 10**_MAX_DIGITS


def _position(digits: str) -> int:
    return _HUGE if len(digits) > _MAX_DIGITS else int(digits)


def digest_headers(sha256_hex: str) -> dict[str, str]:
    b64 = base64.b64encode(bytes.fromhex(sha256_hex)).decode("ascii")
    return {
        "Content-Type": "application/octet-stream",
        "Digest": f"sha-256={sha256_hex}",
        "Repr-Digest": f"sha-256=:{b64}:",
        "ETag": f'"{sha256_hex}"',
        "Accept-Ranges": "bytes",
    }


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """``If-None-Match`` names ``etag`` (or is ``*``): weak comparison, RFC 9110 13.1.2."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    return any(tag.strip().removeprefix("W/") == etag for tag in if_none_match.split(","))


def parse_range(header: str | None, size: int) -> tuple[int, int] | None:
    """``(start, end_exclusive)`` for a satisfiable single range; None to send everything.

    A malformed or multi-range header is ignored (RFC 9110 allows it); a range starting at or
    past the end is ``416``.
    """
    if not header:
        return None
    match = _RANGE.fullmatch(header.strip())
    if match is None:
        return None
    first, last = match.groups()
    if not first and not last:
        return None
    if not first:  # suffix: the last N bytes
        count = _position(last)
        if count == 0:
            raise _unsatisfiable(size)
        return max(0, size - count), size
    start = _position(first)
    end = size if not last else min(_position(last) + 1, size)
    if last and _position(last) < start:
        return None
    if start >= size:
        raise _unsatisfiable(size)
    return start, end


def _unsatisfiable(size: int) -> RangeNotSatisfiableError:
    error = RangeNotSatisfiableError(
        f"the requested range is outside the payload ({size} bytes)", {"size": size}
    )
    error.headers["Content-Range"] = f"bytes */{size}"
    return error
