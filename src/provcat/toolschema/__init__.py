"""The tool-schema compiler: one canonical tool, checked and compiled for each target.

Targets are data (``catalog/schema-targets/*.yaml``, frozen into ``provcat_catalog.targets``);
this package implements the shared vocabulary of checks and transformations once and follows the
SchemaPort provider contract: ``check``, ``compile_tool`` (through ``finalize_compile``), ``probe``.

    >>> from provcat.toolschema import compile_tool
    >>> result = compile_tool(tool, target="gemini", allow_lossy=True)
    >>> result.output, result.transformations, result.diagnostics
"""

from __future__ import annotations

from provcat.errors import InvalidToolError, UnknownTargetError
from provcat.toolschema.api import as_tool, check, compile_tool
from provcat.toolschema.paths import join_path
from provcat.toolschema.policy import finalize_compile
from provcat.toolschema.probe import classify_provider_error, probe
from provcat.toolschema.records import sort_diagnostics
from provcat.toolschema.subschemas import collect_schemas
from provcat.toolschema.targets import (
    Target,
    get_target,
    list_targets,
    target_for_provider,
)
from provcat.toolschema.types import (
    CanonicalTool,
    CompileAbility,
    CompileResult,
    Diagnostic,
    ProbeResult,
    Transformation,
    ValidationIssue,
)
from provcat.toolschema.validate import validate_canonical_tool, validate_value
from provcat.toolschema.values import stable_stringify

__all__ = [
    "CanonicalTool",
    "CompileAbility",
    "CompileResult",
    "Diagnostic",
    "InvalidToolError",
    "ProbeResult",
    "Target",
    "Transformation",
    "UnknownTargetError",
    "ValidationIssue",
    "as_tool",
    "check",
    "classify_provider_error",
    "collect_schemas",
    "compile_tool",
    "finalize_compile",
    "get_target",
    "join_path",
    "list_targets",
    "probe",
    "sort_diagnostics",
    "stable_stringify",
    "target_for_provider",
    "validate_canonical_tool",
    "validate_value",
]
