"""What a run records (a diagnostic or a transformation as a tuple), and each record made into
its :class:`Diagnostic` or :class:`Transformation` with the rule's wording filled in; the
diagnostics' order (severity, path, code)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from provcat.toolschema.types import CompileAbility, Diagnostic, Transformation

__all__ = [
    "SEVERITY_RANK",
    "DiagnosticRecord",
    "TransformationRecord",
    "built_transformations",
    "diagnostic_fields",
    "diagnostic_record",
    "fill",
    "materialize_diagnostics",
    "sort_diagnostics",
]

SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}

# A transformation as a run records it: ``(code, path, lossy, payload)``, the payload either the
# built :class:`Transformation` or ``(detail template, placeholder values)``.
TransformationRecord = tuple[str, str, bool, Any]
# A diagnostic as a run records it: ``(severity rank, path, code, compile.supported, payload)``,
# the payload either the built :class:`Diagnostic` or ``(rule, placeholder values)``. Records
# sort like diagnostics (severity, path, code) and decide the compile policy before any wording
# is filled in.
DiagnosticRecord = tuple[int, str, str, bool, Any]


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """By severity (error, warning, info), then path, then code, compared by code point."""
    return sorted(diagnostics, key=lambda d: (SEVERITY_RANK[d.severity], d.path, d.code))


# ---- wording: a rule's message, compile text or detail is a ``str.format`` template


class _Values(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


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


def diagnostic_fields(
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
    fields = diagnostic_fields(record, provider_id, tool_name)
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


def built_transformations(
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
