"""provcat.patterns: JSON Schema ``pattern`` read as ECMA-262, as jsonschema_rs and the vendors
read it, so the generator's two schema validators agree."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import jsonschema_rs
import pytest

from provcat.patterns import compile_pattern, ecma_validator

CASES = [
    (r"^\d{4}$", "2026", True),
    (r"^\d{4}$", "٢٠٢٦", False),  # Arabic-Indic digits: Python's \d, not ECMA's
    (r"^\D$", "٢", True),
    (r"^\w+$", "abc_1", True),
    (r"^\w+$", "é", False),
    (r"^\W$", "é", True),
    (r"\bx\b", "éxé", True),  # é is no word character: x stands alone (JavaScript agrees)
    (r"^\s$", "\u00a0", True),  # ECMA's \s holds the Unicode spaces
    (r"^\s$", "\u2028", True),
    (r"^\s$", "\ufeff", True),
    (r"^\s$", "\x85", False),  # Python's \s holds these; ECMA's does not
    (r"^\s$", "\x1c", False),
    (r"^\S$", "\u3000", False),
    (r"^[\s,]+$", " ,\u00a0", True),
    (r"^[a-z]+$", "name\n", False),
    # \S inside a bracket class is ECMA's too: the horizontal white space idiom
    (r"^[^\S\r\n]$", "\u00a0", True),
    (r"^[^\S\r\n]$", "\u2003", True),
    (r"^[^\S\r\n]$", "\t", True),
    (r"^[^\S\r\n]$", "\n", False),
    (r"^[\S]$", "\u00a0", False),
    (r"^[\S]$", "\x85", True),
    (r"^[\S]$", "\U0001f600", True),
    (r"^[\S\d]+$", "x1\u3000", False),
]


@pytest.mark.parametrize(("pattern", "text", "matches"), CASES)
def test_compile_pattern_reads_classes_as_ecma_262(pattern: str, text: str, matches: bool) -> None:
    assert (compile_pattern(pattern).search(text) is not None) is matches
    # and so as jsonschema_rs does: the generator's quick verdict and its explanation agree
    # (but for \b, which jsonschema_rs reads with Unicode words; no schema of ours uses it)
    if "\\b" not in pattern:
        quick = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
        assert quick.is_valid(text) is matches
    explained = ecma_validator()({"type": "string", "pattern": pattern})
    assert explained.is_valid(text) is matches


# ECMA-262 (15th edition, 2024), 22.2.2.9 CharacterClassEscape: \s is WhiteSpace (12.2: TAB, VT,
# FF, ZWNBSP and every Unicode "Zs" code point) and LineTerminator (12.3: LF, CR, LS, PS); \S
# is every other code point. Zs as of Unicode 6.3 onwards (U+180E left it then).
ECMA_SPACE = frozenset(
    {0x09, 0x0B, 0x0C, 0xFEFF}  # TAB, VT, FF, ZWNBSP
    | {0x20, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000}  # Zs
    | {0x0A, 0x0D, 0x2028, 0x2029}  # LF, CR, LS, PS
)
# every code point of the Basic Multilingual Plane, and astral ones at the edges
CODE_POINTS = [*range(0x10000), 0x10000, 0x1F600, 0xE0001, 0x10FFFF]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"^\s$", ECMA_SPACE),
        (r"^[\s]$", ECMA_SPACE),
        (r"^\S$", None),
        (r"^[\S]$", None),
        (r"^[^\s]$", None),
        (r"^[^\S]$", ECMA_SPACE),
        (r"^[^\S\r\n]$", ECMA_SPACE - {0x0A, 0x0D}),
        (r"^[\S\s]$", frozenset(CODE_POINTS)),
    ],
)
def test_white_space_classes_hold_exactly_ecma_262_s_code_points(
    pattern: str, expected: frozenset[int] | None
) -> None:
    """Each of the code points, in and out of a bracket class (None: all but ``ECMA_SPACE``)."""
    regex = compile_pattern(pattern)
    matched = {cp for cp in CODE_POINTS if regex.search(chr(cp))}
    assert matched == (set(CODE_POINTS) - ECMA_SPACE if expected is None else expected)


JS_CHECK = """
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(cases.map(([p, t]) => {
  try { return new RegExp(p, "u").test(t); } catch (e) { return "error"; }
})));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="no JavaScript engine (node) installed")
def test_a_javascript_engine_agrees() -> None:
    """The cases above, the white space of every code point below U+3100 and the patterns that
    are no patterns, read by node's RegExp (the ``u`` flag, as JSON Schema reads them)."""
    cases = [(p, t) for p, t, _ in CASES if "\\b" not in p]
    cases += [(r"^[^\S\r\n]$", chr(cp)) for cp in range(0x3100)]
    cases += [(r"^\S$", chr(cp)) for cp in (0x85, 0x180E, 0x1C, 0xFEFF, 0x1F600)]
    cases += [(p, "") for p in BAD]
    ran = subprocess.run(
        ["node", "-e", JS_CHECK],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    ours: list[bool | str] = []
    for pattern, text in cases:
        try:
            ours.append(compile_pattern(pattern).search(text) is not None)
        except re.error:
            ours.append("error")
    assert json.loads(ran.stdout) == ours


# not patterns, for ECMA-262 (node's RegExp refuses each) as for compile_pattern
BAD = [r"(?u)\w", r"(?i)abc", r"a(?i:b)c", r"a(?-i:b)", r"(?s).", r"[\s-x]", "(unclosed", "[a-"]


@pytest.mark.parametrize("pattern", BAD)
def test_what_is_no_pattern_raises_re_error(pattern: str) -> None:
    with pytest.raises(re.error):
        compile_pattern(pattern)


@pytest.mark.parametrize(
    ("pattern", "position"),
    [(r"(?u)\w", 0), (r"ab(?i)c", 2), (r"[\s-x]", 1), (r"\s{2,1}$", 3), (r"x$\s[", 4)],
)
def test_an_error_s_position_is_in_the_pattern_as_written(pattern: str, position: int) -> None:
    with pytest.raises(re.error) as caught:
        compile_pattern(pattern)
    assert caught.value.pos == position
    assert caught.value.pattern == pattern
    assert "\\u" not in str(caught.value)  # no piece of the expanded \s in the message


def test_an_inline_flag_is_refused_saying_what_to_write() -> None:
    with pytest.raises(re.error, match=r"not ECMA-262's.*\[Aa\]"):
        compile_pattern("(?i)a")
    # in a class or escaped, "(?i)" is characters
    assert compile_pattern(r"^[(?i)]+\(?i\)$").search("(?i)i)")
