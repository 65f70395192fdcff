"""Name patterns are read as the vendors read them: ``$`` is the end of the text.

The vendors' own rules (OpenAI: a function name of ``a-z, A-Z, 0-9, _ and -``; Anthropic:
``^[a-zA-Z0-9_-]{1,64}$``; Gemini: letters, digits, ``_ . : -``; MCP: ``A-Z a-z 0-9 _ - .``)
admit no newline anywhere in a name, while Python's ``$`` also matches before a final newline.
"""

from __future__ import annotations

import pytest

from provcat.patterns import compile_pattern
from provcat.toolschema import check
from provcat.toolschema.validate import validate_canonical_tool

NAME_RULES = {
    "openai": "openai/tool-name-invalid-characters",
    "anthropic": "anthropic/invalid-tool-name",
    "gemini": "gemini/invalid-function-name",
    "mcp": "mcp/tool-name-characters",
}


@pytest.mark.parametrize("target", sorted(NAME_RULES))
def test_a_tool_name_ending_in_a_newline_breaks_the_name_rule(target: str) -> None:
    tool = {"name": "get_weather\n", "description": "d", "inputSchema": {"type": "object"}}
    assert NAME_RULES[target] in {d.code for d in check(tool, target)}
    tool["name"] = "get_weather"
    assert NAME_RULES[target] not in {d.code for d in check(tool, target)}


def test_a_property_name_ending_in_a_newline_breaks_gemini_s_parameter_rule() -> None:
    schema = {"type": "object", "properties": {"city\n": {"type": "string"}}}
    found = check({"name": "w", "description": "d", "inputSchema": schema}, "gemini")
    assert ("gemini/parameter-name-charset", 'inputSchema.properties["city\\n"]') in {
        (d.code, d.path) for d in found
    }


def test_a_canonical_name_ending_in_a_newline_is_refused() -> None:
    schema = {"type": "object"}
    issues = validate_canonical_tool({"name": "get_weather\n", "inputSchema": schema})
    assert [i.path for i in issues] == ["name"]


@pytest.mark.parametrize(
    ("pattern", "text", "matches"),
    [
        ("^[a-z_]+$", "abc", True),
        ("^[a-z_]+$", "abc\n", False),
        ("^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$", "a$b", True),  # `$` in a class stays a character
        ("^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$", "a$b\n", False),
        (r"^a\$$", "a$", True),  # an escaped `$` stays a character
        (r"^a\$$", "a$\n", False),
        ("^[^]$]+$", "ab", True),  # `]` first in a class is a character, as in Python
        ("^[^]$]+$", "a$", False),
        ("^[A-Za-z_]", "_x\n", True),  # no anchor at the end: nothing changes
    ],
)
def test_compile_pattern_reads_an_end_anchor_as_the_end_of_the_text(
    pattern: str, text: str, matches: bool
) -> None:
    assert (compile_pattern(pattern).search(text) is not None) is matches
