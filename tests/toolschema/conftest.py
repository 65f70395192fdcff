"""Shared canonical fixtures (SchemaPort core src/fixtures.ts, as JSON in ../shared/spec)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "schemaport-fixtures.json"
_LOCAL = Path(__file__).resolve().parent / "schemaport-fixtures.json"


def fixtures() -> dict[str, dict[str, Any]]:
    path = SPEC if SPEC.is_file() else _LOCAL
    data = json.loads(path.read_text(encoding="utf-8"))
    return {f["tool"]["name"]: f["tool"] for f in data["fixtures"]}


FIXTURES = fixtures()
TARGETS = (
    "anthropic",
    "anthropic-strict",
    "gemini",
    "gemini-json-schema",
    "gemini-openai",
    "mcp",
    "openai",
    "openai-chat",
)


def tool(schema: dict[str, Any], name: str = "t", description: str | None = "d") -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "inputSchema": schema}
    if description is not None:
        out["description"] = description
    return out


def obj(**props: Any) -> dict[str, Any]:
    """An object schema whose properties are all required."""
    return {"type": "object", "properties": props, "required": list(props)}


@pytest.fixture
def fixture_tools() -> dict[str, dict[str, Any]]:
    return json.loads(json.dumps(FIXTURES))
