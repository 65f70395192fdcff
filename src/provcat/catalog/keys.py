"""The one key function used by the generator, lookup, inspection and model-spec parsing.

Only surrounding whitespace and case are canonicalized (ADR-0028 D2): punctuation variants such as
``claude-code`` and ``claude_code`` are the same provider only when both are declared.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = [
    "canonical_endpoint_key",
    "canonical_key",
    "canonical_provider_key",
    "close_matches",
    "closest",
    "suggest",
]


def canonical_key(value: str) -> str:
    """Fold a catalog key for comparison: ``value.strip().casefold()``."""
    if not isinstance(value, str):
        raise TypeError(f"a catalog key must be a str, not {type(value).__name__}")
    return value.strip().casefold()


def canonical_provider_key(value: str) -> str:
    """Canonical form of a provider key or provider alias."""
    return canonical_key(value)


def canonical_endpoint_key(value: str) -> str:
    """Canonical form of an endpoint key or endpoint alias."""
    return canonical_key(value)


def close_matches(key: str, names: Iterable[str], *, n: int, cutoff: float = 0.6) -> list[str]:
    """Up to ``n`` of ``names`` spelt near ``key`` (difflib's ratio at least ``cutoff``), the
    nearest first; equally near names in reverse alphabetical order, whatever order ``names`` has.
    """
    return difflib.get_close_matches(key, sorted(names), n=n, cutoff=cutoff)


def closest(key: str, names: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The one of ``names`` spelt nearest ``key`` (difflib), or None when none is near."""
    close = close_matches(key, names, n=1, cutoff=cutoff)
    return close[0] if close else None


def suggest(key: str, names: Iterable[str]) -> str | None:
    """A "did you mean" hint for a misspelled key or name, or None."""
    near = closest(key, names)
    return f"did you mean '{near}'?" if near is not None else None
