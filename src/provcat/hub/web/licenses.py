"""A manifest's ``license`` read against the SPDX License List, for the adapter page.

The check is ``license-expression``'s (the SPDX license expression parser and key index): a known
expression is shown in its canonical spelling with each licence linked to its SPDX page; anything
else is shown exactly as given and flagged.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

__all__ = ["LicenseView", "read_license"]

SPDX_PAGE = "https://spdx.org/licenses/{}.html"


@dataclass(frozen=True, slots=True)
class LicenseView:
    """What the page shows: the text as given, and what SPDX makes of it."""

    given: str
    spdx: str | None  # the canonical expression, when every licence in it is a known SPDX id
    links: tuple[tuple[str, str], ...] = ()  # (SPDX id, its page)

    @property
    def known(self) -> bool:
        return self.spdx is not None


@functools.cache
def _licensing() -> Any:
    # on the first licence shown, not when the server starts: the package takes ~0.1 s to import
    from license_expression import get_spdx_licensing

    return get_spdx_licensing()


@functools.lru_cache(maxsize=256)
def read_license(text: str) -> LicenseView:
    """``text`` checked as an SPDX license expression."""
    licensing = _licensing()
    try:
        info = licensing.validate(text)
        if info.errors or not info.normalized_expression:
            return LicenseView(text, None)
        expression = licensing.parse(info.normalized_expression)
        keys = sorted({str(symbol.key) for symbol in licensing.license_symbols(expression)})
    except Exception:  # the parser's own errors on text that is no expression at all
        return LicenseView(text, None)
    return LicenseView(
        text, str(info.normalized_expression), tuple((key, SPDX_PAGE.format(key)) for key in keys)
    )
