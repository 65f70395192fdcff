"""Endpoint base classes that every catalog endpoint class derives from, and their behaviour.

Each catalog endpoint has a class of its own: one the catalog names with ``class:`` (the generator
checks that an ``api`` endpoint names an :class:`Endpoint` subclass that is not an
:class:`~provcat.endpoints.agentic.AgenticEndpoint`, and an ``agentic`` one an ``AgenticEndpoint``
subclass), or one the
runtime derives from its ``protocol:`` (:mod:`provcat.endpoints.protocols`).

An :class:`Endpoint` builds a URL, headers and a payload and sends them with httpx. The API key
is read from the environment when a request is made, never stored in the catalog or printed.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from pydantic import BaseModel, ValidationError

from provcat.catalog.specs import EndpointType, ProviderEndpointSpec
from provcat.endpoints.config import MAX_RETRIES, EndpointConfig, secret_header, shown_headers
from provcat.endpoints.registry import EndpointRegistry
from provcat.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    EndpointConfigurationError,
    InvalidResponseError,
    LocalAddressError,
    LocalNetworkRefused,
    RequestValidationError,
)
from provcat.redact import Secrets, redact_secrets, without_secrets

if TYPE_CHECKING:
    import httpx

    from provcat.endpoints.eventstream import EventStream
    from provcat.endpoints.pool import ConnectionPool, Sleep
    from provcat.endpoints.sync import BlockingStream
    from provcat.endpoints.textstream import Delta

__all__ = ["Endpoint", "EndpointType"]

_E = TypeVar("_E", bound=APIError)

CONNECT_TIMEOUT = 5.0  # seconds to open a connection, as openai-python and anthropic-sdk-python
# the text an APIError carries, each cleaned of the call's credentials before it leaves a call
_TEXT_FIELDS = ("request_id", "error_type", "error_code", "vendor_message", "excerpt")

# The call machinery (httpx, tenacity, and the pool, network guard, retry, response and stream
# modules built on httpx) is imported by the first call, not when an endpoint is built: a
# process that resolves and builds endpoints (the cold path) never imports httpx.


def _host_port(request: httpx.Request) -> str:
    """Where a request goes, as a failure to reach it names it: host and port (an IPv6 address
    in brackets, as a URL writes it)."""
    from provcat.endpoints.netguard import url_port  # loaded with the call machinery

    host, port = request.url.host, url_port(request.url)
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _detail(exc: BaseException) -> str:
    """The kind of a transport failure and its text, when it has one (httpx's ReadError from a
    reset connection has none)."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


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
        """Content type, the endpoint's default headers and the credential, read now (a mapping
        whose repr hides the credential, so a traceback that shows locals does not)."""
        headers = Headers({"Content-Type": self.config.content_type, **self.config.default_headers})
        if self.config.content_type.startswith("multipart/"):
            del headers["Content-Type"]  # httpx sets it with the boundary
        if self.config.auth_type == "none":
            return headers
        key = self._api_key()
        keyless = (
            " (a server that takes no key: match_endpoint(..., auth_type='none'))"
            if self.config.openai_compatible
            else ""
        )
        if key == "":  # api_key="" (os.getenv("X", "")): refused as a blank key is, never sent
            variable = self.config.api_key_env
            raise EndpointConfigurationError(
                "api_key",
                f"{self.config.provider}/{self.config.endpoint}: the key given as api_key= is "
                "empty: pass the key"
                + (f", or leave api_key out to read it from {variable}" if variable else "")
                + keyless,
            )
        if key is None:
            where = self.config.api_key_env or "api_key"
            raise EndpointConfigurationError(
                "api_key",
                f"{self.config.provider}/{self.config.endpoint} needs an API key: "
                f"set {where}"
                + ("" if self.config.api_key_env else " in the configuration")
                + keyless,
            )
        if any(ord(c) < 0x20 or ord(c) == 0x7F for c in key) or key != key.strip():
            # where the key came from: api_key= wins over the variable (_api_key)
            where = (
                "the key given as api_key="
                if self.config.api_key is not None
                else f"the key in {self.config.api_key_env}"
            )
            del key  # not in this frame's locals when a traceback shows them
            raise EndpointConfigurationError(
                "api_key",
                f"{where} holds a line break, a control character or surrounding spaces: "
                "set it to the key alone",
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
        elif request is not None and not isinstance(request, Mapping):
            raise TypeError(  # the value is never quoted: it may hold anything
                f"{self.config.provider}/{self.config.endpoint}: a request is a mapping (a dict) "
                f"of the API's request fields, such as {{'messages': [...]}} for a chat, not a "
                f"{type(request).__name__}"
            )
        data = {**self.request_defaults, **(request or {}), **kwargs}
        where = _non_finite(data)
        if where is not None:
            raise EndpointConfigurationError(
                where or "request",
                f"'{where or 'request'}' is not a finite number: JSON has no NaN or Infinity "
                "(send a number, or leave the field out)",
            )
        model = self.request_model
        if model is None:
            try:
                json.dumps(data, allow_nan=False)
            except (TypeError, ValueError) as exc:
                raise EndpointConfigurationError(
                    "request", f"the request is not JSON-serializable: {exc}"
                ) from None
            return data
        try:
            validated = model.model_validate(data)
        except ValidationError as exc:
            # deferred to a refused request: a provider's module imports Endpoint without it
            from provcat.endpoints.problems import request_problems

            raise RequestValidationError(
                self.config.provider,
                self.config.endpoint,
                request_problems(model, exc, self.config.provider),
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

    def _given(self, request: Mapping[str, Any] | BaseModel | None) -> set[str]:
        """The fields the request and the endpoint's request defaults set."""
        given: set[str] = set()  # None; a request that is no mapping is refused by payload()
        if isinstance(request, BaseModel):
            given = request.model_fields_set
        elif isinstance(request, Mapping):
            given = set(request)
        return {*given, *self.request_defaults}

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

    def _fail(self, cls: type[_E], message: str, **fields: Any) -> _E:
        """A typed error of this endpoint, with every credential this call carries redacted."""
        return cls(
            self._redact(message),
            provider=self.config.provider,
            endpoint=self.config.endpoint,
            **fields,
        )

    def _redact(self, text: str) -> str:
        """``text`` sanitized, each credential of the call first written ``<api key redacted>``."""
        return redact_secrets(text, self._secrets())

    def _secrets(self) -> Secrets:
        """The credentials a call sends: the key, and each default header named like a secret."""
        found = [v for k, v in self.config.default_headers.items() if secret_header(k)]
        key = self._api_key() if self.config.auth_type != "none" else None
        return Secrets([*found, key] if key else found)

    @contextlib.contextmanager
    def _redacting(self) -> Iterator[None]:
        """Every :class:`APIError` leaving the block has the call's credentials taken out of its
        message and of every text field: the one place this is done, so no path that quotes the
        answer (a body, an event, a header) can carry a key a vendor echoed back, whatever its
        shape or the name of the variable it came from."""
        try:
            yield
        except APIError as exc:
            self._scrub(exc)  # in a frame of its own: no traceback shows the secrets as a local
            raise

    def _scrub(self, error: APIError) -> None:
        """Take the call's credentials out of ``error``'s message and text fields, in place."""
        secrets = self._secrets()
        if secrets:
            for name in _TEXT_FIELDS:
                value = getattr(error, name, None)
                if isinstance(value, str):
                    setattr(error, name, without_secrets(value, secrets))
            error.args = tuple(
                without_secrets(a, secrets) if isinstance(a, str) else a for a in error.args
            )

    async def _open(
        self,
        http: httpx.AsyncClient,
        send: Mapping[str, Any],
        guarded: bool,
        progress: _Progress | None = None,
    ) -> httpx.Response:
        """One attempt up to a successful status: the response, its body not yet read.
        ``progress`` learns whether the request was still connecting or was written."""
        # the HTTP stack loads on the first request, not with the endpoint classes
        import httpx

        from provcat.endpoints.netguard import (
            ALLOW_LOCAL,
            LookupFailed,
            check_host,
            peer_check,
            url_port,
        )
        from provcat.endpoints.responses import status_error
        from provcat.endpoints.wire import ACCEPT_ENCODING

        config = self.config
        connect = min(CONNECT_TIMEOUT, config.timeout)
        # a connection that hangs fails at once as never sent (and is tried again), as the SDKs'
        # httpx.Timeout(600, connect=5.0) does, instead of taking the whole attempt's timeout
        timeout = httpx.Timeout(config.timeout, connect=connect)
        try:
            request = http.build_request(config.method, self.url, timeout=timeout, **send)
        except (httpx.HTTPError, httpx.InvalidURL, ValueError, TypeError, UnicodeError) as exc:
            raise EndpointConfigurationError(
                "request",
                f"{config.provider}/{config.endpoint}: the request cannot be encoded "
                f"({type(exc).__name__}: {self._redact(str(exc))})",
            ) from None
        request.headers["Accept-Encoding"] = ACCEPT_ENCODING  # decoded here, within the bounds
        try:
            if guarded:
                request.extensions = {**request.extensions, ALLOW_LOCAL: config.allow_local_network}
            elif not config.allow_local_network:  # a caller's own client: check before sending
                await check_host(request.url.host, url_port(request.url))
                # ... and check each connection it opens on the address it reached
                host = request.url.raw_host.decode("ascii")
                request.extensions = {**request.extensions, "trace": peer_check(host)}
            if progress is not None:
                progress.inner = request.extensions.get("trace")
                request.extensions = {**request.extensions, "trace": progress}
            response = await http.send(request, stream=True, follow_redirects=False)
            if progress is not None:
                progress.state = "answered"  # the headers came: the body is what is awaited
        except LocalAddressError as exc:
            raise self._fail(LocalNetworkRefused, str(exc)) from None
        except (httpx.TimeoutException, TimeoutError) as exc:
            # no connection was made (or none was free): nothing reached the server
            never_sent = isinstance(exc, (httpx.ConnectTimeout, httpx.PoolTimeout))
            error = self._fail(
                APITimeoutError,
                f"no connection within {connect:g} s ({type(exc).__name__})"
                if isinstance(exc, httpx.ConnectTimeout)
                else f"no answer within {config.timeout:g} s ({type(exc).__name__})",
            )
            error.never_sent = never_sent
            raise error from None
        except LookupFailed as exc:
            failed = self._fail(APIConnectionError, f"{type(exc).__name__}: {exc}")
            failed.never_sent = True
            raise failed from None
        except httpx.ConnectError as exc:
            failed = self._fail(
                APIConnectionError,
                f"could not connect to {_host_port(request)} ({_detail(exc)}); nothing was sent",
            )
            failed.never_sent = True
            raise failed from None
        except (httpx.NetworkError, httpx.RemoteProtocolError) as exc:
            raise self._fail(
                APIConnectionError,
                f"the connection to {_host_port(request)} broke before the answer's headers "
                f"({_detail(exc)}); the request may have reached the vendor, so a POST is sent "
                "again only where idempotent_retries is on",
            ) from None
        except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError) as exc:
            raise self._fail(APIConnectionError, _detail(exc)) from None
        if response.status_code >= 300:
            body = await self._read(response)
            raise status_error(
                response, body, config.provider, config.endpoint, secrets=self._secrets()
            )
        return response

    async def _read(self, response: httpx.Response) -> bytes:
        """The whole body, refused (and the connection closed) past ``max_response_bytes`` on
        the wire or decoded."""
        import httpx  # as in _open: on the first request

        from provcat.endpoints.wire import WireError, chunks

        parts: list[bytes] = []
        try:
            async for chunk in chunks(response, self.config.max_response_bytes):
                parts.append(chunk)
        except WireError as exc:
            raise self._fail(
                InvalidResponseError,
                f"{exc} (max_response_bytes)" if exc.too_large else str(exc),
                status=response.status_code,
            ) from None
        except httpx.TransportError as exc:
            raise self._cut_off("answer", response, exc) from None
        finally:
            await response.aclose()
        return b"".join(parts)

    def _cut_off(self, what: str, response: httpx.Response, exc: Exception) -> APIConnectionError:
        """The error of a body that broke off after a successful status."""
        import httpx  # as in _open: on the first request

        cls = (
            APITimeoutError
            if isinstance(exc, (httpx.TimeoutException, TimeoutError))
            else APIConnectionError
        )
        return self._fail(  # type: ignore[return-value]
            cls,
            f"the {what} was cut off ({type(exc).__name__})",
            status=response.status_code,
        )

    def _client(self, client: Any) -> tuple[httpx.AsyncClient, Sleep, bool]:
        # the HTTP stack loads on the first request, not with the endpoint classes
        from provcat.endpoints.pool import ConnectionPool, default_pool

        if client is None:
            client = default_pool()
        if isinstance(client, ConnectionPool):
            client.check_loop()  # a closed pool, or one of another event loop, is refused
            return client.client, client.sleep, True
        import asyncio

        if getattr(client, "is_closed", False):
            raise EndpointConfigurationError(
                "client",
                "the httpx.AsyncClient given as client= is closed: pass an open one, or call "
                "without client= (the event loop's own pool is used)",
            )
        return client, asyncio.sleep, False

    async def _attempts(
        self, client: Any, send: Mapping[str, Any], read: bool, max_retries: int | None = None
    ) -> tuple[httpx.Response, bytes | None]:
        """Open the response (and read its body when ``read``), each attempt within the
        endpoint's timeout and all of them within ``total_timeout``, trying again as
        :mod:`provcat.endpoints.retry` allows, at most ``max_retries`` attempts in all (default:
        the endpoint's)."""
        # the HTTP stack loads on the first request, not with the endpoint classes
        import asyncio

        from tenacity import (
            AsyncRetrying,
            RetryCallState,
            retry_if_exception,
            stop_after_attempt,
        )

        from provcat.endpoints.retry import Budget, delay, retryable

        http, sleep, guarded = self._client(client)
        config = self.config
        budget = Budget(config.total_timeout)

        def wait(state: RetryCallState) -> float:
            error = state.outcome.exception() if state.outcome is not None else None
            return delay(state.attempt_number, error) if error is not None else 0.0

        async def pause(seconds: float) -> None:
            budget.spend(seconds)
            await sleep(seconds)

        retrying = AsyncRetrying(
            stop=stop_after_attempt(max(1, attempts_allowed(config.max_retries, max_retries)))
            | budget,
            wait=wait,
            retry=retry_if_exception(
                lambda e: retryable(e, config.method, config.idempotent_retries)
            ),
            sleep=pause,
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                seconds = budget.attempt(config.timeout)
                started = asyncio.get_running_loop().time()
                progress = _Progress()
                try:
                    async with asyncio.timeout(seconds):
                        response = await self._open(http, send, guarded, progress)
                        body = await self._read(response) if read else None
                except TimeoutError:
                    connecting = progress.state == "connecting"
                    # the call's budget, not the attempt's timeout, ran out: name the total set
                    # (this attempt had what was left of it)
                    error = self._fail(
                        APITimeoutError,
                        (
                            "no connection"
                            if connecting
                            else "the answer did not finish"
                            if progress.state == "answered"
                            else "no answer"
                        )
                        + (
                            f" within the total_timeout of {config.total_timeout:g} s"
                            if seconds < config.timeout and config.total_timeout is not None
                            else f" within {seconds:g} s"
                        ),
                    )
                    # the deadline came while connecting: the request never reached the server
                    error.never_sent = connecting
                    raise error from None
                finally:
                    budget.spend(asyncio.get_running_loop().time() - started)
        return response, body

    async def call(
        self,
        request: Mapping[str, Any] | BaseModel | None = None,
        *,
        client: httpx.AsyncClient | ConnectionPool | None = None,
        max_retries: int | None = None,
        **kwargs: Any,
    ) -> Any:
        """Send the request and return the answer: a :class:`provcat.endpoints.responses.Result` (a dict
        with ``usage``, ``status_code`` and ``request_id``) for a JSON object, text, or bytes.

        ``client`` is a :class:`provcat.endpoints.pool.ConnectionPool` (default: the event loop's shared
        one) or the caller's own ``httpx.AsyncClient``. Failures raise the typed errors of
        :mod:`provcat.errors`, after the retries :mod:`provcat.endpoints.retry` allows;
        ``max_retries`` (the total number of attempts) overrides the endpoint's for this call.
        """
        from provcat.endpoints.responses import decode

        model = self.request_model
        if getattr(model, "streams_by_default", False) and "stream" not in self._given(request):
            kwargs.setdefault("stream", False)  # one answer, as the vendor's SDK asks for it
        payload, headers = self.create_payload(request, **kwargs)  # a missing key raises here
        with self._redacting():
            response, body = await self._attempts(
                client, self._send_args(payload, headers), True, max_retries
            )
            assert body is not None
            answer = decode(
                response,
                body,
                self.config.provider,
                self.config.endpoint,
                usage=self.config.requires_tokens,
                secrets=self._secrets(),
            )
        return answer

    def stream(
        self,
        request: Mapping[str, Any] | BaseModel | None = None,
        *,
        client: httpx.AsyncClient | ConnectionPool | None = None,
        max_retries: int | None = None,
        **kwargs: Any,
    ) -> EventStream:
        """Send the request asking for a stream: an async iterator of the decoded events as they
        come, whose ``usage`` is the stream's token usage once it has ended.

        The request's ``stream`` field is set when its model has one, and
        ``stream_options.include_usage`` where the model has that (so that the vendor reports the
        usage) unless the request sets ``stream_options``. A failure before the answer's headers
        is retried like :meth:`call`; once they have come, a failure is raised, as the official
        SDKs do. Each line of the stream (an event's, or a keep-alive comment) must come within
        the endpoint's timeout of the one before, and the stream must end within its
        ``total_timeout`` when it has one. The connection is closed when the events run
        out, on an error, by ``aclose()`` or at the end of ``async with endpoint.stream(request)
        as stream:``; a ``break`` out of a loop over a stream held in a variable does not close
        it.
        """
        from provcat.endpoints.eventstream import EventStream

        return EventStream(self._events(request, client, max_retries, kwargs))

    async def _events(
        self,
        request: Mapping[str, Any] | BaseModel | None,
        client: httpx.AsyncClient | ConnectionPool | None,
        max_retries: int | None,
        kwargs: dict[str, Any],
    ) -> AsyncIterator[Any]:
        # the HTTP stack loads on the first request, not with the endpoint classes
        import asyncio

        import httpx

        from provcat.endpoints.streaming import events
        from provcat.endpoints.wire import Deadline

        model = self.request_model
        if model is not None and "stream" in model.model_fields:
            kwargs.setdefault("stream", True)
        if (
            model is not None
            and _stream_options_take_usage(model)
            and "stream_options" not in self._given(request)
        ):
            kwargs.setdefault("stream_options", {"include_usage": True})
        payload, headers = self.create_payload(request, **kwargs)
        total = self.config.total_timeout
        # total_timeout bounds the whole stream: its attempts, then its events
        until = None if total is None else asyncio.get_running_loop().time() + total
        with self._redacting():
            response, _ = await self._attempts(
                client, self._send_args(payload, headers), False, max_retries
            )
            deadline = Deadline(self.config.timeout, until)
            try:
                async for event in events(
                    response,
                    self.config.provider,
                    self.config.endpoint,
                    self.config.max_response_bytes,
                    deadline,
                    secrets=self._secrets(),
                ):
                    yield event
            except (httpx.TimeoutException, TimeoutError):
                # each line is bounded by the endpoint's timeout, counted from the one before
                raise self._fail(
                    APITimeoutError,
                    f"the stream did not end within the total_timeout of {total:g} s"
                    if deadline.capped and total is not None
                    else f"no event or keep-alive within {self.config.timeout:g} s of "
                    + ("the previous one" if deadline.renewals else "the answer's headers")
                    + " (the endpoint's timeout)",
                    status=response.status_code,
                ) from None
            except httpx.TransportError as exc:
                raise self._cut_off("stream", response, exc) from None
            finally:
                await response.aclose()

    def call_sync(
        self,
        request: Mapping[str, Any] | BaseModel | None = None,
        *,
        client: ConnectionPool | None = None,
        max_retries: int | None = None,
        **kwargs: Any,
    ) -> Any:
        """:meth:`call`, blocking: for scripts and notebooks (:mod:`provcat.endpoints.sync`).

        The same answer, errors and retries; Ctrl-C cancels the call cleanly (its connection is
        closed) and raises KeyboardInterrupt."""
        from provcat.endpoints.sync import run_sync

        if max_retries is not None:
            kwargs["max_retries"] = max_retries
        return run_sync(lambda: self.call(request, client=client, **kwargs))

    def stream_sync(
        self,
        request: Mapping[str, Any] | BaseModel | None = None,
        *,
        client: ConnectionPool | None = None,
        max_retries: int | None = None,
        **kwargs: Any,
    ) -> BlockingStream:
        """:meth:`stream`, blocking: an iterator of the same events, whose ``usage`` is the
        stream's once it has ended. ``close()``, the end of a ``with`` block or Ctrl-C closes
        the connection (:class:`~provcat.endpoints.sync.BlockingStream` says when else)."""
        from provcat.endpoints.sync import BlockingStream

        if max_retries is not None:
            kwargs["max_retries"] = max_retries
        return BlockingStream(self.stream(request, client=client, **kwargs))

    def stream_text(
        self,
        request: Mapping[str, Any] | BaseModel | None = None,
        *,
        client: httpx.AsyncClient | ConnectionPool | None = None,
        max_retries: int | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[Delta]:
        """:meth:`stream` read as one text stream: text, reasoning and tool-call deltas in one
        shape whatever the vendor, ending with a delta that holds the usage
        (:mod:`provcat.endpoints.textstream`)."""
        from provcat.endpoints.textstream import text_stream

        return text_stream(self.stream(request, client=client, max_retries=max_retries, **kwargs))

    def stream_text_sync(
        self,
        request: Mapping[str, Any] | BaseModel | None = None,
        *,
        client: ConnectionPool | None = None,
        max_retries: int | None = None,
        **kwargs: Any,
    ) -> Iterator[Delta]:
        """:meth:`stream_text`, blocking."""
        from provcat.endpoints.textstream import text_stream_sync

        return text_stream_sync(
            self.stream_sync(request, client=client, max_retries=max_retries, **kwargs)
        )


class _Progress:
    """Where one attempt got to, told by httpcore's ``trace`` events (chained to the hook the
    request already has): "connecting" once a connection is being opened for it, "sent" once
    its headers are being written; "answered" once the response's headers came (set by
    :meth:`Endpoint._open`, whatever the transport). A transport that tells nothing leaves it
    "unknown" until then, which is never taken for "not sent"."""

    __slots__ = ("inner", "state")

    def __init__(self) -> None:
        self.inner: Any = None
        self.state = "unknown"

    async def __call__(self, event: str, info: Mapping[str, Any]) -> None:
        if self.inner is not None:
            await self.inner(event, info)
        if event == "connection.connect_tcp.started" and self.state == "unknown":
            self.state = "connecting"
        elif event.endswith(".send_request_headers.started"):
            self.state = "sent"


def _stream_options_take_usage(model: type[BaseModel]) -> bool:
    """Whether ``model`` has a ``stream_options`` field whose options include ``include_usage``
    (Chat Completions' shape; Responses' stream_options hold other settings)."""
    import typing

    field = model.model_fields.get("stream_options")
    if field is None:
        return False
    for option in (field.annotation, *typing.get_args(field.annotation)):
        fields = getattr(option, "model_fields", None)
        if isinstance(fields, dict) and "include_usage" in fields:
            return True
    return False


def attempts_allowed(configured: int, per_call: int | None) -> int:
    """The total attempts of one call: ``per_call`` when given (checked), else the endpoint's."""
    if per_call is None:
        return configured
    if (
        isinstance(per_call, bool)
        or not isinstance(per_call, int)
        or not 1 <= per_call <= MAX_RETRIES
    ):
        given = (  # a number out of bounds is shown; anything else only by its type
            repr(per_call)
            if isinstance(per_call, int) and not isinstance(per_call, bool)
            else f"a {type(per_call).__name__}"
        )
        raise EndpointConfigurationError(
            "max_retries",
            f"max_retries is the total number of attempts: an int from 1 to {MAX_RETRIES} (the "
            f"bound match_endpoint keeps too), not {given}",
        )
    return per_call


def _fresh(value: Any) -> Any:
    """A deep copy of JSON-like data (fast for the flat values request defaults hold)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Mapping):
        return {k: _fresh(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_fresh(v) for v in value]
    return copy.deepcopy(value)


class Headers(dict[str, str]):
    """Request headers whose repr hides the credential's value, and the value of every header
    named like a secret (:func:`~provcat.endpoints.config.secret_header`)."""

    def __repr__(self) -> str:
        return repr(shown_headers(self))


def _non_finite(value: Any, path: str = "") -> str | None:
    """The path of the first NaN or infinite float in ``value`` (JSON-like data), or None."""
    if isinstance(value, float):
        return path if value != value or value in (float("inf"), float("-inf")) else None
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(item, (str, int, bool)) and item is not None:
                found = _non_finite(item, f"{path}.{key}" if path else str(key))
                if found is not None:
                    return found
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            if not isinstance(item, (str, int, bool)) and item is not None:
                found = _non_finite(item, f"{path}.{index}" if path else str(index))
                if found is not None:
                    return found
    return None


def _has_bytes(model: BaseModel) -> bool:
    return any(isinstance(v, bytes) for v in model.__dict__.values())


def _form_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value)
