"""OpenAI Codex CLI in non-interactive mode (``codex exec``): request model and endpoint class.

``CodexRequest`` holds the options a caller sets for one ``codex exec`` run: the prompt, the
model, the workspace, sandbox and approval settings, output options and configuration
overrides. Most fields map one-to-one onto a command-line flag (named in each description);
``approval_policy``, ``reasoning_effort`` and ``fast_mode`` have no dedicated ``exec`` flag and
are applied as ``-c`` configuration overrides (``approval_policy``, ``model_reasoning_effort``,
``service_tier``). The ``resume_*`` fields select the ``codex exec resume`` form instead of a
new session.

Source: https://developers.openai.com/codex/cli/reference
Source: https://developers.openai.com/codex/noninteractive
Source: https://github.com/openai/codex/blob/main/codex-rs/exec/src/cli.rs
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from provcat.endpoint import AgenticEndpoint
from provcat.request import RequestModel

__all__ = ["CodexCLIEndpoint", "CodexRequest"]


class CodexRequest(RequestModel):
    """Per-run options of ``codex exec``."""

    prompt: str = Field(
        description="Task instruction passed as the PROMPT argument ('-' reads it from stdin)."
    )
    model: str | None = Field(None, description="Model for this run (-m/--model).")
    images: list[str] | None = Field(
        None, description="Image file paths attached to the first message (-i/--image)."
    )
    oss: bool | None = Field(None, description="Use the local open-source model provider (--oss).")
    local_provider: Literal["lmstudio", "ollama"] | None = Field(
        None, description="Which local provider --oss uses (--local-provider)."
    )
    profile: str | None = Field(
        None, description="Configuration profile layered on the user config (-p/--profile)."
    )
    cwd: str | None = Field(
        None, description="Workspace root / repository directory the agent works in (-C/--cd)."
    )
    add_dirs: list[str] | None = Field(
        None, description="Extra directories the agent may write to (--add-dir, repeated)."
    )
    sandbox: Literal["read-only", "workspace-write", "danger-full-access"] | None = Field(
        None, description="Sandbox policy for model-generated commands (-s/--sandbox)."
    )
    approval_policy: Literal["untrusted", "on-failure", "on-request", "never"] | None = Field(
        None,
        description="When Codex asks before running commands (-c approval_policy=...); exec "
        "runs headless and defaults to never; on-failure is deprecated.",
    )
    full_auto: bool | None = Field(
        None,
        description="Deprecated --full-auto compatibility flag; same as sandbox workspace-write.",
    )
    bypass_approvals: bool | None = Field(
        None,
        description="Skip approvals and sandboxing entirely "
        "(--dangerously-bypass-approvals-and-sandbox / --yolo); only in isolated runners.",
    )
    bypass_hook_trust: bool | None = Field(
        None,
        description="Run enabled hooks without persisted hook trust "
        "(--dangerously-bypass-hook-trust).",
    )
    skip_git_repo_check: bool | None = Field(
        None, description="Allow running outside a Git repository (--skip-git-repo-check)."
    )
    reasoning_effort: str | None = Field(
        None,
        description="Reasoning effort, e.g. none, minimal, low, medium, high, xhigh, max, ultra "
        "(-c model_reasoning_effort=...); open vocabulary that depends on the model.",
    )
    fast_mode: bool | None = Field(
        None, description='Request the Fast service tier for the run (-c service_tier="fast").'
    )
    ephemeral: bool | None = Field(
        None, description="Do not persist session rollout files to disk (--ephemeral)."
    )
    ignore_user_config: bool | None = Field(
        None, description="Do not load $CODEX_HOME/config.toml (--ignore-user-config)."
    )
    ignore_rules: bool | None = Field(
        None, description="Do not load user or project execpolicy .rules files (--ignore-rules)."
    )
    strict_config: bool | None = Field(
        None, description="Fail on config.toml fields this Codex does not know (--strict-config)."
    )
    output_schema: str | dict[str, Any] | None = Field(
        None,
        description="JSON Schema of the final answer (--output-schema): a file path, or a schema "
        "object to be written to a file.",
    )
    json_events: bool | None = Field(
        None, description="Print newline-delimited JSON events instead of text (--json)."
    )
    output_last_message: str | None = Field(
        None, description="File the final agent message is written to (-o/--output-last-message)."
    )
    color: Literal["always", "never", "auto"] | None = Field(
        None, description="ANSI colour in the human-readable output (--color)."
    )
    enable_features: list[str] | None = Field(
        None, description="Feature flags to force on (--enable, repeated)."
    )
    disable_features: list[str] | None = Field(
        None, description="Feature flags to force off (--disable, repeated)."
    )
    config_overrides: dict[str, Any] | None = Field(
        None, description="Extra configuration overrides, each passed as -c key=value."
    )
    resume_session_id: str | None = Field(
        None, description="Session ID or thread name to continue (codex exec resume SESSION_ID)."
    )
    resume_last: bool | None = Field(
        None, description="Continue the most recent session (codex exec resume --last)."
    )
    resume_all: bool | None = Field(
        None, description="Consider sessions from any directory when resuming (--all)."
    )


class CodexCLIEndpoint(AgenticEndpoint):
    """OpenAI Codex CLI, driven through the command ``codex exec [OPTIONS] PROMPT`` (or
    ``codex exec resume`` to continue a session) with options from a :class:`CodexRequest`;
    the run's result is the agent's final message, or its JSONL event stream with ``--json``.
    """
