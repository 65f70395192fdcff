"""When a failed call is tried again, and after how long.

``max_retries`` is the total number of attempts. A failed attempt is tried again with exponential
backoff and full jitter, capped, or after the wait the vendor asked for (``retry-after-ms``, or
``Retry-After`` in seconds, decimals allowed, or as an HTTP date). An answer asking for more than
:data:`MAX_RETRY_AFTER` is not tried again, as openai-python's ``_should_retry`` does: waiting less
than the vendor asked would only spend an attempt on the same refusal.

Which failures are tried again (:func:`retryable`; docs/errors-and-retries.md says why):

- every request, a POST included, when it never reached the server (connection refused, a name
  that does not resolve, a connect timeout: ``never_sent``) or when the answer says the server
  refused it unprocessed (:data:`REFUSED_STATUSES`: 408, 409, 429, 503 and 529);
- a failure after which the vendor may have done the work (and bills it): any other 5xx, a
  timeout after the request was sent, a connection that broke: only a request that is not a POST,
  or a POST of an endpoint whose ``idempotent_retries`` is on.

A vendor's wait of 0 (or a past date) gives the backoff, as openai-python does; :class:`Budget`
keeps attempts and waits within an endpoint's ``total_timeout``.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Mapping
from email.utils import parsedate_to_datetime

from tenacity import RetryCallState
from tenacity.stop import stop_base

from provcat.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    LocalNetworkRefused,
)

__all__ = [
    "BASE_DELAY",
    "MAX_DELAY",
    "MAX_RETRY_AFTER",
    "REFUSED_STATUSES",
    "Budget",
    "delay",
    "retry_after",
    "retryable",
]

BASE_DELAY = 0.5  # seconds before the second attempt, at most (full jitter)
MAX_DELAY = 60.0  # no backoff of ours is longer
# The longest wait a vendor may ask for and still be tried again: openai-python's
# MAX_RETRY_AFTER_DELAY (src/openai/_constants.py, 3.57.0), which _should_retry refuses above.
MAX_RETRY_AFTER = 120.0
_SECONDS = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")  # RFC 9110's digits, and decimals
# Answers by which the server says it did not process the request, so a replay cannot do the work
# twice: 408 Request Timeout, 409 Conflict (a lock held by another request), 429 Too Many
# Requests, 503 Service Unavailable (RFC 9110 15.5.9, 15.5.10, 15.6.4; RFC 6585 4) and 529, the
# "overloaded_error" of https://platform.claude.com/docs/en/api/errors.
REFUSED_STATUSES = frozenset({408, 409, 429, 503, 529})


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
    if _SECONDS.fullmatch(raw):  # ASCII only: "²" and other digits are not seconds
        # decimals as both official SDKs accept them ("allowing nonstandard floats")
        return float(raw) if len(raw.partition(".")[0]) <= 12 else 1e12
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def retryable(error: BaseException, method: str, idempotent: bool) -> bool:
    """Whether ``error`` of one attempt may be followed by another (see the module docstring)."""
    if isinstance(error, LocalNetworkRefused) or not isinstance(error, APIError):
        return False
    asked = getattr(error, "retry_after", None)
    if isinstance(asked, (int, float)) and asked > MAX_RETRY_AFTER:
        return False  # the vendor asks for a longer wait than a call takes: raised at once
    if getattr(error, "never_sent", False):
        return True  # the request provably never reached the server
    if error.status in REFUSED_STATUSES:
        return True  # the server says it did nothing
    maybe_done = isinstance(error, (APIConnectionError, APITimeoutError)) or (
        error.status is not None and error.status >= 500
    )
    return maybe_done and (method != "POST" or idempotent)


def delay(attempt: int, error: BaseException, rng: random.Random | None = None) -> float:
    """Seconds to wait after failed ``attempt`` (1-based): the vendor's ask, else backoff."""
    asked = getattr(error, "retry_after", None)
    if isinstance(asked, (int, float)) and 0 < asked <= MAX_RETRY_AFTER:  # 0, a past date: ours
        return float(asked)
    ceiling = min(MAX_DELAY, BASE_DELAY * 2 ** (attempt - 1))
    return (rng or random).uniform(0, ceiling)


class Budget(stop_base):
    """The time a call may still take across its attempts and waits (``total_timeout``), spent
    as attempts run and waits are taken; None is no bound beyond each attempt's timeout."""

    __slots__ = ("left",)

    def __init__(self, total: float | None) -> None:
        self.left = total

    def spend(self, seconds: float) -> None:
        if self.left is not None:
            self.left -= max(0.0, seconds)

    def attempt(self, timeout: float) -> float:
        """The deadline of the next attempt: the timeout, or what is left when that is less."""
        return timeout if self.left is None else max(0.001, min(timeout, self.left))

    def __call__(self, state: RetryCallState) -> bool:
        """tenacity's stop condition: no wait that would leave no time for another attempt."""
        if self.left is None:
            return False
        return float(getattr(state, "upcoming_sleep", 0.0)) >= self.left
