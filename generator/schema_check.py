"""Check a loaded document against its JSON Schema and report each violation at its node.

jsonschema_rs answers whether a document is valid (a 10,000-model catalog in milliseconds,
where jsonschema takes seconds); jsonschema finds and words the violations of a document it
refuses. Their verdicts on our schemas agree (both read draft 2020-12, ``pattern`` as ECMA-262);
should jsonschema_rs refuse a document jsonschema accepts, the file simply reports nothing.
jsonschema is imported only for a refused document (provcat.patterns.ecma_validator).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema_rs

from generator.diagnostics import Diagnostic, diag
from generator.loader import Document, NodePath
from generator.schema_inline import inline_refs
from provcat.patterns import ecma_validator

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


@cache
def _schema(schema_name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMA_DIR / schema_name).read_text(encoding="utf-8"))
    return loaded


@cache
def validator(schema_name: str) -> Draft202012Validator:
    """jsonschema's validator of ``schema_name``, which words a refused document's violations."""
    schema = _schema(schema_name)
    # ``pattern`` read as JSON Schema means it: ``$`` is the end of the text (provcat.patterns)
    made: Draft202012Validator = ecma_validator()(inline_refs(schema))
    return made


def check_schema_reference(doc: Document, schema_name: str) -> list[Diagnostic]:
    """Every file names its schema on a `yaml-language-server` line, for editor support."""
    for line in doc.text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#") and "yaml-language-server:" in stripped:
            target = stripped.split("$schema=", 1)[-1].strip()
            if target.endswith(schema_name):
                return []
    return [
        diag(
            "missing_schema_reference",
            (doc.file, 1, 1),
            f"the file does not name its schema ({schema_name})",
            f"add '# yaml-language-server: $schema=../../schemas/{schema_name}' as the first line",
        )
    ]


@cache
def _quick(schema_name: str) -> Any:
    """jsonschema_rs's validator of ``schema_name``: it refuses (raises) a schema file that is no
    valid 2020-12 schema (tests/test_schema.py holds every schema to jsonschema's metaschema)."""
    return jsonschema_rs.validator_for(_schema(schema_name))


def check(doc: Document, schema_name: str) -> list[Diagnostic]:
    """All schema violations of ``doc``, each at the position of the offending node."""
    if _quick(schema_name).is_valid(doc.data):
        return []
    found: list[Diagnostic] = []
    for error in validator(schema_name).iter_errors(doc.data):
        found.extend(_explain(doc, error))
    return found


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _where(path: NodePath) -> str:
    return "/".join(str(p) for p in path) or "the top level"


def _suggest(word: str, choices: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return close[0] if close else None


_UNKNOWN_FIELD = ("additionalProperties", "unevaluatedProperties")


def _field_names(schema: dict[str, Any], with_all_of: bool) -> set[str]:
    """The fields a mapping may have: its ``properties`` and, for ``unevaluatedProperties``,
    those of its ``allOf`` members (a shared block's ``$ref``, inlined). A field a failing member
    names is reported as unevaluated too; it is no unknown field (its own error says why)."""
    names = set(schema.get("properties", {}))
    if with_all_of:
        for member in schema.get("allOf", []):
            if isinstance(member, dict):
                names |= _field_names(member, True)
    return names


def _also_called(schema: dict[str, Any], with_all_of: bool) -> dict[str, tuple[str, str]]:
    """Other names of the fields a mapping may have (a field's ``x-also-called``: what vendors
    call it), each to its field and the field's description: a vendor's word is no misspelling
    for difflib to guess at (``cached_input`` is nearest ``cache_write`` by letters, and means
    ``cache_read``), and its meaning may differ a little from the field's (Vertex AI's
    retirement date is the day before ``shutdown_date``), so the hint says what the field holds."""
    found: dict[str, tuple[str, str]] = {}
    for name, field in schema.get("properties", {}).items():
        if isinstance(field, dict):
            meant = (name, str(field.get("description", "")))
            found.update((other, meant) for other in field.get("x-also-called", ()))
    if with_all_of:
        for member in schema.get("allOf", []):
            if isinstance(member, dict):
                found.update(_also_called(member, True))
    return found


def _word(name: str) -> str:
    """A field name as ``x-also-called`` lists it: snake case (``inputTokenLimit``,
    ``Cache-Hit``, ``cache hit`` are ``input_token_limit``, ``cache_hit``)."""
    return re.sub(r"[-\s]+", "_", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)).casefold()


def _explain(doc: Document, error: ValidationError) -> list[Diagnostic]:
    path: NodePath = tuple(error.absolute_path)
    schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    if error.validator in _UNKNOWN_FIELD and isinstance(error.instance, dict):
        with_all_of = error.validator == "unevaluatedProperties"
        allowed = _field_names(schema, with_all_of)
        also = _also_called(schema, with_all_of)
        out = []
        for name in sorted(set(error.instance) - allowed):
            meant = also.get(_word(name))
            if meant is not None:
                hint = f"did you mean '{meant[0]}'? {meant[1]}".rstrip()
            elif guess := _suggest(name, allowed):
                hint = f"did you mean '{guess}'?"
            else:
                hint = "allowed fields: " + ", ".join(sorted(allowed))
            out.append(
                diag(
                    "unknown_field",
                    doc.loc((*path, name), key=True),
                    f"unknown field '{name}' in {_where(path)}",
                    hint,
                )
            )
        return out
    if error.validator == "required" and isinstance(error.instance, dict):
        required: list[str] = list(error.validator_value)  # type: ignore[arg-type]
        missing = [r for r in required if r not in error.instance]
        return [
            diag(
                "missing_field",
                doc.loc(path),
                f"missing required field '{name}' in {_where(path)}",
                _describe(schema.get("properties", {}).get(name), f"add '{name}'"),
            )
            for name in missing
        ]
    return [
        diag(
            "schema_violation",
            doc.loc(path),
            f"{_where(path)}: {_message(error)}",
            _hint(error, schema),
        )
    ]


def _describe(subschema: Any, fallback: str) -> str:
    if isinstance(subschema, dict) and isinstance(subschema.get("description"), str):
        return str(subschema["description"])
    return fallback


_JSON_TYPES = {
    dict: "a mapping",
    list: "a list",
    str: "a string",
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    type(None): "null",
}


def _message(error: ValidationError) -> str:
    value = error.instance
    kind = _JSON_TYPES.get(type(value), type(value).__name__)
    match error.validator:
        case "type":
            wanted = error.validator_value
            wanted = " or ".join(wanted) if isinstance(wanted, list) else wanted
            return f"expected {wanted}, got {kind} {_short(value)}"
        case "enum":
            options = ", ".join(_short(v) for v in _values(error))
            return f"{_short(value)} is not one of {options}"
        case "pattern":
            return f"{_short(value)} does not have the expected form"
        case "anyOf" | "oneOf":
            return f"{_short(value)} does not match any allowed form"
        case "minLength" | "minItems" | "minProperties":
            return f"{_short(value)} is too short or empty"
        case _:
            return error.message if len(error.message) <= 160 else error.message[:157] + "..."


def _values(error: ValidationError) -> list[Any]:
    value = error.validator_value
    return list(value) if isinstance(value, (list, tuple)) else []


def _hint(error: ValidationError, schema: dict[str, Any]) -> str:
    if error.validator == "enum" and isinstance(error.instance, str):
        guess = _suggest(error.instance, [str(v) for v in _values(error)])
        if guess:
            return f"did you mean '{guess}'?"
    if error.validator == "pattern":
        return _describe(schema, f"expected a value matching {error.validator_value}")
    return _describe(schema, "see the field's description in the schema")
