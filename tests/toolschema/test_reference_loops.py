"""A `$ref` that leads into a loop is refused by every target.

A loop is a cycle of references that reaches the same subschema again while every step applies to
the same instance: a `$ref` (alone, beside annotations, or beside other keywords, which 2020-12
applies as well) or an in-place applicator (JSON Schema 2020-12 core 10.2: `allOf`, `anyOf`,
`oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`). A validator checking a value that reaches
the cycle applies the same schemas to the same value again and again (9.4.1: "Schemas SHOULD NOT
make use of infinite recursive nesting like this; the behavior is undefined"; its example is two
schemas whose `allOf` refers to the other). Recursion that descends into a property or an item
(`properties`, `items`, `prefixItems`, `additionalProperties`, `patternProperties`, `contains`,
`propertyNames`, ...) checks a smaller part of the value at each step and ends.

The independent witness is the jsonschema library: a value that reaches each loop runs its
validator into an endless recursion (``RecursionError``). jsonschema stops at a first error (a
`type` beside the `$ref` that the value fails) and an `anyOf` at a first match, so a value may
stop short of the loop; each case names a value that reaches it and, where one exists, one that
stops short. The schema loops all the same: the survey decides by the schema, not by a value
(only `then` under `if: false`, `else` under `if: true`, and either without `if`, can never be
reached). Every descending case terminates for the values tried and compiles as before.
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from provcat.toolschema import check, compile_tool, list_targets
from provcat.toolschema import survey as survey_module
from provcat.toolschema.survey import survey
from tests.toolschema.conftest import tool

TARGETS = [t.id for t in list_targets()]
S = {"type": "string"}
START = "leads into a cycle that comes back to the same schema"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _schema(defs: dict[str, Any], **props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props or {"x": _ref("A")}, "$defs": defs}


def _chain(*names: str) -> str:
    return " -> ".join(f"#/$defs/{n}" for n in names)


# name -> (schema, {path of each reference: the chain its diagnostic names}); through references
# alone (the previous rule's cases, unchanged)
LOOPS: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "two": (
        _schema({"A": _ref("B"), "B": _ref("A")}),
        {
            "inputSchema.properties.x.$ref": _chain("A", "B", "A"),
            "inputSchema.$defs.A.$ref": _chain("B", "A", "B"),
            "inputSchema.$defs.B.$ref": _chain("A", "B", "A"),
        },
    ),
    "self": (
        _schema({"A": _ref("A")}),
        {
            "inputSchema.properties.x.$ref": _chain("A", "A"),
            "inputSchema.$defs.A.$ref": _chain("A", "A"),
        },
    ),
    "three": (
        _schema({"A": _ref("B"), "B": _ref("C"), "C": _ref("A")}),
        {
            "inputSchema.properties.x.$ref": _chain("A", "B", "C", "A"),
            "inputSchema.$defs.A.$ref": _chain("B", "C", "A", "B"),
            "inputSchema.$defs.B.$ref": _chain("C", "A", "B", "C"),
            "inputSchema.$defs.C.$ref": _chain("A", "B", "C", "A"),
        },
    ),
    # no property uses the loop: the definitions are still schemas no value can be checked against
    "defs-only": (
        _schema({"A": _ref("B"), "B": _ref("A")}, y=S),
        {
            "inputSchema.$defs.A.$ref": _chain("B", "A", "B"),
            "inputSchema.$defs.B.$ref": _chain("A", "B", "A"),
        },
    ),
    # annotations beside a reference are no content
    "annotated": (
        _schema({"A": {**_ref("B"), "description": "an A"}, "B": {**_ref("A"), "title": "B"}}),
        {
            "inputSchema.properties.x.$ref": _chain("A", "B", "A"),
            "inputSchema.$defs.A.$ref": _chain("B", "A", "B"),
            "inputSchema.$defs.B.$ref": _chain("A", "B", "A"),
        },
    ),
}

X = "inputSchema.properties.x.$ref"

# loops through in-place applicators, or a `$ref` beside content: name -> (schema, {path: chain},
# a value of `x` that reaches the loop, a value of `x` that stops short of it or None)
IN_PLACE: dict[str, tuple[dict[str, Any], dict[str, str], Any, Any]] = {
    # 2020-12 applies a `$ref` and its siblings both: the `type` does not end the cycle
    "ref-beside-content": (
        _schema({"A": {"type": "object", **_ref("B")}, "B": _ref("A")}),
        {
            X: _chain("A", "B", "A"),
            "inputSchema.$defs.A.$ref": _chain("B", "A", "B"),
            "inputSchema.$defs.B.$ref": _chain("A", "B", "A"),
        },
        {},
        "text",  # fails the `type` first, and jsonschema stops at a first error
    ),
    "all-of": (
        _schema({"A": {"allOf": [_ref("A")]}}),
        {X: _chain("A", "A"), "inputSchema.$defs.A.allOf[0].$ref": _chain("A", "A")},
        1,
        None,
    ),
    # the spec's own example (9.4.1): two schemas whose `allOf` refers to the other
    "all-of-alice-and-bob": (
        _schema(
            {
                "alice": {"type": "object", "allOf": [_ref("bob")]},
                "bob": {"type": "object", "allOf": [_ref("alice")]},
            },
            x=_ref("alice"),
        ),
        {
            X: _chain("alice", "bob", "alice"),
            "inputSchema.$defs.alice.allOf[0].$ref": _chain("bob", "alice", "bob"),
            "inputSchema.$defs.bob.allOf[0].$ref": _chain("alice", "bob", "alice"),
        },
        {},
        None,
    ),
    # a value matching the first branch stops there (jsonschema's anyOf stops at a first match);
    # any other value reaches the second, and a validator collecting annotations examines every
    # branch (10.2.1.2)
    "any-of": (
        _schema({"A": {"anyOf": [S, _ref("A")]}}),
        {X: _chain("A", "A"), "inputSchema.$defs.A.anyOf[1].$ref": _chain("A", "A")},
        1,
        "text",
    ),
    # oneOf examines every branch, a match or not
    "one-of": (
        _schema({"A": {"oneOf": [S, _ref("A")]}}),
        {X: _chain("A", "A"), "inputSchema.$defs.A.oneOf[1].$ref": _chain("A", "A")},
        "text",
        None,
    ),
    "not": (
        _schema({"A": {"not": _ref("A")}}),
        {X: _chain("A", "A"), "inputSchema.$defs.A.not.$ref": _chain("A", "A")},
        1,
        None,
    ),
    "if": (
        _schema({"A": {"if": _ref("A")}}),
        {X: _chain("A", "A"), "inputSchema.$defs.A.if.$ref": _chain("A", "A")},
        1,
        None,
    ),
    "then": (
        _schema({"A": {"if": S, "then": _ref("A")}}),
        {X: _chain("A", "A"), "inputSchema.$defs.A.then.$ref": _chain("A", "A")},
        "text",
        1,  # fails `if`: `then` is not applied
    ),
    "else": (
        _schema({"A": {"if": S, "else": _ref("A")}}),
        {X: _chain("A", "A"), "inputSchema.$defs.A.else.$ref": _chain("A", "A")},
        1,
        "text",
    ),
    "dependent-schemas": (
        _schema({"A": {"type": "object", "dependentSchemas": {"k": _ref("A")}}}),
        {X: _chain("A", "A"), "inputSchema.$defs.A.dependentSchemas.k.$ref": _chain("A", "A")},
        {"k": 1},
        {},  # without `k` the entry is not applied
    ),
    # through two applicators and two definitions
    "any-of-then-not": (
        _schema({"A": {"anyOf": [{"type": "null"}, _ref("B")]}, "B": {"not": _ref("A")}}),
        {
            X: _chain("A", "B", "A"),
            "inputSchema.$defs.A.anyOf[1].$ref": _chain("B", "A", "B"),
            "inputSchema.$defs.B.not.$ref": _chain("A", "B", "A"),
        },
        1,
        None,
    ),
    # a reference into the loop from a schema with content: reported with the loop it leads into
    "into-the-loop": (
        _schema({"C": {"type": "object", **_ref("A")}, "A": {"oneOf": [_ref("A")]}}, x=_ref("C")),
        {
            X: _chain("C", "A", "A"),
            "inputSchema.$defs.C.$ref": _chain("A", "A"),
            "inputSchema.$defs.A.oneOf[0].$ref": _chain("A", "A"),
        },
        {},
        None,
    ),
    # a plain-name fragment, resolved through `$anchor`
    "anchor": (
        _schema({"N": {"$anchor": "node", "not": {"$ref": "#node"}}}, x={"$ref": "#node"}),
        {X: "#node -> #node", "inputSchema.$defs.N.not.$ref": "#node -> #node"},
        1,
        None,
    ),
}

# loops no walked slot holds a reference of: each value is (schema, {path: chain}, a value of the
# whole tool's input that reaches the loop, or None when no property uses it)
HIDDEN: dict[str, tuple[dict[str, Any], dict[str, str], Any]] = {
    # the root's own `if` refers to the root: there is no `$defs` at all
    "root-if": (
        {"type": "object", "properties": {"y": S}, "if": {"$ref": "#"}},
        {"inputSchema.if.$ref": "# -> #"},
        {"y": "text"},
    ),
    # the loop is only under `if`, in a definition no property uses
    "defs-only-if": (
        _schema({"A": {"if": _ref("A")}}, y=S),
        {"inputSchema.$defs.A.if.$ref": _chain("A", "A")},
        None,
    ),
}

# recursion through content: legitimate, compiled as before; name -> (schema, a value)
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

# recursion through every other keyword that descends into a part of the value, and the branches
# no value can reach: each terminates, and the survey finds no loop; name -> (schema, values of x)
DESCENDING: dict[str, tuple[dict[str, Any], list[Any]]] = {
    "items": (_schema({"A": {"type": "array", "items": _ref("A")}}), [[[[]]], [1]]),
    "prefix-items": (_schema({"A": {"type": "array", "prefixItems": [_ref("A")]}}), [[[[]]]]),
    "additional-properties": (
        _schema({"A": {"type": "object", "additionalProperties": _ref("A")}}),
        [{"a": {"b": {}}}, {"a": 1}],
    ),
    "pattern-properties": (
        _schema({"A": {"type": "object", "patternProperties": {"^a": _ref("A")}}}),
        [{"a": {"a": {}}}, {"a": 1}],
    ),
    "contains": (_schema({"A": {"type": "array", "contains": _ref("A")}}), [[[]], [[[]]]]),
    "property-names": (
        _schema({"A": {"type": ["object", "string"], "propertyNames": _ref("A")}}),
        [{"a": 1}, "text"],
    ),
    "unevaluated-properties": (
        _schema({"A": {"type": "object", "unevaluatedProperties": _ref("A")}}),
        [{"a": {"b": {}}}, {"a": 1}],
    ),
    # recursion under a property of an `anyOf` branch: the branch descends
    "any-of-then-properties": (
        _schema({"A": {"anyOf": [S, {"type": "object", "properties": {"a": _ref("A")}}]}}),
        [{"a": {"a": "text"}}, 1],
    ),
    # without `if`, `then` and `else` are ignored (10.2.2.2, 10.2.2.3)
    "then-without-if": (_schema({"A": {"type": "integer", "then": _ref("A")}}), [1, "text"]),
    # `if: true` always holds, so `else` is never applied; `if: false` never holds
    "else-under-if-true": (_schema({"A": {"if": True, "else": _ref("A")}}), [1, "text"]),
    "then-under-if-false": (_schema({"A": {"if": False, "then": _ref("A")}}), [1, "text"]),
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


def _every_loop() -> dict[str, tuple[dict[str, Any], dict[str, str]]]:
    out = dict(LOOPS)
    out.update({name: (schema, paths) for name, (schema, paths, _, _) in IN_PLACE.items()})
    out.update({name: (schema, paths) for name, (schema, paths, _) in HIDDEN.items()})
    return out


EVERY_LOOP = _every_loop()


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


@pytest.mark.parametrize("name", list(IN_PLACE))
def test_jsonschema_never_finishes_a_value_that_reaches_an_in_place_loop(name: str) -> None:
    schema, _, reaches, stops = IN_PLACE[name]
    Draft202012Validator.check_schema(schema)
    with pytest.raises(RecursionError):
        _validator(schema).is_valid({"x": reaches})
    if stops is not None:  # a value that never reaches the cycle is checked, the schema loops still
        assert isinstance(_validator(schema).is_valid({"x": stops}), bool)


@pytest.mark.parametrize("name", list(HIDDEN))
def test_jsonschema_never_finishes_a_loop_under_if(name: str) -> None:
    schema, _, value = HIDDEN[name]
    Draft202012Validator.check_schema(schema)
    if value is not None:
        with pytest.raises(RecursionError):
            _validator(schema).is_valid(value)
    else:
        assert _validator(schema).is_valid({"y": "text"})  # no property reaches it ...
        with pytest.raises(RecursionError):  # ... the definition loops for any value
            _validator(schema, schema["$defs"]["A"]).is_valid(1)


@pytest.mark.parametrize("name", list(WITH_CONTENT))
def test_jsonschema_checks_recursion_with_content(name: str) -> None:
    schema, value = WITH_CONTENT[name]
    assert _validator(schema).is_valid(value)
    assert not _validator(schema).is_valid({next(iter(schema["properties"])): 5})


@pytest.mark.parametrize("name", list(DESCENDING))
def test_jsonschema_finishes_recursion_that_descends(name: str) -> None:
    schema, values = DESCENDING[name]
    Draft202012Validator.check_schema(schema)
    for value in values:
        assert isinstance(_validator(schema).is_valid({"x": value}), bool)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", list(EVERY_LOOP))
def test_every_target_refuses_the_loop_at_each_reference(name: str, target: str) -> None:
    schema, chains = EVERY_LOOP[name]
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
        assert diag.message.startswith(f"`$ref` `{chain.split(' -> ')[0]}` {START}")
        assert "without descending into a property or an item" in diag.message
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


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", list(DESCENDING))
def test_recursion_that_descends_is_no_loop(name: str, target: str) -> None:
    # what each target says of the rest (a keyword it lacks, recursion it refuses) is as before,
    # which the before/after comparison of the change checked; no loop is reported
    schema, _ = DESCENDING[name]
    assert survey(schema).loops == {}
    found = {d.code for d in check(tool(schema), target)}
    assert f"{target}/reference-loop-without-content" not in found


def test_the_survey_finds_loops_once_and_none_without_references() -> None:
    assert survey({"type": "object", "properties": {"a": S}}).loops == {}
    assert survey(WITH_CONTENT["tree"][0]).loops == {}
    assert survey(LOOPS["two"][0]).loops == {
        "#/$defs/A": ("#/$defs/A", "#/$defs/B", "#/$defs/A"),
        "#/$defs/B": ("#/$defs/B", "#/$defs/A", "#/$defs/B"),
    }
    assert survey(IN_PLACE["into-the-loop"][0]).loops == {
        "#/$defs/C": ("#/$defs/C", "#/$defs/A", "#/$defs/A"),
        "#/$defs/A": ("#/$defs/A", "#/$defs/A"),
    }
    # a reference under `if` is found though the survey's walk does not enter `if`
    assert survey(HIDDEN["root-if"][0]).loops == {"#": ("#", "#")}
    # a reference that points nowhere ends the path: no loop
    assert survey(_schema({"A": {"allOf": [_ref("Missing")]}})).loops == {}


def test_a_schema_without_references_is_never_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any) -> Any:
        raise AssertionError("searched")

    monkeypatch.setattr(survey_module, "_ref_loops", refuse)
    survey({"type": "object", "properties": {"a": {"anyOf": [S, {"if": S, "then": S}]}}})


class _Tallied(dict[str, Any]):
    """A schema object that tallies every read of it in ``tally`` (one list for a whole schema):
    what reads the schema, reads it through these methods."""

    def __init__(self, items: dict[str, Any], tally: list[int]) -> None:
        super().__init__(items)
        self.tally = tally

    def get(self, *args: Any) -> Any:
        self.tally[0] += 1
        return super().get(*args)

    def __getitem__(self, key: str) -> Any:
        self.tally[0] += 1
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.tally[0] += 1
        return super().__contains__(key)

    def __iter__(self) -> Any:
        self.tally[0] += 1
        return super().__iter__()

    def keys(self) -> Any:
        self.tally[0] += 1
        return super().keys()

    def values(self) -> Any:
        self.tally[0] += 1
        return super().values()

    def items(self) -> Any:
        self.tally[0] += 1
        return super().items()


def _tallied(value: Any, tally: list[int]) -> Any:
    if isinstance(value, dict):
        return _Tallied({k: _tallied(v, tally) for k, v in value.items()}, tally)
    if isinstance(value, list):
        return [_tallied(v, tally) for v in value]
    return value


def _every_reference_into_the_loop(n: int) -> dict[str, Any]:
    # n definitions, each referring in place to the next and to the first, every one referred
    # to from a property: every reference leads into the one loop through all of them
    defs = {f"D{i}": {"anyOf": [_ref(f"D{(i + 1) % n}"), _ref("D0"), S]} for i in range(n)}
    return _schema(defs, **{f"p{i}": _ref(f"D{i}") for i in range(n)})


def _check_reads(n: int, target: str) -> tuple[dict[str, str], int]:
    """The loop diagnostics of the shape above with ``n`` definitions (path -> message), and
    how many times checking it read the schema."""
    tally = [0]
    schema = _tallied(_every_reference_into_the_loop(n), tally)
    code = f"{target}/reference-loop-without-content"
    found = {d.path: d.message for d in check(tool(schema), target) if d.code == code}
    return found, tally[0]


def test_references_that_reach_one_schema_many_times_are_checked_in_linear_work() -> None:
    # each schema's steps are worked out once, whatever the number of references that reach it:
    # a schema twice as large is read about twice as often (working out the steps anew for each
    # reference would read it four times as often)
    target = "openai"
    reads = {}
    for n in (200, 400):
        found, reads[n] = _check_reads(n, target)
        defs = [f"inputSchema.$defs.D{i}.anyOf[{b}].$ref" for i in range(n) for b in (0, 1)]
        props = [f"inputSchema.properties.p{i}.$ref" for i in range(n)]
        assert set(found) == {*defs, *props}
        whole = " -> ".join(f"#/$defs/D{i}" for i in [*range(n), 0])
        assert f"(`{whole}`)" in found["inputSchema.properties.p0.$ref"]
        assert f"(`{whole}`)" in found[f"inputSchema.$defs.D{n - 1}.anyOf[0].$ref"]
    assert reads[400] <= 2.5 * reads[200]


def test_a_long_chain_of_in_place_references_needs_no_recursion() -> None:
    n = 5000  # far past Python's recursion limit
    defs: dict[str, Any] = {f"D{i}": {"allOf": [_ref(f"D{i + 1}")]} for i in range(n)}
    defs[f"D{n}"] = S
    assert survey(_schema(defs, x=_ref("D0"))).loops == {}
    n = 1500  # every reference leads into the loop at the end: each names its chain to it
    defs = {f"D{i}": {"allOf": [_ref(f"D{i + 1}")]} for i in range(n)}
    defs[f"D{n}"] = {"not": _ref(f"D{n}")}
    loops = survey(_schema(defs, x=_ref("D0"))).loops
    assert len(loops) == n + 1
    assert loops[f"#/$defs/D{n}"] == (f"#/$defs/D{n}", f"#/$defs/D{n}")
    assert loops["#/$defs/D0"] == tuple(f"#/$defs/D{i}" for i in [*range(n + 1), n])
