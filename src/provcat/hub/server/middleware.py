"""Pure-ASGI guards: refuse traversal-looking paths, untrusted ``Host`` values and repeated
``Authorization`` headers with 400, and turn any unexpected exception into the protocol's error
body (never a stack trace, path, SQL or token)."""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from provcat.hub.errors import HubError, InternalServerError, ValidationError
from provcat.hub.server.responses import error_response
from provcat.redact import HUB_TOKEN_SHAPE

__all__ = ["CatchAll", "HeaderGuard", "PathGuard", "host_name"]

log = logging.getLogger("provcat.hub")


def _bad_segment(segment: str) -> bool:
    # valid namespaces, names and versions never need percent-encoding or dot segments
    return "%" in segment or segment in {".", ".."} or "\\" in segment or "\x00" in segment


class PathGuard:
    """Every ``/v1/...`` path segment must be plain: encoded or dot segments are a 400."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            raw: Any = scope.get("raw_path") or scope.get("path", "").encode("utf-8")
            text = bytes(raw).split(b"?", 1)[0].decode("latin-1")
            segments = text.split("/")
            if text.startswith("/v1/") and any(_bad_segment(s) for s in segments):
                error = ValidationError(
                    "invalid path segment: namespaces, names and versions are plain "
                    "lower-kebab or SemVer text (no encoding, no '.' or '..')"
                )
                await error_response(error)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def host_name(host: str) -> str:
    """The name part of a ``Host`` value: ``[::1]:8080`` -> ``::1``, ``a.b:80`` -> ``a.b``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


class HeaderGuard:
    """400 for a request with more than one ``Authorization`` header (which one would count?),
    and, when no public URL is configured, for a ``Host`` outside ``allowed_hosts`` (the Host
    then becomes part of the URLs the hub writes, so only trusted values are served)."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] | None) -> None:
        self.app = app
        self.allowed = None if allowed_hosts is None else frozenset(allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
            error: HubError | None = None
            if sum(1 for name, _ in headers if name.lower() == b"authorization") > 1:
                error = ValidationError("send one Authorization header, not several")
            elif self.allowed is not None:
                hosts = [v for n, v in headers if n.lower() == b"host"]
                name = host_name(hosts[0].decode("latin-1")) if len(hosts) == 1 else ""
                if name not in self.allowed:
                    error = ValidationError(
                        "this Host is not served here: use the hub's configured address "
                        "(operators: set the hub's public URL)"
                    )
            if error is not None:
                await error_response(error)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class CatchAll:
    """Last line of defence: an unexpected error becomes ``500 InternalServerError``. A client
    that goes away mid-request (a push it aborted) is no server error: one log line, no
    traceback, and no answer, as nobody is there to read it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except ClientDisconnect:
            log.warning(
                "client disconnected during %s %r; the request was dropped",
                scope.get("method", "?"),
                HUB_TOKEN_SHAPE.sub("<redacted>", str(scope.get("path", "?"))),
            )
            return
        except Exception as exc:
            if started:
                raise
            if isinstance(exc, HubError):
                error: HubError = exc
            else:
                log.error("unexpected error: %s", type(exc).__name__, exc_info=exc)
                error = InternalServerError("unexpected server error; see the server log")
            await error_response(error)(scope, receive, send)
