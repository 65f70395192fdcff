"""Search semantics shared by the server and by clients reading a static mirror's full index.

One row per (namespace, name) at its latest version; ``q`` matches namespace, name, description
and tags case-insensitively as a literal substring; every ``tag`` must be present exactly; order
is relevance, then namespace, then name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["DEFAULT_LIMIT", "MAX_LIMIT", "rank"]

DEFAULT_LIMIT = 10
MAX_LIMIT = 100


def _score(row: Mapping[str, Any], q: str) -> int:
    """Higher is more relevant; 0 is no match."""
    name = str(row.get("name", "")).casefold()
    namespace = str(row.get("namespace", "")).casefold()
    tags = [str(t).casefold() for t in row.get("tags") or []]
    description = str(row.get("description") or "").casefold()
    if q in (name, f"{namespace}/{name}"):
        return 6
    if name.startswith(q):
        return 5
    if q in name:
        return 4
    if q in tags:
        return 3
    if q in namespace or any(q in t for t in tags):
        return 2
    if q in description:
        return 1
    return 0


def rank(
    rows: Iterable[Mapping[str, Any]],
    q: str | None,
    tags: Sequence[str] = (),
    limit: int = DEFAULT_LIMIT,
) -> list[dict[str, Any]]:
    """Filter and order latest-version rows; ``q`` empty or None matches everything."""
    needle = (q or "").casefold()
    scored: list[tuple[int, str, str, dict[str, Any]]] = []
    for row in rows:
        row_tags = row.get("tags") or []
        if any(t not in row_tags for t in tags):
            continue
        score = _score(row, needle) if needle else 1
        if score:
            scored.append((-score, str(row["namespace"]), str(row["name"]), dict(row)))
    scored.sort(key=lambda item: item[:3])
    return [item[3] for item in scored[:limit]]
