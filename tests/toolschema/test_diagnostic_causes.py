"""Diagnostics say the cause the compiler found.

* A `$ref` that `gemini` cannot inline or `anthropic-strict` cannot take is recursive, external
  or points at nothing (or, on `gemini`, too many or too deeply nested references to write out):
  one code per target, a message naming the one cause that applies and what to change.
* A schema without `type` is worded for its reader, never JavaScript's `undefined`: a root that
  is a reference (pydantic's schema of a recursive model) says so, and where the object goes.

Each expected message is built from the schema under test: the reference as written, the cycle
of references the schema holds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from provcat.toolschema import check, compile_tool, list_targets
from tests.toolschema.conftest import obj, tool

TARGETS = [t.id for t in list_targets()]
NODE = "#/$defs/Node"


def _tree() -> dict[str, Any]:
    """A tree: a node's `children` are nodes (recursion through `items`, so it has content)."""
    return {
        "type": "object",
        "properties": {"root": {"$ref": NODE}},
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"children": {"type": "array", "items": {"$ref": NODE}}},
            }
        },
    }


def _mutual() -> dict[str, Any]:
    """Two definitions that refer to each other through properties: A -> B -> A."""
    return {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
            "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}},
        },
    }


def _chain(*refs: str) -> str:
    return "`" + " -> ".join(refs) + "`"


# each target's words around the cause (the rule's message in its YAML)
FRAME = {
    "gemini": (
        "gemini/unresolvable-schema-reference",
        "`$ref` `{ref}` cannot be inlined: {cause}.",
    ),
    "anthropic-strict": (
        "anthropic-strict/unsupported-reference",
        "Strict tool use cannot take `$ref` `{ref}`: {cause}.",
    ),
}
RECURSIVE = (
    "it is recursive ({chain}: the schema it points at refers to it again) and this target "
    "cannot express recursion; give the recursion a fixed depth (one definition per level, the "
    "deepest without the property that recurses) or compile for a target that takes recursive "
    "references"
)
EXTERNAL = (
    "it points outside this schema (nothing is fetched); copy the schema it names into the "
    "root's `$defs` and point the reference at that entry (`#/$defs/<name>`)"
)
NOWHERE = (
    "it points at nothing in this schema; correct the pointer so that it names a schema the "
    "document holds, such as an entry of the root's `$defs`"
)
OLD = "recursive, external or points at nothing"


def _found(schema: dict[str, Any], target: str) -> list[tuple[str, str, str]]:
    code, _ = FRAME[target]
    return [(d.code, d.path, d.message) for d in check(tool(schema), target) if d.code == code]


def _message(target: str, ref: str, cause: str) -> str:
    return FRAME[target][1].format(ref=ref, cause=cause)


@pytest.mark.parametrize("target", sorted(FRAME))
def test_a_recursive_reference_says_it_is_recursive_and_what_to_do(target: str) -> None:
    found = _found(_tree(), target)
    want = _message(target, NODE, RECURSIVE.format(chain=_chain(NODE, NODE)))
    assert found and {message for _, _, message in found} == {want}
    assert all(OLD not in message for _, _, message in found)
    result = compile_tool(tool(_tree()), target, allow_lossy=True)
    assert not result.ok  # still refused, with the same code
    refused = [d for d in result.diagnostics if d.code == FRAME[target][0]]
    assert refused and all(d.message == want for d in refused)
    # the compile text names a target that takes the schema as written
    other = "`gemini-json-schema`" if target == "gemini" else "`anthropic` target"
    assert all(other in d.compile.detail for d in refused)


@pytest.mark.parametrize("target", sorted(FRAME))
def test_a_recursion_through_two_definitions_names_the_cycle(target: str) -> None:
    messages = {message for _, _, message in _found(_mutual(), target)}
    a, b = "#/$defs/A", "#/$defs/B"
    from_a = _message(target, a, RECURSIVE.format(chain=_chain(a, b, a)))
    from_b = _message(target, b, RECURSIVE.format(chain=_chain(b, a, b)))
    if target == "gemini":  # inlining from `a` meets `#/$defs/A` again after `#/$defs/B`
        assert messages == {from_a}
    else:  # kept references: each reference on the cycle, the cycle read from it
        assert messages == {from_a, from_b}


@pytest.mark.parametrize("target", sorted(FRAME))
def test_an_external_reference_says_to_copy_it_into_defs(target: str) -> None:
    ref = "https://example.com/money.json"
    found = _found(obj(total={"$ref": ref}), target)
    assert found == [
        (FRAME[target][0], "inputSchema.properties.total.$ref", _message(target, ref, EXTERNAL))
    ]


@pytest.mark.parametrize("target", sorted(FRAME))
@pytest.mark.parametrize("ref", ["#/$defs/Missing", "#/$defs/Money/properties/nope", "#nowhere"])
def test_a_reference_to_nothing_says_to_correct_the_pointer(target: str, ref: str) -> None:
    schema = {**obj(total={"$ref": ref}), "$defs": {"Money": obj(amount={"type": "number"})}}
    found = _found(schema, target)
    assert found == [
        (FRAME[target][0], "inputSchema.properties.total.$ref", _message(target, ref, NOWHERE))
    ]


def test_gemini_says_when_the_references_nest_too_deeply_to_write_out() -> None:
    # 40 definitions, each a property holding the next: no recursion, nothing missing, but
    # writing them out nests more than 32 references inside one another
    depth = 40
    defs = {f"D{i}": obj(next={"$ref": f"#/$defs/D{i + 1}"}) for i in range(depth)}
    defs[f"D{depth}"] = {"type": "string"}
    found = _found({**obj(start={"$ref": "#/$defs/D0"}), "$defs": defs}, "gemini")
    assert len(found) == 1
    message = found[0][2]
    assert "nest more than 32 references inside one another" in message
    assert "points at nothing" not in message and OLD not in message


def test_gemini_says_when_the_references_are_too_many_to_write_out() -> None:
    # every level refers to the next twice: 2 ** 15 copies of the last definition to write out
    levels = 15
    defs = {
        f"L{i}": obj(left={"$ref": f"#/$defs/L{i + 1}"}, right={"$ref": f"#/$defs/L{i + 1}"})
        for i in range(levels)
    }
    defs[f"L{levels}"] = {"type": "string"}
    found = _found({**obj(top={"$ref": "#/$defs/L0"}), "$defs": defs}, "gemini")
    assert found
    assert all("more than 10,000 copies of definitions" in message for _, _, message in found)
    assert all("points at nothing" not in message for _, _, message in found)


def _cli(tmp_path: Path, value: Any, *args: str) -> tuple[int, str]:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    result = CliRunner().invoke(main, ["tool", "check", str(path), *args], catch_exceptions=False)
    return result.exit_code, result.stdout


def test_provcat_tool_check_prints_the_cause(tmp_path: Path) -> None:
    code, out = _cli(tmp_path, tool(_tree(), name="tree"), "--targets", "gemini,anthropic-strict")
    assert code == 1
    recursive = RECURSIVE.format(chain=_chain(NODE, NODE))
    for target in FRAME:
        line = f"[{target}] error {FRAME[target][0]} "
        printed = [row for row in out.splitlines() if line in row]
        assert printed and all(row.endswith(_message(target, NODE, recursive)) for row in printed)
    assert OLD not in out


# ---- a schema without `type`: no `undefined`


def _pydantic_recursive_model() -> dict[str, Any]:
    """What pydantic writes for `class Model(BaseModel): x: str; kids: list[Model]`."""
    return {
        "$defs": {
            "Model": {
                "type": "object",
                "properties": {
                    "x": {"type": "string"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/Model"}},
                },
                "required": ["x", "kids"],
                "additionalProperties": False,
            }
        },
        "$ref": "#/$defs/Model",
    }


def _self_referencing_root() -> dict[str, Any]:
    """The same model written without `$defs`: its `kids` refer to the root itself (`#`)."""
    return {
        "type": "object",
        "properties": {
            "x": {"type": "string"},
            "kids": {"type": "array", "items": {"$ref": "#"}},
        },
        "required": ["x", "kids"],
        "additionalProperties": False,
    }


@pytest.mark.parametrize("target", sorted(FRAME))
@pytest.mark.parametrize(
    ("schema", "ref", "where"),
    [
        # pydantic's recursive model: the root `$ref` only enters the model; the recursion is
        # the reference in `kids` (in the canonical schema under `$defs`; where gemini writes the
        # model out as the root, at the root's `kids`)
        (
            _pydantic_recursive_model(),
            "#/$defs/Model",
            {
                "anthropic-strict": "inputSchema.$defs.Model.properties.kids.items.$ref",
                "gemini": "inputSchema.properties.kids.items.$ref",
            },
        ),
        # the root referred to as `#`: the recursion is that reference, where the input holds it
        (
            _self_referencing_root(),
            "#",
            {
                "anthropic-strict": "inputSchema.properties.kids.items.$ref",
                "gemini": "inputSchema.properties.kids.items.$ref",
            },
        ),
    ],
)
def test_a_recursive_root_model_reports_each_finding_once(
    target: str, schema: dict[str, Any], ref: str, where: dict[str, str]
) -> None:
    """A root model that refers to itself is one recursion: reported once, at the reference that
    recurses, and no other finding repeats for a copy of the root written into itself."""
    found = check(tool(schema), target)
    recursive = RECURSIVE.format(chain=_chain(ref, ref))
    assert [(d.code, d.path, d.message) for d in found if d.code == FRAME[target][0]] == [
        (FRAME[target][0], where[target], _message(target, ref, recursive))
    ]
    said = [(d.code, d.message) for d in found]
    assert len(said) == len(set(said)), said


ROOT_MESSAGE = 'The root schema must have `type: "object"`, not {what}.'


@pytest.mark.parametrize("target", ["openai", "openai-chat"])
def test_a_root_reference_is_judged_as_the_object_it_is_written_out_as(target: str) -> None:
    # openai-python's to_strict_json_schema writes a root `$ref` beside `$defs` out; so does
    # the target, and the root rules judge the object written (not "a reference without type")
    schema = _pydantic_recursive_model()
    found = [(d.code, d.path) for d in check(tool(schema), target) if d.severity == "error"]
    assert found == [(f"{target}/ref-with-sibling-keywords", "inputSchema.$ref")]
    assert compile_tool(tool(schema), target).ok


@pytest.mark.parametrize("target", ["openai", "openai-chat"])
def test_defs_beside_a_written_out_reference_replace_no_constraint(target: str) -> None:
    # `$defs` holds definitions and constrains no value (JSON Schema 2020-12 core, 8.2.4: it
    # "does not directly affect the validation result"): where both the root and the model it
    # points at hold `$defs`, writing the reference out loses nothing (the root's `$defs` still
    # holds the model, and with it the model's own)
    schema = _pydantic_recursive_model()
    schema["$defs"]["Model"]["$defs"] = {"Name": {"type": "string"}}
    result = compile_tool(tool(schema), target)
    assert result.ok and not result.lossy
    assert "replaced-referenced-constraint" not in {t.code for t in result.transformations}


@pytest.mark.parametrize("target", ["openai", "openai-chat"])
@pytest.mark.parametrize(
    ("schema", "what"),
    [
        ({"properties": {"q": {"type": "string"}}, "required": ["q"]}, "a schema without `type`"),
        # a root reference to something that is no object is judged as what it is written out as
        (
            {"$ref": "#/$defs/S", "$defs": {"S": {"type": "string"}}},
            '`"string"`, what the root\'s `#/$defs/S` points at',
        ),
        # one that cannot be written out (it points nowhere) is named as a reference
        (
            {"$ref": "#/$defs/Gone", "$defs": {"S": {"type": "string"}}},
            "a reference (`#/$defs/Gone`) without `type`",
        ),
    ],
)
def test_a_root_without_type_says_so(target: str, schema: dict[str, Any], what: str) -> None:
    found = [
        d.message for d in check(tool(schema), target) if d.code.endswith("root-schema-not-object")
    ]
    assert found == [ROOT_MESSAGE.format(what=what)]


@pytest.mark.parametrize(
    ("prop", "what"),
    [
        ({"enum": ["eu", "us"]}, "a schema without `type`"),
        ({"$ref": "#/$defs/Region"}, "a reference (`#/$defs/Region`) without `type`"),
        ({"type": "array", "items": {"type": "string"}}, '`"array"`'),
    ],
)
def test_an_mcp_header_on_a_property_without_type_says_what_it_is(
    prop: dict[str, Any], what: str
) -> None:
    schema = {
        **obj(region={**prop, "x-mcp-header": "X-Region"}),
        "$defs": {"Region": {"type": "string"}},
    }
    found = [
        d.message
        for d in check(tool(schema), "mcp")
        if d.code == "mcp/x-mcp-header-unsupported-type"
    ]
    assert found == [
        "A property mirrored into a header must be exactly one of integer, string or boolean, "
        f"not {what}."
    ]


def test_provcat_tool_check_prints_what_the_root_is(tmp_path: Path) -> None:
    schema = {"$ref": "#/$defs/Gone", "$defs": {"S": {"type": "string"}}}
    code, out = _cli(tmp_path, tool(schema, name="tree"), "--targets", "openai")
    assert code == 1
    what = "a reference (`#/$defs/Gone`) without `type`"
    line = "[openai] error openai/root-schema-not-object inputSchema.type: "
    assert line + ROOT_MESSAGE.format(what=what) in out
    assert "undefined" not in out


@pytest.mark.parametrize("target", TARGETS)
def test_no_message_says_undefined(target: str) -> None:
    schemas = [
        _pydantic_recursive_model(),
        {"properties": {"q": {"type": "string"}}},
        obj(region={"enum": ["eu"], "x-mcp-header": "X-Region"}),
    ]
    for schema in schemas:
        for d in check(tool(schema), target):
            assert "undefined" not in d.message and "undefined" not in d.compile.detail
