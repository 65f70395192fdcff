"""Argument validation (``validate_value``) is jsonschema's Draft 2020-12 validator, loaded lazily.

Expected reasons are the JSON Schema specification's verdicts (each case is the textbook
example of one keyword); the messages are jsonschema's own.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from provcat.toolschema import validate_value

ROOT = {
    "type": "object",
    "properties": {"node": {"$ref": "#/$defs/node"}},
    "$defs": {
        "node": {
            "type": "object",
            "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
            "additionalProperties": False,
        }
    },
}


@pytest.mark.parametrize(
    ("schema", "value", "where"),
    [
        ({"type": "integer"}, 1.5, "$"),
        ({"minimum": 0}, -1, "$"),
        ({"exclusiveMaximum": 3}, 3, "$"),
        ({"multipleOf": 2}, 3, "$"),
        ({"maxLength": 2}, "abc", "$"),
        ({"pattern": "^a"}, "ba", "$"),
        ({"uniqueItems": True}, [1, 1], "$"),
        ({"prefixItems": [{"type": "string"}]}, [1], "$[0]"),
        ({"required": ["a"]}, {}, "$"),
        ({"properties": {"a": {"const": 1}}}, {"a": 2}, "$.a"),
        ({"additionalProperties": False}, {"x": 1}, "$"),
        ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, 1, "$"),
        ({"not": {"type": "null"}}, None, "$"),
        ({"enum": [1, 2]}, True, "$"),  # true is not 1 in JSON Schema
    ],
)
def test_each_keyword_rejects_its_textbook_counterexample(
    schema: dict[str, object], value: object, where: str
) -> None:
    reasons = validate_value(schema, value)
    assert len(reasons) == 1 and reasons[0].startswith(f"{where}: ")


def test_formats_are_annotations() -> None:
    assert validate_value({"type": "string", "format": "email"}, "not an email") == []


def test_references_resolve_against_the_root_for_a_branch() -> None:
    branch = ROOT["$defs"]["node"]
    assert validate_value(branch, {"kids": [{"kids": []}]}, root=ROOT) == []
    (reason,) = validate_value(branch, {"kids": [{"extra": 1}]}, root=ROOT)
    assert reason.startswith("$.kids[0]: ")


@pytest.mark.parametrize(
    "schema", [{"$ref": "#/$defs/missing"}, {"type": "string", "pattern": "("}]
)
def test_a_broken_schema_is_one_reason_not_an_exception(schema: dict[str, object]) -> None:
    (reason,) = validate_value(schema, "x")
    assert reason.startswith("$: the schema cannot be checked")


def test_importing_provcat_does_not_import_jsonschema() -> None:
    code = (
        "import sys, provcat, provcat.toolschema\n"
        "assert 'jsonschema' not in sys.modules, 'jsonschema imported eagerly'\n"
        "provcat.toolschema.validate_value({'type': 'string'}, 1)\n"
        "assert 'jsonschema' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
