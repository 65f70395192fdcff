"""Payload responses: digest headers, ``Range`` (single range, RFC 9110) and ``HEAD``."""

from __future__ import annotations

import base64
import re

from provcat.hub.errors import RangeNotSatisfiableError

__all__ = ["digest_headers", "parse_range"]

_RANGE = re.compile(r"bytes=(\d*)-(\d*)")


def digest_headers(sha256_hex: str) -> dict[str, str]:
    b64 = base64.b64encode(bytes.fromhex(sha256_hex)).decode("ascii")
    return {
        "Content-Type": "application/octet-stream",
        "Digest": f"sha-256={sha256_hex}",
        "Repr-Digest": f"sha-256=:{b64}:",
        "ETag": f'"{sha256_hex}"',
        "Accept-Ranges": "bytes",
    }


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
        count = int(last)
        if count == 0:
            raise _unsatisfiable(size)
        return max(0, size - count), size
    start = int(first)
    end = size if not last else min(int(last) + 1, size)
    if last and int(last) < start:
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
