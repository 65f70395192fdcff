"""What the limit rules measure over a canonical schema, counted once per run."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import (
    LIST_SLOTS,
    MAP_SLOTS,
    SINGLE_SLOTS,
    schemas_with_depth,
)


class _Tally:
    """What the limit rules measure over every subschema of the canonical input: properties,
    depth (the root is 1), enum values, and the characters of property and definition names,
    string enum values and string consts."""

    __slots__ = ("chars", "depth", "largest_enum", "properties", "values")

    def __init__(self) -> None:
        self.properties = self.values = self.chars = self.depth = self.largest_enum = 0

    def node(self, s: dict[str, Any], depth: int) -> None:
        """Count one subschema ``s`` at ``depth`` (its subschemas are counted on their own)."""
        if depth > self.depth:
            self.depth = depth
        for slot in MAP_SLOTS:
            entries = s.get(slot)
            if isinstance(entries, dict):
                self.names(entries, slot)
        enum = s.get("enum")
        if isinstance(enum, list):
            self.enum(enum)
        const = s.get("const")
        if isinstance(const, str):
            self.chars += len(const)

    def names(self, entries: dict[str, Any], slot: str) -> None:
        self.chars += sum(map(len, entries))
        if slot == "properties":
            self.properties += len(entries)

    def enum(self, values: list[Any]) -> None:
        self.values += len(values)
        if len(values) > self.largest_enum:
            self.largest_enum = len(values)
        for v in values:
            if isinstance(v, str):
                self.chars += len(v)

    def string_enum(self, values: list[str]) -> None:
        """:meth:`enum` of values known to be strings (a leaf program's enum), counted in C."""
        count = len(values)
        self.values += count
        if count > self.largest_enum:
            self.largest_enum = count
        self.chars += sum(map(len, values))

    def key(self, key: str, value: Any, depth: int) -> None:
        """Count ``key: value`` of a subschema at ``depth`` that the walk does not descend into,
        with every subschema below it."""
        children: list[Any] = []
        if key in MAP_SLOTS:
            if isinstance(value, dict):
                self.names(value, key)
                children = list(value.values())
        elif key in LIST_SLOTS:
            if isinstance(value, list):
                children = value
        elif key in SINGLE_SLOTS:
            children = [value]
        elif key == "enum":
            if isinstance(value, list):
                self.enum(value)
        elif key == "const" and isinstance(value, str):
            self.chars += len(value)
        for child in children:
            if isinstance(child, dict):
                for s, d in schemas_with_depth(child):
                    self.node(s, depth + d)


# What a run's one walk holds as its tally when the target has no limit rules: the walk then
# measures nothing (``_Plan.measures``) and nothing reads it, so one serves every such run.
_UNMEASURED = _Tally()
