"""ConnectionPool: the pooled HTTP client endpoints share, with a lifecycle the caller controls.

``async with ConnectionPool() as pool: await endpoint.call(request, client=pool)`` keeps
connections open across calls and endpoints and closes them at the end. An endpoint called without
a client uses the default pool of the running event loop, closed when that loop shuts down
(``asyncio.run`` ends) and at interpreter exit; ``await provcat.endpoints.pool.aclose_default()``
closes it sooner. Redirects are never followed: the credential would go along to wherever they
point.

Connections of endpoints that may not reach the local network are opened through the guard's
network backend (:mod:`provcat.endpoints.netguard`), in a pool of their own; the others in a plain
one. A request holds one of its host's ``max_connections_per_host`` slots until its answer is
closed, so one hung host cannot take every connection. ``HTTP_PROXY``, ``HTTPS_PROXY``,
``ALL_PROXY`` and ``NO_PROXY`` are honoured as httpx honours them (read when the pool is made); a
proxied request is checked by the name of its target, since the proxy makes the connection: a
name that resolves here to a local address is refused, and one that does not resolve here is
left to the proxy unless it may be local (:func:`~provcat.endpoints.netguard.unresolved_refusal`).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import os
import ssl
import urllib.request
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping
from types import TracebackType
from typing import Any, cast
from urllib.request import proxy_bypass_environment  # type: ignore[attr-defined]

import httpcore
import httpx

from provcat.endpoints.netguard import (
    ALLOW_LOCAL,
    GuardedBackend,
    LookupFailed,
    Resolver,
    check_host,
    resolve,
    unresolved_refusal,
    url_port,
)
from provcat.errors import EndpointConfigurationError, LocalAddressError

__all__ = ["ConnectionPool", "aclose_default", "default_pool"]

Sleep = Callable[[float], Awaitable[None]]


class _PinnedTransport(httpx.AsyncHTTPTransport):
    """httpx's transport over a connection pool whose connections go through the guard."""

    def __init__(self, ssl_context: ssl.SSLContext, limits: httpx.Limits, resolver: Resolver):
        super().__init__(verify=ssl_context, limits=limits)
        # httpx takes no network backend: the same pool it builds, with the guard's backend
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=GuardedBackend(resolver),
        )


class _Releasing(httpx.AsyncByteStream):
    """A response body that gives its host's slot back when it is closed."""

    def __init__(self, inner: httpx.AsyncByteStream, slot: asyncio.Semaphore) -> None:
        self.inner = inner
        self.slot: asyncio.Semaphore | None = slot

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.inner:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self.inner.aclose()
        finally:
            if self.slot is not None:
                self.slot.release()
                self.slot = None


@functools.lru_cache(maxsize=4)
def _system_context(cert_file: str | None, cert_dir: str | None) -> ssl.SSLContext:
    """httpx's default TLS context (certifi's store, or the ``SSL_CERT_FILE`` / ``SSL_CERT_DIR``
    the environment names), made once per process: loading the store takes ~90 ms and a
    context may be shared by every pool and loop."""
    return httpx.create_ssl_context()


def environment_proxies() -> dict[str, str]:
    """The proxies the environment names (``*_PROXY`` variables, either case), by scheme."""
    return {k: v for k, v in urllib.request.getproxies_environment().items() if v}


class GuardedTransport(httpx.AsyncBaseTransport):
    """Routes each request: through a proxy the environment names, through the guarded pool
    (the endpoint may not reach the local network) or the plain one, one host's slot held."""

    def __init__(
        self,
        *,
        limits: httpx.Limits,
        per_host: int,
        ssl_context: ssl.SSLContext | None = None,
        resolver: Resolver = resolve,
        transport: httpx.AsyncBaseTransport | None = None,
        proxies: Mapping[str, str] | None = None,
    ) -> None:
        context = ssl_context or _system_context(
            os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR")
        )
        self.resolver = resolver
        self.per_host = per_host
        self.slots: dict[tuple[bytes, bytes, int | None], asyncio.Semaphore] = {}
        self.given = transport  # a transport the caller gave: not ours, checked by name
        self.pinned = transport or _PinnedTransport(context, limits, resolver)
        self.open = transport or httpx.AsyncHTTPTransport(verify=context, limits=limits)
        self.proxies = dict(environment_proxies() if proxies is None else proxies)
        self.proxied: dict[str, httpx.AsyncBaseTransport] = {}
        for url in sorted({v for k, v in self.proxies.items() if k != "no"}):
            try:
                self.proxied[url] = transport or httpx.AsyncHTTPTransport(
                    verify=context, limits=limits, proxy=url
                )
            except (ValueError, ImportError, httpx.InvalidURL) as exc:
                raise EndpointConfigurationError(
                    "proxy",
                    f"the proxy the environment names is not usable ({exc}); fix or "
                    "unset HTTP_PROXY / HTTPS_PROXY / ALL_PROXY",
                ) from None

    def _proxy(self, url: httpx.URL) -> str | None:
        if not self.proxies:
            return None
        proxy = self.proxies.get(url.scheme) or self.proxies.get("all")
        if proxy is None or proxy_bypass_environment(url.host, self.proxies):
            return None
        return proxy

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        allow = bool(request.extensions.pop(ALLOW_LOCAL, False))
        url = request.url
        proxy = self._proxy(url)
        direct = self.open if allow else self.pinned
        inner = direct if proxy is None else self.proxied[proxy]
        if not allow and (proxy is not None or self.given is not None):
            # the connection is not ours to check: the name of the target is
            try:
                await check_host(url.host, url_port(url), self.resolver)
            except LookupFailed:
                if proxy is None:
                    raise
                # behind a proxy this machine may resolve no outside name: the proxy does,
                # unless the name may be a local one
                reason = unresolved_refusal(url.host)
                if reason is not None:
                    raise LocalAddressError(
                        f"{url.host} cannot be resolved here and is {reason}; set "
                        "allow_local_network=True on an endpoint that is meant to reach the "
                        "local network"
                    ) from None
        key = (url.raw_scheme, url.raw_host, url.port)
        slot = self.slots.get(key)
        if slot is None:
            slot = self.slots[key] = asyncio.Semaphore(self.per_host)
        await slot.acquire()
        try:
            response = await inner.handle_async_request(request)
        except BaseException:
            slot.release()
            raise
        assert isinstance(response.stream, httpx.AsyncByteStream)
        response.stream = _Releasing(response.stream, slot)
        return response

    async def aclose(self) -> None:
        transports = {id(t): t for t in (self.pinned, self.open, *self.proxied.values())}
        for transport in transports.values():
            await transport.aclose()


class ConnectionPool:
    """A pooled ``httpx.AsyncClient`` behind the local-network guard.

    ``max_connections`` bounds the connections in all, ``max_connections_per_host`` those of one
    host (``scheme://host:port``); ``ssl_context`` replaces the system's certificate store (a
    company CA); ``proxies`` replaces what the ``*_PROXY`` variables say (``{}``: no proxy).
    ``sleep`` is what the retry loop waits with (tests pass one that takes no wall time);
    ``transport`` replaces the network transport (tests: the guard then checks the host's name
    before each request); ``resolver`` the address lookup.

    A pool belongs to the event loop that first uses it (its connections are that loop's): a
    call through it from another loop, such as ``call_sync`` after the ``asyncio.run`` that used
    it ended, is refused with :class:`~provcat.errors.EndpointConfigurationError`, as is a call
    through a closed pool.
    """

    def __init__(
        self,
        *,
        max_connections: int = 100,
        max_connections_per_host: int = 50,
        max_keepalive_connections: int = 20,
        ssl_context: ssl.SSLContext | None = None,
        proxies: Mapping[str, str] | None = None,
        sleep: Sleep = asyncio.sleep,
        transport: httpx.AsyncBaseTransport | None = None,
        resolver: Resolver = resolve,
    ) -> None:
        if max_connections < 1 or max_connections_per_host < 1 or max_keepalive_connections < 0:
            raise ValueError("connection limits must be positive")
        limits = httpx.Limits(
            max_connections=max_connections, max_keepalive_connections=max_keepalive_connections
        )
        self.transport = GuardedTransport(
            limits=limits,
            per_host=min(max_connections_per_host, max_connections),
            ssl_context=ssl_context,
            resolver=resolver,
            transport=transport,
            proxies=proxies,
        )
        self.client = httpx.AsyncClient(
            transport=self.transport, follow_redirects=False, timeout=None, trust_env=False
        )
        self.sleep = sleep
        self._closer: object = None  # a default pool's shutdown hook (see default_pool)
        self._loop: weakref.ref[asyncio.AbstractEventLoop] | None = None  # bound on first use

    @property
    def closed(self) -> bool:
        return self.client.is_closed

    def check_loop(self) -> None:
        """Bind the pool to the running event loop on its first use; afterwards refuse, with
        :class:`~provcat.errors.EndpointConfigurationError`, a use from another loop (its
        connections cannot be used there: a closed loop's are dead) or of a closed pool."""
        if self.closed:
            raise EndpointConfigurationError(
                "client",
                "the ConnectionPool is closed (its async with block ended, or aclose() was "
                "called): make a new one, or call without client= to use the event loop's own",
            )
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = weakref.ref(loop)
            return
        owner = self._loop()
        if owner is loop:
            return
        where = (
            "another event loop, still open"
            if owner is not None and not owner.is_closed()
            else "an event loop that has closed (asyncio.run closes its loop as it returns)"
        )
        raise EndpointConfigurationError(
            "client",
            f"the ConnectionPool belongs to {where}: the loop that first used it, whose "
            "connections it holds. Make the pool in the event loop that uses it, inside the "
            "coroutine, or call without client= (call_sync and stream_sync then use a pool of "
            "their own)",
        )

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


async def _close_at_shutdown(
    loop: asyncio.AbstractEventLoop, pool: ConnectionPool
) -> AsyncIterator[None]:
    """An async generator the loop finalizes when it shuts down (``asyncio.run`` calls
    ``loop.shutdown_asyncgens()`` before closing the loop): it closes the pool there, while the
    loop can still close the sockets, and forgets it."""
    try:
        yield
    finally:
        if _defaults.get(loop) is pool:
            del _defaults[loop]
        await pool.aclose()


def default_pool() -> ConnectionPool:
    """The running event loop's shared pool, made on first use (a closed one is replaced); it is
    closed when the loop shuts down."""
    loop = asyncio.get_running_loop()
    pool = _defaults.get(loop)
    if pool is None or pool.closed:
        pool = _defaults[loop] = ConnectionPool()
        closer = _close_at_shutdown(loop, pool)
        # its first step registers it with the running loop's async-generator hooks
        step = cast("Coroutine[Any, Any, None]", closer.__anext__())
        with contextlib.suppress(StopIteration):
            step.send(None)
        pool._closer = closer  # alive as long as the pool is
    return pool


async def aclose_default() -> None:
    """Close the running event loop's shared pool (the next call opens a new one)."""
    pool = _defaults.pop(asyncio.get_running_loop(), None)
    if pool is not None:
        await pool.aclose()


@atexit.register
def _close_at_exit() -> None:
    """Close the default pools of loops that are neither running nor closed at exit (a loop
    that was never shut down). A loop closed without ``shutdown_asyncgens()`` cannot run the
    close any more: its sockets stay open until the process ends (the README says to call
    ``aclose_default()`` first)."""
    for loop, pool in list(_defaults.items()):
        if pool.closed or loop.is_closed() or loop.is_running():
            continue
        with contextlib.suppress(Exception):
            loop.run_until_complete(pool.aclose())
