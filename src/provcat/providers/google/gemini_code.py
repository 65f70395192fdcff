"""Request model and endpoint class for the Gemini CLI in non-interactive mode (``gemini -p``).

``GeminiCodeRequest`` holds the options a caller sets for one headless run: the prompt, the
working directory, and the documented ``gemini`` flags that shape that run (model, approval
mode and sandbox, policies, MCP servers and extensions, session handling, workspace
directories, output format). Options that start an interactive or editor session
(``--prompt-interactive``, ``--acp``, ``--experimental-zed-integration``, ``--screen-reader``),
that list or delete something and exit (``--list-extensions``, ``--list-sessions``,
``--delete-session``) and hidden testing flags are not request options and are left out. The
removed ``--all-files`` flag is no longer accepted by the CLI and is left out too.

Source: https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/cli-reference.md
Source: https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/headless.md
Source: https://github.com/google-gemini/gemini-cli/blob/main/packages/cli/src/config/config.ts
"""

from typing import ClassVar, Literal, Self

from pydantic import AliasChoices, Field, model_validator

from provcat.endpoints.agentic import AgenticEndpoint
from provcat.endpoints.request import RequestModel

__all__ = ["GeminiCLIEndpoint", "GeminiCodeRequest"]


class GeminiCodeRequest(RequestModel):
    """Options of one ``gemini -p`` run."""

    prompt: str = Field(description="Prompt passed to gemini -p; appended to any piped stdin.")
    cwd: str | None = Field(
        None,
        validation_alias=AliasChoices("cwd", "repo"),
        description="Working directory (repository checkout) the CLI runs in; 'repo' also accepted.",
    )
    model: str | None = Field(
        None, description="Model name or alias (auto, pro, flash, flash-lite); auto by default."
    )
    approval_mode: Literal["default", "auto_edit", "yolo", "plan"] | None = Field(
        None,
        description="Tool approval: prompt, auto-approve edits, auto-approve all, or read-only plan.",
    )
    yolo: bool | None = Field(
        None, description="Deprecated shortcut for approval_mode yolo: auto-approve every action."
    )
    sandbox: bool | None = Field(None, description="Run tools inside a sandboxed environment.")
    skip_trust: bool | None = Field(
        None, description="Trust the working directory for this run without the folder-trust check."
    )
    policy: list[str] | None = Field(
        None, description="Extra policy-engine files or directories to load."
    )
    admin_policy: list[str] | None = Field(
        None, description="Extra admin policy files or directories to load."
    )
    allowed_tools: list[str] | None = Field(
        None,
        description="Deprecated (use policies): tools that run without confirmation.",
    )
    allowed_mcp_server_names: list[str] | None = Field(
        None, description="Only these configured MCP servers are allowed."
    )
    extensions: list[str] | None = Field(
        None, description="Extensions to enable; all installed extensions when omitted."
    )
    include_directories: list[str] | None = Field(
        None, description="Additional directories added to the workspace."
    )
    resume: str | None = Field(
        None, description="Session to resume: 'latest' or a session index number."
    )
    session_id: str | None = Field(
        None, description="Start a new session under this id (letters, digits, '-' and '_')."
    )
    session_file: str | None = Field(None, description="Load the session from this JSON file.")
    worktree: str | None = Field(
        None,
        description="Run in a new git worktree of this name (needs experimental.worktrees).",
    )
    output_format: Literal["text", "json", "stream-json"] | None = Field(
        None, description="Output: plain text, one JSON object, or newline-delimited JSON events."
    )
    raw_output: bool | None = Field(
        None, description="Do not sanitize model output (ANSI escapes pass through)."
    )
    accept_raw_output_risk: bool | None = Field(
        None, description="Suppress the security warning printed with raw_output."
    )
    debug: bool | None = Field(None, description="Run in debug mode with verbose logging.")

    @model_validator(mode="after")
    def _flags_the_cli_rejects(self) -> Self:
        """The CLI refuses --yolo together with --approval-mode; fail before anything runs."""
        if self.yolo and self.approval_mode is not None:
            raise ValueError("yolo conflicts with approval_mode; use approval_mode='yolo'")
        return self


class GeminiCLIEndpoint(AgenticEndpoint):
    """Gemini CLI in headless mode: runs ``gemini -p <prompt>`` in the request's working
    directory with the flags that a :class:`GeminiCodeRequest` selects, and reads the answer
    from standard output (text, a JSON object, or stream-json events).
    """

    executable: ClassVar[str] = "gemini"

    def build_command(self, request: GeminiCodeRequest) -> list[str]:
        """``gemini [flags] --prompt=<prompt>``; ``cwd`` is the working directory (no flag).

        Every value is passed as ``--flag=value`` so yargs binds it to its flag even when it
        starts with a dash; array options are repeated once per item (the CLI also splits a
        value on commas).
        """
        r = request
        argv = [self.executable]
        for flag, value in (
            ("--model", r.model),
            ("--approval-mode", r.approval_mode),
            ("--yolo", r.yolo),
            ("--sandbox", r.sandbox),
            ("--skip-trust", r.skip_trust),
            ("--policy", r.policy),
            ("--admin-policy", r.admin_policy),
            ("--allowed-tools", r.allowed_tools),
            ("--allowed-mcp-server-names", r.allowed_mcp_server_names),
            ("--extensions", r.extensions),
            ("--include-directories", r.include_directories),
            ("--resume", r.resume),
            ("--session-id", r.session_id),
            ("--session-file", r.session_file),
            ("--worktree", r.worktree),
            ("--output-format", r.output_format),
            ("--raw-output", r.raw_output),
            ("--accept-raw-output-risk", r.accept_raw_output_risk),
            ("--debug", r.debug),
        ):
            if value is None or value is False:
                continue
            if value is True:
                argv.append(flag)
            elif isinstance(value, list):
                argv += [f"{flag}={item}" for item in value]
            else:
                argv.append(f"{flag}={value}")
        argv.append(f"--prompt={r.prompt}")
        return argv
