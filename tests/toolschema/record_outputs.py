"""Writes ``recorded-outputs.json``: every case's compile results, recorded once at commit
740be64, before the one-walk rewrite. ``test_recorded_outputs.py`` is the regression guard that
reads it; run this module only to re-record on purpose (a rule changed, say why in the commit):

    .venv/bin/python -m tests.toolschema.record_outputs

The inputs are stored in the file, so the guard never depends on how they were generated; they
were drawn once (the SchemaPort fixtures, the examples, edge shapes, deep and oversized input,
the benchmark corpus with shared and with distinct property names, seeded random tools and
hypothesis-drawn schema-shaped input: the generators are in this module at commit 2b2e888).
Running this module records the outputs of the stored inputs again. Outputs are stored whole
for the fixtures and examples and as a sha256 per case and target for the rest.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from provcat.toolschema import check, compile_tool, list_targets

HERE = Path(__file__).resolve().parent
RECORDED = HERE / "recorded-outputs.json"


def results(raw: dict[str, Any], target: str) -> dict[str, Any]:
    """Everything a caller can see of ``raw`` on ``target``: the compile without and with
    ``allow_lossy`` (output, verdict, every record in order) and ``check``'s diagnostics, each as
    compact JSON text (key order counts, as it does on the wire). The text is the standard
    library's, not pydantic's: pydantic-core's float spelling changed between releases
    (``1e17`` against ``1e+17``), which is no change of provcat's."""
    out: dict[str, Any] = {}
    for lossy in (False, True):
        try:
            result = compile_tool(raw, target, allow_lossy=lossy)
            text = _compact(result.model_dump(mode="json", by_alias=True))
        except Exception as exc:  # a tool pydantic refuses: the refusal is the result
            text = f"{type(exc).__name__}"
        out["lossy" if lossy else "strict"] = text
    try:
        found = [d.model_dump(mode="json", by_alias=True) for d in check(raw, target)]
        out["check"] = json.dumps(found, ensure_ascii=False)
    except Exception as exc:
        out["check"] = f"{type(exc).__name__}"
    return out


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def results_text(raw: dict[str, Any], target: str) -> str:
    return json.dumps(results(raw, target), ensure_ascii=False, sort_keys=True)


def digest(raw: dict[str, Any], target: str) -> str:
    return hashlib.sha256(results_text(raw, target).encode("utf-8")).hexdigest()


WHOLE = ("fixtures", "examples")  # groups stored with their outputs whole


def main() -> None:
    """Record the outputs of the stored inputs again (the inputs stay as they are)."""
    stored = json.loads(RECORDED.read_text(encoding="utf-8"))
    targets = [t.id for t in list_targets()]
    groups: dict[str, Any] = {}
    for group, entries in stored["groups"].items():
        groups[group] = [
            {
                "input": entry["input"],
                "outputs": {
                    t: results(entry["input"], t) if group in WHOLE else digest(entry["input"], t)
                    for t in targets
                },
            }
            for entry in entries
        ]
    data = {
        "recordedAt": stored["recordedAt"],
        "note": stored["note"],
        "targets": targets,
        "groups": groups,
    }
    # one line per case: readable with grep and a JSON viewer, and a diff names the case
    lines = ["{"]
    for key in ("recordedAt", "note", "targets"):
        lines.append(f" {json.dumps(key)}: {json.dumps(data[key], ensure_ascii=False)},")
    lines.append(' "groups": {')
    for g, (group, entries) in enumerate(groups.items()):
        lines.append(f"  {json.dumps(group)}: [")
        for i, entry in enumerate(entries):
            comma = "," if i < len(entries) - 1 else ""
            lines.append(
                "   " + json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + comma
            )
        lines.append("  ]" + ("," if g < len(groups) - 1 else ""))
    lines.append(" }")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == data
    RECORDED.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
