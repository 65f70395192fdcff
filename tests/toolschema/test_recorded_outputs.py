"""Regression guard: every compile and check equals the outputs recorded at commit 740be64,
before the one-walk rewrite (``recorded-outputs.json``, written by ``record_outputs.py``).

The file holds the inputs (SchemaPort fixtures, the examples, edge shapes, deep and oversized
input, the benchmark corpus with shared and with distinct property names, seeded random tools and
hypothesis-drawn schema-shaped input) and, per case and target, the results: the compile without
and with ``allow_lossy`` (output, verdict, every transformation and diagnostic in order) and
``check``'s diagnostics. Fixtures and examples are stored whole, the rest as a sha256 of the same
text. A difference here is a change a user can see: re-record only on purpose.

Since issue #25 the Python API refuses what ``provcat tool check`` refuses (an unknown type name,
a ``required`` naming no property, …) with ``InvalidToolError`` instead of compiling it; the
recorded inputs that are such tools are checked to be refused, and the rest to be unchanged.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from provcat.toolschema import InvalidToolError, check, list_targets
from tests.toolschema.record_outputs import RECORDED, WHOLE, digest, results

DATA = json.loads(RECORDED.read_text(encoding="utf-8"))
GROUPS: dict[str, list[dict[str, Any]]] = DATA["groups"]


def test_every_target_is_recorded() -> None:
    assert DATA["targets"] == [t.id for t in list_targets()]


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_outputs_equal_the_recorded_outputs(group: str) -> None:
    mismatched = []
    refused = 0
    for index, entry in enumerate(GROUPS[group]):
        try:
            check(entry["input"], "mcp")
        except InvalidToolError as exc:
            assert exc.problems, index
            refused += 1
            continue
        for target, recorded in entry["outputs"].items():
            if group in WHOLE:
                if results(entry["input"], target) != recorded:
                    mismatched.append((index, target))
            elif digest(entry["input"], target) != recorded:
                mismatched.append((index, target))
    assert not mismatched, f"{len(mismatched)} differ, first: {mismatched[:10]}"
    # most inputs still compare; random leaves draw keyword values at random, and most of them
    # hold one JSON Schema forbids (a string `minLength`, a dict `anyOf`), refused as input
    share = 0.9 if group == "random-leaves" else 0.5
    assert refused < len(GROUPS[group]) * share, (group, refused)


@pytest.mark.parametrize("target", [t.id for t in list_targets()])
@pytest.mark.parametrize("group", WHOLE)
def test_fixtures_and_examples_equal_their_recorded_results_whole(group: str, target: str) -> None:
    """The readable part of the guard: a difference shows the JSON that moved."""
    for entry in GROUPS[group]:
        assert results(entry["input"], target) == entry["outputs"][target]
