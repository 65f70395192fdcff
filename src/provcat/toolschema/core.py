"""The target-independent core: paths, the schema walk, ordering and the one compile policy.

``finalize_compile`` is the only place a compile is refused for being lossy or for an error it
cannot resolve (SchemaPort core ``finalizeCompile``, section 2.2 of the rules reference).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from provcat.toolschema.types import (
    CanonicalTool,
    CompileAbility,
    CompileResult,
    Diagnostic,
    Transformation,
    _new,
    _set_dict,
    _set_extra,
    _set_fields_set,
    _set_private,
    build_from,
)
from provcat.toolschema.wording import PARTS, fill_parts, format_template, parts
from provcat.toolschema.wording import fill as _fill

__all__ = [
    "LIST_SLOTS",
    "MAP_SLOTS",
    "MAX_NESTING",
    "PATH_SEGMENTS",
    "SINGLE_SLOTS",
    "DiagnosticRecord",
    "SchemaNode",
    "TransformationRecord",
    "collect_schemas",
    "compilable",
    "compilable_lossy",
    "diagnostic_record",
    "finalize_compile",
    "finalize_owned",
    "finalize_records",
    "format_template",
    "is_type",
    "join_path",
    "json_nesting",
    "materialize_diagnostics",
    "new_segment",
    "not_compilable",
    "path_segment",
    "schema_nodes",
    "schema_types",
    "schemas_with_depth",
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
_SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
LOSSY_REFUSED = "core/lossy-transformation-refused"

# A transformation as the engine records it: ``(code, path, lossy, payload)``, the payload either
# the built :class:`Transformation` or ``(detail template, placeholder values)``.
TransformationRecord = tuple[str, str, bool, Any]
# A diagnostic as the engine records it: ``(severity rank, path, code, compile.supported,
# payload)``, the payload either the built :class:`Diagnostic` or ``(rule, placeholder values)``
# where the rule carries ``severity``, ``code``, ``message``, ``compile``, ``lossy``, ``action``
# and ``docs_url``. Records sort like diagnostics (severity, path, code) and decide the compile
# policy without their wording, which is formatted only when the diagnostic is built.
DiagnosticRecord = tuple[int, str, str, bool, Any]


# path_segment's memo, read directly by the walk's hot loop (segment -> what join_path appends)
PATH_SEGMENTS: dict[str, str] = {}
_SEGMENT_CACHE_MAX = 65_536


def path_segment(seg: str) -> str:
    """What :func:`join_path` appends for one string segment (memoized)."""
    out = PATH_SEGMENTS.get(seg)
    return new_segment(seg) if out is None else out


def new_segment(seg: str) -> str:
    """:func:`path_segment` without reading its memo, of any key a walk meets: an ASCII
    identifier is ``.key`` and an int ``[n]``, as :func:`join_path` writes them, neither
    remembered (most names are new to a walk, and ``True`` and ``1`` are one key to a dict, not
    to a path); any other key is remembered."""
    # an ASCII Python identifier is exactly an ``_IDENT`` match without ``$`` (asked in C)
    if seg.__class__ is str and seg.isascii() and seg.isidentifier():
        return "." + seg  # as cheap as a memo read: never remembered (most names are new)
    if isinstance(seg, int):
        return f"[{seg}]"
    # a JavaScript identifier with ``$``, or a key joinPath quotes
    out = "." + seg if _IDENT.match(seg) else "[" + json.dumps(seg, ensure_ascii=False) + "]"
    if len(PATH_SEGMENTS) < _SEGMENT_CACHE_MAX:
        PATH_SEGMENTS[seg] = out
    return out


def join_path(base: str, *segments: str | int) -> str:
    """Extend ``base``: ints as ``[n]``, identifiers as ``.seg``, anything else as ``["seg"]``."""
    out = base
    for seg in segments:
        if isinstance(seg, int):
            out += f"[{seg}]"
        else:
            out += path_segment(seg)
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
    for schema, path, depth in schema_nodes(root, base):
        yield SchemaNode(schema, path, depth)


_MAP_PREFIX = tuple((slot, path_segment(slot)) for slot in MAP_SLOTS)
_LIST_PREFIX = tuple((slot, path_segment(slot)) for slot in LIST_SLOTS)
_SINGLE_PREFIX = tuple((slot, path_segment(slot)) for slot in SINGLE_SLOTS)


def schema_nodes(root: Any, base: str = "inputSchema") -> list[tuple[dict[str, Any], str, int]]:
    """``(schema, path, depth)`` of every object subschema, in :func:`walk_schema` order."""
    out: list[tuple[dict[str, Any], str, int]] = []
    if not isinstance(root, dict):
        return out
    stack: list[tuple[dict[str, Any], str, int]] = [(root, base, 1)]
    pop, add, segment = stack.pop, out.append, path_segment
    while stack:
        node = pop()
        add(node)
        schema, path, depth = node
        depth += 1
        children: list[tuple[dict[str, Any], str, int]] = []
        for slot, prefix in _MAP_PREFIX:
            entries = schema.get(slot)
            if isinstance(entries, dict):
                for key, child in entries.items():
                    if isinstance(child, dict):
                        children.append((child, path + prefix + segment(key), depth))
        for slot, prefix in _LIST_PREFIX:
            entries = schema.get(slot)
            if isinstance(entries, list):
                for i, child in enumerate(entries):
                    if isinstance(child, dict):
                        children.append((child, f"{path}{prefix}[{i}]", depth))
        for slot, prefix in _SINGLE_PREFIX:
            child = schema.get(slot)
            if isinstance(child, dict):
                children.append((child, path + prefix, depth))
        if children:
            children.reverse()
            stack.extend(children)
    return out


def schemas_with_depth(root: Any) -> list[tuple[dict[str, Any], int]]:
    """``(schema, depth)`` of every object subschema in :func:`walk_schema` order, without paths."""
    out: list[tuple[dict[str, Any], int]] = []
    stack: list[tuple[Any, int]] = [(root, 1)]
    pop, push, add = stack.pop, stack.append, out.append
    while stack:
        schema, depth = pop()
        if not isinstance(schema, dict):
            continue
        add((schema, depth))
        children: list[Any] = []
        for slot in MAP_SLOTS:
            entries = schema.get(slot)
            if isinstance(entries, dict):
                children.extend(entries.values())
        for slot in LIST_SLOTS:
            entries = schema.get(slot)
            if isinstance(entries, list):
                children.extend(entries)
        for slot in SINGLE_SLOTS:
            child = schema.get(slot)
            if isinstance(child, dict):
                children.append(child)
        depth += 1
        for child in reversed(children):
            if isinstance(child, dict):
                push((child, depth))
    return out


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
    if not isinstance(value, (dict, list)):
        return 0
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        if depth > deepest:
            deepest = depth
            if depth > limit:
                return depth
        depth += 1
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, (dict, list)):
                push((child, depth))
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


# The items of a record, read in C. A diagnostic record's first three items are its sort key
# (severity rank, path, code); a transformation record's are (code, path, lossy).
_first_three: Callable[[tuple[Any, ...]], tuple[Any, Any, Any]] = itemgetter(0, 1, 2)
_ranks = itemgetter(0)  # a diagnostic record's severity rank
_record_codes = itemgetter(2)  # a diagnostic record's code
_codes = itemgetter(0)  # a transformation record's code
_paths = itemgetter(1)  # either record's path
_lossy = itemgetter(2)  # a transformation record's lossiness


def diagnostic_record(d: Diagnostic) -> DiagnosticRecord:
    """The record of an already built diagnostic."""
    return (_SEVERITY_RANK[d.severity], d.path, d.code, d.compile.supported, d)


# One shared (frozen) CompileAbility per constant compile text, lossiness and verdict.
_ABILITIES: dict[tuple[str, bool, bool], CompileAbility] = {}
_DIAGNOSTIC_FIELDS = frozenset(
    ("provider_id", "tool_name", "severity", "code", "message", "path", "compile", "docs_url")
)
# The ``model_fields_set`` of every record built here: every field is given, so one set per
# class serves all its records, as one ``CompileAbility`` serves all equal compile parts. Never
# changed in place: the models are frozen (pydantic refuses assignment before it would add a
# name) and pydantic's ``model_copy``, ``copy`` and ``deepcopy`` copy the set before updating it.
_DIAGNOSTIC_SET: set[str] = set(_DIAGNOSTIC_FIELDS)
_TRANSFORMATION_SET: set[str] = {"code", "path", "detail", "lossy"}
_ABILITY_SET: set[str] = {"supported", "lossy", "detail"}
# Per rule (by identity, the rule kept alive here), verdict and target: the rule object, its
# diagnostic's fields in declared order with every constant one filled, its message and compile
# templates when they have placeholders (None: the constant field stands), and the message's
# texts and placeholders (``wording.parts``) when it names only plain ones.
_DiagnosticHead = tuple[Any, dict[str, Any], str | None, str | None, tuple[str, ...] | None]
_DIAGNOSTIC_HEADS: dict[tuple[int, bool, str], _DiagnosticHead] = {}
_UNSEEN: Any = object()
_HEADS_MAX = 4096


def _shared_ability(text: str, lossy: bool, supported: bool) -> CompileAbility:
    """The one ``compile`` part for a constant compile text, lossiness and verdict."""
    key = (text, lossy, supported)
    shared = _ABILITIES.get(key)
    if shared is None:
        shared = build_from(
            CompileAbility, {"supported": supported, "lossy": lossy, "detail": text}
        )
        if len(_ABILITIES) < 4096:
            _ABILITIES[key] = shared
    return shared


def _diagnostic_head(rule: Any, supported: bool, provider_id: str) -> _DiagnosticHead:
    """What every diagnostic of ``rule`` with this verdict for this target has in common."""
    key = (id(rule), supported, provider_id)
    head = _DIAGNOSTIC_HEADS.get(key)
    if head is not None and head[0] is rule:
        return head
    message, text = rule.message, rule.compile
    fields = {
        "provider_id": provider_id,
        "tool_name": None,
        "severity": rule.severity,
        "code": rule.code,
        "message": message,
        "path": None,
        "compile": None if "{" in text else _shared_ability(text, rule.lossy, supported),
        "docs_url": rule.docs_url,
    }
    head = (
        rule,
        fields,
        message if "{" in message else None,
        text if "{" in text else None,
        parts(message) if "{" in message else None,
    )
    if len(_DIAGNOSTIC_HEADS) >= _HEADS_MAX:
        _DIAGNOSTIC_HEADS.clear()  # bounded: start over rather than keep stale entries
    _DIAGNOSTIC_HEADS[key] = head
    return head


def _build_diagnostics(
    records: Iterable[DiagnosticRecord], provider_id: str, tool_name: str
) -> list[Diagnostic]:
    """The diagnostic of each record, in one loop: a compile builds all of a tool's
    diagnostics at once, so the per-record call and lookups are made once per tool, and the
    head looked up (and the tool's name filled in) once for a run of records of one rule.

    The common record (a message naming one plain placeholder, a constant compile text) is
    filled inline; any other goes through :func:`_worded`."""
    out: list[Diagnostic] = []
    last_rule: Any = None
    last_supported: Any = None
    fields: Any = None
    head: Any = None
    name: Any = None
    before: Any = None
    after: Any = None
    for _, path, _, supported, payload in records:
        if payload.__class__ is not tuple:
            out.append(payload)  # built already
            continue
        rule, values = payload
        if rule is not last_rule or supported is not last_supported:
            head = _DIAGNOSTIC_HEADS.get((id(rule), supported, provider_id))
            if head is None or head[0] is not rule:
                head = _diagnostic_head(rule, supported, provider_id)
            last_rule, last_supported = rule, supported
            fields = head[1].copy()  # the tool's own, for this run of records
            fields["tool_name"] = tool_name
            found = head[4]
            if found is not None and len(found) == 3 and head[3] is None:
                before, name, after = found  # the common record: filled inline below
            else:
                name = None
        data = fields.copy()  # the fields in declared order; the per-record ones replaced below
        data["path"] = path
        if name is None:
            _worded(data, head, values, provider_id, tool_name, path, supported)
        else:
            try:  # ``fill``, inline (a ``try`` costs nothing until it catches)
                data["message"] = f"{before}{values[name]}{after}"
            except KeyError:
                data["message"] = _fill(head[2], provider_id, tool_name, path, values)
        # ``build_from(Diagnostic, data, _DIAGNOSTIC_SET)``, inline
        obj = _new(Diagnostic)
        _set_dict(obj, data)
        _set_fields_set(obj, _DIAGNOSTIC_SET)
        _set_extra(obj, None)
        _set_private(obj, None)
        out.append(obj)
    return out


def _worded(
    data: dict[str, Any],
    head: _DiagnosticHead,
    values: Any,
    provider_id: str,
    tool_name: str,
    path: str,
    supported: bool,
) -> None:
    """Fill ``data``'s message and compile part for one record whose head has a message that is
    not one plain placeholder, or a compile text with placeholders."""
    rule, _, message, text, found = head
    if found is not None:
        try:
            data["message"] = fill_parts(found, values)
        except KeyError:
            data["message"] = _fill(message, provider_id, tool_name, path, values)  # type: ignore[arg-type]
    elif message is not None:
        data["message"] = _fill(message, provider_id, tool_name, path, values)
    if text is not None:
        data["compile"] = build_from(
            CompileAbility,
            {
                "supported": supported,
                "lossy": rule.lossy,
                "detail": _fill(text, provider_id, tool_name, path, values),
            },
            _ABILITY_SET,
        )


# Built transformations by what they hold (code, path, detail, lossiness): an equal one met
# again (the same step at the same path, in this tool or another: every tool's root, the
# properties tools commonly share) is the one built before. Only records whose code and path
# hold no space are kept here, so a record found here needs no look for spaces (see ``_kept``).
_TRANSFORMATIONS: dict[tuple[str, str, str, Any], Transformation] = {}
_TRANSFORMATIONS_MAX = 16_384


def _build_transformations(
    records: Iterable[TransformationRecord], provider_id: str, tool_name: str
) -> list[Transformation]:
    """The transformation of each record (see :func:`_transformations`)."""
    return _transformations(records, provider_id, tool_name)[0]


def _transformations(
    records: Iterable[TransformationRecord], provider_id: str, tool_name: str
) -> tuple[list[Transformation], bool]:
    """The transformation of each record, in one loop (a compile builds all of a tool's
    transformations at once, so the per-record call and lookups are made once per tool), and
    whether two of them may be repeats that :func:`_kept` leaves out: two are equal, or a code
    or a path holds a space (their text keys may then meet).

    A detail template without placeholders is the detail as it is; one naming only plain
    placeholders is its texts joined with their values (``wording.parts``). A
    transformation equal to one built before is that one."""
    out: list[Transformation] = []
    seen: set[tuple[str, str, str, Any]] = set()
    spaced = False
    memo = _TRANSFORMATIONS
    if len(memo) >= _TRANSFORMATIONS_MAX:
        memo.clear()  # bounded (by the limit and one tool's records): start over
    for code, path, lossy, payload in records:
        if payload.__class__ is not tuple:
            out.append(payload)  # built already
            seen.add((code, path, payload.detail, lossy))
            if " " in path or " " in code:
                spaced = True
            continue
        detail, values = payload
        if "{" in detail:
            template = detail
            found = PARTS.get(template, _UNSEEN)
            if found is _UNSEEN:
                found = parts(template)
            if found is None:
                detail = _fill(template, provider_id, tool_name, path, values)
            else:
                try:  # ``fill``, inline (a ``try`` costs nothing until it catches)
                    n = len(found)
                    if n == 3:
                        detail = f"{found[0]}{values[found[1]]}{found[2]}"
                    elif n == 1:  # only escaped braces: the text as written
                        detail = found[0]
                    else:
                        detail = fill_parts(found, values)
                except KeyError:  # no value for a placeholder
                    detail = _fill(template, provider_id, tool_name, path, values)
        key = (code, path, detail, lossy)
        seen.add(key)
        obj = memo.get(key)
        if obj is None:
            # ``build_from(Transformation, {...}, _TRANSFORMATION_SET)``, inline
            obj = _new(Transformation)
            _set_dict(obj, {"code": code, "path": path, "detail": detail, "lossy": lossy})
            _set_fields_set(obj, _TRANSFORMATION_SET)
            _set_extra(obj, None)
            _set_private(obj, None)
            if " " in path or " " in code:
                spaced = True
            else:
                memo[key] = obj
        out.append(obj)
    return out, spaced or len(seen) < len(out)


def materialize_diagnostics(
    records: Iterable[DiagnosticRecord], provider_id: str, tool_name: str
) -> list[Diagnostic]:
    """The diagnostics of ``records``, sorted by severity, path and code."""
    return _build_diagnostics(sorted(records, key=_first_three), provider_id, tool_name)


def _distinct(records: Sequence[TransformationRecord]) -> bool:
    """Whether no two of ``records`` can share a text key of :func:`_kept`: they differ
    whenever (code, path, lossy) do and neither code nor path holds a space."""
    return (
        len(set(map(_first_three, records))) == len(records)
        and " " not in "".join(map(_codes, records))
        and " " not in "".join(map(_paths, records))
    )


def _kept(records: Sequence[TransformationRecord], built: Sequence[Transformation]) -> list[int]:
    """The indexes of ``records`` (built as ``built``) that are no repeat of an earlier one's
    code, path, detail and lossiness."""
    seen: set[str] = set()
    kept: list[int] = []
    for i, (r, t) in enumerate(zip(records, built, strict=True)):
        key = f"{r[0]} {r[1]} {t.detail} {r[2]}"
        if key not in seen:
            seen.add(key)
            kept.append(i)
    return kept


def _unique(
    records: Sequence[TransformationRecord], provider_id: str, tool_name: str
) -> list[TransformationRecord]:
    """``records`` without repeats of the same code, path, detail and lossiness (first kept)."""
    if len(records) < 2 or _distinct(records):
        return list(records)
    built = _build_transformations(records, provider_id, tool_name)
    return [records[i] for i in _kept(records, built)]


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
    are taken in the order given, or with ``sort`` sorted by severity, path and code (only the
    ones kept: sorting is stable, so that is the order sorting all of them first gives); the
    result builds its records on first access.
    """
    return finalize_owned(
        provider_id,
        tool_name,
        dict(output) if output is not None else None,
        transformations,
        diagnostics,
        allow_lossy,
        sort,
    )


def finalize_owned(
    provider_id: str,
    tool_name: str,
    output: dict[str, Any] | None,
    transformations: Sequence[TransformationRecord],
    diagnostics: Sequence[DiagnosticRecord],
    allow_lossy: bool,
    sort: bool,
) -> CompileResult:
    """:func:`finalize_records` of an ``output`` the result may keep as it is (a run's own,
    shared with no one): the arguments in order, nothing copied."""
    # The verdict needs only two questions of the records; which records survive, in what
    # order, is worked out with the records themselves, on first access.
    errors = bool(diagnostics) and 0 in map(_ranks, diagnostics)
    ok = not errors or all(
        d[0] or d[3]
        for d in diagnostics  # no error compiling cannot resolve
    )
    kept_transformations: list[TransformationRecord] | None = None
    refusal: DiagnosticRecord | None = None
    if ok and not allow_lossy and True in map(_lossy, transformations):
        ok = False
        kept_transformations = _unique(transformations, provider_id, tool_name)
        weakened = ", ".join(f"{t[0]} at {t[1]}" for t in kept_transformations if t[2])
        refused = Diagnostic(
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
        refusal = (0, "inputSchema", LOSSY_REFUSED, False, refused)

    return CompileResult.deferred(
        provider_id,
        tool_name,
        ok,
        (output if output is not None else {}) if ok else None,
        _records,
        (
            kept_transformations,
            transformations,
            diagnostics,
            provider_id,
            tool_name,
            sort,
            refusal,
            errors,
        ),
    )


# What a result's records are built from: the transformation records the refusal kept (None:
# all, repeats left out), every transformation and diagnostic record, the target, the tool,
# whether to sort the diagnostics, the refusal's own record, whether any record is an error.
_RecordArgs = tuple[
    Sequence[TransformationRecord] | None,
    Sequence[TransformationRecord],
    Sequence[DiagnosticRecord],
    str,
    str,
    bool,
    DiagnosticRecord | None,
    bool,
]


def _records(args: _RecordArgs) -> tuple[tuple[Transformation, ...], tuple[Diagnostic, ...]]:
    """A result's records, built on first access (``finalize_records`` says which survive)."""
    changes, transformations, diagnostics, provider_id, tool_name, sort, refusal, errors = args
    if changes is None:
        # every record built, then the repeats (``_unique``) left out, when there can be any
        built, repeats = _transformations(transformations, provider_id, tool_name)
        if repeats:
            built = [built[i] for i in _kept(transformations, built)]
    else:
        built = _build_transformations(changes, provider_id, tool_name)
    kept = diagnostics
    if errors:
        # errors compiling resolved are dropped: their transformation records stand for them
        kept = [d for d in diagnostics if d[0] or not d[3]]
    if sort and len(kept) > 1:
        # by (severity rank, path, code): three stable sorts on one item each (code, then path,
        # then rank) give that order, and compare plain strings and ints, without key tuples
        kept = sorted(kept, key=_record_codes)
        kept.sort(key=_paths)
        kept.sort(key=_ranks)
    if refusal is not None:
        kept = [*kept, refusal]
    return tuple(built), tuple(_build_diagnostics(kept, provider_id, tool_name))


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
