"""The memos that make building records cheap change no record.

Rule wording is filled from a template parsed once (``wording.fill``) and a built transformation
is shared by equal records (``core._build_transformations``). The expected text comes from
``str.format_map`` itself over the full set of values (the general fill), and a warm compile is
compared with a cold one, record by record.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from provcat.toolschema import check, clear_caches, compile_tool, core, wording


class _Kept(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _built(record: Any, provider_id: str, tool_name: str) -> Any:
    """The transformation core builds for one record."""
    return core._build_transformations((record,), provider_id, tool_name)[0]


def _general(template: str, path: str, values: dict[str, Any]) -> str:
    return template.format_map(_Kept({"tool": "t", "target": "p", "path": path, **values}))


@pytest.mark.parametrize(
    ("template", "values"),
    [
        ("no placeholders", {}),
        ("`{keyword}` is not enforced", {"keyword": "minimum"}),
        ("`{keyword}` at {path} of {tool}", {"keyword": "minimum"}),
        ("{count:>4} values", {"count": 7}),
        ("{count!r} values", {"count": "7"}),
        ("{missing} stays", {"keyword": "x"}),
        ("{{escaped}} {keyword}", {"keyword": "x"}),
        ("{value} as given", {"value": 1.0}),
        ("{value} as given", {"value": True}),
        ("{value} as given", {"value": None}),
        ("{path} overridden", {"path": "mine"}),
        ("{tool} alone", {"keyword": "x"}),
        ("{keyword} twice: {keyword}", {"keyword": 3}),
        ("Merged `anyOf: [X, {{type: null}}]` into X.", {}),
        ("Wrote {count} values ({keywords}) as strings.", {"count": 2, "keywords": "a, b"}),
        ("Wrote {count} values ({keywords}) at {path}.", {"count": 2, "keywords": "a"}),
        ("{a}{b}{c} and {{d}} {a}", {"a": 1, "b": None, "c": "x"}),
        ("{a}{b}{c} and {{d}} {a}", {"a": 1, "c": "x"}),
    ],
)
def test_fill_matches_the_general_fill_cold_and_warm(template: str, values: dict[str, Any]) -> None:
    want = _general(template, "inputSchema.x", values)
    assert wording.fill(template, "p", "t", "inputSchema.x", values) == want
    assert wording.fill(template, "p", "t", "inputSchema.x", values) == want


def test_equal_values_of_other_classes_never_share_text() -> None:
    template = "{value} as given"
    written = (1, True, 1.0, 0.0, -0.0, "1", None)
    shown = [wording.fill(template, "p", "t", "x", {"value": v}) for v in written]
    assert shown == [template.format(value=v) for v in written]


def test_template_fields_reads_plain_names_only() -> None:
    assert wording.template_fields("a {x} b {y}") == frozenset({"x", "y"})
    assert wording.template_fields("a {x:>3}") is None
    assert wording.template_fields("a {x.y}") is None
    assert wording.template_fields("a {0}") is None
    assert wording.template_fields("a {") is None


def test_parts_alternate_texts_and_names_with_braces_unescaped() -> None:
    assert wording.parts("no placeholders") == ("no placeholders",)
    assert wording.parts("`{{type: null}}` {k}") == ("`{type: null}` ", "k", "")
    assert wording.parts("{a}-{b}") == ("", "a", "-", "b", "")
    assert wording.parts("a {x!r}") is None
    assert wording.parts("a {") is None


def test_the_transformation_memo_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Full, it starts over before a tool's records are built: at most the limit plus one tool's."""
    monkeypatch.setattr(core, "_TRANSFORMATIONS_MAX", 8)
    core._TRANSFORMATIONS.clear()
    sizes = []
    for tool in range(6):
        records = [
            ("code", f"inputSchema.t{tool}.p{i}", False, ("Dropped `{k}`.", {"k": i}))
            for i in range(3)
        ]
        core._build_transformations(records, "p", f"t{tool}")
        sizes.append(len(core._TRANSFORMATIONS))
    assert sizes == [3, 6, 9, 3, 6, 9]


def test_transformations_are_shared_only_when_equal() -> None:
    core._TRANSFORMATIONS.clear()
    record = ("some-code", "inputSchema.a", False, ("Dropped `{keyword}`.", {"keyword": "k"}))
    first = _built(record, "p", "t")
    again = _built(record, "p", "other-tool")
    assert again is first
    assert first.detail == "Dropped `k`."
    other = _built(
        ("some-code", "inputSchema.a", False, ("Dropped `{keyword}`.", {"keyword": "j"})), "p", "t"
    )
    assert other.detail == "Dropped `j`."
    assert other is not first
    named = ("some-code", "inputSchema.a", False, ("Dropped from {tool}.", {}))
    assert _built(named, "p", "t").detail == "Dropped from t."
    assert _built(named, "p", "u").detail == "Dropped from u."


def test_a_one_placeholder_template_is_keyed_by_the_value_it_reads() -> None:
    """Values the template does not name do not split the memo; one it does, or a value of
    another class (``1`` and ``True`` print differently), does."""
    core._TRANSFORMATIONS.clear()
    template = "Dropped `{keyword}`."

    def built(values: dict[str, Any], tool: str = "t") -> Any:
        record = ("some-code", "inputSchema.a", True, (template, values))
        return _built(record, "p", tool)

    first = built({"keyword": "k", "extra": "x"})
    assert built({"keyword": "k", "extra": "y"}) is first
    assert built({"keyword": "j"}).detail == "Dropped `j`."
    assert built({"keyword": 1}).detail == "Dropped `1`."
    assert built({"keyword": True}).detail == "Dropped `True`."
    assert built({"keyword": 1.5}).detail == "Dropped `1.5`."
    # the placeholder missing from the values: kept as written, whatever the other values
    assert built({"extra": "x"}).detail == template
    path_named = ("some-code", "inputSchema.b", False, ("At {path}.", {}))
    assert _built(path_named, "p", "t").detail == "At inputSchema.b."


def test_records_share_one_fields_set_that_pydantic_never_changes() -> None:
    """Every record built for a compile has every field set; the one set its class's records
    share is copied by pydantic before any change (``model_copy``, ``copy``), and assignment is
    refused on these frozen models before it would touch the set."""
    import copy
    import pickle

    from pydantic import ValidationError

    tool = {
        "name": "fields_probe",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "string", "maxLength": 3}, "b": {"type": "integer"}},
        },
    }
    result = compile_tool(tool, "openai", allow_lossy=True)
    records = [*result.transformations, *result.diagnostics]
    assert result.transformations and result.diagnostics
    for record in records:
        assert record.model_fields_set == set(type(record).model_fields)
    first = result.diagnostics[0]
    before = set(first.model_fields_set)
    changed = first.model_copy(update={"message": "changed"})
    assert changed.model_fields_set == before
    assert changed.model_fields_set is not first.model_fields_set
    with pytest.raises(ValidationError):
        first.message = "changed"  # type: ignore[misc]
    assert copy.copy(first).model_fields_set is not first.model_fields_set
    assert pickle.loads(pickle.dumps(first)) == first
    for record in records:
        assert record.model_fields_set == set(type(record).model_fields)


@pytest.mark.parametrize("target", ["openai", "anthropic", "anthropic-strict", "gemini", "mcp"])
def test_warm_compiles_give_the_cold_records(target: str) -> None:
    tool = {
        "name": "memo_probe",
        "description": "Checks warm and cold records agree.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "a": {"type": "string", "maxLength": 5, "format": "email"},
                "b": {"type": "integer", "minimum": 0, "maximum": 9},
                "c": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            },
            "required": ["a"],
        },
    }
    core._TRANSFORMATIONS.clear()
    wording.PARTS.clear()
    clear_caches()
    cold = compile_tool(tool, target, allow_lossy=True).model_dump(mode="json", by_alias=True)
    warm = compile_tool(tool, target, allow_lossy=True).model_dump(mode="json", by_alias=True)
    assert warm == cold


@pytest.mark.parametrize("target", ["openai", "gemini", "anthropic", "mcp"])
def test_leaves_equal_but_written_differently_are_not_mixed_up(target: str) -> None:
    """``0.0 == -0.0`` and ``1 == 1.0 == True``: a remembered leaf must not stand for another."""
    written = [0.0, -0.0, 1, 1.0, True]
    seen = []
    for value in written:
        tool = {
            "name": "leaf_probe",
            "inputSchema": {
                "type": "object",
                "properties": {"a": {"type": "number", "minimum": value}},
                "required": ["a"],
            },
        }
        out = compile_tool(tool, target, allow_lossy=True).model_dump(mode="json", by_alias=True)
        seen.append(json.dumps(out["output"]))
    # each written value comes back as written (the targets keep ``minimum`` on a number)
    for value, text in zip(written, seen, strict=True):
        # the whole value, not a prefix of it: ``1`` must not pass for ``1.0``
        as_written = re.escape(json.dumps(value)) + r"(?![\d.eE])"
        assert re.search(f'"minimum": {as_written}', text) or f'"minimum": "{value}"' in text


def test_a_leaf_compiled_first_still_reports_its_resolved_errors_to_check() -> None:
    """``compile_tool`` does not record the errors the compile resolves (it would drop them); a
    leaf it remembered must not replay into ``check`` without them, nor the other way round.
    The error is Anthropic strict mode's: ``minimum`` is unsupported and dropped (its catalog
    rule), so ``check`` names it at the leaf and the compile records the drop instead."""
    target = "anthropic-strict"
    tool = {
        "name": "t",
        "description": "d",
        "inputSchema": {
            "type": "object",
            "properties": {"n": {"type": "integer", "minimum": 0}},
            "required": ["n"],
        },
    }
    code = "anthropic-strict/unsupported-constraint"
    where = "inputSchema.properties.n.minimum"
    clear_caches()
    first = compile_tool(tool, target, allow_lossy=True).model_dump(mode="json", by_alias=True)
    checked = [(d.severity, d.code, d.path) for d in check(tool, target)]
    assert ("error", code, where) in checked
    clear_caches()
    assert [(d.severity, d.code, d.path) for d in check(tool, target)] == checked
    again = compile_tool(tool, target, allow_lossy=True).model_dump(mode="json", by_alias=True)
    assert again == first
    assert all(d["code"] != code for d in first["diagnostics"])
    assert any(t["path"] == where for t in first["transformations"])


def test_remembered_property_name_verdicts_fire_for_every_tool() -> None:
    """Gemini's top-level parameter names are 1 to 64 letters, digits and underscores starting
    with a letter or underscore (Vertex AI's Schema reference): each verdict is read once per
    name, and a name met again in another tool, or in the same tool's next compile, is judged
    the same."""
    code = "gemini/parameter-name-charset"
    for _ in range(2):
        for name in ("first", "second"):
            raw = {
                "name": name,
                "description": "d",
                "inputSchema": {
                    "type": "object",
                    "properties": {"9lives": {"type": "string"}, "ok_name": {"type": "string"}},
                },
            }
            fired = [(d.code, d.path) for d in check(raw, "gemini") if d.code == code]
            assert fired == [(code, 'inputSchema.properties["9lives"]')]


def test_clear_caches_forgets_and_changes_no_result() -> None:
    """After clear_caches() a compile starts from nothing (as a fresh process would) and gives
    the same result as one answered from what earlier compiles remembered."""
    from provcat.toolschema import clear_caches, compile_tool
    from provcat.toolschema.plan import _PLANS

    tool = {
        "name": "t",
        "inputSchema": {
            "type": "object",
            "properties": {
                "a": {"type": "string"},
                "b": {"type": "string"},
                "n": {"type": "integer", "format": "int64"},
            },
        },
    }
    warm = compile_tool(tool, "openai", allow_lossy=True)
    warm_again = compile_tool(tool, "openai", allow_lossy=True)
    assert _PLANS
    clear_caches()
    assert not _PLANS
    cold = compile_tool(tool, "openai", allow_lossy=True)
    for result in (warm_again, cold):
        assert result.model_dump(mode="json") == warm.model_dump(mode="json")
