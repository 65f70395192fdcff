"""One listening socket per ``serve --workers`` process, so the kernel spreads connections evenly.

uvicorn hands every worker the same listening socket: one accept queue, and whichever worker
wakes first drains it. Under a burst of new connections that is one busy worker and one idle one
(200 keep-alive connections measured as 189 + 11 on two workers; the p99 then was one
process's). With ``SO_REUSEPORT`` each worker listens on a socket of its own on the same address
and the kernel assigns each new connection to one of them by a hash of its addresses and ports.

The socket uvicorn's supervisor holds only reserves the address: it is bound, never listens, so
it never queues a connection. It reaches each worker the only way uvicorn passes sockets, by
pickling (workers are spawned), and unpickles there as that worker's own new socket; a worker
the supervisor restarts gets a new one the same way. The kernel only joins sockets of the same
user into one group, so another user cannot bind the port and take connections.
"""

from __future__ import annotations

import socket
from typing import Any

__all__ = ["REUSE_PORT", "bind", "reserve"]

REUSE_PORT = hasattr(socket, "SO_REUSEPORT")


def _bound(cls: type[socket.socket], family: int, address: tuple[Any, ...]) -> socket.socket:
    sock = cls(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _worker_socket(family: int, address: tuple[Any, ...]) -> socket.socket:
    """Runs in a worker as it unpickles its socket: a new one on the reserved address (uvicorn
    makes it listen)."""
    return _bound(socket.socket, family, address)


class _Reservation(socket.socket):
    """The supervisor's bound, never-listening socket; pickles as a worker's own socket."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_worker_socket, (int(self.family), self.getsockname()))


def reserve(host: str, port: int) -> socket.socket:
    """Reserve ``host:port`` for the workers (an error now if another program holds it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return _bound(_Reservation, family, (host, port))


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` for one process to listen on (uvicorn makes it listen):
    binding before anything else makes a busy port or a wrong host an error at once, before the
    server says it is serving. No ``SO_REUSEPORT``: a port another server holds is refused."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except BaseException:
        sock.close()
        raise
    return sock
