"""Canonical tool validation (SchemaPort ``validateCanonicalTool``) and argument validation
against a canonical schema (``validateValue``), without third-party validators."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

from provcat.toolschema.core import (
    LIST_SLOTS,
    MAP_SLOTS,
    MAX_NESTING,
    join_path,
    json_nesting,
    schema_types,
    walk_schema,
)
from provcat.toolschema.refs import resolve_ref
from provcat.toolschema.types import ValidationIssue

__all__ = ["TYPE_NAMES", "regex_problem", "validate_canonical_tool", "validate_value"]


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


TYPE_NAMES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})
_NAME = re.compile(r"^\S{1,128}$")
_NUMERIC = (
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
)
_SCHEMA_SLOTS = (*MAP_SLOTS, *LIST_SLOTS, "items", "not")


def regex_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a usable regular expression, or None."""
    try:
        re.compile(pattern)
    except re.error as exc:
        return str(exc)
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


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


def validate_canonical_tool(value: Any) -> list[ValidationIssue]:
    """Every reason ``value`` is not a canonical tool (empty: it is one)."""
    issues: list[ValidationIssue] = []

    def add(message: str, path: str) -> None:
        issues.append(ValidationIssue(message=message, path=path))

    if not isinstance(value, dict):
        add("a tool must be a JSON object", "")
        return issues
    name = value.get("name")
    if not isinstance(name, str) or not name:
        add("`name` is missing or empty", "name")
    elif not _NAME.match(name):
        add("`name` must be 1 to 128 characters without whitespace", "name")
    if "description" in value and not isinstance(value["description"], str):
        add("`description` must be a string", "description")
    schema = value.get("inputSchema")
    if not isinstance(schema, dict):
        add("`inputSchema` must be a JSON object", "inputSchema")
        return issues
    depth = json_nesting(schema)
    if depth > MAX_NESTING:
        add(f"`inputSchema` nests deeper than {MAX_NESTING} levels", "inputSchema")
        return issues
    if schema_types(schema) != ["object"]:
        add('the root schema must have `type: "object"`', "inputSchema.type")
    for node in walk_schema(schema):
        s, path = node.schema, node.path
        for child, child_path in _slot_values(s, path):
            if isinstance(child, bool):
                add("a boolean subschema is not allowed here", child_path)
            elif not isinstance(child, dict):
                add("a subschema must be a JSON object", child_path)
        ad = s.get("additionalProperties")
        if "additionalProperties" in s and not isinstance(ad, (bool, dict)):
            add("a subschema must be a JSON object", join_path(path, "additionalProperties"))
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
                    add(f"unknown type {n!r}", join_path(path, "type"))
        if "properties" in s and not isinstance(s["properties"], dict):
            add("`properties` must be an object", join_path(path, "properties"))
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
            add("`enum` must be a non-empty list", join_path(path, "enum"))
        for key in _NUMERIC:
            if key in s and not _is_number(s[key]):
                add(f"`{key}` must be a number", join_path(path, key))
        if "pattern" in s:
            pat = s["pattern"]
            if not isinstance(pat, str):
                add("`pattern` must be a string", join_path(path, "pattern"))
            else:
                problem = regex_problem(pat)
                if problem:
                    add(
                        f"`pattern` is not a valid regular expression: {problem}",
                        join_path(path, "pattern"),
                    )
        if "$ref" in s:
            status, _ = resolve_ref(schema, s["$ref"])
            ref_path = join_path(path, "$ref")
            if status == "external":
                add(
                    f"`$ref` {s['$ref']!r} is external; only local references are allowed", ref_path
                )
            elif status == "dangling":
                add(f"`$ref` {s['$ref']!r} points at no schema", ref_path)
            elif status == "malformed":
                add(f"`$ref` {s.get('$ref')!r} is not a valid reference", ref_path)
    if issues:
        return issues
    for node in walk_schema(schema):
        for key in ("default", "const"):
            if key in node.schema:
                rest = {k: v for k, v in node.schema.items() if k not in ("default", "const")}
                for problem in validate_value(rest, node.schema[key], root=schema):
                    add(
                        f"`{key}` does not fit its own schema: {problem}", join_path(node.path, key)
                    )
    return issues


def _type_ok(name: str, value: Any) -> bool:
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "integer":
        return _is_number(value) and float(value).is_integer()
    if name == "number":
        return _is_number(value)
    return False


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(type(a) is type(b) and a == b)


def validate_value(
    schema: Any, value: Any, *, root: Any = None, path: str = "$", _depth: int = 0
) -> list[str]:
    """Why ``value`` does not satisfy ``schema`` (empty: it does), sorted.

    Local ``$ref`` is followed within ``root``; formats are annotations and not checked.
    """
    errors = _validate(schema, value, schema if root is None else root, path, _depth)
    return sorted(set(errors))


def _validate(schema: Any, value: Any, root: Any, path: str, depth: int) -> list[str]:
    if depth > 2 * MAX_NESTING:
        return [f"{path}: the schema nests too deeply to check"]
    if schema is True or schema == {}:
        return []
    if schema is False:
        return [f"{path}: no value is allowed here"]
    if not isinstance(schema, dict):
        return []
    errs: list[str] = []
    sub = depth + 1
    if "$ref" in schema:
        status, target = resolve_ref(root, schema["$ref"])
        if status == "ok":
            errs += _validate(target, value, root, path, sub)
        else:
            errs.append(f"{path}: cannot resolve $ref {schema['$ref']!r}")
    types = schema_types(schema)
    if types and not any(_type_ok(t, value) for t in types):
        errs.append(f"{path}: expected {' or '.join(types)}")
        return errs
    if isinstance(schema.get("enum"), list) and not any(_equal(value, e) for e in schema["enum"]):
        errs.append(f"{path}: not one of the enum values")
    if "const" in schema and not _equal(value, schema["const"]):
        errs.append(f"{path}: not the const value")
    if _is_number(value):
        n = value
        if _is_number(schema.get("minimum")) and n < schema["minimum"]:
            errs.append(f"{path}: below the minimum {schema['minimum']}")
        if _is_number(schema.get("maximum")) and n > schema["maximum"]:
            errs.append(f"{path}: above the maximum {schema['maximum']}")
        if _is_number(schema.get("exclusiveMinimum")) and n <= schema["exclusiveMinimum"]:
            errs.append(f"{path}: not above {schema['exclusiveMinimum']}")
        if _is_number(schema.get("exclusiveMaximum")) and n >= schema["exclusiveMaximum"]:
            errs.append(f"{path}: not below {schema['exclusiveMaximum']}")
        m = schema.get("multipleOf")
        if isinstance(m, (int, float)) and not isinstance(m, bool) and m > 0:
            q = n / m
            if not (math.isfinite(q) and abs(q - round(q)) < 1e-9):
                errs.append(f"{path}: not a multiple of {m}")
    if isinstance(value, str):
        length = len(value)
        if _is_number(schema.get("minLength")) and length < schema["minLength"]:
            errs.append(f"{path}: shorter than {schema['minLength']}")
        if _is_number(schema.get("maxLength")) and length > schema["maxLength"]:
            errs.append(f"{path}: longer than {schema['maxLength']}")
        pat = schema.get("pattern")
        if isinstance(pat, str) and regex_problem(pat) is None and not re.search(pat, value):
            errs.append(f"{path}: does not match the pattern")
    if isinstance(value, list):
        if _is_number(schema.get("minItems")) and len(value) < schema["minItems"]:
            errs.append(f"{path}: fewer than {schema['minItems']} items")
        if _is_number(schema.get("maxItems")) and len(value) > schema["maxItems"]:
            errs.append(f"{path}: more than {schema['maxItems']} items")
        if schema.get("uniqueItems") is True:
            for i, item in enumerate(value):
                if any(_equal(item, other) for other in value[:i]):
                    errs.append(f"{path}: items are not unique")
                    break
        prefix = _as_list(schema.get("prefixItems"))
        for i, item in enumerate(value):
            if i < len(prefix):
                errs += _validate(prefix[i], item, root, f"{path}[{i}]", sub)
            elif "items" in schema:
                errs += _validate(schema["items"], item, root, f"{path}[{i}]", sub)
        if "contains" in schema and not any(
            not _validate(schema["contains"], item, root, path, sub) for item in value
        ):
            errs.append(f"{path}: no item matches `contains`")
    if isinstance(value, dict):
        props = _as_dict(schema.get("properties"))
        required = _as_list(schema.get("required"))
        for name in required:
            if name not in value:
                errs.append(f"{path}: missing required property {name!r}")
        if _is_number(schema.get("minProperties")) and len(value) < schema["minProperties"]:
            errs.append(f"{path}: fewer than {schema['minProperties']} properties")
        if _is_number(schema.get("maxProperties")) and len(value) > schema["maxProperties"]:
            errs.append(f"{path}: more than {schema['maxProperties']} properties")
        patterns = schema.get("patternProperties")
        patterns = patterns if isinstance(patterns, dict) else {}
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            child = join_path(path, key)
            matched = False
            if key in props:
                matched = True
                errs += _validate(props[key], item, root, child, sub)
            for pat, sub_schema in patterns.items():
                if regex_problem(pat) is None and re.search(pat, key):
                    matched = True
                    errs += _validate(sub_schema, item, root, child, sub)
            if not matched:
                if extra is False:
                    errs.append(f"{path}: unexpected property {key!r}")
                elif isinstance(extra, dict):
                    errs += _validate(extra, item, root, child, sub)
        names = schema.get("propertyNames")
        if isinstance(names, (dict, bool)):
            for key in value:
                errs += _validate(names, key, root, join_path(path, key), sub)
    for branch in _as_list(schema.get("allOf")):
        errs += _validate(branch, value, root, path, sub)
    if isinstance(schema.get("anyOf"), list) and not any(
        not _validate(b, value, root, path, sub) for b in schema["anyOf"]
    ):
        errs.append(f"{path}: matches no `anyOf` branch")
    if isinstance(schema.get("oneOf"), list):
        hits = sum(1 for b in schema["oneOf"] if not _validate(b, value, root, path, sub))
        if hits != 1:
            errs.append(f"{path}: matches {hits} `oneOf` branches, not exactly one")
    if "not" in schema and not _validate(schema["not"], value, root, path, sub):
        errs.append(f"{path}: matches the `not` schema")
    return errs
