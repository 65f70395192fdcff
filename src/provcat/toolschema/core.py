"""The target-independent core: paths, the schema walk, ordering and the one compile policy.

``finalize_compile`` is the only place a compile is refused for being lossy or for an error it
cannot resolve (SchemaPort core ``finalizeCompile``, section 2.2 of the rules reference).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from provcat.toolschema.types import (
    CanonicalTool,
    CompileAbility,
    CompileResult,
    Diagnostic,
    Transformation,
)

__all__ = [
    "LIST_SLOTS",
    "MAP_SLOTS",
    "MAX_NESTING",
    "SINGLE_SLOTS",
    "SchemaNode",
    "collect_schemas",
    "compilable",
    "compilable_lossy",
    "finalize_compile",
    "is_type",
    "join_path",
    "json_nesting",
    "not_compilable",
    "schema_types",
    "sort_diagnostics",
    "stable_stringify",
    "walk_schema",
]

MAP_SLOTS = ("properties", "$defs", "definitions")
LIST_SLOTS = ("prefixItems", "anyOf", "oneOf", "allOf")
SINGLE_SLOTS = ("items", "not", "additionalProperties")

# Deepest JSON nesting (objects and arrays) a tool schema may have. Deeper input gets one clear
# diagnostic instead of a RecursionError; no provider accepts anything near it.
MAX_NESTING = 128

_IDENT = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
LOSSY_REFUSED = "core/lossy-transformation-refused"


def join_path(base: str, *segments: str | int) -> str:
    """Extend ``base``: ints as ``[n]``, identifiers as ``.seg``, anything else as ``["seg"]``."""
    out = base
    for seg in segments:
        if isinstance(seg, int):
            out += f"[{seg}]"
        elif _IDENT.match(seg):
            out += f".{seg}"
        else:
            out += "[" + json.dumps(seg, ensure_ascii=False) + "]"
    return out


@dataclass(frozen=True, slots=True)
class SchemaNode:
    """A subschema found by the walk, with its path and depth (the root has depth 1)."""

    schema: Any
    path: str
    depth: int


def walk_schema(root: Any, base: str = "inputSchema") -> Iterator[SchemaNode]:
    """Every object subschema, pre-order, root first; iterative, so depth never overflows.

    Children come in slot order: ``properties``, ``$defs``, ``definitions`` (entries in insertion
    order), ``prefixItems``, ``anyOf``, ``oneOf``, ``allOf``, then ``items``, ``not`` and a schema
    ``additionalProperties``. Non-object values are skipped.
    """
    stack: list[SchemaNode] = [SchemaNode(root, base, 1)]
    while stack:
        node = stack.pop()
        if not isinstance(node.schema, dict):
            continue
        yield node
        children: list[SchemaNode] = []
        for slot in MAP_SLOTS:
            entries = node.schema.get(slot)
            if isinstance(entries, dict):
                for key, child in entries.items():
                    children.append(
                        SchemaNode(child, join_path(node.path, slot, key), node.depth + 1)
                    )
        for slot in LIST_SLOTS:
            entries = node.schema.get(slot)
            if isinstance(entries, list):
                for i, child in enumerate(entries):
                    children.append(
                        SchemaNode(child, join_path(node.path, slot, i), node.depth + 1)
                    )
        for slot in SINGLE_SLOTS:
            child = node.schema.get(slot)
            if isinstance(child, dict):
                children.append(SchemaNode(child, join_path(node.path, slot), node.depth + 1))
        stack.extend(reversed(children))


def collect_schemas(root: Any, base: str = "inputSchema") -> list[tuple[dict[str, Any], str]]:
    """``(schema, path)`` of every object subschema, in walk order (SchemaPort ``collectSchemas``)."""
    return [(n.schema, n.path) for n in walk_schema(root, base)]


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


def is_type(schema: Any, name: str) -> bool:
    """Whether ``schema`` has exactly one type and it is ``name``."""
    return schema_types(schema) == [name]


def json_nesting(value: Any, limit: int = MAX_NESTING) -> int:
    """How deeply objects and arrays nest in ``value`` (stops counting past ``limit``)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Iterable[Any] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if depth > limit:
            return depth
        stack.extend((child, depth + 1) for child in children)
    return deepest


def compilable(detail: str) -> CompileAbility:
    return CompileAbility(supported=True, lossy=False, detail=detail)


def compilable_lossy(detail: str) -> CompileAbility:
    return CompileAbility(supported=True, lossy=True, detail=detail)


def not_compilable(detail: str) -> CompileAbility:
    return CompileAbility(supported=False, lossy=False, detail=detail)


def _sort_key(d: Diagnostic) -> tuple[int, str, str]:
    return (_SEVERITY_RANK[d.severity], d.path, d.code)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """By severity (error, warning, info), then path, then code, compared by code point."""
    return sorted(diagnostics, key=_sort_key)


def stable_stringify(value: Any) -> str:
    """2-space JSON in insertion order with a trailing newline; non-ASCII kept as is."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def finalize_compile(
    *,
    provider_id: str,
    tool: CanonicalTool,
    output: Mapping[str, Any] | None,
    transformations: Sequence[Transformation],
    diagnostics: Sequence[Diagnostic],
    allow_lossy: bool = False,
) -> CompileResult:
    """Apply the one compile policy and build the result.

    Refuses when an error diagnostic cannot be compiled (``compile.supported`` false), then when a
    transformation is lossy and ``allow_lossy`` is off. Errors that compiling resolved are dropped
    (their transformation records stand for them); warnings and infos always survive.
    """
    seen: set[str] = set()
    kept_transformations: list[Transformation] = []
    for t in transformations:
        key = f"{t.code} {t.path} {t.detail} {t.lossy}"
        if key not in seen:
            seen.add(key)
            kept_transformations.append(t)
    unresolved = [d for d in diagnostics if d.severity == "error" and not d.compile.supported]
    kept = [d for d in diagnostics if d.severity != "error" or not d.compile.supported]
    base: dict[str, Any] = {"provider_id": provider_id, "tool_name": tool.name}
    if unresolved:
        return CompileResult(
            **base, ok=False, transformations=tuple(kept_transformations), diagnostics=tuple(kept)
        )
    lossy = [t for t in kept_transformations if t.lossy]
    if lossy and not allow_lossy:
        weakened = ", ".join(f"{t.code} at {t.path}" for t in lossy)
        kept.append(
            Diagnostic(
                provider_id=provider_id,
                tool_name=tool.name,
                severity="error",
                code=LOSSY_REFUSED,
                message=f"Compiling for {provider_id} would weaken this schema: {weakened}. "
                "Re-run with --allow-lossy to accept the weaker output.",
                path="inputSchema",
                compile=not_compilable(
                    "Refused: the output would drop or weaken a canonical constraint."
                ),
                docs_url=None,
            )
        )
        return CompileResult(
            **base, ok=False, transformations=tuple(kept_transformations), diagnostics=tuple(kept)
        )
    return CompileResult(
        **base,
        ok=True,
        output=dict(output) if output is not None else {},
        transformations=tuple(kept_transformations),
        diagnostics=tuple(kept),
    )
