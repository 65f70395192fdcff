"""The output envelope: the compiled schema placed in the target's tool shape."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from provcat.toolschema.intake import MCP_KEPT, mcp_fields
from provcat.toolschema.types import CanonicalTool
from provcat.toolschema.values import SCALARS, clone


def envelope(
    template: Mapping[str, Any],
    tool: CanonicalTool,
    schema: Any,
    *,
    omit_schema: bool,
    describe_empty: bool,
) -> dict[str, Any]:
    """The target's ``envelope`` template with ``$name``, ``$description`` and ``$schema``
    filled in, in the template's key order. The description is left out when the tool has none
    (or an empty one, unless ``describe_empty``); the schema when ``omit_schema``. ``$title``,
    ``$outputSchema``, ``$annotations``, ``$icons`` and ``$_meta`` are the MCP Tool's fields of
    those names, copied as given, and left out when the tool has none."""
    desc = tool.description
    fields = mcp_fields(tool)
    out: dict[str, Any] = {}
    for key, value in template.items():
        if value.__class__ in SCALARS and not isinstance(value, str):
            out[key] = value
        elif isinstance(value, str) and value == "$name":
            out[key] = tool.name
        elif isinstance(value, str) and value == "$description":
            if desc is not None and (describe_empty or desc):
                out[key] = desc
        elif isinstance(value, str) and value == "$schema":
            if not omit_schema:
                out[key] = schema
        elif isinstance(value, str) and value[:1] == "$" and value[1:] in MCP_KEPT:
            if value[1:] in fields:
                out[key] = clone(fields[value[1:]])
        elif isinstance(value, Mapping):
            out[key] = envelope(
                value, tool, schema, omit_schema=omit_schema, describe_empty=describe_empty
            )
        else:
            out[key] = clone(value)
    return out
