"""Canonical tool validation (SchemaPort ``validateCanonicalTool``, its own issue wording) and
argument validation against a canonical schema (``validateValue``, by jsonschema)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from provcat.catalog.keys import suggest
from provcat.patterns import compile_pattern, ecma_validator
from provcat.toolschema.paths import join_path
from provcat.toolschema.refs import resolve_ref
from provcat.toolschema.subschemas import LIST_SLOTS, MAP_SLOTS, schema_types, walk_schema
from provcat.toolschema.types import ValidationIssue
from provcat.toolschema.values import MAX_NESTING, json_nesting

__all__ = [
    "COMMAND_LINE_DIAGNOSED",
    "TARGET_DIAGNOSED",
    "TYPE_NAMES",
    "canonical_tool_issues",
    "regex_problem",
    "validate_canonical_tool",
    "validate_value",
]


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


TYPE_NAMES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})
_NAME = re.compile(r"^\S{1,128}\Z")  # ``\Z``: ``$`` would also pass a final newline
_NUMERIC = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
# JSON Schema Validation 2020-12, 6.2-6.5: each of these MUST be a non-negative integer (a number
# with a zero fractional part counts as one)
_COUNTS = ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties")


def regex_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a usable regular expression, or None: judged by
    :func:`~provcat.patterns.compile_pattern`, the function that uses it (ECMA-262's reading)."""
    try:
        compile_pattern(pattern)
    except re.error as exc:
        return str(exc)
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return _is_number(value) and value >= 0 and (isinstance(value, int) or value.is_integer())


def _non_string_keys(value: Any) -> list[Any]:
    """The keys of the first dict anywhere in ``value`` that has keys that are not strings."""
    stack = [value]
    while stack:
        item = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if isinstance(item, dict):
            odd = [key for key in item if not isinstance(key, str)]
            if odd:
                return odd
        stack.extend(c for c in children if isinstance(c, (dict, list)))
    return []


def _slot_values(schema: dict[str, Any], path: str) -> Iterator[tuple[Any, str]]:
    for slot in MAP_SLOTS:
        entries = schema.get(slot)
        if isinstance(entries, dict):
            for key, child in entries.items():
                yield child, join_path(path, slot, key)
    for slot in LIST_SLOTS:
        entries = schema.get(slot)
        if isinstance(entries, list):
            for i, child in enumerate(entries):
                yield child, join_path(path, slot, i)
    for slot in ("items", "not"):
        if slot in schema:
            yield schema[slot], join_path(path, slot)


# The kinds of problem the compiler reports itself, per target, as diagnostics (SchemaPort's
# fixtures compile such tools): a compile skips them here and leaves them to the target's rules.
TARGET_DIAGNOSED = frozenset({"name", "nesting", "root", "subschema", "reference", "value"})
# ... and what the command line leaves to them: all but a `const` its own schema rejects (the
# subschema accepts nothing, which no target reports)
COMMAND_LINE_DIAGNOSED = TARGET_DIAGNOSED - {"value"}


def validate_canonical_tool(value: Any) -> list[ValidationIssue]:
    """Every reason ``value`` is not a canonical tool (empty: it is one)."""
    return canonical_tool_issues(value, frozenset())


def canonical_tool_issues(value: Any, skip: frozenset[str]) -> list[ValidationIssue]:
    """The issues of :func:`validate_canonical_tool` but those of a kind in ``skip``
    (:data:`TARGET_DIAGNOSED` for a compile)."""
    issues: list[ValidationIssue] = []

    def add(message: str, path: str, kind: str = "shape") -> None:
        if kind not in skip:
            issues.append(ValidationIssue(message=message, path=path))

    if not isinstance(value, dict):
        add("a tool must be a JSON object", "")
        return issues
    name = value.get("name")
    if not isinstance(name, str) or not name:
        # an empty string is a name the targets' own name rules report; anything else is no name
        add("`name` is missing or empty", "name", "name" if name == "" else "shape")
    elif not _NAME.match(name):
        add("`name` must be 1 to 128 characters without whitespace", "name", "name")
    if "description" in value and not isinstance(value["description"], str):
        add("`description` must be a string", "description")
    schema = value.get("inputSchema")
    if not isinstance(schema, dict):
        add("`inputSchema` must be a JSON object", "inputSchema")
        return issues
    depth = json_nesting(schema)
    if depth > MAX_NESTING:
        add(f"`inputSchema` nests deeper than {MAX_NESTING} levels", "inputSchema", "nesting")
        return issues
    odd = _non_string_keys(schema)
    if odd:  # JSON object keys are strings; nothing below can read another
        add(
            f"a key of the schema is not a string: {odd[0]!r} ({type(odd[0]).__name__}); JSON "
            "object keys are strings",
            "inputSchema",
        )
        return issues
    if schema_types(schema) != ["object"]:
        add('the root schema must have `type: "object"`', "inputSchema.type", "root")
    for node in walk_schema(schema):
        s, path = node.schema, node.path
        for child, child_path in _slot_values(s, path):
            if isinstance(child, bool):
                add("a boolean subschema is not allowed here", child_path, "subschema")
            elif not isinstance(child, dict):
                add("a subschema must be a JSON object", child_path, "subschema")
        ad = s.get("additionalProperties")
        if "additionalProperties" in s and not isinstance(ad, (bool, dict)):
            add(
                "a subschema must be a JSON object",
                join_path(path, "additionalProperties"),
                "subschema",
            )
        if "type" in s:
            t = s["type"]
            if isinstance(t, str):
                names = [t]
            elif isinstance(t, list) and all(isinstance(x, str) for x in t):
                names = list(t)
            else:
                add("`type` must be a string or a list of strings", join_path(path, "type"))
                names = []
            for n in names:
                if n not in TYPE_NAMES:
                    hint = (
                        f"did you mean '{n.lower()}'? type names are lower case"
                        if n.lower() in TYPE_NAMES  # OpenAPI's (Gemini's) OBJECT, STRING, ...
                        else suggest(n, TYPE_NAMES)
                    )
                    add(
                        f"unknown type {n!r}" + (f" ({hint})" if hint else ""),
                        join_path(path, "type"),
                    )
        if "properties" in s and not isinstance(s["properties"], dict):
            add("`properties` must be an object", join_path(path, "properties"))
        for slot in ("$defs", "definitions"):
            if slot in s and not isinstance(s[slot], dict):
                add(f"`{slot}` must be an object", join_path(path, slot), "keyword")
        for slot in LIST_SLOTS:  # JSON Schema 2020-12, 10.2.1 and 10.3.1.1: non-empty arrays
            if slot in s and not (isinstance(s[slot], list) and s[slot]):
                add(
                    f"`{slot}` must be a non-empty list of subschemas",
                    join_path(path, slot),
                    "keyword",
                )
        if "required" in s:
            req = s["required"]
            props = _as_dict(s.get("properties"))
            if not isinstance(req, list) or not all(isinstance(r, str) for r in req):
                add("`required` must be a list of strings", join_path(path, "required"))
            else:
                for r in req:
                    if r not in props:
                        add(
                            f"`required` names {r!r}, which is not a property",
                            join_path(path, "required"),
                        )
        if "enum" in s and (not isinstance(s["enum"], list) or not s["enum"]):
            add("`enum` must be a non-empty list", join_path(path, "enum"), "keyword")
        for key in _NUMERIC:
            if key in s and not _is_number(s[key]):
                add(f"`{key}` must be a number", join_path(path, key), "keyword")
        for key in _COUNTS:
            if key in s and not _is_count(s[key]):
                add(f"`{key}` must be a non-negative integer", join_path(path, key), "keyword")
        order = s.get("propertyOrdering")  # Gemini's Schema.property_ordering: list[str]
        if "propertyOrdering" in s and not (
            isinstance(order, list) and all(isinstance(o, str) for o in order)
        ):
            add(
                "`propertyOrdering` must be a list of property names",
                join_path(path, "propertyOrdering"),
                "keyword",
            )
        for key in ("title", "description"):  # JSON Schema 2020-12 validation, 9.1: strings
            if key in s and not isinstance(s[key], str):
                add(f"`{key}` must be a string", join_path(path, key), "keyword")
        if "nullable" in s and not isinstance(s["nullable"], bool):  # OpenAPI 3.0's boolean
            add("`nullable` must be true or false", join_path(path, "nullable"), "keyword")
        if "format" in s and not isinstance(s["format"], str):
            add("`format` must be a string", join_path(path, "format"), "keyword")
        if "pattern" in s:
            pat = s["pattern"]
            if not isinstance(pat, str):
                add("`pattern` must be a string", join_path(path, "pattern"), "keyword")
            else:
                problem = regex_problem(pat)
                if problem:
                    add(
                        f"`pattern` is not a valid regular expression: {problem}",
                        join_path(path, "pattern"),
                        "keyword",
                    )
        if "$ref" in s:
            status, _ = resolve_ref(schema, s["$ref"])
            ref_path = join_path(path, "$ref")
            if status == "external":
                add(
                    f"`$ref` {s['$ref']!r} is external; only local references are allowed",
                    ref_path,
                    "reference",
                )
            elif status == "dangling":
                add(f"`$ref` {s['$ref']!r} points at no schema", ref_path, "reference")
            elif status == "malformed":
                add(f"`$ref` {s.get('$ref')!r} is not a valid reference", ref_path, "reference")
    if issues or "value" in skip:
        return issues
    # a `default` is an annotation that need not be valid (JSON Schema 2020-12 validation, 9.2:
    # pydantic writes `default: null` for `x: int = None`); a `const` outside its schema leaves
    # the subschema no value at all
    for node in walk_schema(schema):
        if "const" in node.schema:
            rest = {k: v for k, v in node.schema.items() if k not in ("default", "const")}
            for problem in validate_value(rest, node.schema["const"], root=schema):
                add(
                    f"`const` does not fit its own schema: {problem}",
                    join_path(node.path, "const"),
                )
    return issues


def validate_value(schema: Any, value: Any, *, root: Any = None, path: str = "$") -> list[str]:
    """Why ``value`` does not satisfy ``schema`` (empty: it does), sorted; each reason starts
    with the JSON path of the offending value below ``path``.

    The check is jsonschema's Draft 2020-12 validator, imported on first use, so ``import
    provcat`` never pays for it, with ``pattern`` read as ECMA-262 (:func:`~provcat.patterns.ecma_validator`, as the compiler reads
    it: ``$`` is the end of the text, ``\\d`` is ``[0-9]``). Local ``$ref`` is resolved
    within ``root`` (``schema`` itself by default); formats are annotations and not checked. A
    schema the validator cannot work with (an unresolvable reference, a bad regex, runaway
    recursion) is one reason, never an exception.
    """
    draft = ecma_validator()
    base = schema if root is None else root
    if not isinstance(base, (dict, bool)) or not isinstance(schema, (dict, bool)):
        return []
    rooted = draft(base)
    # evolve keeps the resolver rooted at ``root``, so ``#/$defs/...`` in a branch still resolves
    validator = rooted if schema is base else rooted.evolve(schema=schema)
    try:
        errors = [
            f"{_where(path, error.absolute_path)}: {error.message}"
            for error in validator.iter_errors(value)
        ]
    except RecursionError:
        return [f"{path}: the schema nests too deeply to check"]
    except Exception as exc:  # referencing.Unresolvable, re.error, ...: the schema is broken
        return [f"{path}: the schema cannot be checked ({type(exc).__name__}: {exc})"]
    return sorted(set(errors))


def _where(path: str, parts: Any) -> str:
    for part in parts:
        path = f"{path}[{part}]" if isinstance(part, int) else join_path(path, str(part))
    return path
