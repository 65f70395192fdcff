"""The verbatim walk works out per key shape what it does with a subschema (``_Verbatim``) and
skips what the shape says nothing reads (quiet leaves, paths no record uses, subschemas below
that report nothing). A reference that checks every subschema in turn, in ``schema_nodes``
order, with each check asked of the subschema itself, must find the same diagnostics in the
same order; the copy must equal the input and share no container with it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from benchmarks.bench_toolschema import corpus
from provcat.toolschema.api import as_tool
from provcat.toolschema.core import DiagnosticRecord, schema_nodes
from provcat.toolschema.executor import _Run
from provcat.toolschema.targets import get_target, list_targets
from provcat.toolschema.values import _Bail
from tests.toolschema.conftest import FIXTURES
from tests.toolschema.test_fast_paths import _schemas

VERBATIM = [t.id for t in list_targets() if not t.rewrites]


def _reference(run: _Run, root: dict[str, Any]) -> list[DiagnosticRecord]:
    """Each subschema checked in turn: the reports its keys decide, the formats and
    ``minItems`` values, an enum's values, a kept ``$ref``, the ``additionalProperties`` state a
    rule reports, ``nullable``."""
    plan = run.plan
    for s, path, _ in schema_nodes(root):
        if plan.verbatim_keys.isdisjoint(s):
            continue
        if plan.reports and not plan.report_keys.isdisjoint(s):
            run.report_shape(s, path, plan.reports_for(tuple(s)))
        if plan.enum_values and isinstance(s.get("enum"), list):
            run.enum_rules(s["enum"], path, drop_allowed=False)
        if "$ref" in s and plan.kept_ref_rules:
            run.ref_rules(s["$ref"], path)
        if plan.ap_keep_missing or (plan.ap_keep_present and "additionalProperties" in s):
            state = run.ap_state(s)
            for rule in plan.ap_keep_by_state[state] if state is not None else ():
                run.fire(
                    rule,
                    path + ".additionalProperties",
                    value=state,
                    keyword="additionalProperties",
                )
        if "nullable" in s and plan.nullable_rules:
            run.nullable_rules(s, path, None)
    return run.diagnostics


def _shares(a: Any, b: Any) -> bool:
    """Whether the copy ``a`` and the input ``b`` share a container anywhere."""
    if isinstance(a, (dict, list)) and a is b:
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return any(_shares(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return any(_shares(x, y) for x, y in zip(a, b, strict=True))
    return False


def _tool(root: dict[str, Any]) -> dict[str, Any]:
    return {"name": "t", "description": "d", "inputSchema": root}


def _same_as_reference(root: dict[str, Any], target: str, *, keep_list: bool) -> None:
    raw = _tool(root)
    resolved = get_target(target)
    walked = _Run(resolved, as_tool(raw), root, True)
    if keep_list:
        walked.pathed = []
    try:
        out = walked.verbatim_walk(root, "inputSchema", 1, 1)
    except _Bail:
        return  # nested too deep: the full run refuses it before any walk
    reference = _reference(_Run(resolved, as_tool(raw), root, True), root)
    assert walked.diagnostics == reference
    assert out == root and not _shares(out, root)
    if keep_list:
        assert walked.pathed == schema_nodes(root)


@pytest.mark.parametrize("target", VERBATIM)
@pytest.mark.parametrize("keep_list", [False, True])
def test_fixtures_and_both_corpora_report_as_each_subschema_checked_in_turn(
    target: str, keep_list: bool
) -> None:
    roots = [f["inputSchema"] for f in FIXTURES.values()]
    roots += [t["inputSchema"] for t in corpus(60) + corpus(60, distinct_names=True)]
    for root in roots:
        _same_as_reference(root, target, keep_list=keep_list)


# what the walk copies without a call, a path or a walk, each next to a case it must not skip:
# an enum of plain strings and one holding an array, quiet leaves with and without containers,
# an anyOf of leaves nothing reads and one with a leaf that reports, an array whose items report
_TRICKY = {
    "type": "object",
    "properties": {
        "plain_enum": {"type": "string", "enum": ["a", "b"]},
        "array_enum": {"enum": [["a"], "b"]},
        "object_enum": {"type": "string", "enum": ["a", {"b": 1}], "description": "x"},
        "number_enum": {"enum": [1, "a"]},
        "quiet": {"type": "string", "description": "d"},
        "quiet_list": {"type": "string", "examples": [["a"], {"b": [1]}]},
        "optional": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "d"},
        "optional_capped": {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}]},
        "optional_enum": {"anyOf": [{"enum": [[1]]}, {"type": "null"}], "maxItems": 2},
        "list": {"type": "array", "items": {"type": "integer"}, "maxItems": 4},
        "list_capped": {"type": "array", "items": {"type": "integer", "minimum": 1}},
        "odd": {"anyOf": {"type": "string"}, "items": [{"type": "string"}], "not": True},
        "nested": {
            "type": "object",
            "properties": {"x y": {"enum": [{"a": 1}]}, "z": {"minimum": 1, "nullable": True}},
            "additionalProperties": {"type": "string", "format": "date"},
        },
    },
}


@pytest.mark.parametrize("target", VERBATIM)
def test_what_the_walk_skips_next_to_what_it_must_not(target: str) -> None:
    _same_as_reference(_TRICKY, target, keep_list=False)
    _same_as_reference(_TRICKY, target, keep_list=True)
    walked = _Run(get_target(target), as_tool(_tool(_TRICKY)), _TRICKY, True)
    walked.verbatim_walk(_TRICKY, "inputSchema", 1, 1)
    enums = {
        path
        for _, path, code, _, _ in walked.diagnostics
        if code.endswith("/enum-non-primitive-value")
    }
    if target == "anthropic":  # Anthropic reports an enum holding an array or an object
        assert enums == {
            "inputSchema.properties.array_enum.enum",
            "inputSchema.properties.object_enum.enum",
            "inputSchema.properties.optional_enum.anyOf[0].enum",
            'inputSchema.properties.nested.properties["x y"].enum',
        }


@settings(
    max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(schema=_schemas())
def test_any_schema_shaped_input_reports_as_each_subschema_checked_in_turn(schema: Any) -> None:
    root = schema if isinstance(schema, dict) else {"type": "object", "properties": {"v": schema}}
    for target in VERBATIM:
        for keep_list in (False, True):
            _same_as_reference(root, target, keep_list=keep_list)
