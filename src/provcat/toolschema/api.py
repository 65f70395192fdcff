"""``check`` and ``compile_tool``: a canonical tool against one target."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from provcat.toolschema.core import materialize_diagnostics
from provcat.toolschema.executor import compiled, run
from provcat.toolschema.targets import Target, get_target
from provcat.toolschema.types import CanonicalTool, CompileResult, Diagnostic

__all__ = ["as_tool", "check", "compile_tool"]


def as_tool(tool: CanonicalTool | Mapping[str, Any]) -> CanonicalTool:
    """``tool`` as a :class:`CanonicalTool` (a mapping is validated into one)."""
    if isinstance(tool, CanonicalTool):
        return tool
    return CanonicalTool.model_validate(dict(tool))


def check(tool: CanonicalTool | Mapping[str, Any], target: str | Target) -> list[Diagnostic]:
    """Every problem ``target`` has with ``tool``, sorted by severity, path and code."""
    canonical = as_tool(tool)
    resolved = get_target(target)
    return materialize_diagnostics(
        run(canonical, resolved).diagnostics, resolved.id, canonical.name
    )


def compile_tool(
    tool: CanonicalTool | Mapping[str, Any],
    target: str | Target,
    *,
    allow_lossy: bool = False,
) -> CompileResult:
    """The provider-native form of ``tool`` for ``target``, or a refusal that says why.

    A compile that would weaken the schema (a lossy transformation) is refused unless
    ``allow_lossy``; an error the target cannot compile is always refused.
    """
    return compiled(as_tool(tool), target, allow_lossy)
