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
Source: https://github.com/openai/codex/blob/main/codex-rs/utils/cli/src/shared_options.rs
Reviewed against both files on 2026-12-01 (``--not-so-yolo`` added as ``auto_review``).
"""

import hashlib
import json
import os
from typing import Any, ClassVar, Literal, Self

from pydantic import Field, model_validator

from provcat.endpoints.agentic import AgenticEndpoint, flag_args
from provcat.endpoints.request import RequestModel

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
        description="Deprecated --full-auto: sent as its documented replacement "
        "--sandbox workspace-write (an explicit sandbox wins).",
    )
    bypass_approvals: bool | None = Field(
        None,
        description="Skip approvals and sandboxing entirely "
        "(--dangerously-bypass-approvals-and-sandbox / --yolo); only in isolated runners.",
    )
    auto_review: bool | None = Field(
        None,
        description="Let Codex auto-review approval requests while it runs with workspace write "
        "access (--not-so-yolo); not with bypass_approvals.",
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

    @model_validator(mode="after")
    def _flags_the_cli_rejects(self) -> Self:
        """Combinations clap refuses (conflicts_with / requires) fail before anything runs."""
        if self.local_provider is not None and not self.oss:
            raise ValueError("local_provider needs oss=True (--local-provider requires --oss)")
        if self.bypass_approvals and (self.sandbox is not None or self.full_auto):
            raise ValueError("bypass_approvals conflicts with sandbox and full_auto")
        if self.bypass_approvals and self.auto_review:
            raise ValueError("bypass_approvals conflicts with auto_review (--not-so-yolo)")
        if self.resume_last and self.resume_session_id is not None:
            raise ValueError("give resume_session_id or resume_last, not both")
        if self.resume_all and not (self.resume_last or self.resume_session_id is not None):
            raise ValueError("resume_all only applies when resuming a session")
        return self


class CodexCLIEndpoint(AgenticEndpoint):
    """OpenAI Codex CLI, driven through the command ``codex exec [OPTIONS] PROMPT`` (or
    ``codex exec resume`` to continue a session) with options from a :class:`CodexRequest`;
    the run's result is the agent's final message, or its JSONL event stream with ``--json``.
    """

    executable: ClassVar[str] = "codex"

    def working_directory(self, request: Any) -> str | None:
        return None  # codex has a flag for it: -C/--cd

    def build_command(self, request: CodexRequest) -> list[str]:
        """``codex [root flags] exec [exec flags] [resume ...] -- PROMPT``.

        ``-c``, ``--enable``, ``--disable`` and ``--strict-config`` are root options of
        ``codex`` and go before ``exec``. ``--`` ends the options so the greedy ``--image``
        list cannot swallow the prompt and a dash-leading prompt stays a prompt.
        """
        r = request
        argv = [self.executable]
        argv += flag_args([("--strict-config", r.strict_config)])
        for key, value in _overrides(r):
            argv += ["-c", f"{key}={_toml(value)}"]
        argv += flag_args([("--enable", r.enable_features), ("--disable", r.disable_features)])
        argv.append("exec")
        sandbox = r.sandbox or ("workspace-write" if r.full_auto else None)
        argv += flag_args(
            [
                ("--model", r.model),
                ("--image", r.images),
                ("--oss", r.oss),
                ("--local-provider", r.local_provider),
                ("--profile", r.profile),
                ("--cd", r.cwd),
                ("--add-dir", r.add_dirs),
                ("--sandbox", sandbox),
                ("--dangerously-bypass-approvals-and-sandbox", r.bypass_approvals),
                ("--not-so-yolo", r.auto_review),
                ("--dangerously-bypass-hook-trust", r.bypass_hook_trust),
                ("--skip-git-repo-check", r.skip_git_repo_check),
                ("--ephemeral", r.ephemeral),
                ("--ignore-user-config", r.ignore_user_config),
                ("--ignore-rules", r.ignore_rules),
                ("--output-schema", _schema_file(r.output_schema)),
                ("--json", r.json_events),
                ("--output-last-message", r.output_last_message),
                ("--color", r.color),
            ]
        )
        positionals = [r.prompt]
        if r.resume_last or r.resume_session_id is not None:
            argv.append("resume")
            argv += flag_args([("--last", r.resume_last), ("--all", r.resume_all)])
            if r.resume_session_id is not None:
                positionals.insert(0, r.resume_session_id)
        return [*argv, "--", *positionals]


def _overrides(r: CodexRequest) -> list[tuple[str, Any]]:
    """The fields without an ``exec`` flag, as documented config keys, then the caller's own."""
    pairs: list[tuple[str, Any]] = []
    if r.approval_policy is not None:
        pairs.append(("approval_policy", r.approval_policy))
    if r.reasoning_effort is not None:
        pairs.append(("model_reasoning_effort", r.reasoning_effort))
    if r.fast_mode:
        pairs.append(("service_tier", "fast"))
    pairs.extend(sorted((r.config_overrides or {}).items()))
    return pairs


def _toml(value: Any) -> str:
    """A TOML literal for ``-c key=value`` (codex parses the value as TOML)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)

    if isinstance(value, str):
        return _basic(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_basic(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot express a {type(value).__name__} as a codex -c value")


def _basic(text: str) -> str:
    """``text`` as a TOML basic string: JSON's escapes are TOML's, but only for the Basic
    Multilingual Plane (a surrogate pair is no TOML escape), so other characters stay as they
    are, and DEL, which JSON leaves bare and TOML must escape, is escaped."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _schema_file(schema: str | dict[str, Any] | None) -> str | None:
    """A path for ``--output-schema``: a given path as-is, a schema object written to a
    content-addressed file in the temporary directory (same schema, same path)."""
    if schema is None or isinstance(schema, str):
        return schema
    import tempfile  # only a schema object needs it (tempfile loads shutil and more: ~3 ms)

    text = json.dumps(schema, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    # in a directory of this user's own: a shared temporary directory would let another user
    # plant the file under its predictable name and swap the schema
    uid = getattr(os, "getuid", lambda: None)()
    folder = os.path.join(tempfile.gettempdir(), f"provcat-{uid}" if uid is not None else "provcat")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    info = os.stat(folder, follow_symlinks=False)
    if uid is not None and (info.st_uid != uid or info.st_mode & 0o077 or os.path.islink(folder)):
        folder = tempfile.mkdtemp(prefix="provcat-")  # not ours, or open to others: a new one
    path = os.path.join(folder, f"codex-schema-{digest}.json")
    if not os.path.exists(path):
        fd, scratch = tempfile.mkstemp(dir=folder, suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(scratch, path)
    return path
