"""Text the hub accepts and text it writes: valid Unicode without NUL, in and out.

JSON can carry a lone UTF-16 surrogate (``"\\udfff"``) or NUL (``"\\u0000"``): neither can be
encoded as UTF-8 nor stored in a PostgreSQL text column. Pushes are refused with 400 before
anything is stored (:func:`check_document`); index columns written from a stored manifest go
through :func:`storable`, so a row written before the check (or by another tool) can never
break a listing.
"""

from __future__ import annotations

from typing import Any

from provcat.hub.errors import ValidationError

__all__ = ["bad_text", "check_document", "check_query", "storable"]


def bad_text(value: str) -> bool:
    """True when ``value`` holds NUL or cannot be encoded as UTF-8 (a lone surrogate)."""
    if "\x00" in value:
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _walk(value: Any, path: str) -> str | None:
    if isinstance(value, str):
        return path if bad_text(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if bad_text(key):
                return path + "/<key>"
            found = _walk(item, f"{path}/{key}")
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = _walk(item, f"{path}/{i}")
            if found is not None:
                return found
    return None


def check_document(document: Any) -> None:
    """ValidationError when any string or key of ``document`` is not storable text."""
    where = _walk(document, "")
    if where is not None:
        raise ValidationError(
            f"invalid text at {where or '/'}: strings must be valid Unicode without NUL "
            "(no lone UTF-16 surrogates, no \\u0000)",
            {"path": where or "/"},
        )


def check_query(name: str, value: str | None) -> None:
    """ValidationError when a query parameter holds NUL or invalid text."""
    if value is not None and bad_text(value):
        raise ValidationError(
            f"query parameter '{name}' must be valid Unicode without NUL", {"parameter": name}
        )


def storable(value: str) -> str:
    """``value`` with NUL dropped and lone surrogates replaced by U+FFFD (for index columns)."""
    if not bad_text(value):
        return value
    return value.replace("\x00", "").encode("utf-8", "surrogatepass").decode("utf-8", "replace")
