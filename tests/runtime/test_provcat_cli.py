"""`provcat providers` and `provcat resolve` render the same rows and results as the Python API."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import provcat_catalog
import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from provcat.endpoints.registry import EndpointRegistry


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def _squeezed(cells: list[str]) -> list[str]:
    """Cells without their whitespace: a wrapped cell may break after a hyphen."""
    return [re.sub(r"\s+", "", cell) for cell in cells]


def test_providers_table_lists_every_provider() -> None:
    EndpointRegistry._reset()
    code, out, _ = _run("providers")
    assert code == 0
    lines = out.splitlines()
    header = ["PROVIDER", "AVAILABILITY", "ALIASES", "ENDPOINTS"]
    assert lines[0].split() == header
    # to a pipe (no terminal, no width) each provider is one line; in a terminal a long alias or
    # endpoint list wraps onto lines with no provider, which continue the row above
    assert len(lines) == 2 + len(EndpointRegistry.list_providers())
    starts = [lines[0].index(name) for name in header]
    ends: list[int | None] = [*starts[1:], None]
    rows: list[list[str]] = []
    for line in lines[2:]:
        cells = [line[a:b].strip() for a, b in zip(starts, ends, strict=True)]
        if cells[0]:
            rows.append(cells)
        else:
            rows[-1] = [f"{old} {more}" for old, more in zip(rows[-1], cells, strict=True)]
    items = EndpointRegistry.list_providers()
    assert len(items) == len(provcat_catalog.PROVIDERS)
    # one row per provider, in the API's order, each with its availability, aliases, endpoints
    expected = [
        [
            item["provider"],
            item["availability"],
            ", ".join(item["aliases"]) or "-",
            ", ".join(e["endpoint"] for e in item["endpoints"]) or "-",
        ]
        for item in items
    ]
    assert [_squeezed(row) for row in rows] == [_squeezed(row) for row in expected]
    assert any(item["aliases"] for item in items)  # the aliases column is exercised


def test_providers_json_is_list_providers() -> None:
    code, out, _ = _run("providers", "--format", "json")
    assert code == 0
    assert json.loads(out) == json.loads(json.dumps(EndpointRegistry.list_providers()))


def test_resolve_text_and_json() -> None:
    code, out, _ = _run("resolve", " Claude ", "CLI")
    assert code == 0 and out.startswith("claude_code/query_cli -> ")
    code, out, _ = _run("resolve", "openai", "chat", "--format", "json")
    data = json.loads(out)
    assert data["config"]["name"] == "openai_chat/completions"
    assert data["request_defaults"] == {"model": "gpt-6.1-terra"}
    assert "api_key" not in data["config"]


def test_resolve_errors_exit_1_with_the_typed_error() -> None:
    code, _, err = _run("resolve", "openai", "chta")
    assert code == 1 and "EndpointNotFound: openai has no endpoint 'chta'" in err
    code, out, _ = _run("resolve", "nope", "--format", "json")
    assert code == 1 and json.loads(out)["error"] == "EndpointNotFound"


def test_resolve_compatible_needs_the_flag() -> None:
    code, out, _ = _run(
        "resolve",
        "acme",
        "--openai-compatible",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--format",
        "json",
    )
    assert code == 0 and json.loads(out)["config"]["openai_compatible"] is True


def test_resolve_shows_the_legacy_fallback_warning_it_would_otherwise_hide(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PROVCAT_STRICT", raising=False)
    code, out, err = _run(
        "resolve", "acme", "chat", "--base-url", "http://x.test/v1", "--format", "json"
    )
    assert code == 0 and json.loads(out)["config"]["openai_compatible"] is True
    assert err.startswith("warning: unknown provider 'acme' falls back to an OpenAI-compatible")
    assert err.endswith("(on the command line: --openai-compatible)\n")
    monkeypatch.setenv("PROVCAT_STRICT", "1")
    code, _, err = _run("resolve", "acme", "chat", "--base-url", "http://x.test/v1")
    assert code == 1 and "implicit fallback by base_url is disabled" in err
    assert "(on the command line: --openai-compatible)" in err
    monkeypatch.delenv("PROVCAT_STRICT")
    code, _, err = _run("resolve", "openai", "chat", "--base-url", "http://x.test/v1")
    assert code == 0 and err == ""


def test_an_empty_models_table_says_why_on_stderr() -> None:
    # docs/models.md: ollama serves whatever the local server has pulled, so it lists no models
    code, out, err = _run("models", "--provider", "ollama")
    assert code == 0 and len(out.splitlines()) == 2  # the header and its rule
    assert err == "note: ollama has no model inventory in the catalog (see docs/models.md)\n"


def test_resolve_tells_a_retired_endpoint_in_text_and_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Perplexity retired Sonar chat completions on 2026-09-27 for its Agent API (v1/agent):
    https://docs.perplexity.ai/docs/agent-api/migrate-from-sonar/how-to.md"""
    monkeypatch.delenv("PROVCAT_STRICT", raising=False)
    code, out, err = _run("resolve", "perplexity", "chat", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["lifecycle"]["status"] == "retired"
    assert data["lifecycle"]["successor"] == "v1/agent"
    assert data["lifecycle"]["shutdown_date"] == "2026-09-27"
    assert data["warnings"] == [
        "endpoint 'perplexity/chat/completions' is retired since 2026-09-27: calls to it fail; "
        "move to its successor 'v1/agent'"
    ]
    assert err.startswith("warning: endpoint 'perplexity/chat/completions' is retired")
    code, out, _ = _run("resolve", "openai", "chat", "--format", "json")
    assert json.loads(out)["lifecycle"] is None and json.loads(out)["warnings"] == []
    monkeypatch.setenv("PROVCAT_STRICT", "1")
    code, out, _ = _run("resolve", "perplexity", "chat", "--format", "json")
    assert code == 1 and json.loads(out)["error"] == "EndpointRetired"


def test_python_m_provcat_is_the_command() -> None:
    """`python -m provcat` runs the `provcat` command, for an environment whose scripts are not
    on PATH (its help, under the command's own name)."""
    run = subprocess.run(
        [sys.executable, "-m", "provcat", "--help"], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Usage: provcat [OPTIONS] COMMAND [ARGS]...")
    listed = run.stdout.partition("Commands:")[2].split()
    assert {"cost", "model", "models", "providers", "tool"} <= set(listed)
