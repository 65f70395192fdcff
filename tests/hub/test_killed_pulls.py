"""A pull killed mid-download leaves its staging directory behind (no clean-up code runs); the
next pull into the store removes it, and never the staging directory of a pull still running.

The hub here is a tiny HTTP server that can hold a payload half sent, so a ``provcat hub pull``
process can be killed while its staging directory holds a partial payload."""

from __future__ import annotations

import http.server
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from provcat.hub import RegistryClient
from tests.hub.helpers import safetensors, sha256
from tests.hub.services import wait_for

PAYLOADS = {"slow": safetensors(b"\x01" * (6 << 20)), "quick": safetensors(b"\x02" * 1000)}


class _Hub(http.server.ThreadingHTTPServer):
    daemon_threads = True
    release: threading.Event  # set: the held payload may finish

    def handle_error(self, *_: object) -> None:  # a killed client's broken pipe: expected
        pass


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _Hub

    def log_message(self, *_: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        parts = self.path.split("/")  # /v1/adapters/acme/NAME/1.0.0[/payload]
        name = parts[4] if len(parts) > 4 else ""
        payload = PAYLOADS.get(name)
        if payload is None:
            self.send_error(404)
            return
        if parts[-1] == "payload":
            self.send_response(200)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if name == "slow":  # half now, the rest once released (or never)
                self.wfile.write(payload[: len(payload) // 2])
                self.wfile.flush()
                self.server.release.wait()
                self.wfile.write(payload[len(payload) // 2 :])
            else:
                self.wfile.write(payload)
            return
        body = json.dumps(
            {
                "manifest_version": 2,
                "namespace": "acme",
                "name": name,
                "version": "1.0.0",
                "checksum_sha256": sha256(payload),
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def hub_url() -> Iterator[str]:
    server = _Hub(("127.0.0.1", 0), _Handler)
    server.release = threading.Event()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.release.set()
        server.shutdown()
        server.server_close()


def _staging(store: Path) -> set[Path]:
    return {p for p in store.glob(".staging-*") if p.is_dir()}


def _partial(store: Path, known: set[Path]) -> Path | None:
    """A new staging directory whose payload has its first bytes (the pull is mid-download)."""
    for path in _staging(store) - known:
        payload = path / "adapter.safetensors"
        if payload.is_file() and payload.stat().st_size > 0:
            return path
    return None


def _start_pull(url: str, store: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from provcat.cli.main import main; sys.argv[0] = 'provcat'; main()",
            *["hub", "pull", "--hub", url, "--store", str(store), "hub://acme/slow:1.0.0"],
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PROVCAT_HUB_TOKEN": ""},
    )


def _pull_until_partial(url: str, store: Path) -> tuple[subprocess.Popen[bytes], Path]:
    known = _staging(store)
    process = _start_pull(url, store)
    found: list[Path] = []

    def partial() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"the pull ended early ({process.returncode})")
        hit = _partial(store, known)
        if hit is not None:
            found.append(hit)
        return hit is not None

    wait_for(partial, "the pull to write part of the payload")
    return process, found[0]


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_killed_pull_is_cleaned_by_the_next_one_and_a_running_one_is_not(
    hub_url: str, tmp_path: Path, how: signal.Signals
) -> None:
    store = tmp_path / "store"
    store.mkdir()
    old = store / ".staging-0123456789abcdef"  # what an earlier provcat left: no lock file
    old.mkdir()
    (old / "adapter.safetensors").write_bytes(b"partial")
    killed, killed_dir = _pull_until_partial(hub_url, store)
    killed.send_signal(how)
    killed.wait()
    assert killed_dir.is_dir()  # the killed pull cleaned nothing
    running, running_dir = _pull_until_partial(hub_url, store)
    try:
        with RegistryClient(hub_url, store=store) as client:
            client.pull("hub://acme/quick:1.0.0")  # another adapter, into the same store
        # the dead pulls' directories are gone; the running pull's is untouched ...
        assert _staging(store) == {running_dir}
        assert (running_dir / "adapter.safetensors").stat().st_size > 0
    finally:
        running.kill()
        running.wait()
    with RegistryClient(hub_url, store=store) as client:
        client.pull("hub://acme/quick:1.0.0")  # ... until it dies too (served locally)
    assert sorted(p.name for p in store.iterdir()) == ["acme__quick__v1.0.0"]
