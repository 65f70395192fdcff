"""The tool-level rules decide at every bound as the target's rules say: name length and
pattern, blank and missing descriptions, top-level property names; a custom envelope is filled
key by key."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from provcat.toolschema import check, compile_tool, list_targets
from provcat.toolschema.targets import get_target
from tests.toolschema.conftest import obj, tool

TARGETS = [t.id for t in list_targets()]


def _codes(raw: dict[str, Any], target: Any) -> list[str]:
    return [d.code for d in check(raw, target)]


@pytest.mark.parametrize("target", TARGETS)
def test_name_length_bounds_decide_as_the_rules_do(target: str) -> None:
    rules = get_target(target).fires("tool-name")
    for rule, trig in rules:
        hi = trig.get("max_length")
        if hi is None:
            continue
        at, past = "a" * hi, "a" * (hi + 1)
        assert rule.code not in _codes(tool(obj(), name=at), target)
        assert rule.code in _codes(tool(obj(), name=past), target)


@pytest.mark.parametrize("target", TARGETS)
def test_a_name_outside_the_pattern_fires_the_pattern_rule(target: str) -> None:
    patterned = [r.code for r, trig in get_target(target).fires("tool-name") if trig.get("pattern")]
    if not patterned:
        pytest.skip("no pattern rule")
    codes = _codes(tool(obj(), name="bad name!"), target)
    assert set(patterned) & set(codes)


@pytest.mark.parametrize("target", TARGETS)
def test_blank_and_missing_descriptions_fire_as_the_rules_say(target: str) -> None:
    pairs = get_target(target).fires("missing-description")
    for rule, trig in pairs:
        assert rule.code in _codes(tool(obj(), description=None), target)
        assert rule.code in _codes(tool(obj(), description=""), target)
        blank = rule.code in _codes(tool(obj(), description="   "), target)
        assert blank == bool(trig.get("blank_counts"))
        assert rule.code not in _codes(tool(obj(), description="d"), target)


@pytest.mark.parametrize(
    "target", [t for t in TARGETS if get_target(t).fires("top-level-property-name")]
)
def test_a_passing_name_never_hides_a_failing_one(target: str) -> None:
    codes = {r.code for r, _ in get_target(target).fires("top-level-property-name")}
    good = tool(obj(ok={"type": "string"}, fine={"type": "string"}))
    for _ in range(2):
        assert not codes & set(_codes(good, target))
    mixed = tool(obj(ok={"type": "string"}, **{"bad name": {"type": "string"}}))
    fired = [d for d in check(mixed, target) if d.code in codes]
    assert [d.path for d in fired] == ['inputSchema.properties["bad name"]']


def test_a_property_name_fires_past_its_length_though_each_character_passes() -> None:
    # Gemini's parameter names are 1 to 64 letters, digits and underscores (Vertex AI's Schema
    # reference)
    code = "gemini/parameter-name-charset"
    longest, past = "a" * 64, "b" * 65
    schema = obj(**{longest: {"type": "string"}, past: {"type": "string"}})
    for _ in range(2):
        fired = [d.path for d in check(tool(schema), "gemini") if d.code == code]
        assert fired == [f"inputSchema.properties.{past}"]
    assert [d.path for d in check(tool(obj(**{longest: {}})), "gemini") if d.code == code] == []


def test_every_tool_with_a_bad_property_name_is_told() -> None:
    """Gemini's top-level parameter names start with a letter or underscore: a name met again in
    another tool, or in the same tool's next check, is judged the same."""
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


def test_an_envelope_with_a_constant_value_and_two_name_keys_is_filled_key_by_key() -> None:
    base = get_target("anthropic")
    envelope = {
        "name": "$name",
        "alias": "$name",
        "description": "$description",
        "meta": {"kind": "tool", "tags": ["a", "b"]},
        "input_schema": "$schema",
    }
    custom = dataclasses.replace(
        base, id="anthropic-custom", output={**base.output, "envelope": envelope}
    )
    result = compile_tool(tool(obj(), name="t", description="d"), custom, allow_lossy=True)
    assert result.output is not None
    assert list(result.output) == ["name", "alias", "description", "meta", "input_schema"]
    assert result.output["name"] == result.output["alias"] == "t"
    assert result.output["meta"] == {"kind": "tool", "tags": ["a", "b"]}
    # the constant is copied per tool, never shared with the target or another result
    other = compile_tool(tool(obj()), custom, allow_lossy=True).output
    assert other is not None
    assert other["meta"]["tags"] is not result.output["meta"]["tags"]
    assert result.output["meta"]["tags"] is not envelope["meta"]["tags"]  # type: ignore[index]
    undescribed = compile_tool(tool(obj(), description=None), custom, allow_lossy=True).output
    assert undescribed is not None and "description" not in undescribed
