"""Request model and endpoint class for the Claude Code CLI in print mode (``claude -p``).

``ClaudeCodeRequest`` holds the options a caller sets for one non-interactive run: the prompt,
the working directory, and the documented command-line flags that shape that run (model and
effort, permissions and tools, system prompt, session handling, output format, MCP servers and
settings). Flags that only make sense in an interactive terminal (``--ide``, ``--chrome``,
``--teleport``, ``--remote``, ``--worktree``, ``--tmux``, ``--from-pr``, ...) or that print
something and exit (``--help``, ``--version``) are not request options and are left out; so are
hidden flags (``--max-thinking-tokens``, ``--thinking``, ``--task-budget``).

Source: https://code.claude.com/docs/en/cli-reference
Source: https://code.claude.com/docs/en/cli-reference
Source: https://github.com/anthropics/claude-agent-sdk-python/blob/main/src/claude_agent_sdk/_internal/transport/subprocess_cli.py
"""

from typing import Any, ClassVar, Literal, Self

from pydantic import AliasChoices, Field, model_validator

from provcat.endpoints.agentic import AgenticEndpoint, flag_args
from provcat.endpoints.request import RequestModel

__all__ = ["ClaudeCodeCLIEndpoint", "ClaudeCodeRequest"]


class ClaudeCodeRequest(RequestModel):
    """Options of one ``claude -p`` run."""

    prompt: str = Field(description="The task or question passed to claude -p.")
    cwd: str | None = Field(
        None,
        validation_alias=AliasChoices("cwd", "repo"),
        description="Working directory (repository checkout) the CLI runs in; 'repo' also accepted.",
    )
    model: str | None = Field(
        None, description="Model alias (sonnet, opus, haiku) or full model id for the session."
    )
    fallback_model: str | None = Field(
        None, description="Model(s) to fall back to when the primary one is overloaded."
    )
    effort: Literal["low", "medium", "high", "xhigh", "max"] | None = Field(
        None, description="Reasoning effort level; available levels depend on the model."
    )
    permission_mode: (
        Literal["default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"] | None
    ) = Field(None, description="Permission mode the session starts in.")
    dangerously_skip_permissions: bool | None = Field(
        None,
        description="Bypass every permission check; same as permission_mode bypassPermissions.",
    )
    allowed_tools: list[str] | None = Field(
        None,
        description="Permission rules for tools that run without asking, e.g. 'Bash(git log *)'.",
    )
    disallowed_tools: list[str] | None = Field(
        None, description="Tools removed from the model's context and never allowed."
    )
    tools: list[str] | None = Field(
        None,
        description="Restrict the built-in tool set: an empty list disables all, ['default'] keeps all.",
    )
    system_prompt: str | None = Field(
        None, description="Text that replaces the whole default system prompt."
    )
    system_prompt_file: str | None = Field(
        None, description="File whose contents replace the default system prompt."
    )
    append_system_prompt: str | None = Field(
        None, description="Text appended to the end of the default system prompt."
    )
    append_system_prompt_file: str | None = Field(
        None, description="File whose contents are appended to the default system prompt."
    )
    max_turns: int | None = Field(
        None, ge=1, description="Stop after this many agentic turns (print mode only)."
    )
    max_budget_usd: float | None = Field(
        None, gt=0, description="Stop once API spending reaches this many US dollars."
    )
    add_dirs: list[str] | None = Field(
        None, description="Extra directories the agent may read and edit besides cwd."
    )
    continue_: bool | None = Field(
        None, alias="continue", description="Continue the most recent conversation in cwd."
    )
    resume: str | None = Field(None, description="Session id or name to resume.")
    session_id: str | None = Field(
        None, description="Use this UUID as the session id instead of a generated one."
    )
    fork_session: bool | None = Field(
        None, description="When resuming or continuing, write to a new session id."
    )
    name: str | None = Field(None, description="Display name given to the session.")
    no_session_persistence: bool | None = Field(
        None, description="Do not save the session to disk, so it cannot be resumed."
    )
    output_format: Literal["text", "json", "stream-json"] | None = Field(
        None,
        description="Format of the printed result: plain text, one JSON object, or JSON lines.",
    )
    input_format: Literal["text", "stream-json"] | None = Field(
        None, description="Format of the input read from stdin."
    )
    json_schema: dict[str, Any] | None = Field(
        None, description="JSON Schema the final structured output must validate against."
    )
    include_partial_messages: bool | None = Field(
        None, description="Emit partial streaming events (needs output_format stream-json)."
    )
    include_hook_events: bool | None = Field(
        None, description="Emit hook lifecycle events (needs output_format stream-json)."
    )
    verbose: bool | None = Field(None, description="Print full turn-by-turn output.")
    debug: bool | str | None = Field(
        None, description="Enable debug logging; a string selects categories such as 'api,hooks'."
    )
    mcp_config: list[str] | None = Field(
        None, description="MCP server configurations to load, as JSON file paths or JSON strings."
    )
    strict_mcp_config: bool | None = Field(
        None, description="Use only the servers from mcp_config and ignore other MCP settings."
    )
    permission_prompt_tool: str | None = Field(
        None, description="MCP tool that answers permission prompts in non-interactive mode."
    )
    settings: str | None = Field(
        None, description="Extra settings, as a settings JSON file path or a JSON string."
    )
    setting_sources: list[Literal["user", "project", "local"]] | None = Field(
        None, description="Which settings sources to load."
    )
    agent: str | None = Field(
        None, description="Agent (subagent definition) that runs the session."
    )
    agents: dict[str, Any] | None = Field(
        None, description="Custom subagents defined inline, keyed by name."
    )
    betas: list[str] | None = Field(
        None, description="Beta headers added to API requests (API-key users only)."
    )
    plugin_dirs: list[str] | None = Field(
        None, description="Directories to load plugins from for this session."
    )
    bare: bool | None = Field(
        None,
        description="Minimal mode: skip hooks, plugins, auto-memory and CLAUDE.md discovery.",
    )
    disable_slash_commands: bool | None = Field(
        None, description="Disable all skills and slash commands for this session."
    )

    @model_validator(mode="after")
    def _flags_the_cli_rejects(self) -> Self:
        """Combinations ``claude -p`` refuses fail before anything runs: stream-json output
        without ``--verbose`` ("When using --print, --output-format=stream-json requires
        --verbose"; the Agent SDK passes ``--verbose`` on every run, and so does this endpoint
        with stream-json unless ``verbose`` is False), the events of a stream without one, and
        stream-json input, which comes on standard input (this endpoint sends the prompt as an
        argument)."""
        if self.output_format == "stream-json" and self.verbose is False:
            raise ValueError("output_format='stream-json' needs verbose (the CLI requires it)")
        for name in ("include_partial_messages", "include_hook_events"):
            if getattr(self, name) and self.output_format != "stream-json":
                raise ValueError(f"{name} needs output_format='stream-json'")
        if self.input_format == "stream-json":
            raise ValueError(
                "input_format='stream-json' reads messages from standard input, which this "
                "endpoint does not send: give the prompt"
            )
        return self


class ClaudeCodeCLIEndpoint(AgenticEndpoint):
    """Claude Code CLI in print mode: runs ``claude -p <prompt>`` in the request's working
    directory with the flags that a :class:`ClaudeCodeRequest` selects, and reads the result
    from standard output (text, one JSON object, or stream-json lines).
    """

    executable: ClassVar[str] = "claude"

    def build_command(self, request: ClaudeCodeRequest) -> list[str]:
        """``claude -p [flags] -- <prompt>``; ``cwd`` is the working directory, not a flag.

        Lists the CLI takes as one comma-separated value (``--allowedTools``, ``--tools``,
        ``--betas``, ``--setting-sources``) are joined the way the Agent SDK joins them; flags
        with an optional value (``--resume``, ``--session-id``, ``--debug``) use the
        ``--flag=value`` form so a dash-leading value is never read as another flag; ``--``
        ends the options so a variadic flag cannot swallow the prompt.
        """
        import json  # only when a command is built, not at catalog build

        r = request
        argv = [self.executable, "-p"]
        argv += flag_args(
            [
                ("--output-format", r.output_format),
                ("--input-format", r.input_format),
                ("--model", r.model),
                ("--fallback-model", r.fallback_model),
                ("--effort", r.effort),
                ("--permission-mode", r.permission_mode),
                ("--dangerously-skip-permissions", r.dangerously_skip_permissions),
                ("--system-prompt", r.system_prompt),
                ("--system-prompt-file", r.system_prompt_file),
                ("--append-system-prompt", r.append_system_prompt),
                ("--append-system-prompt-file", r.append_system_prompt_file),
            ]
        )
        if r.tools is not None:
            argv += ["--tools", ",".join(r.tools)]  # "" disables every built-in tool
        argv += flag_args(
            [
                ("--allowedTools", _joined(r.allowed_tools)),
                ("--disallowedTools", _joined(r.disallowed_tools)),
                ("--max-turns", r.max_turns),
                ("--max-budget-usd", r.max_budget_usd),
                ("--add-dir", r.add_dirs),
                ("--continue", r.continue_),
            ]
        )
        if r.resume is not None:
            argv.append(f"--resume={r.resume}")
        if r.session_id is not None:
            argv.append(f"--session-id={r.session_id}")
        argv += flag_args(
            [
                ("--fork-session", r.fork_session),
                ("--name", r.name),
                ("--no-session-persistence", r.no_session_persistence),
                ("--include-partial-messages", r.include_partial_messages),
                ("--include-hook-events", r.include_hook_events),
                ("--verbose", r.verbose or r.output_format == "stream-json"),
            ]
        )
        if r.json_schema is not None:
            argv += ["--json-schema", json.dumps(r.json_schema, separators=(",", ":"))]
        if r.debug is True:
            argv.append("--debug")
        elif isinstance(r.debug, str):
            argv.append(f"--debug={r.debug}")
        argv += flag_args(
            [
                ("--mcp-config", r.mcp_config),
                ("--strict-mcp-config", r.strict_mcp_config),
                ("--permission-prompt-tool", r.permission_prompt_tool),
                ("--settings", r.settings),
            ]
        )
        if r.setting_sources is not None:
            argv.append(f"--setting-sources={','.join(r.setting_sources)}")
        argv += flag_args([("--agent", r.agent)])
        if r.agents is not None:
            argv += ["--agents", json.dumps(r.agents, separators=(",", ":"))]
        argv += flag_args(
            [
                ("--betas", _joined(r.betas)),
                ("--plugin-dir", r.plugin_dirs),
                ("--bare", r.bare),
                ("--disable-slash-commands", r.disable_slash_commands),
            ]
        )
        argv += ["--", r.prompt]
        return argv


def _joined(values: list[str] | None) -> str | None:
    return ",".join(values) if values else None
