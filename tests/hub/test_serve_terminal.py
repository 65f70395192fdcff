"""`provcat hub serve` on a terminal: the log it writes there follows NO_COLOR
(https://no-color.org: when it is set and not empty, no ANSI colour)."""

from __future__ import annotations

import os
import pty
import select
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.hub.services import free_port

PROVCAT = shutil.which("provcat", path=str(Path(sys.executable).parent))


def _terminal_log(data: Path, no_color: str | None) -> bytes:
    """What ``provcat hub serve`` writes to a terminal until its application has started."""
    assert PROVCAT is not None
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    if no_color is not None:
        env["NO_COLOR"] = no_color
    argv = [PROVCAT, "hub", "serve", "--data-dir", str(data), "--port", str(port)]
    pid, fd = pty.fork()
    if pid == 0:  # the child: the server, on the terminal's side
        os.execve(PROVCAT, argv, env)
    seen = b""
    deadline = time.monotonic() + 30
    try:
        while b"Application startup complete" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(fd, 4096)
                except OSError:  # the terminal closed: the server ended
                    break
    finally:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
        os.close(fd)
    assert b"Application startup complete" in seen, seen.decode(errors="replace")
    return seen


@pytest.mark.skipif(PROVCAT is None, reason="needs the installed provcat command")
def test_serve_on_a_terminal_writes_no_colour_when_no_color_is_set(tmp_path: Path) -> None:
    assert b"\x1b[" in _terminal_log(tmp_path / "a", None)  # uvicorn colours a terminal's log
    assert b"\x1b[" not in _terminal_log(tmp_path / "b", "1")
    assert b"\x1b[" in _terminal_log(
        tmp_path / "c", ""
    )  # set but empty: colours, as no-color.org has it
