"""The hostile-server suite's tools: small raw servers on 127.0.0.x that answer what a test
scripts (byte for byte, slowly, forever, over TLS), a DNS the test controls (``socket.getaddrinfo``
patched), and a stand-in for a vendor's public address.

The guard refuses every loopback address, so a test that needs a guarded call to succeed names
127.0.0.2 and 127.0.0.3 as the vendor's "public" addresses (``public_stand_ins``); every other
address keeps the guard's real verdict.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from provcat.endpoints import netguard

SECRET = "sk-hostile-SENTINEL-0123456789"
STAND_INS = ("127.0.0.2", "127.0.0.3")

App = Callable[["Conn"], None]


@dataclass
class Conn:
    """One accepted connection: read the request, write anything."""

    sock: socket.socket
    server: Server
    buffer: bytes = b""

    def request(self) -> tuple[str, dict[str, str], bytes]:
        """The next request: its request line, headers (lower-case names) and body."""
        while b"\r\n\r\n" not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("closed")
            self.buffer += data
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        line, *rest = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in rest)}
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            data = self.sock.recv(65536)
            if not data:
                break
            self.buffer += data
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        self.server.seen.append({"line": line, "headers": headers, "body": body})
        return line, headers, body

    def send(self, data: bytes) -> bool:
        """Write ``data``; False once the client has gone."""
        try:
            self.sock.sendall(data)
        except OSError:
            return False
        self.server.sent += len(data)
        return True


@dataclass
class Server:
    """A TCP server on ``host`` answering each connection with ``app`` in a thread."""

    app: App
    host: str = "127.0.0.1"
    tls: ssl.SSLContext | None = None
    seen: list[dict[str, Any]] = field(default_factory=list)
    sent: int = 0
    connections: int = 0
    open_now: int = 0
    most_open: int = 0

    def __post_init__(self) -> None:
        self.listener = socket.create_server((self.host, 0), backlog=1024)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def url(self, host: str | None = None, scheme: str | None = None) -> str:
        return f"{scheme or ('https' if self.tls else 'http')}://{host or self.host}:{self.port}"

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(sock,), daemon=True).start()

    def _serve(self, sock: socket.socket) -> None:
        with self.lock:
            self.connections += 1
            self.open_now += 1
            self.most_open = max(self.most_open, self.open_now)
        try:
            if self.tls is not None:
                sock = self.tls.wrap_socket(sock, server_side=True)
            self.app(Conn(sock, self))
        except (OSError, ConnectionError, ssl.SSLError):
            pass
        finally:
            with self.lock:
                self.open_now -= 1
            with contextlib.suppress(OSError):
                sock.close()

    def close(self) -> None:
        self.stopped.set()
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        self.listener.close()


def response(status: int, body: bytes, *headers: tuple[str, str], close: bool = False) -> bytes:
    head = [f"HTTP/1.1 {status} X"]
    names = {k.lower() for k, _ in headers}
    if "content-type" not in names:
        head.append("Content-Type: application/json")
    if "content-length" not in names and "transfer-encoding" not in names:
        head.append(f"Content-Length: {len(body)}")
    head += [f"{k}: {v}" for k, v in headers]
    if close:
        head.append("Connection: close")
    text = "\r\n".join(head) + "\r\n\r\n"
    try:
        return text.encode("latin-1") + body
    except UnicodeEncodeError:  # a value only UTF-8 can carry: sent as such
        return text.encode("utf-8") + body


def replying(status: int, body: bytes, *headers: tuple[str, str]) -> App:
    """An app answering every request on a connection with the same response (keep-alive)."""

    def app(conn: Conn) -> None:
        while True:
            conn.request()
            if not conn.send(response(status, body, *headers)):
                return

    return app


@pytest.fixture
def serve() -> Iterator[Callable[..., Server]]:
    servers: list[Server] = []

    def start(app: App, host: str = "127.0.0.1", tls: ssl.SSLContext | None = None) -> Server:
        server = Server(app, host, tls)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


class DNS:
    """``socket.getaddrinfo`` for names the test lists; every other name resolves as usual.
    A name may map to a list of answers, one per lookup (the last repeats)."""

    def __init__(self) -> None:
        self.names: dict[str, list[list[str]]] = {}
        self.lookups: list[str] = []
        self.delay: dict[str, float] = {}

    def __setitem__(self, name: str, addresses: list[str] | list[list[str]]) -> None:
        answers = addresses if addresses and isinstance(addresses[0], list) else [addresses]
        self.names[name] = answers  # type: ignore[assignment]


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> DNS:
    table = DNS()
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        if name in table.names:
            import time

            table.lookups.append(name)
            time.sleep(table.delay.get(name, 0))
            answers = table.names[name]
            addresses = answers[0] if len(answers) == 1 else answers.pop(0)
            out = []
            for address in addresses:
                family = socket.AF_INET6 if ":" in address else socket.AF_INET
                sockaddr = (
                    (address, int(port or 0), 0, 0) if ":" in address else (address, int(port or 0))
                )
                out.append((family, socket.SOCK_STREAM, 6, "", sockaddr))
            return out
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return table


@pytest.fixture
def public_stand_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    """127.0.0.2 and 127.0.0.3 count as public addresses (the vendor's, in these tests)."""
    real = netguard.refusal

    def refusal(address: str) -> str | None:
        return None if address in STAND_INS else real(address)

    monkeypatch.setattr(netguard, "refusal", refusal)


@pytest.fixture(autouse=True)
def _keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "MISTRAL_API_KEY", "EXA_API_KEY"):
        monkeypatch.setenv(name, SECRET)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
