"""The local-network guard: an endpoint reaches the public internet unless it says otherwise.

A catalog endpoint may not send a credential to a loopback, private, link-local, multicast or
reserved address unless its ``allow_local_network`` is true. The check is made on the addresses
the connection will actually use: :class:`GuardedTransport` resolves the host itself, refuses
before any byte is sent, then connects to the address it checked (TLS still verifies the original
host name), so a name that resolves to 127.0.0.1 only at call time (DNS rebinding) is refused too.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable

import httpx

from provcat.errors import LocalAddressError

__all__ = ["ALLOW_LOCAL", "GuardedTransport", "check_host", "refusal"]

# the request extension that carries the endpoint's allow_local_network to the transport
ALLOW_LOCAL = "provcat.allow_local_network"

Resolver = Callable[[str, int], Awaitable[list[str]]]


def refusal(address: str) -> str | None:
    """Why ``address`` is not a public address, or None when it is one."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
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


async def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to now, in the resolver's order."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


async def check_host(host: str, port: int, resolver: Resolver = resolve) -> str:
    """The first address of ``host``, after checking that every one is public."""
    try:
        addresses = await resolver(host, port)
    except OSError as exc:
        raise httpx.ConnectError(f"cannot resolve {host}: {exc}") from exc
    for address in addresses:
        reason = refusal(address)
        if reason is not None:
            raise LocalAddressError(
                f"{host} resolves to {address}, {reason}; set allow_local_network=True on an "
                "endpoint that is meant to reach the local network"
            )
    if not addresses:
        raise httpx.ConnectError(f"{host} resolves to no address")
    return addresses[0]


class GuardedTransport(httpx.AsyncBaseTransport):
    """Checks and pins the address of every request whose endpoint does not allow the local
    network, then hands the request to ``inner``."""

    def __init__(self, inner: httpx.AsyncBaseTransport, resolver: Resolver = resolve) -> None:
        self.inner = inner
        self.resolver = resolver

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        allow = bool(request.extensions.pop(ALLOW_LOCAL, False))
        if not allow:
            host = request.url.host
            port = request.url.port or (443 if request.url.scheme == "https" else 80)
            address = await check_host(host, port, self.resolver)
            if address != host:
                if request.url.scheme == "https":
                    request.extensions = {**request.extensions, "sni_hostname": host}
                request.url = request.url.copy_with(host=address)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()
