"""The subschemas of a schema: the keywords that hold them, the one walk order that finds them
(SchemaPort ``collectSchemas``) and the type names one declares."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from provcat.toolschema.paths import path_segment

__all__ = [
    "LIST_SLOTS",
    "MAP_SLOTS",
    "SINGLE_SLOTS",
    "SchemaNode",
    "collect_schemas",
    "schema_nodes",
    "schema_types",
    "walk_schema",
]

MAP_SLOTS = ("properties", "$defs", "definitions")
LIST_SLOTS = ("prefixItems", "anyOf", "oneOf", "allOf")
SINGLE_SLOTS = ("items", "not", "additionalProperties")


@dataclass(frozen=True, slots=True)
class SchemaNode:
    """A subschema found by the walk, with its path and depth (the root has depth 1)."""

    schema: Any
    path: str
    depth: int


def schema_nodes(
    root: Any,
    base: str = "inputSchema",
    *,
    maps: Sequence[str] = MAP_SLOTS,
    lists: Sequence[str] = LIST_SLOTS,
    singles: Sequence[str] = SINGLE_SLOTS,
) -> list[tuple[dict[str, Any], str, int]]:
    """``(schema, path, depth)`` of every object subschema, pre-order, root first; iterative,
    so depth never overflows.

    Children come in slot order: ``properties``, ``$defs``, ``definitions`` (entries in insertion
    order), ``prefixItems``, ``anyOf``, ``oneOf``, ``allOf``, then ``items``, ``not`` and a schema
    ``additionalProperties``; ``maps``, ``lists`` and ``singles`` name other slots (keywords
    holding an object of subschemas, a list of them, or one). Non-object values are skipped.
    """
    out: list[tuple[dict[str, Any], str, int]] = []
    if not isinstance(root, dict):
        return out
    stack: list[tuple[dict[str, Any], str, int]] = [(root, base, 1)]
    while stack:
        node = stack.pop()
        out.append(node)
        schema, path, depth = node
        depth += 1
        children: list[tuple[dict[str, Any], str, int]] = []
        for slot in maps:
            entries = schema.get(slot)
            if isinstance(entries, dict):
                prefix = path + "." + slot
                for key, child in entries.items():
                    if isinstance(child, dict):
                        children.append((child, prefix + path_segment(key), depth))
        for slot in lists:
            entries = schema.get(slot)
            if isinstance(entries, list):
                for i, child in enumerate(entries):
                    if isinstance(child, dict):
                        children.append((child, f"{path}.{slot}[{i}]", depth))
        for slot in singles:
            child = schema.get(slot)
            if isinstance(child, dict):
                children.append((child, f"{path}.{slot}", depth))
        stack.extend(reversed(children))
    return out


def walk_schema(root: Any, base: str = "inputSchema") -> Iterator[SchemaNode]:
    """Every object subschema as a :class:`SchemaNode`, in :func:`schema_nodes` order."""
    for schema, path, depth in schema_nodes(root, base):
        yield SchemaNode(schema, path, depth)


def collect_schemas(root: Any, base: str = "inputSchema") -> list[tuple[dict[str, Any], str]]:
    """``(schema, path)`` of every object subschema, in walk order (SchemaPort ``collectSchemas``)."""
    return [(schema, path) for schema, path, _ in schema_nodes(root, base)]


def schema_types(schema: Any) -> list[str]:
    """The type names of ``schema``: a string type as a one-item list, string members of a list."""
    if not isinstance(schema, dict):
        return []
    value = schema.get("type")
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []
