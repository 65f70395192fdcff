"""``check`` and ``compile_tool``: a canonical tool against one target.

Both check their input first, as ``provcat tool check`` does and in its words
(:mod:`provcat.toolschema.intake`): a value that is not a canonical tool raises
:class:`InvalidToolError` listing every problem, instead of compiling into a verdict about a
schema nobody meant. What a target's rules diagnose themselves (references, nesting, the name,
the root's type, non-schema subschemas, ``default``/``const``) stays a diagnostic of the result.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from provcat.errors import InvalidToolError
from provcat.toolschema.executor import compiled, run
from provcat.toolschema.intake import canonical, mcp_fields, tool_problems
from provcat.toolschema.records import materialize_diagnostics
from provcat.toolschema.survey import Survey, survey
from provcat.toolschema.targets import Target, get_target
from provcat.toolschema.types import CanonicalTool, CompileResult, Diagnostic
from provcat.toolschema.validate import TARGET_DIAGNOSED

__all__ = ["InvalidToolError", "as_tool", "check", "compile_tool"]


class _Checked(NamedTuple):
    """A tool's input check and, when it has no problem, the survey of its schema."""

    problems: tuple[str, ...]
    survey: Survey | None


def _check(value: Any) -> _Checked:
    problems = tuple(tool_problems(value, leave=TARGET_DIAGNOSED))
    return _Checked(problems, None if problems else survey(value["inputSchema"]))


# the largest tool (its marshal form) remembered: a bigger one is checked on every compile (where
# its own compile takes far longer anyway), so the cache holds at most 1,024 x 16 KiB of keys
_REMEMBERED_BYTES = 16 * 1024


@lru_cache(maxsize=1024)
def _checked_of(key: bytes) -> _Checked:
    # a tool compiled again (the usual case: the same tools for several targets, or per request)
    # is checked and surveyed once; the key is the tool's marshal form (types included; version
    # 2 writes no back-references, so equal content is one key), so an edited tool is checked
    # anew, and the check reads the equal copy the key holds
    return _check(marshal.loads(key))


def _checked(tool: CanonicalTool | Mapping[str, Any]) -> tuple[CanonicalTool, Survey | None]:
    """``tool`` as a :class:`CanonicalTool` (see :func:`as_tool`) with its schema's survey."""
    if isinstance(tool, CanonicalTool):
        value: Any = {"name": tool.name, "inputSchema": tool.input_schema}
        if tool.description is not None:
            value["description"] = tool.description
        value.update(mcp_fields(tool))  # checked as a mapping's are
    elif isinstance(tool, Mapping):
        value = dict(tool)
    else:
        raise InvalidToolError(
            [f"a tool must be a mapping or a CanonicalTool, not {type(tool).__name__}"]
        )
    try:
        key: bytes | None = marshal.dumps(value, 2)
    except ValueError:  # a value marshal has no form for (a Decimal, a dict subclass, ...), or
        # nested past its limit (2,000 levels; the targets refuse it with their nesting
        # diagnostic): checked on every compile, never kept
        key = None
    checked = (
        _checked_of(key) if key is not None and len(key) <= _REMEMBERED_BYTES else _check(value)
    )
    if checked.problems:
        raise InvalidToolError(checked.problems)
    if isinstance(tool, CanonicalTool):
        return tool, checked.survey
    return CanonicalTool.model_validate(canonical(value)), checked.survey


def as_tool(tool: CanonicalTool | Mapping[str, Any]) -> CanonicalTool:
    """``tool`` as a :class:`CanonicalTool`, checked as ``provcat tool check`` checks a file.

    A mapping must be a canonical tool, ``{"name", "description", "inputSchema"}``; a
    :class:`CanonicalTool` is checked the same way (its schema may still name an unknown type).
    Raises :class:`InvalidToolError` with every problem (a vendor's own tool shape included,
    with the change that makes it canonical).
    """
    return _checked(tool)[0]


def check(tool: CanonicalTool | Mapping[str, Any], target: str | Target) -> list[Diagnostic]:
    """Every problem ``target`` has with ``tool``, sorted by severity, path and code.

    Raises :class:`InvalidToolError` when ``tool`` is not a canonical tool, and
    :class:`~provcat.toolschema.UnknownTargetError` for an unknown target.
    """
    canonical, surveyed = _checked(tool)
    resolved = get_target(target)
    return materialize_diagnostics(
        run(canonical, resolved, surveyed).diagnostics, resolved.id, canonical.name
    )


def compile_tool(
    tool: CanonicalTool | Mapping[str, Any],
    target: str | Target,
    *,
    allow_lossy: bool = False,
) -> CompileResult:
    """The provider-native form of ``tool`` for ``target``, or a refusal that says why.

    A compile that would weaken the schema (a lossy transformation) is refused unless
    ``allow_lossy``; an error the target cannot compile is always refused. Raises
    :class:`InvalidToolError` when ``tool`` is not a canonical tool (the messages of
    ``provcat tool check``), and :class:`~provcat.toolschema.UnknownTargetError` for an unknown
    target.
    """
    canonical, surveyed = _checked(tool)
    return compiled(canonical, target, allow_lossy, surveyed)
