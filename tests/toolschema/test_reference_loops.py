"""A `$ref` that leads only to references and back is refused by every target.

Such a schema says nothing a value could be checked against: JSON Schema 2020-12 core, 9.4.1
("Schemas SHOULD NOT make use of infinite recursive nesting like this; the behavior is
undefined"). The independent witness is the jsonschema library: applied to a value, each of
these schemas runs its validator into an endless recursion (``RecursionError``), while a recursive
schema with content (a tree, a linked list) checks any finite value and keeps compiling.
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from provcat.toolschema import check, compile_tool, list_targets
from provcat.toolschema.survey import survey
from tests.toolschema.conftest import tool

TARGETS = [t.id for t in list_targets()]
S = {"type": "string"}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _schema(defs: dict[str, Any], **props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props or {"x": _ref("A")}, "$defs": defs}


# name -> (schema, {path of each reference: the chain its diagnostic names})
LOOPS: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "two": (
        _schema({"A": _ref("B"), "B": _ref("A")}),
        {
            "inputSchema.properties.x.$ref": "#/$defs/A -> #/$defs/B -> #/$defs/A",
            "inputSchema.$defs.A.$ref": "#/$defs/B -> #/$defs/A -> #/$defs/B",
            "inputSchema.$defs.B.$ref": "#/$defs/A -> #/$defs/B -> #/$defs/A",
        },
    ),
    "self": (
        _schema({"A": _ref("A")}),
        {
            "inputSchema.properties.x.$ref": "#/$defs/A -> #/$defs/A",
            "inputSchema.$defs.A.$ref": "#/$defs/A -> #/$defs/A",
        },
    ),
    "three": (
        _schema({"A": _ref("B"), "B": _ref("C"), "C": _ref("A")}),
        {
            "inputSchema.properties.x.$ref": "#/$defs/A -> #/$defs/B -> #/$defs/C -> #/$defs/A",
            "inputSchema.$defs.A.$ref": "#/$defs/B -> #/$defs/C -> #/$defs/A -> #/$defs/B",
            "inputSchema.$defs.B.$ref": "#/$defs/C -> #/$defs/A -> #/$defs/B -> #/$defs/C",
            "inputSchema.$defs.C.$ref": "#/$defs/A -> #/$defs/B -> #/$defs/C -> #/$defs/A",
        },
    ),
    # no property uses the loop: the definitions are still schemas no value can be checked against
    "defs-only": (
        _schema({"A": _ref("B"), "B": _ref("A")}, y=S),
        {
            "inputSchema.$defs.A.$ref": "#/$defs/B -> #/$defs/A -> #/$defs/B",
            "inputSchema.$defs.B.$ref": "#/$defs/A -> #/$defs/B -> #/$defs/A",
        },
    ),
    # annotations beside a reference are no content
    "annotated": (
        _schema({"A": {**_ref("B"), "description": "an A"}, "B": {**_ref("A"), "title": "B"}}),
        {
            "inputSchema.properties.x.$ref": "#/$defs/A -> #/$defs/B -> #/$defs/A",
            "inputSchema.$defs.A.$ref": "#/$defs/B -> #/$defs/A -> #/$defs/B",
            "inputSchema.$defs.B.$ref": "#/$defs/A -> #/$defs/B -> #/$defs/A",
        },
    ),
}

# recursive schemas whose recursion goes through content: legitimate, checked as before
WITH_CONTENT: dict[str, tuple[dict[str, Any], Any]] = {
    "tree": (
        {
            "type": "object",
            "properties": {"root": _ref("Node")},
            "required": ["root"],
            "$defs": {
                "Node": {
                    "type": "object",
                    "properties": {"name": S, "children": {"type": "array", "items": _ref("Node")}},
                    "required": ["name", "children"],
                }
            },
        },
        {"root": {"name": "a", "children": [{"name": "b", "children": []}]}},
    ),
    "linked-list": (
        _schema(
            {
                "Cell": {
                    "type": "object",
                    "properties": {
                        "value": {"type": "integer"},
                        "next": {"anyOf": [_ref("Cell"), {"type": "null"}]},
                    },
                }
            },
            head=_ref("Cell"),
        ),
        {"head": {"value": 1, "next": {"value": 2, "next": None}}},
    ),
    "mutual-objects": (
        _schema(
            {
                "A": {"type": "object", "properties": {"b": _ref("B")}},
                "B": {"type": "object", "properties": {"a": _ref("A")}},
            }
        ),
        {"x": {"b": {"a": {}}}},
    ),
    # references to references that end in content: no loop at all
    "chain-to-content": (
        _schema({"A": {**_ref("B"), "description": "an A"}, "B": _ref("C"), "C": S}),
        {"x": "text"},
    ),
    "root": ({"type": "object", "properties": {"self": {"$ref": "#"}, "n": S}}, {"self": {}}),
}

# the targets that support no recursion refuse it, with the code they gave it before loops were
# diagnosed (Anthropic's strict tool use: "recursive schemas" are unsupported; Gemini's Schema
# object has no references to inline a recursive one into); the others accept it, as before
NO_RECURSION = {
    "anthropic-strict": "anthropic-strict/unsupported-reference",
    "gemini": "gemini/unresolvable-schema-reference",
}


def _validator(root: dict[str, Any], at: dict[str, Any] | None = None) -> Any:
    rooted = Draft202012Validator(root)
    return rooted if at is None else rooted.evolve(schema=at)


@pytest.mark.parametrize("name", list(LOOPS))
def test_jsonschema_never_finishes_checking_a_value_against_the_loop(name: str) -> None:
    schema, _ = LOOPS[name]
    Draft202012Validator.check_schema(schema)  # the schema itself is well-formed JSON Schema
    for definition in schema["$defs"].values():
        with pytest.raises(RecursionError):
            _validator(schema, definition).is_valid("any value")
    if "x" in schema["properties"]:
        with pytest.raises(RecursionError):
            _validator(schema).is_valid({"x": 1})


@pytest.mark.parametrize("name", list(WITH_CONTENT))
def test_jsonschema_checks_recursion_with_content(name: str) -> None:
    schema, value = WITH_CONTENT[name]
    assert _validator(schema).is_valid(value)
    assert not _validator(schema).is_valid({next(iter(schema["properties"])): 5})


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", list(LOOPS))
def test_every_target_refuses_the_loop_at_each_reference(name: str, target: str) -> None:
    schema, chains = LOOPS[name]
    code = f"{target}/reference-loop-without-content"
    result = compile_tool(tool(schema), target, allow_lossy=True)
    assert not result.ok
    found = {d.path: d for d in result.diagnostics if d.code == code}
    assert set(found) == set(chains)
    for path, chain in chains.items():
        diag = found[path]
        assert diag.severity == "error"
        assert not diag.compile.supported
        assert f"(`{chain}`)" in diag.message
        assert diag.message.startswith(f"`$ref` `{chain.split(' -> ')[0]}` leads only to")
        assert "give one of these definitions content" in diag.message
    assert [d.code for d in check(tool(schema), target) if d.code == code] == [code] * len(chains)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", list(WITH_CONTENT))
def test_recursion_with_content_compiles_as_before(name: str, target: str) -> None:
    schema, _ = WITH_CONTENT[name]
    result = compile_tool(tool(schema), target)
    errors = {d.code for d in result.diagnostics if d.severity == "error"}
    if name == "chain-to-content" or target not in NO_RECURSION:
        assert result.ok, errors
        assert errors == set()
    else:
        assert not result.ok
        assert errors == {NO_RECURSION[target]}


def test_the_survey_finds_loops_once_and_none_without_references() -> None:
    assert survey({"type": "object", "properties": {"a": S}}).loops == {}
    assert survey(WITH_CONTENT["tree"][0]).loops == {}
    assert survey(LOOPS["two"][0]).loops == {
        "#/$defs/A": ("#/$defs/A", "#/$defs/B", "#/$defs/A"),
        "#/$defs/B": ("#/$defs/B", "#/$defs/A", "#/$defs/B"),
    }
