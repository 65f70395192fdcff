"""LazyMapping: a read-only mapping whose keys are known up front and whose values are made from
their records on first access.

The bundled snapshot's records were checked by the generator, so publishing it need not turn every
provider's record into objects before the first lookup: the first use of a provider makes its
entry (and the first model-spec parse its policy), and a process that uses one provider makes
one. Values are made without a lock: two threads that race on a key may both make it, and both
get the one that was stored first (``dict.setdefault``), so every reader sees one object per key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

__all__ = ["LazyMapping"]

V = TypeVar("V")
_UNMADE: Any = object()


class LazyMapping(Mapping[str, V], Generic[V]):
    """``key -> make(records[key])``, each made once, on first access; iteration follows
    ``records`` (its order is the snapshot's)."""

    __slots__ = ("_made", "_make", "_records")

    def __init__(self, records: Mapping[str, Any], make: Callable[[Any], V]) -> None:
        self._records = records
        self._make = make
        self._made: dict[str, V] = {}

    def __getitem__(self, key: str) -> V:
        made = self._made.get(key, _UNMADE)
        if made is _UNMADE:
            # a key the records lack raises KeyError here, as a dict does
            made = self._made.setdefault(key, self._make(self._records[key]))
        return made  # type: ignore[no-any-return]

    def __contains__(self, key: object) -> bool:
        return key in self._records

    def __iter__(self) -> Iterator[str]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)

    def __repr__(self) -> str:
        return f"LazyMapping({sorted(self._records)!r}, made={sorted(self._made)!r})"
