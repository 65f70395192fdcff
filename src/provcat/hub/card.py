"""An adapter's card and licence: two optional manifest fields, and the card's size limit.

``card`` is Markdown (what a Hugging Face model card holds: what the adapter is for, how it was
trained, how to use it), shown rendered and sanitized on the adapter's page. ``license`` is an
SPDX license expression (``Apache-2.0``, ``MIT OR Apache-2.0``); anything else is kept and shown
as given, flagged as not a known SPDX licence. Both travel in the manifest, so resolve, pull, the
local store and a static mirror carry them unchanged. The limit holds on push, client and server.
"""

from __future__ import annotations

from typing import Any

from provcat.hub.errors import ValidationError

__all__ = ["CARD_MAX_CHARS", "check_card"]

CARD_MAX_CHARS = 100_000  # characters; at most 400 kB of UTF-8, well inside the 1 MiB manifest


def check_card(document: dict[str, Any]) -> None:
    """ValidationError when the manifest's card is over the limit (named, with the card's size)."""
    card = document.get("card")
    if isinstance(card, str) and len(card) > CARD_MAX_CHARS:
        raise ValidationError(
            f"the card is {len(card):,} characters; a card is at most {CARD_MAX_CHARS:,} "
            "characters (Markdown): shorten it, or link to the longer text",
            {"field": "card", "length": len(card), "limit": CARD_MAX_CHARS},
        )
