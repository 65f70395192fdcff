"""Endpoints that run an agent (a command-line tool such as Claude Code or Codex, or an
in-process framework) instead of calling an HTTP API: the command is built from the validated
request and run without a shell, in its own process group, under the endpoint's timeout."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel

from provcat.catalog.specs import EndpointType
from provcat.endpoints.endpoint import Endpoint

__all__ = ["AgentResult", "AgenticEndpoint", "flag_args"]


@dataclass(frozen=True, slots=True)
class AgentResult:
    """What an agentic run produced."""

    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


class AgenticEndpoint(Endpoint):
    """An endpoint that runs an agent: a command-line tool or an in-process framework.

    A CLI endpoint sets ``executable`` and implements :meth:`build_command`; :meth:`call` runs the
    command without a shell and returns an :class:`AgentResult`.
    """

    endpoint_type: ClassVar[EndpointType] = EndpointType.AGENTIC
    is_cli: ClassVar[bool] = True
    executable: ClassVar[str] = ""
    DEFAULT_CONCURRENCY_LIMIT: ClassVar[int] = 3
    DEFAULT_QUEUE_CAPACITY: ClassVar[int] = 10

    def headers(self) -> dict[str, str]:
        return {}

    def build_command(self, request: Any) -> list[str]:
        """The argv for one run of ``request`` (a validated request model)."""
        raise NotImplementedError(f"{type(self).__name__} does not run a command")

    def working_directory(self, request: Any) -> str | None:
        return getattr(request, "cwd", None)

    def command_input(self, request: Any) -> bytes | None:
        """Bytes written to the command's standard input (default: none)."""
        return None

    def command(
        self, request: Mapping[str, Any] | BaseModel | None = None, **kwargs: Any
    ) -> list[str]:
        """The argv a call would run, built from the validated request."""
        model = self.request_model
        data = self.payload(request, **kwargs)
        validated = model.model_validate(data) if model is not None else data
        return self.build_command(validated)

    async def call(
        self,
        request: Mapping[str, Any] | BaseModel | None = None,
        *,
        client: Any = None,
        env: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> AgentResult:
        import asyncio

        model = self.request_model
        data = self.payload(request, **kwargs)
        validated = model.model_validate(data) if model is not None else data
        argv = self.build_command(validated)
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=self.working_directory(validated),
            env=dict(env) if env is not None else None,
            start_new_session=True,  # its own process group: a timeout ends the CLI's children too
        )
        try:
            out, err = await asyncio.wait_for(
                process.communicate(self.command_input(validated)), timeout=self.config.timeout
            )
        except (TimeoutError, asyncio.CancelledError):
            _kill_group(process.pid)
            await process.wait()
            raise
        return AgentResult(
            tuple(argv),
            process.returncode or 0,
            out.decode(errors="replace"),
            err.decode(errors="replace"),
        )


def _kill_group(pid: int) -> None:
    import signal

    with contextlib.suppress(ProcessLookupError):  # already gone
        os.killpg(pid, signal.SIGKILL)


def flag_args(flags: Sequence[tuple[str, Any]]) -> list[str]:
    """argv fragments from (flag, value) pairs: True -> flag, a list -> repeated, None/False -> nothing."""
    argv: list[str] = []
    for flag, value in flags:
        if value is None or value is False:
            continue
        if value is True:
            argv.append(flag)
        elif isinstance(value, (list, tuple)):
            for item in value:
                argv.extend((flag, str(item)))
        elif isinstance(value, dict):
            argv.extend((flag, json.dumps(value, sort_keys=True)))
        else:
            argv.extend((flag, str(value)))
    return argv
