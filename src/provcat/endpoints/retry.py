"""When a failed call is tried again, and after how long.

``max_retries`` is the total number of attempts. Connection failures, timeouts, 408, 409, 429 and
5xx are tried again with exponential backoff and full jitter, capped, or after the wait the vendor
asked for (``retry-after-ms``, or ``Retry-After`` in seconds or as an HTTP date). A POST is
replayed only when the endpoint says its requests are idempotent, or when the request provably
never reached the server (the connection was never made).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from email.utils import parsedate_to_datetime

from provcat.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    LocalNetworkRefused,
)

__all__ = ["BASE_DELAY", "MAX_DELAY", "RETRY_STATUSES", "delay", "retry_after", "retryable"]

BASE_DELAY = 0.5  # seconds before the second attempt, at most (full jitter)
MAX_DELAY = 60.0  # no wait is longer, whatever the vendor asks
RETRY_STATUSES = frozenset({408, 409, 429})


def retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """The wait the response asks for, in seconds (never negative), or None when it asks for
    none or says something unreadable."""
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            value = float(ms) / 1000
        except ValueError:
            value = float("nan")
        if value == value and value != float("inf"):
            return max(0.0, value)
    raw = headers.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    if raw.isdigit():
        return float(int(raw[:12]))
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def retryable(error: BaseException, method: str, idempotent: bool) -> bool:
    """Whether ``error`` of one attempt may be followed by another."""
    if isinstance(error, LocalNetworkRefused) or not isinstance(error, APIError):
        return False
    if isinstance(error, APIConnectionError) and getattr(error, "never_sent", False):
        return True  # the request provably never reached the server
    transient = isinstance(error, (APIConnectionError, APITimeoutError)) or (
        error.status is not None and (error.status in RETRY_STATUSES or error.status >= 500)
    )
    if not transient:
        return False
    return method != "POST" or idempotent


def delay(attempt: int, error: BaseException, rng: random.Random | None = None) -> float:
    """Seconds to wait after failed ``attempt`` (1-based): the vendor's ask, else backoff."""
    asked = getattr(error, "retry_after", None)
    if isinstance(asked, (int, float)):
        return min(MAX_DELAY, float(asked))
    ceiling = min(MAX_DELAY, BASE_DELAY * 2 ** (attempt - 1))
    return (rng or random).uniform(0, ceiling)
