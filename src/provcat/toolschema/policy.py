"""The one compile policy: what a compile result holds, and when a compile is refused.

``finalize_compile`` (over built records) and ``finalize_records`` (over the records a run
gathers) are the only places a compile is refused for being lossy or for an error it cannot
resolve (SchemaPort core ``finalizeCompile``, section 2.2 of the rules reference).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from provcat.toolschema.records import (
    DiagnosticRecord,
    TransformationRecord,
    built_transformations,
    diagnostic_fields,
    diagnostic_record,
)
from provcat.toolschema.types import (
    CanonicalTool,
    CompileAbility,
    CompileResult,
    Diagnostic,
    Transformation,
)

__all__ = [
    "LOSSY_REFUSED",
    "finalize_compile",
    "finalize_records",
    "not_compilable",
]

LOSSY_REFUSED = "core/lossy-transformation-refused"


def not_compilable(detail: str) -> CompileAbility:
    return CompileAbility(supported=False, lossy=False, detail=detail)


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
    built = built_transformations(transformations, provider_id, tool_name)
    ok = all(rank or supported for rank, _, _, supported, _ in diagnostics)
    kept = [d for d in diagnostics if d[0] or not d[3]]  # resolved errors dropped
    if sort:
        kept.sort(key=lambda r: (r[0], r[1], r[2]))
    out = [diagnostic_fields(d, provider_id, tool_name) for d in kept]
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
