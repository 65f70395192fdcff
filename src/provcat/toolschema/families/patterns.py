"""Regular-expression features in ``pattern`` that a target's ``pattern-syntax`` rules name
(backreferences, lookaround, word boundaries): found by one scan of the pattern that knows
escapes and character classes, so ``\\\\b`` (an escaped backslash, then ``b``) or ``[\\b]`` are
not taken for a word boundary."""

from __future__ import annotations

from provcat.toolschema.paths import join_path
from provcat.toolschema.run_state import Run
from provcat.toolschema.values import shown

_LOOKAROUND = ("(?=", "(?!", "(?<=", "(?<!")


def features(pattern: str) -> list[str]:
    """The features ``pattern`` uses, each once, in the order first met."""
    found: list[str] = []
    in_class = False
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if nxt in "123456789" or (nxt == "k" and pattern.startswith("<", i + 2)):
                if not in_class:
                    found.append("backreference")
            elif nxt in "bB" and not in_class:
                found.append("word-boundary")
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            # a `]` right after `[` or `[^` is a literal, not the end of the class
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":
                i = j
        elif c == "(":
            if pattern.startswith(_LOOKAROUND, i):
                found.append("lookaround")
            elif pattern.startswith("(?P=", i):
                found.append("backreference")
        i += 1
    return list(dict.fromkeys(found))


def pattern_syntax(run: Run) -> None:
    """Fire the pattern-syntax rules: one diagnostic per pattern and feature the rule names."""
    pairs = run.rules.fires("pattern-syntax")
    if not pairs:
        return
    for s, path, _ in run.nodes():
        value = s.get("pattern")
        if not isinstance(value, str):
            continue
        used = features(value)
        if not used:
            continue
        for rule, trig in pairs:
            for feature in used:
                if feature in trig["features"]:
                    run.fire(
                        rule,
                        join_path(path, "pattern"),
                        feature=feature,
                        value=shown(value),
                    )
