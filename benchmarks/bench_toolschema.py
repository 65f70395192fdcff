"""Tool-schema compile speed: provcat for every target vs two OpenAI strict-schema baselines.

Compiles the shared fixtures plus a generated 1,000-tool corpus for each target, and in the same
run the same tools through pydantic-ai's ``OpenAIJsonSchemaTransformer`` and the openai SDK's
strict-schema conversion (``to_strict_json_schema``'s dict core). Both baselines are in the
``bench`` extra (``make bench`` installs it); without them only provcat is measured.
provcat also produces every diagnostic and transformation record; the baselines produce neither.
"""

from __future__ import annotations

import copy
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from provcat.toolschema import compile_tool, list_targets

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "toolschema" / "schemaport-fixtures.json"
ROUNDS = 3


def corpus(n: int = 1000, seed: int = 5) -> list[dict[str, Any]]:
    """``n`` canonical tools of mixed shape, the same on every run."""
    rng = random.Random(seed)

    def leaf(depth: int) -> dict[str, Any]:
        kind = rng.choice(
            ["string", "integer", "number", "boolean", "enum", "array", "object", "nullable"]
        )
        if kind == "string":
            node: dict[str, Any] = {"type": "string", "description": "a text"}
            if rng.random() < 0.3:
                node["maxLength"] = rng.randint(5, 50)
            if rng.random() < 0.2:
                node["format"] = rng.choice(["date", "email", "uri"])
            return node
        if kind in ("integer", "number"):
            return {"type": kind, "minimum": 0, "maximum": rng.randint(1, 100)}
        if kind == "boolean":
            return {"type": "boolean"}
        if kind == "enum":
            return {"type": "string", "enum": [f"v{i}" for i in range(rng.randint(2, 6))]}
        if kind == "nullable":
            return {"anyOf": [{"type": "string"}, {"type": "null"}]}
        if kind == "array" or depth > 2:
            return {"type": "array", "items": {"type": "string"}, "maxItems": 10}
        return obj(depth + 1)

    def obj(depth: int) -> dict[str, Any]:
        props = {f"field_{i}": leaf(depth) for i in range(rng.randint(1, 6))}
        required = [k for k in props if rng.random() < 0.6]
        return {"type": "object", "properties": props, "required": required}

    return [
        {"name": f"tool_{i:04d}", "description": f"Generated tool {i}", "inputSchema": obj(0)}
        for i in range(n)
    ]


def _time(fn: Callable[[dict[str, Any]], Any], tools: list[dict[str, Any]]) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        copies = copy.deepcopy(tools)
        started = time.perf_counter()
        for t in copies:
            fn(t)
        best = min(best, time.perf_counter() - started)
    return best


def _baselines() -> dict[str, Callable[[dict[str, Any]], Any]]:
    found: dict[str, Callable[[dict[str, Any]], Any]] = {}
    try:
        from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer

        found["pydantic-ai OpenAIJsonSchemaTransformer"] = lambda t: OpenAIJsonSchemaTransformer(
            t["inputSchema"], strict=True
        ).walk()
    except ImportError:
        print("  (pydantic-ai is not installed: `make bench` installs the bench extra)")
    try:
        from openai.lib._pydantic import _ensure_strict_json_schema

        found["openai to_strict_json_schema"] = lambda t: _ensure_strict_json_schema(
            t["inputSchema"], path=(), root=t["inputSchema"]
        )
    except ImportError:
        print("  (the openai SDK is not installed: `make bench` installs the bench extra)")
    return found


def main() -> None:
    fixtures = [f["tool"] for f in json.loads(FIXTURES.read_text(encoding="utf-8"))["fixtures"]]
    tools = fixtures + corpus()
    print(f"{len(tools)} tools ({len(fixtures)} fixtures + 1000 generated), best of {ROUNDS}")
    rows: list[tuple[str, float]] = []
    for target in list_targets():
        seconds = _time(lambda t, tid=target.id: compile_tool(t, tid, allow_lossy=True), tools)
        rows.append((f"provcat {target.id}", seconds))
    baselines = _baselines()
    for name, fn in baselines.items():
        rows.append((name, _time(fn, tools)))
    width = max(len(name) for name, _ in rows)
    reference = dict(rows).get("provcat openai")
    for name, seconds in rows:
        per_tool = seconds / len(tools) * 1e6
        line = f"  {name.ljust(width)}  {seconds * 1000:8.1f} ms  {per_tool:7.1f} µs/tool"
        if reference and name in baselines:
            line += f"  provcat openai is {seconds / reference:.2f}x this baseline's speed"
        print(line)
