"""ConnectionPool: the pooled HTTP client endpoints share, with a lifecycle the caller controls.

``async with ConnectionPool() as pool: await endpoint.call(request, client=pool)`` keeps
connections open across calls and endpoints and closes them at the end. An endpoint called without
a client uses the default pool of the running event loop; ``await provcat.endpoints.pool.aclose_default()``
closes it. Redirects are never followed: the credential would go along to wherever they point.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from types import TracebackType

import httpx

from provcat.endpoints.netguard import GuardedTransport, Resolver, resolve

__all__ = ["ConnectionPool", "aclose_default", "default_pool"]

Sleep = Callable[[float], Awaitable[None]]


class ConnectionPool:
    """A pooled ``httpx.AsyncClient`` behind the local-network guard.

    ``sleep`` is what the retry loop waits with (tests pass one that takes no wall time);
    ``transport`` replaces the network transport (tests); ``resolver`` the address lookup.
    """

    def __init__(
        self,
        *,
        max_connections: int = 100,
        max_keepalive_connections: int = 20,
        sleep: Sleep = asyncio.sleep,
        transport: httpx.AsyncBaseTransport | None = None,
        resolver: Resolver = resolve,
    ) -> None:
        limits = httpx.Limits(
            max_connections=max_connections, max_keepalive_connections=max_keepalive_connections
        )
        inner = transport or httpx.AsyncHTTPTransport(limits=limits)
        self.client = httpx.AsyncClient(
            transport=GuardedTransport(inner, resolver), follow_redirects=False, timeout=None
        )
        self.sleep = sleep

    @property
    def closed(self) -> bool:
        return self.client.is_closed

    async def aclose(self) -> None:
        await self.client.aclose()

    async def __aenter__(self) -> ConnectionPool:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


_defaults: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, ConnectionPool] = (
    weakref.WeakKeyDictionary()
)


def default_pool() -> ConnectionPool:
    """The running event loop's shared pool, made on first use (a closed one is replaced)."""
    loop = asyncio.get_running_loop()
    pool = _defaults.get(loop)
    if pool is None or pool.closed:
        pool = _defaults[loop] = ConnectionPool()
    return pool


async def aclose_default() -> None:
    """Close the running event loop's shared pool (the next call opens a new one)."""
    pool = _defaults.pop(asyncio.get_running_loop(), None)
    if pool is not None:
        await pool.aclose()
