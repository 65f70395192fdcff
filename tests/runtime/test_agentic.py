"""Agentic endpoints at work: the argv of the claude, codex, gemini and pi CLIs, runs against
stand-in executables on PATH, and AG2 driven in-process with AG2's scripted test model."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import provcat_catalog
import pytest
from pydantic import BaseModel, ValidationError

from provcat import match_endpoint
from provcat.endpoints.agentic import AgenticEndpoint, AgentResult
from provcat.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    EndpointConfigurationError,
    InvalidResponseError,
    RequestValidationError,
)
from provcat.providers.ag2._runtime import AG2Result
from provcat.providers.anthropic.claude_code import ClaudeCodeRequest
from provcat.providers.google.gemini_code import GeminiCodeRequest
from provcat.providers.openai.codex import CodexRequest
from provcat.providers.pi.cli import PiRequest
from tests.conftest import ROOT


def _endpoint(provider: str, **overrides: Any) -> AgenticEndpoint:
    endpoint = match_endpoint(provider, "cli", **overrides)
    assert isinstance(endpoint, AgenticEndpoint)
    return endpoint


def _fields(model: type[BaseModel]) -> set[str]:
    return {info.alias or name for name, info in model.model_fields.items()}


# --- argv: minimal and maximal requests -----------------------------------------------------

CLAUDE_MAX: dict[str, Any] = {
    "prompt": "-fix the tests",
    "cwd": "/repo",
    "model": "opus",
    "fallback_model": "sonnet",
    "effort": "high",
    "permission_mode": "acceptEdits",
    "dangerously_skip_permissions": True,
    "allowed_tools": ["Read", "Bash(git log *)"],
    "disallowed_tools": ["Edit"],
    "tools": ["Read", "Bash"],
    "system_prompt": "You review code.",
    "system_prompt_file": "sys.md",
    "append_system_prompt": "- be terse",
    "append_system_prompt_file": "extra.md",
    "max_turns": 5,
    "max_budget_usd": 2.5,
    "add_dirs": ["../lib", "../apps"],
    "continue": True,
    "resume": "-abc",
    "session_id": "550e8400-e29b-41d4-a716-446655440000",
    "fork_session": True,
    "name": "review",
    "no_session_persistence": True,
    "output_format": "stream-json",
    "input_format": "text",
    "json_schema": {"type": "object", "required": ["ok"]},
    "include_partial_messages": True,
    "include_hook_events": True,
    "verbose": True,
    "debug": "api,hooks",
    "mcp_config": ["mcp.json", '{"mcpServers":{}}'],
    "strict_mcp_config": True,
    "permission_prompt_tool": "mcp__auth__prompt",
    "settings": "settings.json",
    "setting_sources": ["user", "project"],
    "agent": "reviewer",
    "agents": {"reviewer": {"description": "Reviews", "prompt": "Be critical"}},
    "betas": ["b1", "b2"],
    "plugin_dirs": ["plugins/a", "plugins/b"],
    "bare": True,
    "disable_slash_commands": True,
}

CLAUDE_MAX_ARGV = [
    "claude", "-p",
    "--output-format", "stream-json",
    "--input-format", "text",
    "--model", "opus",
    "--fallback-model", "sonnet",
    "--effort", "high",
    "--permission-mode", "acceptEdits",
    "--dangerously-skip-permissions",
    "--system-prompt", "You review code.",
    "--system-prompt-file", "sys.md",
    "--append-system-prompt", "- be terse",
    "--append-system-prompt-file", "extra.md",
    "--tools", "Read,Bash",
    "--allowedTools", "Read,Bash(git log *)",
    "--disallowedTools", "Edit",
    "--max-turns", "5",
    "--max-budget-usd", "2.5",
    "--add-dir", "../lib", "--add-dir", "../apps",
    "--continue",
    "--resume=-abc",
    "--session-id=550e8400-e29b-41d4-a716-446655440000",
    "--fork-session",
    "--name", "review",
    "--no-session-persistence",
    "--include-partial-messages",
    "--include-hook-events",
    "--verbose",
    "--json-schema", '{"type":"object","required":["ok"]}',
    "--debug=api,hooks",
    "--mcp-config", "mcp.json", "--mcp-config", '{"mcpServers":{}}',
    "--strict-mcp-config",
    "--permission-prompt-tool", "mcp__auth__prompt",
    "--settings", "settings.json",
    "--setting-sources=user,project",
    "--agent", "reviewer",
    "--agents", '{"reviewer":{"description":"Reviews","prompt":"Be critical"}}',
    "--betas", "b1,b2",
    "--plugin-dir", "plugins/a", "--plugin-dir", "plugins/b",
    "--bare",
    "--disable-slash-commands",
    "--", "-fix the tests",
]  # fmt: skip

SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}}

CODEX_MAX: dict[str, Any] = {
    "prompt": "-refactor",
    "model": "gpt-5.3-codex",
    "images": ["a.png", "b.png"],
    "oss": True,
    "local_provider": "ollama",
    "profile": "work",
    "cwd": "/repo",
    "add_dirs": ["../lib", "../docs"],
    "sandbox": "read-only",
    "approval_policy": "never",
    "full_auto": True,
    "auto_review": True,
    "bypass_hook_trust": True,
    "skip_git_repo_check": True,
    "reasoning_effort": "xhigh",
    "fast_mode": True,
    "ephemeral": True,
    "ignore_user_config": True,
    "ignore_rules": True,
    "strict_config": True,
    "output_schema": SCHEMA,
    "json_events": True,
    "output_last_message": "last.txt",
    "color": "never",
    "enable_features": ["js_repl", "apps"],
    "disable_features": ["undo"],
    "config_overrides": {
        "model_verbosity": "low",
        "sandbox_workspace_write.network_access": True,
        "tools": {"web_search": False},
        "notify": ["say", "done"],
        "model_context_window": 1000,
    },
    "resume_session_id": "-thread",
    "resume_all": True,
}


CODEX_MAX_ARGV = [
    "codex",
    "--strict-config",
    "-c", 'approval_policy="never"',
    "-c", 'model_reasoning_effort="xhigh"',
    "-c", 'service_tier="fast"',
    "-c", "model_context_window=1000",
    "-c", 'model_verbosity="low"',
    "-c", 'notify=["say", "done"]',
    "-c", "sandbox_workspace_write.network_access=true",
    "-c", 'tools={"web_search" = false}',
    "--enable", "js_repl", "--enable", "apps",
    "--disable", "undo",
    "exec",
    "--model", "gpt-5.3-codex",
    "--image", "a.png", "--image", "b.png",
    "--oss",
    "--local-provider", "ollama",
    "--profile", "work",
    "--cd", "/repo",
    "--add-dir", "../lib", "--add-dir", "../docs",
    "--sandbox", "read-only",
    "--not-so-yolo",
    "--dangerously-bypass-hook-trust",
    "--skip-git-repo-check",
    "--ephemeral",
    "--ignore-user-config",
    "--ignore-rules",
    "--output-schema", "SCHEMA",
    "--json",
    "--output-last-message", "last.txt",
    "--color", "never",
    "resume", "--all",
    "--", "-thread", "-refactor",
]  # fmt: skip

GEMINI_MAX: dict[str, Any] = {
    "prompt": "-summarize",
    "cwd": "/repo",
    "model": "flash",
    "approval_mode": "plan",
    "sandbox": True,
    "skip_trust": True,
    "policy": ["p1.toml", "p2.toml"],
    "admin_policy": ["admin.toml"],
    "allowed_tools": ["ShellTool(git status)"],
    "allowed_mcp_server_names": ["github"],
    "extensions": ["ext-a", "ext-b"],
    "include_directories": ["../lib"],
    "resume": "latest",
    "session_id": "run-1",
    "session_file": "session.json",
    "worktree": "feature-x",
    "output_format": "json",
    "raw_output": True,
    "accept_raw_output_risk": True,
    "debug": True,
}

GEMINI_MAX_ARGV = [
    "gemini",
    "--model=flash",
    "--approval-mode=plan",
    "--sandbox",
    "--skip-trust",
    "--policy=p1.toml", "--policy=p2.toml",
    "--admin-policy=admin.toml",
    "--allowed-tools=ShellTool(git status)",
    "--allowed-mcp-server-names=github",
    "--extensions=ext-a", "--extensions=ext-b",
    "--include-directories=../lib",
    "--resume=latest",
    "--session-id=run-1",
    "--session-file=session.json",
    "--worktree=feature-x",
    "--output-format=json",
    "--raw-output",
    "--accept-raw-output-risk",
    "--debug",
    "--prompt=-summarize",
]  # fmt: skip

PI_MAX: dict[str, Any] = {
    "prompt": "What changed?",
    "files": ["notes.md", "shot.png"],
    "cwd": "/repo",
    "provider": "anthropic",
    "model": "claude-sonnet-4-5:high",
    "thinking": "high",
    "mode": "json",
    "tools": ["read", "grep"],
    "no_tools": True,
    "no_builtin_tools": True,
    "system_prompt": "-You are terse.",
    "append_system_prompt": "Cite files.",
    "continue": True,
    "session": "abc123",
    "fork": "def456",
    "session_dir": "/tmp/sessions",
    "no_session": True,
    "extensions": ["ext.ts", "npm:pkg"],
    "no_extensions": True,
    "skills": ["skills/a"],
    "no_skills": True,
    "prompt_templates": ["tpl/a.md"],
    "no_prompt_templates": True,
    "no_context_files": True,
    "offline": True,
    "verbose": True,
}

PI_MAX_ARGV = [
    "pi", "-p",
    "--provider", "anthropic",
    "--model", "claude-sonnet-4-5:high",
    "--thinking", "high",
    "--mode", "json",
    "--tools", "read,grep",
    "--no-tools",
    "--no-builtin-tools",
    "--system-prompt", "-You are terse.",
    "--append-system-prompt", "Cite files.",
    "--continue",
    "--session", "abc123",
    "--fork", "def456",
    "--session-dir", "/tmp/sessions",
    "--no-session",
    "--extension", "ext.ts", "--extension", "npm:pkg",
    "--no-extensions",
    "--skill", "skills/a",
    "--no-skills",
    "--prompt-template", "tpl/a.md",
    "--no-prompt-templates",
    "--no-context-files",
    "--offline",
    "--verbose",
    "@notes.md", "@shot.png",
    "What changed?",
]  # fmt: skip


@pytest.mark.parametrize(
    ("provider", "argv"),
    [
        ("claude", ["claude", "-p", "--", "hi"]),
        ("codex", ["codex", "exec", "--", "hi"]),
        ("gemini_code", ["gemini", "--prompt=hi"]),
        ("pi", ["pi", "-p", "hi"]),
    ],
)
def test_minimal_request_argv(provider: str, argv: list[str]) -> None:
    assert _endpoint(provider).command({"prompt": "hi"}) == argv


def test_claude_maximal_request_argv_maps_every_field() -> None:
    assert set(CLAUDE_MAX) == _fields(ClaudeCodeRequest)
    endpoint = _endpoint("claude_code")
    assert endpoint.command(CLAUDE_MAX) == CLAUDE_MAX_ARGV
    assert endpoint.working_directory(ClaudeCodeRequest.model_validate(CLAUDE_MAX)) == "/repo"


def test_codex_maximal_request_argv_maps_every_field() -> None:
    exclusive = {"bypass_approvals", "resume_last"}  # clap conflicts; covered below
    assert set(CODEX_MAX) == _fields(CodexRequest) - exclusive
    endpoint = _endpoint("codex")
    argv = endpoint.command(CODEX_MAX)
    schema = Path(argv[argv.index("--output-schema") + 1])
    assert argv == [str(schema) if a == "SCHEMA" else a for a in CODEX_MAX_ARGV]
    assert json.loads(schema.read_text()) == SCHEMA
    # written where no other user can plant a file under its name
    assert schema.parent.stat().st_mode & 0o077 == 0
    # cwd has a flag (-C/--cd), so the process keeps the caller's working directory
    assert endpoint.working_directory(CodexRequest.model_validate(CODEX_MAX)) is None


def test_codex_bypass_full_auto_and_resume_last_argv() -> None:
    endpoint = _endpoint("codex")
    assert endpoint.command(
        {"prompt": "go", "bypass_approvals": True, "resume_last": True, "output_schema": "s.json"}
    ) == [
        "codex", "exec",
        "--dangerously-bypass-approvals-and-sandbox",
        "--output-schema", "s.json",
        "resume", "--last", "--", "go",
    ]  # fmt: skip
    assert endpoint.command({"prompt": "go", "full_auto": True}) == [
        "codex", "exec", "--sandbox", "workspace-write", "--", "go",
    ]  # fmt: skip


def test_codex_auto_review_is_not_so_yolo_and_conflicts_with_bypass() -> None:
    # Source: codex-rs/utils/cli/src/shared_options.rs (--not-so-yolo, conflicts_with the bypass)
    endpoint = _endpoint("codex")
    assert endpoint.command({"prompt": "go", "auto_review": True}) == [
        "codex", "exec", "--not-so-yolo", "--", "go",
    ]  # fmt: skip
    with pytest.raises(ValidationError, match="auto_review"):
        CodexRequest.model_validate({"prompt": "go", "auto_review": True, "bypass_approvals": True})


def test_gemini_maximal_request_argv_maps_every_field() -> None:
    assert set(GEMINI_MAX) == _fields(GeminiCodeRequest) - {"yolo"}  # yolo excludes approval_mode
    endpoint = _endpoint("gemini-code")
    assert endpoint.command(GEMINI_MAX) == GEMINI_MAX_ARGV
    assert endpoint.command({"prompt": "x", "yolo": True}) == ["gemini", "--yolo", "--prompt=x"]
    assert endpoint.working_directory(GeminiCodeRequest.model_validate(GEMINI_MAX)) == "/repo"


def test_pi_maximal_request_argv_maps_every_field() -> None:
    assert set(PI_MAX) == _fields(PiRequest)
    endpoint = _endpoint("pi")
    assert endpoint.command(PI_MAX) == PI_MAX_ARGV
    assert endpoint.working_directory(PiRequest.model_validate({"prompt": "x", "repo": "/r"})) == (
        "/r"
    )


def test_executables_and_cli_flags() -> None:
    for provider, executable in (
        ("claude", "claude"),
        ("codex", "codex"),
        ("gemini_code", "gemini"),
        ("pi", "pi"),
    ):
        endpoint = _endpoint(provider)
        assert endpoint.executable == executable and endpoint.is_cli
    for endpoint_key in ("group_chat", "agent", "nlip"):
        assert not match_endpoint("ag2", endpoint_key).is_cli  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("provider", "request_"),
    [
        ("codex", {"prompt": "x", "local_provider": "ollama"}),
        ("codex", {"prompt": "x", "bypass_approvals": True, "sandbox": "read-only"}),
        ("codex", {"prompt": "x", "resume_last": True, "resume_session_id": "s"}),
        ("codex", {"prompt": "x", "resume_all": True}),
        ("gemini_code", {"prompt": "x", "yolo": True, "approval_mode": "plan"}),
        ("pi", {"prompt": "-x"}),
        ("pi", {"prompt": "@file"}),
        ("claude", {"prompt": "x", "effort": "extreme"}),
    ],
)
def test_combinations_the_cli_rejects_fail_before_a_command_exists(
    provider: str, request_: dict[str, Any]
) -> None:
    with pytest.raises(RequestValidationError):  # naming the field, as any request problem
        _endpoint(provider).command(request_)


# --- call(): stand-in executables on PATH ---------------------------------------------------

STAND_IN = textwrap.dedent(
    """\
    #!{python}
    import json, os, sys, time
    marker = os.environ.get("STANDIN_MARKER")
    if marker:
        open(marker, "w").write(str(os.getpid()))
    child_marker = os.environ.get("STANDIN_CHILD")
    if child_marker:  # a grandchild, as a CLI's node or MCP helpers would be
        import subprocess
        child = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(60)"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        open(child_marker, "w").write(str(child.pid))
    sys.stderr.write(os.environ.get("STANDIN_ECHO", "") + "stand-in stderr\\n")
    for _ in range(int(os.environ.get("STANDIN_MIB", "0"))):  # a CLI that writes without end
        sys.stdout.write("x" * (1 << 20))
    print(json.dumps({{
        "argv": sys.argv,
        "cwd": os.getcwd(),
        "secret_in_env": "PROVCAT_TEST_API_KEY" in os.environ,
    }}))
    sys.stdout.flush()
    time.sleep(float(os.environ.get("STANDIN_SLEEP", "0")))
    sys.exit(int(os.environ.get("STANDIN_EXIT", "0")))
    """
)


@pytest.fixture
def stand_ins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """claude, codex, gemini and pi stand-ins, first on PATH: each prints argv and cwd as JSON."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("claude", "codex", "gemini", "pi"):
        script = bin_dir / name
        script.write_text(STAND_IN.format(python=sys.executable))
        script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    for name in ("STANDIN_EXIT", "STANDIN_SLEEP", "STANDIN_MARKER", "STANDIN_ECHO", "STANDIN_MIB"):
        monkeypatch.delenv(name, raising=False)
    work = tmp_path / "work"
    work.mkdir()
    return work


def _run(endpoint: AgenticEndpoint, request: dict[str, Any], **kwargs: Any) -> AgentResult:
    return asyncio.run(endpoint.call(request, **kwargs))


@pytest.mark.parametrize("provider", ["claude", "codex", "gemini_code", "pi"])
def test_call_runs_the_argv_in_the_working_directory(stand_ins: Path, provider: str) -> None:
    endpoint = _endpoint(provider)
    request = {"prompt": "hello there", "cwd": str(stand_ins), "model": "m1"}
    result = _run(endpoint, request)
    seen = json.loads(result.stdout)
    assert result.ok and result.returncode == 0
    assert result.argv == tuple(endpoint.command(request))
    assert seen["argv"][1:] == list(result.argv[1:])
    assert os.path.basename(seen["argv"][0]) == endpoint.executable
    assert result.stderr == "stand-in stderr\n"
    if provider == "codex":  # -C/--cd carries it; the process stays where the caller is
        assert ["--cd", str(stand_ins)] == list(result.argv[4:6])
        assert seen["cwd"] == os.getcwd()
    else:
        assert seen["cwd"] == str(stand_ins)


def test_call_reports_exit_code_and_stderr(
    stand_ins: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STANDIN_EXIT", "3")
    result = _run(_endpoint("pi"), {"prompt": "fail please", "cwd": str(stand_ins)})
    assert result.returncode == 3 and not result.ok
    assert result.stderr == "stand-in stderr\n"
    assert json.loads(result.stdout)["argv"][-1] == "fail please"


def test_call_timeout_kills_the_process(stand_ins: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    endpoint = _endpoint("gemini_code", timeout=0.5)
    env = {**os.environ, "STANDIN_SLEEP": "30", "STANDIN_MARKER": str(marker)}
    with pytest.raises(APITimeoutError) as caught:
        _run(endpoint, {"prompt": "slow", "cwd": str(stand_ins)}, env=env)
    assert str(caught.value).startswith("gemini_code/query_cli: 'gemini' did not finish within")
    assert "0.5 s (timeout)" in str(caught.value)
    pid = int(marker.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # killed and reaped


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as status:
            return not any(
                line.split()[1:2] == ["Z"] for line in status if line.startswith("State:")
            )
    except FileNotFoundError:
        return False


def test_call_timeout_kills_the_whole_process_group(stand_ins: Path, tmp_path: Path) -> None:
    marker, child_marker = tmp_path / "pid", tmp_path / "child"
    endpoint = _endpoint("pi", timeout=1.0)
    env = {
        **os.environ,
        "STANDIN_SLEEP": "30",
        "STANDIN_MARKER": str(marker),
        "STANDIN_CHILD": str(child_marker),
    }
    with pytest.raises(APITimeoutError):
        _run(endpoint, {"prompt": "slow", "cwd": str(stand_ins)}, env=env)
    grandchild = int(child_marker.read_text())
    for _ in range(50):
        if not _alive(grandchild):
            break
        time.sleep(0.05)
    assert not _alive(grandchild), "the CLI's own children end with it"


def test_total_timeout_bounds_the_run_when_shorter(stand_ins: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    endpoint = _endpoint("claude", timeout=5, total_timeout=0.5)
    env = {**os.environ, "STANDIN_SLEEP": "30", "STANDIN_MARKER": str(marker)}
    with pytest.raises(APITimeoutError) as caught:
        _run(endpoint, {"prompt": "slow", "cwd": str(stand_ins)}, env=env)
    assert "within 0.5 s (total_timeout)" in str(caught.value)
    with pytest.raises(ProcessLookupError):
        os.kill(int(marker.read_text()), 0)


def test_output_past_max_response_bytes_is_refused_and_the_run_killed(
    stand_ins: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "pid"
    endpoint = _endpoint("pi", max_response_bytes=100_000, timeout=10)
    env = {**os.environ, "STANDIN_MIB": "50", "STANDIN_SLEEP": "30", "STANDIN_MARKER": str(marker)}
    with pytest.raises(InvalidResponseError) as caught:
        _run(endpoint, {"prompt": "talk", "cwd": str(stand_ins)}, env=env)
    assert "more than 100000 bytes" in str(caught.value)
    assert "max_response_bytes" in str(caught.value)
    with pytest.raises(ProcessLookupError):
        os.kill(int(marker.read_text()), 0)  # killed and reaped
    assert len(_run(_endpoint("pi", max_response_bytes=100_000), {"prompt": "x"}).stdout) < 1000


def test_missing_executable_is_a_connection_error_naming_it(
    stand_ins: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(APIConnectionError) as caught:
        _run(_endpoint("claude"), {"prompt": "hi"})
    message = str(caught.value)
    assert message.startswith("claude_code/query_cli: the 'claude' command was not found")
    assert "install it" in message and "PATH" in message
    # where to read how: the endpoint's page in the catalog (catalog/providers/claude_code.yaml)
    assert "(see https://code.claude.com/docs/en/cli-reference)" in message
    assert caught.value.never_sent


def test_a_cwd_that_is_not_a_directory_names_the_field(stand_ins: Path, tmp_path: Path) -> None:
    for provider in ("claude", "gemini_code", "pi"):
        with pytest.raises(RequestValidationError) as caught:
            _run(_endpoint(provider), {"prompt": "hi", "cwd": str(tmp_path / "missing")})
        assert caught.value.field == "cwd"
        assert "not an existing directory" in str(caught.value)


def test_a_nul_in_the_request_names_the_field(stand_ins: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    env = {**os.environ, "STANDIN_MARKER": str(marker)}
    with pytest.raises(RequestValidationError) as caught:
        _run(_endpoint("codex"), {"prompt": "a\0b"}, env=env)
    assert caught.value.field == "prompt" and "NUL" in str(caught.value)
    assert not marker.exists()


def test_agent_endpoints_do_not_stream_or_retry(stand_ins: Path) -> None:
    endpoint = _endpoint("claude")
    with pytest.raises(RequestValidationError) as caught:
        endpoint.stream_sync({"prompt": "hi"})
    assert "do not stream" in str(caught.value) and "call()" in str(caught.value)
    with pytest.raises(RequestValidationError):
        endpoint.stream({"prompt": "hi"})
    with pytest.raises(RequestValidationError) as caught:
        endpoint.call_sync({"prompt": "hi"}, max_retries=1)
    assert caught.value.field == "max_retries"
    assert "run once and are not retried" in str(caught.value)
    assert "call(..., max_retries" not in str(caught.value)


def test_secrets_are_redacted_from_the_output(
    stand_ins: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROVCAT_TEST_SERVICE_TOKEN", "tok-abcdef123456")
    monkeypatch.setenv("STANDIN_ECHO", "leaked tok-abcdef123456 and call-key-987654: ")
    monkeypatch.setenv("STANDIN_EXIT", "3")
    endpoint = _endpoint("pi", api_key="call-key-987654")
    result = _run(endpoint, {"prompt": "hi", "cwd": str(stand_ins)})
    assert result.returncode == 3 and not result.ok
    assert result.stderr.startswith("leaked <PROVCAT_TEST_SERVICE_TOKEN redacted> and <api key")
    for text in (result.stdout, result.stderr, repr(result)):
        assert "tok-abcdef123456" not in text and "call-key-987654" not in text


def test_credentials_reach_the_child_only_through_its_environment(
    stand_ins: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROVCAT_TEST_API_KEY", "sk-test-not-in-argv")
    result = _run(_endpoint("claude"), {"prompt": "hi", "cwd": str(stand_ins)})
    assert json.loads(result.stdout)["secret_in_env"] is True
    assert not any("sk-test" in a for a in result.argv)
    assert "sk-test" not in result.stdout + result.stderr
    clean = {k: v for k, v in os.environ.items() if k != "PROVCAT_TEST_API_KEY"}
    result = _run(_endpoint("claude"), {"prompt": "hi"}, env=clean)
    assert json.loads(result.stdout)["secret_in_env"] is False


@pytest.mark.parametrize("provider", ["claude", "codex", "gemini_code", "pi"])
def test_request_typo_raises_before_anything_runs(
    stand_ins: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    marker = tmp_path / "ran"
    monkeypatch.setenv("STANDIN_MARKER", str(marker))
    endpoint = _endpoint(provider)
    with pytest.raises(EndpointConfigurationError) as caught:
        _run(endpoint, {"prompt": "hi", "modle": "m1"})
    assert caught.value.field == "modle"
    with pytest.raises(EndpointConfigurationError):
        _run(endpoint, {"prompt": "hi"}, cwdd=str(stand_ins))
    with pytest.raises(EndpointConfigurationError) as caught:
        match_endpoint(provider, "cli", request_defaults={"promtp": "x"})
    assert caught.value.field == "promtp"
    assert not marker.exists()


def test_request_defaults_reach_the_argv() -> None:
    endpoint = match_endpoint("claude", "cli", request_defaults={"model": "haiku"})
    assert isinstance(endpoint, AgenticEndpoint)
    assert endpoint.command({"prompt": "hi"}) == ["claude", "-p", "--model", "haiku", "--", "hi"]
    assert endpoint.command({"prompt": "hi", "model": "opus"})[2:4] == ["--model", "opus"]


# --- AG2 in-process -------------------------------------------------------------------------

ag2_testing = pytest.importorskip("ag2.testing")


def _ag2(endpoint: str) -> AgenticEndpoint:
    found = match_endpoint("ag2", endpoint)
    assert isinstance(found, AgenticEndpoint)
    return found


def _ag2_run(endpoint: str, request: dict[str, Any], **kwargs: Any) -> AG2Result:
    result = asyncio.run(_ag2(endpoint).call(request, **kwargs))
    assert isinstance(result, AG2Result)
    return result


class RecordingConfig(ag2_testing.TestConfig):  # type: ignore[misc, name-defined]
    """AG2's scripted test model, also recording what each model call was handed."""

    def __init__(self, *turns: Any) -> None:
        super().__init__(*turns)
        self.seen: list[dict[str, Any]] = []

    def create(self) -> Any:
        inner = super().create()
        seen = self.seen

        async def client(messages: Sequence[Any], context: Any, **kwargs: Any) -> Any:
            seen.append(
                {
                    "messages": list(messages),
                    "prompt": tuple(context.prompt),
                    "variables": dict(context.variables),
                }
            )
            return await inner(messages, context, **kwargs)

        return client


def _texts(events: Sequence[Any]) -> list[str]:
    from ag2.events import ModelRequest, ModelResponse

    texts: list[str] = []
    for event in events:
        if isinstance(event, ModelRequest):
            texts += [getattr(part, "content", "") for part in event.parts]
        elif isinstance(event, ModelResponse) and event.message is not None:
            texts.append(event.message.content)
    return texts


def test_ag2_agent_runs_in_process_with_a_fake_model() -> None:
    model = RecordingConfig("hello back")
    result = _ag2_run(
        "agent",
        {
            "message": "hi",
            "name": "helper",
            "prompt": "Be brief.",
            "history": [
                {"role": "user", "content": "q0"},
                {"role": "assistant", "content": "a0"},
            ],
            "variables": {"ticket": 7},
        },
        client=model,
    )
    assert (result.argv, result.returncode, result.stdout, result.stderr) == (
        (),
        0,
        "hello back",
        "",
    )
    assert [m["content"] for m in result.messages] == ["q0", "a0", "hi", "hello back"]
    assert result.messages[-1]["name"] == "helper"
    assert result.variables == {"ticket": 7}
    (call,) = model.seen
    assert call["prompt"] == ("Be brief.",)
    assert call["variables"] == {"ticket": 7}
    assert _texts(call["messages"]) == ["q0", "a0", "hi"]


def test_ag2_agent_request_is_validated_before_anything_runs() -> None:
    with pytest.raises(EndpointConfigurationError) as caught:
        _ag2_run("agent", {"message": "hi", "llm_config": {}}, client=RecordingConfig("x"))
    assert caught.value.field == "llm_config"
    with pytest.raises(EndpointConfigurationError) as caught:
        _ag2_run("agent", {"message": "hi"})  # neither config nor client
    assert caught.value.field == "config"
    with pytest.raises(EndpointConfigurationError) as caught:
        _ag2_run(
            "agent",
            {
                "message": "hi",
                "config": {"provider": "openai", "model": "m", "options": {"api_key": "k"}},
            },
        )
    assert "credential" in str(caught.value) and "'k'" not in str(caught.value)
    with pytest.raises(EndpointConfigurationError) as caught:
        _ag2_run("agent", {"message": "hi"}, client=RecordingConfig("x"), env={"A": "b"})
    assert caught.value.field == "env"


def test_ag2_agent_builds_the_named_model_config(monkeypatch: pytest.MonkeyPatch) -> None:
    import ag2.config

    built: list[dict[str, Any]] = []

    def fake_config(**kwargs: Any) -> Any:
        built.append(kwargs)
        return ag2_testing.TestConfig("from openai config")

    monkeypatch.setattr(ag2.config, "OpenAIConfig", fake_config)
    result = _ag2_run(
        "agent",
        {
            "message": "hi",
            "config": {"provider": "openai", "model": "gpt-x", "options": {"temperature": 0.1}},
        },
    )
    assert result.stdout == "from openai config"
    assert built == [{"model": "gpt-x", "temperature": 0.1}]


def test_ag2_group_chat_round_robin_until_max_rounds() -> None:
    result = _ag2_run(
        "group_chat",
        {"message": "Topic: tabs or spaces", "agents": [{"name": "alice"}, {"name": "bob"}],
         "max_rounds": 4},
        client={"alice": ag2_testing.TestConfig("tabs"), "bob": ag2_testing.TestConfig("spaces")},
    )  # fmt: skip
    assert [(m["name"], m["content"]) for m in result.messages] == [
        ("user", "Topic: tabs or spaces"),
        ("alice", "tabs"),
        ("bob", "spaces"),
        ("alice", "tabs"),
    ]
    assert result.close_reason == "max_turns" and result.stdout == "tabs" and result.ok


def test_ag2_group_chat_sequence_from_initial_agent_with_shared_config() -> None:
    result = _ag2_run(
        "groupchat",
        {
            "message": "go",
            "pattern": "sequence",
            "initial_agent": "bob",
            "agents": [{"name": "alice", "prompt": "A"}, {"name": "bob"}],
        },
        client=ag2_testing.TestConfig("same"),
    )
    assert [m["name"] for m in result.messages] == ["user", "bob", "alice"]
    assert result.close_reason == "sequence_complete"


def test_ag2_group_chat_handoff_tool_redirects_the_next_turn() -> None:
    from ag2.events import ToolCallEvent

    alice = ag2_testing.TestConfig(
        ToolCallEvent(name="transfer_to_carol", arguments='{"reason": "security"}'), "over to carol"
    )
    result = _ag2_run(
        "group_chat",
        {
            "message": "Is this safe?",
            "pattern": "sequence",
            "agents": [
                {"name": "alice", "handoffs": [{"target": "carol", "condition": "security"}]},
                {"name": "bob"},
                {"name": "carol"},
            ],
        },
        client={
            "alice": alice,
            "bob": ag2_testing.TestConfig("bob speaks"),
            "carol": ag2_testing.TestConfig("carol checks"),
        },
    )
    assert [m["name"] for m in result.messages] == ["user", "alice", "carol"]
    assert result.stdout == "carol checks"


@pytest.mark.parametrize(
    "request_",
    [
        {"message": "m", "agents": [{"name": "a"}, {"name": "a"}]},
        {"message": "m", "agents": [{"name": "user"}]},
        {"message": "m", "agents": [{"name": "a"}], "initial_agent": "b"},
        {
            "message": "m",
            "agents": [{"name": "a", "handoffs": [{"target": "z", "condition": "c"}]}],
        },
        {"message": "m", "agents": []},
        {"message": "m", "agents": [{"name": "a"}], "pattern": "auto"},
    ],
)
def test_ag2_group_chat_bad_requests(request_: dict[str, Any]) -> None:
    with pytest.raises(EndpointConfigurationError):
        _ag2_run("group_chat", request_, client=ag2_testing.TestConfig("x"))


def test_ag2_nlip_runs_through_the_client_seam() -> None:
    model = RecordingConfig("pong")
    result = _ag2_run(
        "nlip",
        {"message": "ping", "url": "http://127.0.0.1:9", "variables": {"k": "v"},
         "history": [{"role": "user", "content": "earlier"}]},
        client=model,
    )  # fmt: skip
    assert result.stdout == "pong" and result.messages[-1] == {"name": "remote", "content": "pong"}
    assert _texts(model.seen[0]["messages"]) == ["earlier", "ping"]
    assert model.seen[0]["variables"] == {"k": "v"}
    with pytest.raises(EndpointConfigurationError) as caught:
        _ag2_run("nlip", {"message": "ping"}, client=model)
    assert caught.value.field == "url"


def test_ag2_nlip_without_nlip_sdk_names_the_missing_package() -> None:
    try:
        import nlip_sdk  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("nlip-sdk is installed")
    with pytest.raises(ImportError, match="nlip-sdk"):
        _ag2_run("nlip", {"message": "ping", "url": "http://127.0.0.1:9"})


def test_ag2_missing_makes_the_provider_unavailable_and_others_resolve() -> None:
    code = textwrap.dedent(
        """\
        import json, sys
        sys.modules["ag2"] = None  # as if AG2 were not installed
        from provcat import match_endpoint
        from provcat.errors import ProviderUnavailable
        from provcat.endpoints.registry import EndpointRegistry
        rows = {r["provider"]: r for r in EndpointRegistry.list_providers()}
        try:
            match_endpoint("ag2", "agent")
        except ProviderUnavailable as exc:
            unavailable = [exc.provider, exc.diagnostic.code]
        try:
            match_endpoint("autogen", "chat", openai_compatible=True, base_url="http://x")
        except ProviderUnavailable:
            masked = False
        print(json.dumps({
            "row": rows["ag2"],
            "unavailable": unavailable,
            "masked": masked,
            "claude": type(match_endpoint("claude", "cli")).__name__,
            "openai": type(match_endpoint("openai", "chat")).__name__,
            "available": sorted(p for p, r in rows.items() if r["availability"] == "available"),
        }))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    row = seen["row"]
    assert row["availability"] == "unavailable" and row["endpoints"] == []
    (diagnostic,) = row["diagnostics"]
    assert diagnostic["code"] == "import_error"
    assert diagnostic["module"] == "provcat.providers.ag2"
    assert diagnostic["cause_type"] == "ImportError"
    assert "provcat[ag2]" in diagnostic["message"]
    assert seen["unavailable"] == ["ag2", "import_error"]
    assert seen["masked"] is False
    assert seen["claude"] == "ClaudeCodeCLIEndpoint"
    assert seen["openai"] == "OpenaiChatCompletionsEndpoint"  # derived from openai-chat
    assert (
        len(seen["available"]) == len(provcat_catalog.PROVIDERS) - 1
        and "ag2" not in seen["available"]
    )


def test_importing_the_ag2_provider_does_not_import_ag2() -> None:
    code = (
        "import sys, provcat.providers.ag2, provcat.providers.ag2.groupchat\n"
        "print('ag2' in sys.modules, 'yaml' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False"]


class FailingConfig(ag2_testing.TestConfig):  # type: ignore[misc, name-defined]
    """A model whose SDK refuses the key and quotes it, as openai-python's 401 does ("Incorrect
    API key provided: sk-...")."""

    def create(self) -> Any:
        async def client(messages: Sequence[Any], context: Any, **kwargs: Any) -> Any:
            key = os.environ["OPENAI_API_KEY"]
            raise RuntimeError(f"Error code: 401 - Incorrect API key provided: Bearer {key}")

        return client


def test_an_ag2_failure_is_an_api_error_without_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """README: every failure of a call is an APIError subclass, and the value of an environment
    variable named like a secret is redacted from errors; AG2 raises the vendor SDK's own."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-ag2-secret-12345")
    with pytest.raises(APIError) as caught:
        _ag2_run("agent", {"message": "hi"}, client=FailingConfig("unused"))
    shown = (
        f"{caught.value} {caught.value!r} {caught.value.__cause__!r} {caught.value.__context__!r}"
    )
    assert "sk-ag2-secret-12345" not in shown
    assert "Incorrect API key provided" in str(caught.value)
    assert caught.value.provider == "ag2"


def test_a_codex_schema_file_is_never_taken_from_a_folder_others_can_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The schema object is written to a file codex reads; a folder of the shared temporary
    directory that another user made (or opened) under the expected name is not used."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    planted = tmp_path / f"provcat-{os.getuid()}"
    planted.mkdir(mode=0o777)
    planted.chmod(0o777)
    argv = _endpoint("codex").command({"prompt": "go", "output_schema": SCHEMA})
    schema = Path(argv[argv.index("--output-schema") + 1])
    assert schema.parent != planted and json.loads(schema.read_text()) == SCHEMA
    assert schema.parent.stat().st_mode & 0o077 == 0


def test_codex_config_values_are_toml_whatever_they_hold() -> None:
    """codex parses each -c value as TOML; Python's own TOML reader is the reference."""
    import tomllib

    values = {"model": "x\U0001f600", "note": "a\x7fb", "quote": 'q"\\'}
    argv = _endpoint("codex").command({"prompt": "go", "config_overrides": values})
    pairs = [argv[i + 1] for i, a in enumerate(argv) if a == "-c"]
    parsed = {k: v for p in pairs for k, v in tomllib.loads(p.replace("=", " = ", 1)).items()}
    assert {k: parsed[k] for k in values} == values


# --- the agent audit of 2026-12-07 ------------------------------------------------------------


def test_the_argv_of_a_result_has_secrets_redacted(
    stand_ins: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/calling.md: the `argv` it ran, with the values of secret-named environment
    variables redacted. Before, only stdout and stderr were."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-SECRETVALUE123")
    result = _run(
        _endpoint("claude"), {"prompt": "use sk-ant-SECRETVALUE123", "cwd": str(stand_ins)}
    )
    assert "sk-ant-SECRETVALUE123" not in repr(result)
    assert result.argv[-1] == "use <ANTHROPIC_API_KEY redacted>"


@pytest.mark.parametrize("provider", ["claude", "codex", "gemini_code", "pi"])
def test_a_lone_surrogate_in_the_prompt_names_the_prompt(
    stand_ins: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    """Before: `env= is refused ('utf-8' codec can't encode ...)`, with no env= given."""
    marker = tmp_path / "ran"
    monkeypatch.setenv("STANDIN_MARKER", str(marker))
    with pytest.raises(RequestValidationError) as caught:
        _run(_endpoint(provider), {"prompt": "hi \ud800", "cwd": str(stand_ins)})
    assert [p.location for p in caught.value.problems] == ["prompt"]
    assert "surrogate" in str(caught.value) and not marker.exists()


def test_a_prompt_longer_than_an_argument_may_be_is_a_request_error(stand_ins: Path) -> None:
    """Linux takes at most 128 KiB in one argument (MAX_ARG_STRLEN): before, an APIConnectionError
    marked never_sent, which a retry wrapper tries again to the same end."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the bound on one argument is Linux's")
    with pytest.raises(RequestValidationError) as caught:
        _run(_endpoint("claude"), {"prompt": "x" * 200_000, "cwd": str(stand_ins)})
    assert caught.value.problems[0].location == "prompt"
    assert "Argument list too long" in str(caught.value)


def test_codex_refuses_a_cwd_that_is_not_a_directory(
    stand_ins: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """codex takes its working directory as `--cd`, and the check skipped it."""
    marker = tmp_path / "ran"
    monkeypatch.setenv("STANDIN_MARKER", str(marker))
    with pytest.raises(RequestValidationError) as caught:
        _run(_endpoint("codex"), {"prompt": "hi", "cwd": str(tmp_path / "missing")})
    assert caught.value.problems[0].location == "cwd" and not marker.exists()


def test_claude_stream_json_is_run_with_verbose_as_the_cli_requires() -> None:
    """`claude -p --output-format stream-json` exits 1: "When using --print,
    --output-format=stream-json requires --verbose"; the Agent SDK passes --verbose on every run
    (claude-agent-sdk-python, _internal/transport/subprocess_cli.py)."""
    endpoint = _endpoint("claude")
    argv = endpoint.command({"prompt": "hi", "output_format": "stream-json"})
    assert "--verbose" in argv and argv.index("--verbose") < argv.index("--")
    assert "--verbose" not in endpoint.command({"prompt": "hi", "output_format": "json"})
    for refused in (
        {"output_format": "stream-json", "verbose": False},
        {"include_partial_messages": True},
        {"output_format": "json", "include_hook_events": True},
        {"input_format": "stream-json"},
    ):
        with pytest.raises(ValidationError):
            ClaudeCodeRequest.model_validate({"prompt": "hi", **refused})
