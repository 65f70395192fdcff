"""Rule wording: a rule's message, compile text or transformation detail is a ``str.format``
template over the record's values and ``{tool}``, ``{target}``, ``{path}``; a placeholder nobody
supplies stays as written. Values come back as written."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from provcat.toolschema import check, compile_tool
from provcat.toolschema.records import fill


class _Kept(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


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
        ("{target} alone", {}),
        ("{keyword} twice: {keyword}", {"keyword": 3}),
        ("Merged `anyOf: [X, {{type: null}}]` into X.", {}),
        ("Wrote {count} values ({keywords}) as strings.", {"count": 2, "keywords": "a, b"}),
        ("{a}{b}{c} and {{d}} {a}", {"a": 1, "c": "x"}),
        ("a lone } brace", {}),
    ],
)
def test_fill_is_format_map_over_the_values_then_tool_target_and_path(
    template: str, values: dict[str, Any]
) -> None:
    if "{" in template:
        want = template.format_map(
            _Kept({"tool": "t", "target": "p", "path": "inputSchema.x", **values})
        )
    else:
        want = template  # no placeholder: the text as written
    assert fill(template, "p", "t", "inputSchema.x", values) == want


@pytest.mark.parametrize("target", ["openai", "gemini", "anthropic", "mcp"])
def test_values_equal_but_written_differently_come_back_as_written(target: str) -> None:
    """``0.0 == -0.0`` and ``1 == 1.0``: each comes back as it was written (a boolean
    ``minimum`` is no number: the input check refuses it)."""
    written = [0.0, -0.0, 1, 1.0]
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
        text = json.dumps(out["output"])
        as_written = re.escape(json.dumps(value)) + r"(?![\d.eE])"
        assert re.search(f'"minimum": {as_written}', text) or f'"minimum": "{value}"' in text


def test_check_reports_the_errors_a_compile_resolves() -> None:
    """Anthropic strict mode does not support ``minimum``: ``check`` names the error at the
    leaf, before and after a compile, and the compile records the drop instead."""
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
    checked = [(d.severity, d.code, d.path) for d in check(tool, target)]
    assert ("error", code, where) in checked
    first = compile_tool(tool, target, allow_lossy=True).model_dump(mode="json", by_alias=True)
    assert [(d.severity, d.code, d.path) for d in check(tool, target)] == checked
    assert all(d["code"] != code for d in first["diagnostics"])
    assert any(t["path"] == where for t in first["transformations"])
