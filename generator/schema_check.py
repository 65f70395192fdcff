"""Check a loaded document against its JSON Schema and report each violation at its node.

jsonschema_rs answers whether a document is valid (a 10,000-model catalog in milliseconds,
where jsonschema takes seconds); jsonschema finds and words the violations of a document it
refuses. Their verdicts on our schemas agree: both read draft 2020-12, and ``pattern`` as
ECMA-262 (jsonschema through provcat.patterns.compile_pattern: its own ``re`` reading let
``\\d`` match any Unicode digit). Should jsonschema_rs still refuse a document jsonschema
accepts, the file is refused with a diagnostic saying so, never let through. jsonschema is
imported only for a refused document (provcat.patterns.ecma_validator). What each hint says to
do is generator.schema_hints'.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema_rs

from generator.diagnostics import Diagnostic, diag
from generator.loader import Document, NodePath, path_text, read_bytes, read_source
from generator.scalars import readings
from generator.schema_hints import (
    describe,
    enum_values,
    hint_for,
    key_hint,
    pasted_key,
    plain_decimal,
    where_else,
    where_it_goes,
)
from generator.schema_inline import inline_refs
from provcat.catalog.keys import closest
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
    # deferred: jsonschema is imported only for a refused document (module docstring)
    from jsonschema.validators import extend

    schema = _schema(schema_name)
    # ``pattern`` read as JSON Schema means it: ``$`` is the end of the text (provcat.patterns)
    base = ecma_validator()
    # ``integer`` is an int, never a float: JSON Schema counts 2.0 as an integer, so a price of
    # 2.0 passed where 0.1 was refused (prices: a quoted decimal or an integer; floats refused)
    checker = base.TYPE_CHECKER.redefine("integer", _is_int)
    strict = extend(base, type_checker=checker)  # type: ignore[no-untyped-call]
    made: Draft202012Validator = strict(inline_refs(schema))
    return made


def _is_int(_checker: Any, value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole_float(node: Any) -> bool:
    """Whether ``node`` holds a float without a fraction (``2.0``) anywhere: jsonschema_rs takes
    one for an integer, so such a document is checked by jsonschema, with ``_is_int``."""
    if isinstance(node, float):
        return node.is_integer()
    if isinstance(node, dict):
        return any(_whole_float(v) for v in node.values())
    if isinstance(node, list):
        return any(_whole_float(v) for v in node)
    return False


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
    """All schema violations of ``doc``, each at the position of the offending node.

    A required field missing beside an unknown one spelt like it (``display_nam``) is one
    problem, the misspelling: it is reported once, at the unknown key, naming the field meant.
    So is a required field written in a mapping above or below the one that lacks it (an
    endpoint's ``type`` at the top level): one ``unknown_field``, at the key, saying where it goes.
    """
    whole = _whole_float(doc.data)
    if not whole and _quick(schema_name).is_valid(doc.data):
        return []
    found: list[Diagnostic] = []
    missing: dict[tuple[NodePath, str], Diagnostic] = {}
    unknown: list[tuple[NodePath, str, Diagnostic]] = []
    checker = validator(schema_name)
    root = checker.schema if isinstance(checker.schema, dict) else None
    for error in checker.iter_errors(doc.data):
        for made in _explain(doc, error, root):
            found.append(made)
            path: NodePath = tuple(error.absolute_path)
            if made.code == "missing_field":
                missing[(path, made.message.split("'")[1])] = made
            elif made.code == "unknown_field":
                unknown.append((path, made.message.split("'")[1], made))
    for path, name, made in sorted(unknown, key=lambda u: u[2].sort_key()):
        home = _home(path, name, missing)
        if home is not None:
            found.remove(missing.pop((home, name)))
            found[found.index(made)] = replace(
                made,
                message=f"{made.message}, and the required field '{name}' is missing in "
                f"{_where(home)}",
                hint=f"move it {'into' if len(home) > len(path) else 'up to'} {_where(home)} "
                f"(it is no field of {_where(path)})",
            )
            continue
        meant = closest(name, [n for (at, n) in missing if at == path])
        if meant is None or (path, meant) not in missing:
            continue
        found.remove(missing.pop((path, meant)))
        found[found.index(made)] = replace(
            made,
            message=f"{made.message}, and the required field '{meant}' is missing",
            hint=f"did you mean '{meant}'? rename '{name}' to '{meant}'",
        )
    if not found and whole and _quick(schema_name).is_valid(doc.data):
        return []  # its whole floats stand where a number may
    if not found:
        # jsonschema_rs refused what jsonschema accepts: the two read the schema differently
        # (a bug to report); never let such a document pass unexplained
        found.append(
            diag(
                "schema_violation",
                (doc.file, 1, 1),
                f"the file does not match {schema_name}, but no field could be named",
                "report this at the project's issue tracker with the file",
            )
        )
    return found


def _home(
    path: NodePath, name: str, missing: dict[tuple[NodePath, str], Diagnostic]
) -> NodePath | None:
    """Where the field ``name``, unknown at ``path``, is missing as a required field: a mapping
    above or below ``path`` (the first in the file), or None."""
    homes = [
        at
        for (at, n) in missing
        if n == name and at != path and (at[: len(path)] == path or path[: len(at)] == at)
    ]
    return min(homes, key=lambda at: missing[(at, name)].sort_key(), default=None)


def load_file(
    path: Path, display: str, schema_name: str
) -> tuple[Document | None, list[Diagnostic]]:
    """:func:`load_bytes` of the file at ``path``."""
    raw, problems = read_source(path, display)
    if raw is None:
        return None, problems
    return load_bytes(raw, display, schema_name)


def load_bytes(
    raw: bytes, display: str, schema_name: str
) -> tuple[Document | None, list[Diagnostic]]:
    """``generator.loader.load_bytes``, where a value YAML 1.1 reads otherwise than 1.2 gets the
    hint of what the field takes in ``schema_name`` (the file's JSON Schema, in schemas/;
    :func:`ambiguous_hints`: ``write true or false`` for a boolean, ``write "0.001"`` for a
    price) instead of one that names both readings."""
    doc, shape = read_bytes(raw, display)
    if doc is not None and shape and doc.ambiguous:
        hints = ambiguous_hints(doc, schema_name)
        at = {doc.positions[path]: hint for path, hint in hints.items()}
        shape = [
            replace(d, hint=at[(d.line, d.column)])
            if d.code == "ambiguous_yaml_value" and (d.line, d.column) in at
            else d
            for d in shape
        ]
    return (None, shape) if shape else (doc, [])


def ambiguous_hints(doc: Document, schema_name: str) -> dict[NodePath, str]:
    """The hint of each plain value of ``doc`` that YAML 1.1 reads otherwise than 1.2
    (``doc.ambiguous``; the loader refuses them), worded by what the field takes: the first way
    of writing the value that the schema accepts there (``yes``: true, then the text; ``1e-3``:
    the number, the text, then the quoted decimal). A field that takes none of them gets the
    hint the schema check gives for the text. The loader runs before the schema check: this
    asks the schema about those values alone, and reports nothing else."""
    data = doc.data
    texts = {path: text for path, text in doc.ambiguous if path}
    if not texts:
        return {}
    options = {path: _spellings(text, readings(text)) for path, text in texts.items()}
    hints: dict[NodePath, str] = {}
    said: dict[NodePath, str] = {}  # what the schema check says of the text itself
    try:
        for turn in range(max(len(o) for o in options.values())):
            pending = [p for p in options if p not in hints and turn < len(options[p])]
            if not pending:
                break
            for path in pending:
                _put(data, path, options[path][turn][0])
            refused = {(d.line, d.column): d.hint for d in check(doc, schema_name)}
            for path in pending:
                value, hint = options[path][turn]
                at = doc.positions.get(path)
                if at not in refused:
                    hints[path] = hint
                elif value == texts[path]:
                    said[path] = refused[at]
    finally:
        for path, text in texts.items():
            _put(data, path, text)
    return {**said, **hints}


def _spellings(text: str, read: tuple[Any, Any]) -> list[tuple[Any, str]]:
    """The values plain ``text`` may have been meant as, in the order they are tried, each with
    the hint that says how to write it: a boolean YAML 1.1 reads, the number 1.2 (or else 1.1)
    reads, the text, and the number as a quoted decimal (a price)."""
    old, new = read
    found: list[tuple[Any, str]] = []
    if isinstance(old, bool):
        found.append((old, "write true or false"))
    number = next(
        (v for v in (new, old) if isinstance(v, (int, float)) and not isinstance(v, bool)), None
    )
    if isinstance(number, float) and number.is_integer():
        number = int(number)
    if number is not None:
        found.append((number, f"write {number}"))
    found.append((text, f"quote it ({json.dumps(text)})"))
    if number is not None:
        plain = plain_decimal(number) if isinstance(number, float) else str(number)
        if plain != text:
            found.append((plain, f"write {json.dumps(plain)}"))
    return found


def _put(data: Any, path: NodePath, value: Any) -> None:
    """Set the node at ``path`` of ``data`` (a path the loader recorded) to ``value``."""
    if not path:
        return
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _where(path: NodePath) -> str:
    return path_text(path) or "the top level"


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


def _explain(
    doc: Document, error: ValidationError, root: dict[str, Any] | None = None
) -> list[Diagnostic]:
    """``error`` as diagnostics; ``root``, the whole document's schema, lets the hint of a
    field written in the wrong mapping name a mapping elsewhere in the document (an endpoint's
    field under ``defaults:``, a model's under an endpoint)."""
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
            elif homes := where_it_goes(schema, name, error.instance[name]) or (
                where_else(root, path, name, error.instance[name]) if root and path else []
            ):
                hint = f"move it {' or '.join(homes)} (it is no field of {_where(path)})"
            elif guess := closest(name, allowed):
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
                _add(name, schema.get("properties", {}).get(name)),
            )
            for name in missing
        ]
    if "propertyNames" in error.relative_schema_path and isinstance(error.instance, str):
        # a key of the mapping at ``path`` (an endpoint key, a header name), at the key itself
        return [
            diag(
                "schema_violation",
                doc.loc((*path, error.instance), key=True),
                f"{_where(path)}: key {_short(error.instance)} does not have the expected form",
                describe(schema, f"write a key matching {error.validator_value}"),
            )
        ]
    if error.validator in ("anyOf", "oneOf") and error.context:
        branch = _branch(error)
        if branch is not None:
            return [d for e in branch for d in _explain(doc, e, root)]
    if error.validator == "not":
        return [
            diag(
                "schema_violation",
                doc.loc(path, key=True),
                f"'{path[-1] if path else 'this'}' is not allowed here",
                describe(schema, "remove it"),
            )
        ]
    if error.validator == "pattern" and pasted_key(error.instance, schema):
        # the key itself: neither it nor a name made from it is shown, in any output
        return [
            diag(
                "schema_violation",
                doc.loc(path),
                f"{_where(path)}: the value looks like an API key, not an environment "
                "variable's name",
                key_hint(doc),
            )
        ]
    return [
        diag(
            "schema_violation",
            doc.loc(path),
            f"{_where(path)}: {_message(error)}",
            hint_for(error, schema, doc),
        )
    ]


def _branch(error: ValidationError) -> list[ValidationError] | None:
    """The errors of the one alternative of ``anyOf``/``oneOf`` whose type the value has (a
    list of URLs where one of them is no URL: that URL's error, at its item), or None."""
    by_branch: dict[Any, list[ValidationError]] = {}
    for sub in error.context or ():
        by_branch.setdefault(sub.relative_schema_path[0], []).append(sub)
    typed = [
        subs
        for subs in by_branch.values()
        if not any(s.validator == "type" and not s.relative_path for s in subs)
    ]
    return typed[0] if len(typed) == 1 else None


def _add(name: str, subschema: Any) -> str:
    """What to do about a missing required field: add it, and what it holds."""
    described = describe(subschema, "")
    return f"add '{name}': {described}" if described else f"add '{name}'"


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
            if value is None:
                return f"expected {wanted}, got null (an empty value)"
            return f"expected {wanted}, got {kind} {_short(value)}"
        case "enum":
            options = ", ".join(_short(v) for v in enum_values(error))
            return f"{_short(value)} is not one of {options}"
        case "pattern":
            return f"{_short(value)} does not have the expected form"
        case "anyOf" | "oneOf":
            return f"{_short(value)} does not match any allowed form"
        case "minLength" | "minItems" | "minProperties":
            return f"{_short(value)} is too short or empty"
        case _:
            return error.message if len(error.message) <= 160 else error.message[:157] + "..."
