"""provcat.patterns: JSON Schema ``pattern`` read as ECMA-262, as jsonschema_rs and the vendors
read it, so the generator's two schema validators agree."""

from __future__ import annotations

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
