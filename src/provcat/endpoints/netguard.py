"""The local-network guard: an endpoint reaches the public internet unless it says otherwise.

A catalog endpoint may not send a credential to a loopback, private, link-local, multicast or
reserved address unless its ``allow_local_network`` is true. The check is made on the addresses a
connection actually uses: :class:`GuardedBackend` is the network backend of the pool's guarded
connections; it resolves the host itself when a connection is opened, refuses before any byte is
sent when any address is not public, then connects to the checked addresses in order (the next
one when one cannot be reached). The URL keeps its host name, so TLS sends that name (SNI) and
verifies the certificate for it, and connections are pooled per host, never per address: a
connection verified for one host is never reused for another on the same address. A name that
resolves to 127.0.0.1 only at call time (DNS rebinding) is refused too, and a kept-alive
connection needs no new lookup.

Where provcat does not open the connection itself (a caller's own ``httpx.AsyncClient``, a
proxy), :func:`check_host` checks the name before the request, and :func:`peer_check` checks the
address of every connection the client opens for the request before the request is written.
Behind a proxy a name this machine cannot resolve (a network where only the proxy resolves
outside names) is left to the proxy unless :func:`unresolved_refusal` finds it may be local.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import httpcore

from provcat.errors import LocalAddressError

if TYPE_CHECKING:
    import httpx

__all__ = [
    "ALLOW_LOCAL",
    "GuardedBackend",
    "LookupFailed",
    "check_host",
    "peer_check",
    "refusal",
    "resolve",
    "unresolved_refusal",
    "url_port",
]

# the request extension that carries the endpoint's allow_local_network to the transport
ALLOW_LOCAL = "provcat.allow_local_network"

Resolver = Callable[[str, int], Awaitable[list[str]]]


class LookupFailed(ConnectionError):
    """The host name could not be resolved (nothing was sent)."""


def refusal(address: str) -> str | None:
    """Why ``address`` is not a public address, or None when it is one."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is not None:
            ip = embedded
    for kind, flag in (
        ("a loopback", ip.is_loopback),
        ("a link-local", ip.is_link_local),
        ("a multicast", ip.is_multicast),
        ("the unspecified", ip.is_unspecified),
        ("a reserved", ip.is_reserved),
        ("a private", ip.is_private),
        ("a non-public", not ip.is_global),  # shared (100.64/10), documentation ranges, ...
    ):
        if flag:
            return f"{kind} address"
    return None


def _literal(host: str) -> str | None:
    """``host`` as an address when it is an address literal, else None."""
    try:
        return str(ipaddress.ip_address(host.strip("[]").split("%", 1)[0]))
    except ValueError:
        return None


# names of the local network whatever a resolver says: RFC 6761's localhost, RFC 6762's .local
# (mDNS), RFC 8375's home.arpa and .internal, which ICANN keeps for private networks
_LOCAL_NAMES = ("localhost", "local", "home.arpa", "internal")


def unresolved_refusal(host: str) -> str | None:
    """Why ``host``, a name this machine cannot resolve, may still name the local network (a
    proxy would resolve it there), or None for a name only the public DNS can answer: an
    address in another spelling (``127.0.0.1.``, ``0x7f.1``), a name of one label (an intranet
    host) or a name under a local-only domain."""
    name = host.rstrip(".").lower()
    literal = _literal(name)
    if literal is not None:
        return refusal(literal)
    labels = name.split(".")
    if len(labels) < 2:
        return "a name of one label, which only a local network resolves"
    if labels[-1].isdigit() or labels[-1].startswith("0x"):
        return "an address spelt as a name"
    for local in _LOCAL_NAMES:
        if name == local or name.endswith("." + local):
            return f"a name under .{local}, which only a local network resolves"
    return None


@functools.cache
def _lookups() -> concurrent.futures.ThreadPoolExecutor:
    """The threads lookups run in: not the loop's default executor, which ``asyncio.run`` waits
    for at its end, so a lookup that hangs past a call's timeout does not hold the caller."""
    return concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="provcat-dns")


async def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to now, in the resolver's order."""
    loop = asyncio.get_running_loop()
    infos = await loop.run_in_executor(
        _lookups(), functools.partial(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
    )
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def _refuse(host: str, addresses: Iterable[str]) -> None:
    for address in addresses:
        reason = refusal(address)
        if reason is not None:
            raise LocalAddressError(
                f"{host} resolves to {address}, {reason}; set allow_local_network=True on an "
                "endpoint that is meant to reach the local network"
            )


def url_port(url: httpx.URL) -> int:
    """The port a connection to ``url`` uses: the one it gives, else its scheme's (443, 80)."""
    return url.port or (443 if url.scheme == "https" else 80)


async def check_host(host: str, port: int, resolver: Resolver = resolve) -> list[str]:
    """Every address of ``host``, after checking that every one is public (a name that also
    resolves to one local address is refused whole)."""
    literal = _literal(host)
    if literal is not None:
        _refuse(host, [literal])
        return [literal]
    try:
        addresses = await resolver(host, port)
    except (OSError, UnicodeError) as exc:
        raise LookupFailed(f"cannot resolve {host}: {exc}") from None
    if not addresses:
        raise LookupFailed(f"{host} resolves to no address")
    _refuse(host, addresses)
    return addresses


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend for connections that may not reach the local network: every
    connection goes to an address checked when it is opened, tried in the resolver's order."""

    def __init__(
        self, resolver: Resolver = resolve, inner: httpcore.AsyncNetworkBackend | None = None
    ) -> None:
        self.resolver = resolver
        self.inner = inner or httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            async with asyncio.timeout(timeout):
                addresses = await check_host(host, port, self.resolver)
        except TimeoutError:
            raise httpcore.ConnectTimeout(f"no address for {host} within {timeout} s") from None
        except LookupFailed as exc:
            raise httpcore.ConnectError(str(exc)) from None
        failure: Exception | None = None
        for address in addresses:
            try:
                return await self.inner.connect_tcp(
                    address,
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc  # the next checked address, as a browser's happy eyeballs would
        assert failure is not None
        raise failure

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.AsyncNetworkStream:
        raise LocalAddressError(f"a unix socket ({path}) is the local machine")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


def peer_check(host: str) -> Callable[[str, Mapping[str, Any]], Awaitable[None]]:
    """An httpcore ``trace`` hook for a client provcat did not build: each connection opened to
    ``host`` for the request is checked on the address it reached, before the request is written
    (a connection to a proxy the caller configured is the caller's choice and is not checked)."""

    connecting: list[str] = []

    async def trace(event: str, info: Mapping[str, Any]) -> None:
        if event == "connection.connect_tcp.started":
            connecting.append(str(info.get("host", "")))
        elif event == "connection.connect_tcp.complete":
            target = connecting.pop() if connecting else host
            stream = info.get("return_value")
            peer = stream.get_extra_info("server_addr") if stream is not None else None
            if target.strip("[]") == host.strip("[]") and isinstance(peer, tuple) and peer:
                try:
                    _refuse(host, [str(peer[0])])
                except LocalAddressError:
                    # httpcore opened the stream before this hook and does not close it when
                    # the hook raises: close it here, or the socket stays open until collected
                    if stream is not None:
                        with contextlib.suppress(Exception):  # the refusal is what is said
                            await stream.aclose()
                    raise

    return trace
