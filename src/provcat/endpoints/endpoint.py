"""Endpoint base classes that every catalog endpoint class derives from, and their behaviour.

Each catalog endpoint has a class of its own: one the catalog names with ``class:`` (the generator
checks that an ``api`` endpoint names an :class:`Endpoint` subclass that is not an
:class:`AgenticEndpoint`, and an ``agentic`` one an :class:`AgenticEndpoint` subclass), or one the
runtime derives from its ``protocol:`` (:mod:`provcat.endpoints.protocols`).

An :class:`Endpoint` builds a URL, headers and a payload and sends them with httpx. The API key
is read from the environment when a request is made, never stored in the catalog or printed.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ValidationError

from provcat.catalog.specs import EndpointType, ProviderEndpointSpec
from provcat.endpoints.config import EndpointConfig
from provcat.endpoints.registry import EndpointRegistry
from provcat.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    EndpointConfigurationError,
    InvalidResponseError,
    LocalAddressError,
    LocalNetworkRefused,
)
from provcat.redact import sanitize

if TYPE_CHECKING:
    import httpx

    from provcat.endpoints.pool import ConnectionPool, Sleep

__all__ = ["AgentResult", "AgenticEndpoint", "Endpoint", "EndpointType"]

# The call machinery (httpx, tenacity, and the pool, network guard, retry, response and stream
# modules built on httpx) is imported by the first call, not when an endpoint is built: a
# process that resolves and builds endpoints (the cold path) never imports httpx.


class Endpoint:
    """An endpoint reached over HTTP."""

    endpoint_type: ClassVar[EndpointType] = EndpointType.API
    # ADR D2's class-bound projection: the record of the endpoint this class serves, set when
    # the class is loaded from a snapshot (derived from the record, never a source of truth)
    _ENDPOINT_META: ClassVar[ProviderEndpointSpec | None] = None

    def __init__(
        self,
        config: EndpointConfig | None = None,
        *,
        request_defaults: Mapping[str, Any] | None = None,
    ) -> None:
        meta = type(self)._ENDPOINT_META
        if config is None:
            if meta is None:
                raise EndpointConfigurationError(
                    "config",
                    f"{type(self).__name__} is not bound to a catalog entry: "
                    "resolve it with match_endpoint()",
                )
            snapshot = EndpointRegistry.snapshot()
            record = snapshot.endpoint(meta.provider, meta.key)
            config = EndpointRegistry.bind(snapshot, record).config
            if request_defaults is None:
                request_defaults = record.request_defaults
        self.config = config
        # every instance owns a fresh, deep copy: no caller or catalog mapping is shared
        self.request_defaults: dict[str, Any] = (
            {k: _fresh(v) for k, v in request_defaults.items()} if request_defaults else {}
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.config.provider}/{self.config.endpoint}>"

    @property
    def request_model(self) -> type[BaseModel] | None:
        return self.config.request_options

    @property
    def url(self) -> str:
        return self.config.url()

    def _api_key(self) -> str | None:
        if self.config.api_key is not None:
            return self.config.api_key.get_secret_value()
        if self.config.api_key_env:
            return os.environ.get(self.config.api_key_env) or None
        return None

    def headers(self) -> dict[str, str]:
        """Content type, the endpoint's default headers and the credential, read now."""
        headers = {"Content-Type": self.config.content_type, **self.config.default_headers}
        if self.config.content_type.startswith("multipart/"):
            del headers["Content-Type"]  # httpx sets it with the boundary
        if self.config.auth_type == "none":
            return headers
        key = self._api_key()
        if key is None:
            where = self.config.api_key_env or "api_key"
            raise EndpointConfigurationError(
                "api_key",
                f"{self.config.provider}/{self.config.endpoint} needs an API key: "
                f"set {where}" + ("" if self.config.api_key_env else " in the configuration"),
            )
        if self.config.auth_type == "bearer":
            headers["Authorization"] = f"Bearer {key}"
        else:
            headers["x-api-key"] = key
        return headers

    def payload(
        self, request: Mapping[str, Any] | BaseModel | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """Request defaults, then ``request``, then ``kwargs``, validated by the request model."""
        if isinstance(request, BaseModel):
            request = request.model_dump(exclude_unset=True, by_alias=True)
        data = {**self.request_defaults, **(request or {}), **kwargs}
        model = self.request_model
        if model is None:
            try:
                json.dumps(data)
            except (TypeError, ValueError) as exc:
                raise EndpointConfigurationError(
                    "request", f"the request is not JSON-serializable: {exc}"
                ) from None
            return data
        try:
            validated = model.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "request"
            raise EndpointConfigurationError(
                where,
                f"{self.config.provider}/{self.config.endpoint}: '{where}' {first['msg'].lower()}"
                f" ({exc.error_count()} problem(s) in the request)",
            ) from None
        return validated.model_dump(
            mode="json" if not _has_bytes(validated) else "python",
            exclude_none=True,
            by_alias=self.config.serialize_by_alias,
        )

    def create_payload(
        self, request: Mapping[str, Any] | BaseModel | None = None, **kwargs: Any
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """The payload and the headers a call would send."""
        return self.payload(request, **kwargs), self.headers()

    def _send_args(self, payload: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
        send: dict[str, Any] = {"headers": headers}
        if self.config.content_type.startswith("multipart/"):
            files = {k: v for k, v in payload.items() if isinstance(v, bytes)}
            data = {k: _form_value(v) for k, v in payload.items() if not isinstance(v, bytes)}
            send.update(files=files, data=data)
        elif self.config.method == "GET":
            send["params"] = payload
        else:
            send["json"] = payload
        return send

    async def _open(
        self, http: httpx.AsyncClient, send: Mapping[str, Any], guarded: bool
    ) -> httpx.Response:
        """One attempt up to a successful status: the response, its body not yet read."""
        import httpx

        from provcat.endpoints.netguard import ALLOW_LOCAL, check_host
        from provcat.endpoints.responses import status_error

        config = self.config
        provider, endpoint = config.provider, config.endpoint
        request = http.build_request(config.method, self.url, timeout=config.timeout, **send)
        try:
            if guarded:
                request.extensions = {**request.extensions, ALLOW_LOCAL: config.allow_local_network}
            elif not config.allow_local_network:  # a caller's own client: check before sending
                port = request.url.port or (443 if request.url.scheme == "https" else 80)
                await check_host(request.url.host, port)
            response = await http.send(request, stream=True)
        except LocalAddressError as exc:
            raise LocalNetworkRefused(str(exc), provider=provider, endpoint=endpoint) from None
        except httpx.TimeoutException as exc:
            error: APIError = APITimeoutError(
                f"no answer within {config.timeout:g} s ({type(exc).__name__})",
                provider=provider,
                endpoint=endpoint,
            )
            raise error from None
        except httpx.TransportError as exc:
            failed = APIConnectionError(
                f"{type(exc).__name__}: {sanitize(str(exc))}", provider=provider, endpoint=endpoint
            )
            failed.never_sent = isinstance(exc, httpx.ConnectError)
            raise failed from None
        if response.status_code >= 300:
            body = await self._read(response)
            raise status_error(response, body, config.provider, config.endpoint)
        return response

    async def _read(self, response: httpx.Response) -> bytes:
        """The whole body, refused (and the connection closed) past ``max_response_bytes``."""
        import httpx

        limit = self.config.max_response_bytes
        chunks: list[bytes] = []
        size = 0
        try:
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > limit:
                    raise InvalidResponseError(
                        f"the answer is larger than {limit} bytes (max_response_bytes)",
                        provider=self.config.provider,
                        endpoint=self.config.endpoint,
                        status=response.status_code,
                    )
                chunks.append(chunk)
        except httpx.TransportError as exc:
            raise self._cut_off("answer", response, exc) from None
        finally:
            await response.aclose()
        return b"".join(chunks)

    def _cut_off(self, what: str, response: httpx.Response, exc: Exception) -> APIConnectionError:
        """The error of a body that broke off after a successful status."""
        return APIConnectionError(
            f"the {what} was cut off ({type(exc).__name__})",
            provider=self.config.provider,
            endpoint=self.config.endpoint,
            status=response.status_code,
        )

    def _client(self, client: Any) -> tuple[httpx.AsyncClient, Sleep, bool]:
        from provcat.endpoints.pool import ConnectionPool, default_pool

        if client is None:
            client = default_pool()
        if isinstance(client, ConnectionPool):
            return client.client, client.sleep, True
        import asyncio

        return client, asyncio.sleep, False

    async def _attempts(self, client: Any, send: Mapping[str, Any]) -> httpx.Response:
        """Open the response, trying again as :mod:`provcat.endpoints.retry` allows."""
        from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

        from provcat.endpoints.retry import delay, retryable

        http, sleep, guarded = self._client(client)
        config = self.config

        def wait(state: RetryCallState) -> float:
            error = state.outcome.exception() if state.outcome is not None else None
            return delay(state.attempt_number, error) if error is not None else 0.0

        retrying = AsyncRetrying(
            stop=stop_after_attempt(max(1, config.max_retries)),
            wait=wait,
            retry=retry_if_exception(
                lambda e: retryable(e, config.method, config.idempotent_retries)
            ),
            sleep=sleep,
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                response = await self._open(http, send, guarded)
        return response

    async def call(
        self,
        request: Mapping[str, Any] | BaseModel | None = None,
        *,
        client: httpx.AsyncClient | ConnectionPool | None = None,
        **kwargs: Any,
    ) -> Any:
        """Send the request and return the answer: a :class:`provcat.endpoints.responses.Result` (a dict
        with ``usage``, ``status_code`` and ``request_id``) for a JSON object, text, or bytes.

        ``client`` is a :class:`provcat.endpoints.pool.ConnectionPool` (default: the event loop's shared
        one) or the caller's own ``httpx.AsyncClient``. Failures raise the typed errors of
        :mod:`provcat.errors`, after the retries :mod:`provcat.endpoints.retry` allows.
        """
        from provcat.endpoints.responses import decode

        payload, headers = self.create_payload(request, **kwargs)  # a missing key raises here
        response = await self._attempts(client, self._send_args(payload, headers))
        body = await self._read(response)
        return decode(
            response,
            body,
            self.config.provider,
            self.config.endpoint,
            usage=self.config.requires_tokens,
        )

    async def stream(
        self,
        request: Mapping[str, Any] | BaseModel | None = None,
        *,
        client: httpx.AsyncClient | ConnectionPool | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        """Send the request asking for a stream and yield the decoded events as they come.

        The request's ``stream`` field is set when its model has one. Leaving the loop early
        closes the connection; an error before the first event is retried like :meth:`call`.
        """
        import httpx

        from provcat.endpoints.streaming import events

        model = self.request_model
        if model is not None and "stream" in model.model_fields:
            kwargs.setdefault("stream", True)
        payload, headers = self.create_payload(request, **kwargs)
        response = await self._attempts(client, self._send_args(payload, headers))
        try:
            async for event in events(
                response,
                self.config.provider,
                self.config.endpoint,
                self.config.max_response_bytes,
            ):
                yield event
        except httpx.TransportError as exc:
            raise self._cut_off("stream", response, exc) from None
        finally:
            await response.aclose()


def _fresh(value: Any) -> Any:
    """A deep copy of JSON-like data (fast for the flat values request defaults hold)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Mapping):
        return {k: _fresh(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_fresh(v) for v in value]
    return copy.deepcopy(value)


def _has_bytes(model: BaseModel) -> bool:
    return any(isinstance(v, bytes) for v in model.__dict__.values())


def _form_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value)


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
