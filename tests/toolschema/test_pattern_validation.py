"""A ``pattern`` is judged by the function that uses it (provcat.patterns.compile_pattern, the
ECMA-262 reading): what the validator passes, the compiler and the argument check can use, and
a pattern that is Python syntax only (an inline flag) is refused up front, not on first use."""

from __future__ import annotations

import pytest

from provcat.toolschema import check, validate_canonical_tool
from provcat.toolschema.validate import regex_problem, validate_value
from tests.toolschema.conftest import obj, tool


@pytest.mark.parametrize("pattern", [r"(?u)^\w+$", r"(?i)^abc$", r"^a(?i:b)$", r"^[\s-x]$"])
def test_a_pattern_compile_pattern_refuses_is_refused_by_validation(pattern: str) -> None:
    problem = regex_problem(pattern)
    assert problem is not None
    issues = validate_canonical_tool(tool(obj(a={"type": "string", "pattern": pattern})))
    assert [i.path for i in issues] == ["inputSchema.properties.a.pattern"]
    assert issues[0].message.startswith("`pattern` is not a valid regular expression")


def test_an_inline_flag_says_what_to_write_instead() -> None:
    problem = regex_problem(r"(?u)^\w+$")
    assert problem is not None and "(?u) at position 0" in problem and "[Aa]" in problem


def test_a_valid_pattern_passes_and_compiles_for_every_target() -> None:
    schema = obj(a={"type": "string", "pattern": r"^[^\S\r\n]*\d{2}$"})
    assert validate_canonical_tool(tool(schema)) == []
    for target in ("openai", "anthropic", "gemini", "mcp"):
        check(tool(schema), target)  # no exception


@pytest.mark.parametrize(
    ("value", "ok"),
    [("12", True), ("12\n", False), ("٢٢", False), ("\u00a012", True), ("\n12", False)],
)
def test_arguments_are_checked_with_the_ecma_reading(value: str, ok: bool) -> None:
    """``$`` is the end of the text, ``\\d`` is ``[0-9]`` and ``[^\\S\\r\\n]`` holds U+00A0, as
    the compiler and the vendors read the schema (jsonschema's own ``pattern`` uses ``re``)."""
    schema = {"type": "string", "pattern": r"^[^\S\r\n]*\d{2}$"}
    assert (validate_value(schema, value) == []) is ok


def test_a_python_only_pattern_cannot_check_arguments() -> None:
    found = validate_value({"type": "string", "pattern": r"(?u)\w"}, "a")
    assert len(found) == 1 and "the schema cannot be checked" in found[0]
