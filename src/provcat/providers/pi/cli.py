"""Request model and endpoint class for the pi coding agent CLI in print mode (``pi -p``).

pi is the ``pi`` command of the npm package ``@mariozechner/pi-coding-agent``.
``PiRequest`` holds the options a caller sets for one non-interactive run: the prompt and
``@file`` attachments, the working directory, and the documented flags that shape that run
(provider, model and thinking level, tools, system prompt, session handling, resource loading).
Interactive-only options (``--resume`` picker, ``--models`` cycling, themes), the RPC and export
modes, commands that print and exit, and ``--api-key`` (a credential, not a request default)
are left out.

Source: https://github.com/badlogic/pi-mono/blob/main/packages/coding-agent/README.md
Source: https://www.npmjs.com/package/@mariozechner/pi-coding-agent
"""

from typing import ClassVar, Literal

from pydantic import AliasChoices, Field, field_validator

from provcat.endpoints.agentic import AgenticEndpoint, flag_args
from provcat.endpoints.request import RequestModel

__all__ = ["PiCLIEndpoint", "PiRequest"]


class PiRequest(RequestModel):
    """Options of one ``pi -p`` run."""

    prompt: str = Field(description="Message sent to the agent by pi -p.")

    @field_validator("prompt")
    @classmethod
    def _no_option_or_file(cls, prompt: str) -> str:
        """pi's parser has no ``--``: it reads an argument starting with ``-`` as an option and
        one starting with ``@`` as a file, so such a prompt cannot be passed."""
        if prompt.startswith(("-", "@")):
            raise ValueError(
                "pi reads an argument starting with '-' as an option and with '@' as a file; "
                "start the prompt with another character"
            )
        return prompt

    files: list[str] | None = Field(
        None, description="Files attached to the message as @file arguments (text or images)."
    )
    cwd: str | None = Field(
        None,
        validation_alias=AliasChoices("cwd", "repo"),
        description="Working directory (repository checkout) the CLI runs in; 'repo' also accepted.",
    )
    provider: str | None = Field(
        None, description="Model provider, e.g. anthropic, openai, google."
    )
    model: str | None = Field(
        None,
        description="Model pattern or id; accepts provider/id and an optional :thinking suffix.",
    )
    thinking: Literal["off", "minimal", "low", "medium", "high", "xhigh"] | None = Field(
        None, description="Thinking level for reasoning-capable models."
    )
    mode: Literal["text", "json"] | None = Field(
        None, description="Output: final text (default) or every event as JSON lines."
    )
    tools: list[str] | None = Field(
        None,
        description="Allowlist of tool names (built-in read, bash, edit, write, grep, find, ls, or others).",
    )
    no_tools: bool | None = Field(None, description="Disable all tools by default.")
    no_builtin_tools: bool | None = Field(
        None, description="Disable built-in tools but keep extension and custom tools."
    )
    system_prompt: str | None = Field(
        None,
        description="Replaces the default system prompt; context files and skills are still appended.",
    )
    append_system_prompt: str | None = Field(
        None, description="Text appended to the system prompt."
    )
    continue_: bool | None = Field(
        None, alias="continue", description="Continue the most recent session."
    )
    session: str | None = Field(
        None, description="Session file path or partial session UUID to use (resume by id)."
    )
    fork: str | None = Field(
        None, description="Session file or partial UUID to fork into a new session."
    )
    session_dir: str | None = Field(None, description="Directory where sessions are stored.")
    no_session: bool | None = Field(None, description="Ephemeral run: do not save the session.")
    extensions: list[str] | None = Field(
        None, description="Extensions to load, from a path, npm or git."
    )
    no_extensions: bool | None = Field(None, description="Disable extension discovery.")
    skills: list[str] | None = Field(None, description="Skill paths to load.")
    no_skills: bool | None = Field(None, description="Disable skill discovery.")
    prompt_templates: list[str] | None = Field(None, description="Prompt template paths to load.")
    no_prompt_templates: bool | None = Field(None, description="Disable prompt template discovery.")
    no_context_files: bool | None = Field(
        None, description="Do not load AGENTS.md or CLAUDE.md context files."
    )
    offline: bool | None = Field(
        None, description="Skip startup network operations such as update checks."
    )
    verbose: bool | None = Field(None, description="Force verbose startup output.")


class PiCLIEndpoint(AgenticEndpoint):
    """pi coding agent in print mode: runs ``pi -p <prompt>`` in the request's working
    directory with the flags that a :class:`PiRequest` selects, and reads the final answer (or
    JSON event lines with ``--mode json``) from standard output.
    """

    executable: ClassVar[str] = "pi"

    def build_command(self, request: PiRequest) -> list[str]:
        """``pi -p [flags] [@file ...] <prompt>``; ``cwd`` is the working directory (no flag).

        pi's parser has no ``--``: an argument starting with ``-`` is an option and one
        starting with ``@`` a file, so such a prompt cannot be passed and is refused here.
        """
        r = request
        argv = [self.executable, "-p"]
        argv += flag_args(
            [
                ("--provider", r.provider),
                ("--model", r.model),
                ("--thinking", r.thinking),
                ("--mode", r.mode),
                ("--tools", ",".join(r.tools) if r.tools else None),
                ("--no-tools", r.no_tools),
                ("--no-builtin-tools", r.no_builtin_tools),
                ("--system-prompt", r.system_prompt),
                ("--append-system-prompt", r.append_system_prompt),
                ("--continue", r.continue_),
                ("--session", r.session),
                ("--fork", r.fork),
                ("--session-dir", r.session_dir),
                ("--no-session", r.no_session),
                ("--extension", r.extensions),
                ("--no-extensions", r.no_extensions),
                ("--skill", r.skills),
                ("--no-skills", r.no_skills),
                ("--prompt-template", r.prompt_templates),
                ("--no-prompt-templates", r.no_prompt_templates),
                ("--no-context-files", r.no_context_files),
                ("--offline", r.offline),
                ("--verbose", r.verbose),
            ]
        )
        argv += [f"@{path}" for path in r.files or ()]
        argv.append(r.prompt)
        return argv
