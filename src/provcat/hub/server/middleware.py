"""Two pure-ASGI guards: refuse traversal-looking paths with 400, and turn any unexpected
exception into the protocol's error body (never a stack trace, path, SQL or token)."""

from __future__ import annotations

import logging
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from provcat.hub.errors import HubError, InternalServerError, ValidationError
from provcat.hub.server.responses import error_response

__all__ = ["CatchAll", "PathGuard"]

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


class CatchAll:
    """Last line of defence: an unexpected error becomes ``500 InternalServerError``."""

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
        except Exception as exc:
            if started:
                raise
            if isinstance(exc, HubError):
                error: HubError = exc
            else:
                log.error("unexpected error: %s", type(exc).__name__, exc_info=exc)
                error = InternalServerError("unexpected server error; see the server log")
            await error_response(error)(scope, receive, send)
