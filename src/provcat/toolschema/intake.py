"""What a tool must be before it is checked or compiled, in the one wording the command line and
the Python API share.

A canonical tool is ``{"name", "description", "inputSchema"}`` and the other fields an MCP
``Tool`` may have, ``title``, ``outputSchema``, ``annotations``, ``icons`` and ``_meta``, kept as
given: the ``mcp`` target writes them out, the vendors' tool shapes have no place for them. So a
``tools/list`` result is taken as it is (an earlier revision's ``execution`` is read and left
aside). A tool written in a vendor's own shape (OpenAI's Chat Completions
``{"type": "function", "function": {...}}``, its Responses or legacy ``{"name", "parameters"}``,
Anthropic's ``{"name", "input_schema"}``, Gemini's ``{"functionDeclarations": [...]}``) is refused
with the exact change that makes it canonical: guessing would hide which shape was meant, and a
vendor's extra fields (``strict``, ``cache_control``) say nothing about the schema.
"""

from __future__ import annotations

import math
from typing import Any

from provcat.catalog.keys import suggest
from provcat.toolschema.paths import join_path
from provcat.toolschema.types import CanonicalTool
from provcat.toolschema.validate import canonical_tool_issues
from provcat.toolschema.values import MAX_NESTING, json_nesting

__all__ = [
    "FIELDS",
    "MCP_FIELDS",
    "MCP_KEPT",
    "canonical",
    "mcp_fields",
    "not_json_data",
    "tool_problems",
]

FIELDS = ("name", "description", "inputSchema")

# the other fields of an MCP ``Tool`` (a ``tools/list`` result; schema.ts of revision 2026-07-28,
# the one the ``mcp`` target writes: ``Tool extends BaseMetadata, Icons``), each with the JSON
# type it must have; kept as given (a CanonicalTool holds them) and written out by the ``mcp``
# target alone, since a vendor's tool takes the name, the description and the schema
MCP_KEPT: dict[str, tuple[tuple[type, ...], str]] = {
    "title": ((str,), "a string"),
    "outputSchema": ((dict,), "a JSON object"),
    "annotations": ((dict,), "a JSON object"),
    "icons": ((list, tuple), "a list"),
    "_meta": ((dict,), "a JSON object"),
}
# ... and every field of an MCP ``Tool`` read: those, and ``execution`` (revision 2025-11-25; the
# 2026-07-28 ``Tool`` has none), read and left aside so an older server's ``tools/list`` result is
# taken as it is
MCP_FIELDS = (*MCP_KEPT, "execution")

# the CanonicalTool attribute that holds each of them (its field of that alias)
_HELD_AS = {
    info.alias or name: name
    for name, info in CanonicalTool.model_fields.items()
    if (info.alias or name) in MCP_KEPT
}


def mcp_fields(tool: CanonicalTool) -> dict[str, Any]:
    """The MCP ``Tool`` fields ``tool`` has (:data:`MCP_KEPT`, in that order) by their MCP names,
    the values themselves (not copies)."""
    return {k: v for k, a in _HELD_AS.items() if (v := getattr(tool, a)) is not None}


def canonical(value: dict[str, Any]) -> dict[str, Any]:
    """``value``, a tool :func:`tool_problems` found none in, without the fields no
    :class:`~provcat.toolschema.types.CanonicalTool` holds (``execution``)."""
    return {k: v for k, v in value.items() if k in FIELDS or k in MCP_KEPT}


def _vendor_shape(value: dict[str, Any]) -> str | None:
    """The fix for a tool written in a vendor's own shape, or None."""
    if "inputSchema" in value:
        return None
    function = value.get("function")
    if value.get("type") == "function" and isinstance(function, dict):
        return (
            "this is an OpenAI Chat Completions tool "
            '({"type": "function", "function": {...}}); write the canonical tool '
            '{"name": <function.name>, "description": <function.description>, '
            '"inputSchema": <function.parameters>}'
        )
    if "parameters" in value and "name" in value:
        extra = [k for k in ("type", "strict") if k in value]
        drop = f" and drop {', '.join(f'`{k}`' for k in extra)}" if extra else ""
        return (
            "this is an OpenAI Responses or function-calling tool "
            '({"name", "parameters"}); rename `parameters` to `inputSchema`' + drop
        )
    if "input_schema" in value:
        others = sorted(k for k in value if k not in ("name", "description", "input_schema"))
        drop = f" and drop {', '.join(f'`{k}`' for k in others)}" if others else ""
        return (
            'this is an Anthropic tool ({"name", "input_schema"}); rename `input_schema` to '
            "`inputSchema`" + drop
        )
    if isinstance(value.get("functionDeclarations"), list):
        return (
            'this is a Gemini `tools` entry ({"functionDeclarations": [...]}); give each '
            "declaration as its own tool, with `parameters` (or `parametersJsonSchema`) renamed "
            "to `inputSchema`; `parameters` is Gemini's OpenAPI form: write its types in lower "
            'case (`OBJECT` as `object`) and `nullable: true` as "null" in `type`'
        )
    return None


def tool_problems(value: Any, *, leave: frozenset[str] = frozenset()) -> list[str]:
    """Every reason ``value`` is not a canonical tool, as ``provcat tool check`` words them
    (empty: it is one), but those of a kind in ``leave``.

    ``compile_tool`` leaves :data:`~provcat.toolschema.validate.TARGET_DIAGNOSED` to each
    target's rules (a ``$ref`` that points nowhere, nesting, the tool's name, the root's type, a
    non-schema subschema, a ``const`` outside its schema), as SchemaPort's contract has it, and
    refuses the rest; the command line leaves the same but the ``const``
    (:data:`~provcat.toolschema.validate.COMMAND_LINE_DIAGNOSED`).
    """
    not_json = not_json_data(value)
    if not_json is not None:  # the other checks would misread such a value: this one alone
        return [not_json]
    if isinstance(value, dict):
        fix = _vendor_shape(value)
        if fix is not None:
            return [fix]
    problems = [
        f"{issue.message} at {issue.path}" if issue.path else issue.message
        for issue in canonical_tool_issues(value, leave)
    ]
    if isinstance(value, dict):
        for key, (kinds, kind) in MCP_KEPT.items():  # written out as given: of the JSON type
            field = value.get(key)  # MCP says, and nested no deeper than `inputSchema` may be
            if field is None:  # absent, or null (a model dumped with its unset fields): none
                continue
            if not isinstance(field, kinds):
                problems.append(f"`{key}` must be {kind}")
            elif json_nesting(list(field) if isinstance(field, tuple) else field) > MAX_NESTING:
                problems.append(f"`{key}` nests deeper than {MAX_NESTING} levels")
        for key in sorted(k for k in value if k not in FIELDS and k not in MCP_FIELDS):
            hint = suggest(str(key), (*FIELDS, *MCP_FIELDS))
            problems.append(
                f"`{key}` is not a field of a tool (name, description, inputSchema)"
                + (f"; {hint}" if hint else "")
            )
    return problems


# what JSON has a form for (a tuple is written as an array)
_JSON_TYPES = (str, int, float, bool, type(None), list, tuple, dict)


def not_json_data(tool: Any) -> str | None:
    """Where ``tool`` holds a value JSON has no form for (a ``Decimal``, a ``set``, ``bytes``,
    an object, NaN or an infinity: RFC 8259, section 6), or a key that is no string, as a
    problem naming its path; None when it holds none."""
    return None if _plain(tool) else _first_not_plain(tool)


def _plain(value: Any) -> bool:
    """Whether ``value`` is JSON data throughout (each list and mapping looked into once: one
    held twice, or holding itself, is not walked again); the common case, so no path is built."""
    stack = [value]
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str or kind is int or kind is bool or item is None:
            continue
        if kind is float or isinstance(item, float):
            if not math.isfinite(item):
                return False
            continue
        if isinstance(item, dict):
            if id(item) in seen:
                continue
            seen.add(id(item))
            for key in item:
                if type(key) is not str and not isinstance(key, str):
                    return False
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            if id(item) in seen:
                continue
            seen.add(id(item))
            stack.extend(item)
        elif not isinstance(item, _JSON_TYPES):
            return False
    return True


def _first_not_plain(tool: Any) -> str | None:
    """The problem of the first value :func:`_plain` refuses, in document order, by path."""
    stack: list[tuple[Any, str]] = [(tool, "")]
    seen: set[int] = set()
    while stack:
        value, path = stack.pop()
        where = path.lstrip(".") or "the tool"
        if not isinstance(value, _JSON_TYPES):
            return (
                f"{where} is a Python {type(value).__name__} value, which JSON has no form "
                "for: a tool must be plain JSON data"
            )
        if isinstance(value, float) and not math.isfinite(value):
            shown = "NaN" if value != value else "Infinity" if value > 0 else "-Infinity"
            return f"{where} is {shown}, which JSON has no form for: a tool must be plain JSON data"
        if not isinstance(value, (dict, list, tuple)) or id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, dict):
            for key, item in reversed(value.items()):
                if not isinstance(key, str):
                    return (
                        f"{where} has the key {key!r} (a Python {type(key).__name__}): "
                        "a tool must be plain JSON data, whose keys are strings"
                    )
                stack.append((item, join_path(path, key)))
        else:
            stack.extend((item, join_path(path, i)) for i, item in reversed(list(enumerate(value))))
    return None
