"""Each provider's inventory part, and what the whole-catalog outputs read of it, as the build
cache keeps them.

A provider's part (its model records and id/alias index) is most of what a cached build would
load, yet an unchanged provider's model module and page come from the text cache and the
whole-catalog outputs read only a few facts of it: its model count, its lifecycle rows, its exact
bytes' hash (the key of its texts) and its canonical JSON (for the snapshot's fingerprint).
``PartFacts`` holds those, made once when the file is read; ``StoredPart`` loads the part itself
only when something asks for the records; ``LazyInventory`` is the snapshot's ``inventory`` (or
``inventory_index``) over them, a read-only mapping that loads nothing for its keys and length.
"""

from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

from generator.frozen import Frozen, set_field

# a provider's inventory records (by model id) and its id/alias index
Part = tuple[tuple[dict[str, Any], ...], dict[str, str]]


def exact(values: dict[str, Any]) -> bytes:
    """Bytes that only equal values hold (same types, same order at every level): marshal's
    encoding round-trips exactly, and is several times quicker than a repr of 10,000 models.
    Version 2 writes no back-references and no interned-string marks, which depend on reference
    counts, so equal values always give equal bytes.
    Data marshal cannot encode falls back to the repr, tagged so the two never collide."""
    try:
        return b"m" + marshal.dumps(values, 2)
    except ValueError:
        return b"r" + repr(values).encode()


def canonical_json(value: Any) -> str:
    """The snapshot fingerprint's encoding (generator.snapshot.fingerprint) of ``value``."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def part_values(key: str, models: Any, index: Any) -> dict[str, Any]:
    """What provider ``key``'s model module and page show (plain data)."""
    return {"key": key, "provider": key, "models": models, "index": index}


def in_lifecycle(model: Mapping[str, Any]) -> bool:
    """Whether the lifecycle page lists the model."""
    return bool(
        model.get("status") in ("deprecated", "retired")
        or model.get("deprecation_date")
        or model.get("shutdown_date")
    )


class PartFacts(Frozen):
    """What the whole-catalog outputs read of one provider's part (every cached rebuild loads
    one per provider)."""

    _fields: ClassVar[tuple[str, ...]] = ("models", "digest", "json", "lifecycle")
    __slots__ = _fields
    models: int
    digest: bytes  # sha256 of exact(part_values(...)): the key of its module's and page's text
    json: bytes  # canonical JSON of its records, a line break, canonical JSON of its index (UTF-8)
    lifecycle: tuple[dict[str, Any], ...]  # its models the lifecycle page lists, in file order

    def __init__(
        self, models: int, digest: bytes, json: bytes, lifecycle: tuple[dict[str, Any], ...]
    ) -> None:
        set_field(self, "models", models)
        set_field(self, "digest", digest)
        set_field(self, "json", json)
        set_field(self, "lifecycle", lifecycle)


def part_facts(key: str, part: Part) -> PartFacts:
    records, index = part
    return PartFacts(
        len(records),
        hashlib.sha256(exact(part_values(key, records, index))).digest(),
        # JSON escapes every line break: the first one splits the two texts
        (canonical_json(records) + "\n" + canonical_json(index)).encode("utf-8"),
        tuple(m for m in records if in_lifecycle(m)),
    )


class StoredPart:
    """One provider's part: its facts now, its records when first asked for."""

    __slots__ = ("_load", "_part", "facts")

    def __init__(self, facts: PartFacts, load: Callable[[], Part], part: Part | None = None):
        self.facts = facts
        self._load = load
        self._part = part

    @classmethod
    def made(cls, key: str, part: Part) -> StoredPart:
        """A part made in this build (nothing to load)."""
        return cls(part_facts(key, part), lambda: part, part)

    @property
    def part(self) -> Part:
        if self._part is None:
            self._part = self._load()
        return self._part


class LazyInventory(Mapping[str, Any]):
    """``inventory`` (which=0: records) or ``inventory_index`` (which=1) over stored parts, by
    canonical provider key, in the order given. Keys, length and membership load nothing."""

    __slots__ = ("_which", "parts")

    def __init__(self, parts: dict[str, StoredPart], which: int) -> None:
        self.parts = parts
        self._which = which

    def __getitem__(self, key: str) -> Any:
        return self.parts[key].part[self._which]

    def __iter__(self) -> Iterator[str]:
        return iter(self.parts)

    def __len__(self) -> int:
        return len(self.parts)

    def __contains__(self, key: object) -> bool:
        return key in self.parts

    def __repr__(self) -> str:
        return f"LazyInventory({list(self.parts)!r}, which={self._which})"
