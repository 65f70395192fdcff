"""The conformance suite's only inputs: environment variables (modelled on the OCI distribution
conformance suite). Point it at any hub:

    PROVCAT_CONFORMANCE_URL=http://127.0.0.1:8080     base URL of the hub under test
    PROVCAT_CONFORMANCE_TOKEN=...                     write token for NAMESPACE
    PROVCAT_CONFORMANCE_OTHER_TOKEN=...               write token for OTHER_NAMESPACE only
    PROVCAT_CONFORMANCE_NAMESPACE=acme                (default acme)
    PROVCAT_CONFORMANCE_OTHER_NAMESPACE=globex        (default globex)
    PROVCAT_CONFORMANCE_PUSH=1                        run push / concurrency cases
    PROVCAT_CONFORMANCE_DELETE=1                      run delete cases
    PROVCAT_CONFORMANCE_MAX_UPLOAD_BYTES=1048576      the server's cap, for the 413 cases
    PROVCAT_CONFORMANCE_PRIVATE_READS=0               reads need a token

A base URL registered in ``IN_PROCESS`` is served by that ASGI app through httpx's ASGI transport
(this is how the project runs the suite quickly, without sockets). A base URL registered in
``BALANCED`` is a load balancer: each request goes to the next of its servers in turn.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

IN_PROCESS: dict[str, Any] = {}
BALANCED: dict[str, list[str]] = {}
PREFIX = "PROVCAT_CONFORMANCE_"


class RoundRobin(httpx.AsyncBaseTransport):
    """A minimal load balancer: request ``i`` goes to server ``i mod n`` (same path and query)."""

    def __init__(self, servers: list[str]) -> None:
        self.servers = [httpx.URL(s) for s in servers]
        self.inner = httpx.AsyncHTTPTransport()
        self.sent = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        target = self.servers[self.sent % len(self.servers)]
        self.sent += 1
        request.url = request.url.copy_with(
            scheme=target.scheme, host=target.host, port=target.port
        )
        request.headers["Host"] = target.netloc.decode("ascii")
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    value = env.get(PREFIX + name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class Config:
    base_url: str
    token: str = field(repr=False)
    other_token: str = field(repr=False)
    namespace: str = "acme"
    other_namespace: str = "globex"
    push: bool = True
    delete: bool = True
    private_reads: bool = False
    max_upload_bytes: int | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        env = os.environ if env is None else env
        cap = env.get(PREFIX + "MAX_UPLOAD_BYTES")
        return cls(
            base_url=env[PREFIX + "URL"].rstrip("/"),
            token=env.get(PREFIX + "TOKEN", ""),
            other_token=env.get(PREFIX + "OTHER_TOKEN", ""),
            namespace=env.get(PREFIX + "NAMESPACE", "acme"),
            other_namespace=env.get(PREFIX + "OTHER_NAMESPACE", "globex"),
            push=_flag(env, "PUSH", True),
            delete=_flag(env, "DELETE", True),
            private_reads=_flag(env, "PRIVATE_READS", False),
            max_upload_bytes=int(cap) if cap else None,
        )

    def http(self, **kwargs: Any) -> httpx.AsyncClient:
        app = IN_PROCESS.get(self.base_url)
        transport: httpx.AsyncBaseTransport | None = None
        if app is not None:
            transport = httpx.ASGITransport(app=app)
        elif self.base_url in BALANCED:
            transport = RoundRobin(BALANCED[self.base_url])
        headers = {"Authorization": f"Bearer {self.token}"} if self.private_reads else {}
        return httpx.AsyncClient(
            base_url=self.base_url, transport=transport, timeout=60, headers=headers, **kwargs
        )

    def auth(self, token: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token if token is not None else self.token}"}
