"""The target-independent core: paths, the subschema walk order, record wording and the one
compile policy.

``finalize_compile`` (over built records) and ``finalize_records`` (over the records a run
gathers) are the only places a compile is refused for being lossy or for an error it cannot
resolve (SchemaPort core ``finalizeCompile``, section 2.2 of the rules reference).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
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
    "DiagnosticRecord",
    "SchemaNode",
    "TransformationRecord",
    "collect_schemas",
    "compilable",
    "compilable_lossy",
    "diagnostic_record",
    "fill",
    "finalize_compile",
    "finalize_records",
    "format_template",
    "is_type",
    "join_path",
    "json_nesting",
    "materialize_diagnostics",
    "not_compilable",
    "path_segment",
    "schema_nodes",
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

# a JavaScript identifier, as SchemaPort's joinPath tests it (``\Z``: ``$`` would also match
# before a final newline, which JavaScript's does not)
_IDENT = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*\Z")
SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
LOSSY_REFUSED = "core/lossy-transformation-refused"

# A transformation as a run records it: ``(code, path, lossy, payload)``, the payload either the
# built :class:`Transformation` or ``(detail template, placeholder values)``.
TransformationRecord = tuple[str, str, bool, Any]
# A diagnostic as a run records it: ``(severity rank, path, code, compile.supported, payload)``,
# the payload either the built :class:`Diagnostic` or ``(rule, placeholder values)``. Records
# sort like diagnostics (severity, path, code) and decide the compile policy before any wording
# is filled in.
DiagnosticRecord = tuple[int, str, str, bool, Any]


@lru_cache(maxsize=65_536, typed=True)  # typed: ``True`` and ``1`` are two segments
def path_segment(seg: str | int) -> str:
    """What :func:`join_path` appends for one segment (keys repeat across a tool's subschemas
    and across tools: each is worked out once)."""
    if isinstance(seg, int):
        return f"[{seg}]"
    return "." + seg if _IDENT.match(seg) else "[" + json.dumps(seg, ensure_ascii=False) + "]"


def join_path(base: str, *segments: str | int) -> str:
    """Extend ``base``: ints as ``[n]``, identifiers as ``.seg``, anything else as ``["seg"]``."""
    return base + "".join(map(path_segment, segments))


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


def is_type(schema: Any, name: str) -> bool:
    """Whether ``schema`` has exactly one type and it is ``name``."""
    return schema_types(schema) == [name]


def json_nesting(value: Any, limit: int = MAX_NESTING) -> int:
    """How deeply objects and arrays nest in ``value`` (stops counting past ``limit``)."""
    if not isinstance(value, (dict, list)):
        return 0
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > deepest:
            deepest = depth
            if depth > limit:
                return depth
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
    return deepest


def compilable(detail: str) -> CompileAbility:
    return CompileAbility(supported=True, lossy=False, detail=detail)


def compilable_lossy(detail: str) -> CompileAbility:
    return CompileAbility(supported=True, lossy=True, detail=detail)


def not_compilable(detail: str) -> CompileAbility:
    return CompileAbility(supported=False, lossy=False, detail=detail)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """By severity (error, warning, info), then path, then code, compared by code point."""
    return sorted(diagnostics, key=lambda d: (SEVERITY_RANK[d.severity], d.path, d.code))


def stable_stringify(value: Any) -> str:
    """2-space JSON in insertion order with a trailing newline; non-ASCII kept as is."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


# ---- wording: a rule's message, compile text or detail is a ``str.format`` template


class _Values(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def format_template(template: str, values: Mapping[str, Any]) -> str:
    """``template`` with ``{name}`` placeholders filled from ``values`` (unknown ones kept)."""
    return template.format_map(_Values(values))


def fill(
    template: str, provider_id: str, tool_name: str, path: str, values: Mapping[str, Any]
) -> str:
    """A rule template filled for one record: the record's ``values`` win over ``tool``,
    ``target`` and ``path``; a placeholder none of them names is kept as written."""
    if "{" not in template:
        return template
    known = _Values(tool=tool_name, target=provider_id, path=path)
    known.update(values)
    return template.format_map(known)


# ---- records


def diagnostic_record(d: Diagnostic) -> DiagnosticRecord:
    """The record of an already built diagnostic."""
    return (SEVERITY_RANK[d.severity], d.path, d.code, d.compile.supported, d)


def _diagnostic_fields(
    record: DiagnosticRecord, provider_id: str, tool_name: str
) -> Diagnostic | dict[str, Any]:
    """The diagnostic a record stands for: a built one as it is, or its fields, wording filled
    in (a :class:`CompileResult` validates them into a :class:`Diagnostic` with the rest)."""
    _, path, _, supported, payload = record
    if isinstance(payload, Diagnostic):
        return payload
    rule, values = payload
    texts = (rule.severity, rule.code, rule.message, rule.compile, rule.lossy, rule.docs_url)
    key = (texts, provider_id, tool_name, path, supported, tuple(values.items()))
    if len(path) + len(tool_name) > _REMEMBERED_CHARS:  # long names: not worth remembering
        return _rule_fields(rule, provider_id, tool_name, path, supported, values)
    try:
        hash(key)
    except TypeError:  # a value that cannot be a cache key: its fields, validated with the rest
        return _rule_fields(rule, provider_id, tool_name, path, supported, values)
    return _rule_diagnostic(*key)


# the longest path (with the tool's name, or a transformation's detail) whose record is remembered
# (``_rule_diagnostic``, ``_built``): the two caches hold at most 8,192 records each of that size,
# whatever names the tools give their properties
_REMEMBERED_CHARS = 512


@lru_cache(maxsize=8192)  # the findings of a thousand tools on one target
def _rule_diagnostic(
    rule: tuple[str, str, str, str, bool, str],
    provider_id: str,
    tool_name: str,
    path: str,
    supported: bool,
    values: tuple[tuple[str, Any], ...],
) -> Diagnostic:
    """A rule's diagnostic (frozen: the same finding in a tool compiled again is one object)."""
    severity, code, message, compile_text, lossy, docs_url = rule
    return Diagnostic(
        provider_id=provider_id,
        tool_name=tool_name,
        severity=severity,  # type: ignore[arg-type]
        code=code,
        message=fill(message, provider_id, tool_name, path, dict(values)),
        path=path,
        compile=_ability(
            supported, lossy, fill(compile_text, provider_id, tool_name, path, dict(values))
        ),
        docs_url=docs_url,
    )


def _rule_fields(
    rule: Any, provider_id: str, tool_name: str, path: str, supported: bool, values: Any
) -> dict[str, Any]:
    return {
        "provider_id": provider_id,
        "tool_name": tool_name,
        "severity": rule.severity,
        "code": rule.code,
        "message": fill(rule.message, provider_id, tool_name, path, values),
        "path": path,
        "compile": {
            "supported": supported,
            "lossy": rule.lossy,
            "detail": fill(rule.compile, provider_id, tool_name, path, values),
        },
        "docs_url": rule.docs_url,
    }


def _diagnostic(record: DiagnosticRecord, provider_id: str, tool_name: str) -> Diagnostic:
    """The diagnostic a record stands for, its wording filled in."""
    fields = _diagnostic_fields(record, provider_id, tool_name)
    return fields if isinstance(fields, Diagnostic) else Diagnostic(**fields)


@lru_cache(maxsize=4096)
def _ability(supported: bool, lossy: bool, detail: str) -> CompileAbility:
    """A diagnostic's ``compile`` part (frozen: equal ones are one object)."""
    return CompileAbility(supported=supported, lossy=lossy, detail=detail)


@lru_cache(maxsize=8192)
def _built(code: str, path: str, detail: str, lossy: bool) -> Transformation:
    """A transformation (frozen: equal ones, the same change at the same path in tools
    compiled again or sharing a shape, are one object)."""
    return Transformation(code=code, path=path, detail=detail, lossy=lossy)


def _transformations(
    records: Sequence[TransformationRecord], provider_id: str, tool_name: str
) -> list[Transformation]:
    """The transformations of ``records`` in order, without repeats of the same code, path,
    detail and lossiness (the first kept)."""
    seen: set[tuple[str, str, str, bool]] = set()
    built: list[Transformation] = []
    for code, path, lossy, payload in records:
        if isinstance(payload, Transformation):
            key = (payload.code, payload.path, payload.detail, payload.lossy)
        else:
            detail, values = payload
            key = (code, path, fill(detail, provider_id, tool_name, path, values), lossy)
        if key not in seen:
            seen.add(key)
            if isinstance(payload, Transformation):
                built.append(payload)
            elif len(path) + len(key[2]) > _REMEMBERED_CHARS:  # long names: not remembered
                built.append(_built.__wrapped__(*key))
            else:
                built.append(_built(*key))
    return built


def materialize_diagnostics(
    records: Iterable[DiagnosticRecord], provider_id: str, tool_name: str
) -> list[Diagnostic]:
    """The diagnostics of ``records``, sorted by severity, path and code."""
    ordered = sorted(records, key=lambda r: (r[0], r[1], r[2]))
    return [_diagnostic(r, provider_id, tool_name) for r in ordered]


def finalize_records(
    *,
    provider_id: str,
    tool_name: str,
    output: Mapping[str, Any] | None,
    transformations: Sequence[TransformationRecord],
    diagnostics: Sequence[DiagnosticRecord],
    allow_lossy: bool = False,
    sort: bool = False,
) -> CompileResult:
    """The one compile policy (SchemaPort ``finalizeCompile``), over records.

    Refuses when an error diagnostic cannot be compiled (``compile.supported`` false), then when a
    transformation is lossy and ``allow_lossy`` is off. Errors that compiling resolved are dropped
    (their transformation records stand for them); warnings and infos always survive. Diagnostics
    are taken in the order given, or with ``sort`` sorted by severity, path and code.
    """
    built = _transformations(transformations, provider_id, tool_name)
    ok = all(rank or supported for rank, _, _, supported, _ in diagnostics)
    kept = [d for d in diagnostics if d[0] or not d[3]]  # resolved errors dropped
    if sort:
        kept.sort(key=lambda r: (r[0], r[1], r[2]))
    out = [_diagnostic_fields(d, provider_id, tool_name) for d in kept]
    if ok and not allow_lossy and any(t.lossy for t in built):
        ok = False
        weakened = ", ".join(f"{t.code} at {t.path}" for t in built if t.lossy)
        out.append(
            Diagnostic(
                provider_id=provider_id,
                tool_name=tool_name,
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
    # one validation builds the result and every diagnostic in it
    return CompileResult.model_validate(
        {
            "provider_id": provider_id,
            "tool_name": tool_name,
            "ok": ok,
            "output": (output if output is not None else {}) if ok else None,
            "transformations": built,
            "diagnostics": out,
        }
    )


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
    return finalize_records(
        provider_id=provider_id,
        tool_name=tool.name,
        output=output,
        transformations=[(t.code, t.path, t.lossy, t) for t in transformations],
        diagnostics=[diagnostic_record(d) for d in diagnostics],
        allow_lossy=allow_lossy,
    )
