"""Writes ``recorded-outputs.json``: every case's compile results, recorded once at commit
740be64, before the one-walk rewrite. ``test_recorded_outputs.py`` is the regression guard that
reads it; run this module only to re-record on purpose (a rule changed, say why in the commit):

    .venv/bin/python -m tests.toolschema.record_outputs

Inputs are stored in the file, so the guard never depends on how they were generated (seeded
generators, the benchmark corpus, hypothesis' draws). Outputs are stored whole for the fixtures
and examples and as a sha256 per case and target for the rest (see :func:`results_text`).
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
    the JSON text pydantic writes (key order counts, as it does on the wire)."""
    out: dict[str, Any] = {}
    for lossy in (False, True):
        try:
            text = compile_tool(raw, target, allow_lossy=lossy).model_dump_json(by_alias=True)
        except Exception as exc:  # a tool pydantic refuses: the refusal is the result
            text = f"{type(exc).__name__}"
        out["lossy" if lossy else "strict"] = text
    try:
        found = [d.model_dump(mode="json", by_alias=True) for d in check(raw, target)]
        out["check"] = json.dumps(found, ensure_ascii=False)
    except Exception as exc:
        out["check"] = f"{type(exc).__name__}"
    return out


def results_text(raw: dict[str, Any], target: str) -> str:
    return json.dumps(results(raw, target), ensure_ascii=False, sort_keys=True)


def digest(raw: dict[str, Any], target: str) -> str:
    return hashlib.sha256(results_text(raw, target).encode("utf-8")).hexdigest()


# ---- the inputs (generated once; the file keeps them)


def _tool(schema: Any, name: str = "t", description: str | None = "d") -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "inputSchema": schema}
    if description is not None:
        out["description"] = description
    return out


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(props)}


def _edge_cases() -> list[dict[str, Any]]:
    from tests.toolschema.test_leaf_programs import _LEAVES

    props = {f"p{i}": leaf for i, leaf in enumerate(_LEAVES)}
    cases = [
        _tool({"type": "object", "properties": props, "required": ["p0", "p3"]}),
        _tool({"type": "object", "properties": {"a": {"type": "array", "items": _LEAVES[6]}}}),
        _tool({"anyOf": [_LEAVES[1], _LEAVES[3]], "description": "root union"}),
    ]
    cases += [_tool(leaf) for leaf in _LEAVES]
    cases += [_tool({"type": "object", "properties": {"a": leaf, "b": leaf}}) for leaf in _LEAVES]
    cases += [_tool({"type": "array", "items": leaf}) for leaf in _LEAVES]
    return cases


def _deep_cases() -> list[dict[str, Any]]:
    from tests.toolschema.test_fast_paths import DEEP, _chain

    cases = [_tool(DEEP[k]) for k in sorted(DEEP)]
    many = {f"p{i}": {"type": "string"} for i in range(5001)}
    cases.append(_tool(_obj(a={"allOf": [{"type": "object", "properties": many}]})))
    cases.append(_tool(_obj(a=_chain("not", 12))))
    cases.append(_tool(_obj(a={"not": {"enum": [f"v{i}" for i in range(1001)]}})))
    return cases


def _hypothesis_schemas(count: int) -> list[dict[str, Any]]:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.toolschema.test_fast_paths import _schemas

    drawn: list[dict[str, Any]] = []

    @settings(
        max_examples=count,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(schema=_schemas(), name=st.sampled_from(["t", "bad name", "x" * 70]))
    def collect(schema: Any, name: str) -> None:
        root = schema if isinstance(schema, dict) else _obj(v=schema)
        drawn.append(_tool(root, name=name))

    collect()
    return drawn


def cases() -> dict[str, list[dict[str, Any]]]:
    from benchmarks.bench_toolschema import corpus
    from tests.toolschema import test_fast_paths, test_leaf_programs
    from tests.toolschema.conftest import FIXTURES

    examples = []
    for path in sorted((HERE / "examples").glob("*.json")):
        examples.append(json.loads(path.read_text(encoding="utf-8")))
    return {
        "fixtures": list(FIXTURES.values()),
        "examples": examples,
        "edge": _edge_cases(),
        "deep": _deep_cases(),
        "corpus": corpus(1000),
        "distinct-names": corpus(1000, distinct_names=True),
        "random-leaves": test_leaf_programs._random_tools(150, seed=31),
        "random-tools": test_fast_paths._random_tools(400),
        "hypothesis": _hypothesis_schemas(300),
    }


WHOLE = ("fixtures", "examples")  # groups stored with their outputs whole


def main() -> None:
    targets = [t.id for t in list_targets()]
    groups: dict[str, Any] = {}
    for group, tools in cases().items():
        entries = []
        for raw in tools:
            if group in WHOLE:
                outputs: Any = {t: results(raw, t) for t in targets}
            else:
                outputs = {t: digest(raw, t) for t in targets}
            entries.append({"input": raw, "outputs": outputs})
        groups[group] = entries
    data = {
        "recordedAt": "740be64",
        "note": "outputs before the one-walk rewrite; see tests/toolschema/record_outputs.py",
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
