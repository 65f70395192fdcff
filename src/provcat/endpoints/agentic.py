"""Endpoints that run an agent (a command-line tool such as Claude Code or Codex, or an
in-process framework) instead of calling an HTTP API: the command is built from the validated
request and run without a shell, in its own process group, under the endpoint's timeout."""

from __future__ import annotations

import contextlib
import errno
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from pydantic import BaseModel

from provcat.catalog.specs import EndpointType
from provcat.endpoints.endpoint import Endpoint
from provcat.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    EndpointConfigurationError,
    InvalidResponseError,
    RequestProblem,
    RequestValidationError,
)
from provcat.redact import REDACTED, secret_name, without_secrets

if TYPE_CHECKING:
    import asyncio

_CHUNK = 64 * 1024

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
        max_retries: int | None = None,
        **kwargs: Any,
    ) -> AgentResult:
        """Run the command once and return an :class:`AgentResult`; a non-zero exit is a result
        (``ok`` false), not an error.

        The run is bounded by the endpoint's ``timeout`` (or ``total_timeout`` when shorter): past
        it the command's whole process group is killed and :class:`~provcat.errors.APITimeoutError`
        raised; cancelling the call kills it too. Its stdout and stderr together may hold at most
        ``max_response_bytes``: past that the group is killed and
        :class:`~provcat.errors.InvalidResponseError` raised. A missing executable is an
        :class:`~provcat.errors.APIConnectionError`; a ``cwd`` that is not a directory, a NUL
        character in the command and ``max_retries`` (agent endpoints are not retried) are a
        :class:`~provcat.errors.RequestValidationError`, before anything runs. The values of
        secret-named environment variables and the endpoint's key are redacted from the output
        and from the ``argv`` the result holds. ``env`` is the command's whole environment, as
        :mod:`subprocess` takes it (so a credential can be left out); pass
        ``{**os.environ, "NAME": "value"}`` to add to this process's environment instead.
        """
        import asyncio  # only when a command runs: importing an endpoint does not load asyncio

        if max_retries is not None:
            raise self._refused(
                "max_retries",
                "does not apply: agent endpoints run once and are not retried",
                "leave max_retries out",
            )
        model = self.request_model
        data = self.payload(request, **kwargs)
        validated = model.model_validate(data) if model is not None else data
        argv = self.build_command(validated)
        cwd = self.working_directory(validated)
        self._check_command(argv, cwd, validated)
        # the child's whole environment, as subprocess takes it: a caller can leave a credential
        # out (`{**os.environ, ...}` adds to this process's instead)
        child_env = dict(env) if env is not None else None
        config = self.config
        seconds = min(config.timeout, config.total_timeout or config.timeout)
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
                env=child_env,
                start_new_session=True,  # its own process group: a timeout ends its children too
            )
        except OSError as exc:
            raise self._not_started(argv[0], cwd, exc) from None
        except ValueError as exc:  # a NUL or a lone surrogate in env= (argv and cwd are checked)
            raise EndpointConfigurationError(
                "env", f"{config.provider}/{config.endpoint}: env= is refused ({exc})"
            ) from None
        try:
            async with asyncio.timeout(seconds):
                out, err = await _collect(
                    process, self.command_input(validated), config.max_response_bytes
                )
                await process.wait()
        except TimeoutError:
            await _end(process)
            setting = "total_timeout" if seconds < config.timeout else "timeout"
            raise self._fail(
                APITimeoutError,
                f"'{argv[0]}' did not finish within {seconds:g} s ({setting}); it was stopped "
                f"(raise it with match_endpoint(..., {setting}=...))",
            ) from None
        except _TooLarge:
            await _end(process)
            raise self._fail(
                InvalidResponseError,
                f"'{argv[0]}' wrote more than {config.max_response_bytes} bytes to stdout and "
                "stderr (max_response_bytes); it was stopped",
            ) from None
        except BaseException:  # cancelled (Ctrl-C in call_sync included): end the whole group
            await _end(process)
            raise
        secrets = self._output_secrets(child_env)
        return AgentResult(
            tuple(_redacted(arg, secrets) for arg in argv),
            process.returncode or 0,
            _redacted(out.decode(errors="replace"), secrets),
            _redacted(err.decode(errors="replace"), secrets),
        )

    def stream(self, *args: Any, **kwargs: Any) -> NoReturn:
        """Refused: an agent endpoint runs a command and returns its whole output; use
        :meth:`call` (or :meth:`call_sync`)."""
        raise self._refused(
            "stream",
            "is not available: agent endpoints do not stream; they run once and return the "
            "whole output",
            "use call() or call_sync()",
        )

    def _refused(self, location: str, message: str, hint: str) -> RequestValidationError:
        return RequestValidationError(
            self.config.provider, self.config.endpoint, [RequestProblem(location, message, hint)]
        )

    def _check_command(self, argv: Sequence[str], cwd: str | None, request: Any) -> None:
        """Refuse what cannot be run, naming the request field: a NUL or a lone surrogate in the
        argv (no OS takes one, and no encoding writes the other) and a working directory that
        is not a directory (the request's ``cwd``, whether the command is run there or is told
        it with a flag)."""
        for bad, why in (
            (_has_nul, "holds a NUL character, which no command line can carry"),
            (
                _unencodable,
                "holds a lone surrogate (\\ud800-\\udfff), which no command line can carry",
            ),
        ):
            if any(bad(arg) for arg in argv):
                dumped = request.model_dump() if isinstance(request, BaseModel) else request
                fields = sorted(_fields(dumped, "", bad)) or ["request"]
                raise RequestValidationError(
                    self.config.provider,
                    self.config.endpoint,
                    [RequestProblem(f, why) for f in fields],
                )
        cwd = cwd if cwd is not None else getattr(request, "cwd", None)
        if cwd is not None and not os.path.isdir(cwd):
            raise self._refused(
                "cwd", "is not an existing directory", "create it or give another one"
            )

    def _not_started(self, executable: str, cwd: str | None, exc: OSError) -> APIError:
        if exc.errno == errno.E2BIG:  # the request, not the machine: nothing to try again
            return self._refused(
                "prompt",
                "makes the command line longer than the system allows (Argument list too "
                "long; Linux takes at most 128 KiB in one argument)",
                "shorten it, or put the long part in a file the agent reads in cwd",
            )
        if cwd is not None and exc.filename == cwd:
            return self._refused(
                "cwd", f"cannot be entered ({exc.strerror})", "give an existing directory"
            )
        if isinstance(exc, FileNotFoundError):
            meta = type(self)._ENDPOINT_META
            page = f" (see {meta.docs_url})" if meta is not None and meta.docs_url else ""
            message = (
                f"the '{executable}' command was not found: install it{page} and put its "
                "directory on PATH (or on the PATH of the env= given to call)"
            )
        else:
            message = f"the '{executable}' command could not be started ({exc.strerror})"
        error = self._fail(APIConnectionError, message)
        error.never_sent = True
        return error

    def _output_secrets(self, env: Mapping[str, str] | None) -> list[tuple[str, str]]:
        """(value, replacement) for the endpoint's key and each secret-named variable of the
        command's environment and of this process's."""
        found: list[tuple[str, str]] = []
        key = self._api_key()
        if key and len(key.strip()) >= 4:
            found.append((key.strip(), REDACTED))
        for source in (env or {}, os.environ):
            for name, value in source.items():
                if len(value) >= 6 and secret_name(name):
                    found.append((value, f"<{name} redacted>"))
        return sorted(found, key=lambda pair: -len(pair[0]))  # a longer secret first


class _TooLarge(Exception):
    """The command wrote more than the bound."""


async def _collect(
    process: asyncio.subprocess.Process, data: bytes | None, limit: int
) -> tuple[bytes, bytes]:
    """The command's stdout and stderr, read as they come, after writing ``data`` to its stdin;
    :class:`_TooLarge` as soon as the two together pass ``limit`` bytes (never read further)."""
    import asyncio  # as in AgenticEndpoint.call: not on import

    total = 0

    async def feed() -> None:
        stdin = process.stdin
        if stdin is None:
            return
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # it did not read
            if data:
                stdin.write(data)
                await stdin.drain()
            stdin.close()

    async def read(stream: asyncio.StreamReader | None, parts: list[bytes]) -> None:
        nonlocal total
        while stream is not None and (chunk := await stream.read(_CHUNK)):
            total += len(chunk)
            if total > limit:
                raise _TooLarge
            parts.append(chunk)

    out: list[bytes] = []
    err: list[bytes] = []
    tasks = [
        asyncio.ensure_future(feed()),
        asyncio.ensure_future(read(process.stdout, out)),
        asyncio.ensure_future(read(process.stderr, err)),
    ]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return b"".join(out), b"".join(err)


async def _end(process: asyncio.subprocess.Process) -> None:
    """Kill the command's process group, close its pipes and reap it. (asyncio's ``wait()``
    returns once the pipes have closed too, and a pipe left unread past its buffer, as a refused
    output is, would not reach its end of file.)"""
    _kill_group(process.pid)
    transport = getattr(process, "_transport", None)  # asyncio keeps no public handle on it
    if transport is not None:
        transport.close()
    await process.wait()


def _redacted(text: str, secrets: Sequence[tuple[str, str]]) -> str:
    for value, label in secrets:
        text = without_secrets(text, [value], label=label)
    return text


def _has_nul(text: str) -> bool:
    return "\0" in text


def _unencodable(text: str) -> bool:
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        return True
    return False


def _fields(value: Any, path: str, bad: Callable[[str], bool]) -> set[str]:
    """The dotted locations of the strings in ``value`` that are ``bad``."""
    if isinstance(value, str):
        return {path or "request"} if bad(value) else set()
    if isinstance(value, Mapping):
        items: Iterable[tuple[Any, Any]] = value.items()
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    else:
        return set()
    found: set[str] = set()
    for key, item in items:
        found |= _fields(item, f"{path}.{key}" if path else str(key), bad)
    return found


def _kill_group(pid: int) -> None:
    import signal  # only when a run must be killed; nothing else here needs the module

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
