"""EarlyWriteback: flushes start every ``step`` bytes, never overlap, and their errors surface;
the pull's sink uses it."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

import pytest

from provcat.hub import receive
from provcat.hub import writeback as module
from provcat.hub.writeback import EarlyWriteback


def test_a_flush_starts_each_step_and_finish_waits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flushed: list[int] = []
    release = threading.Event()

    def fdatasync(fd: int) -> None:
        release.wait(5)
        flushed.append(fd)

    monkeypatch.setattr(module, "_datasync", fdatasync)
    with (tmp_path / "f").open("wb") as f:
        early = EarlyWriteback(f.fileno(), step=10)
        early.wrote(9)
        assert early.thread is None  # below one step: nothing yet
        early.wrote(1)
        assert early.thread is not None and early.thread.is_alive()
        early.wrote(25)  # a flush is running: no second one on top of it
        release.set()
        early.finish()
        assert flushed == [f.fileno()]
        assert early.thread is None
        early.wrote(10)  # the 25 bytes counted meanwhile and these: the next flush starts
        early.finish()
        assert flushed == [f.fileno(), f.fileno()]


def test_a_flush_error_is_raised_by_finish(tmp_path: Path) -> None:
    fd = os.open(tmp_path / "f", os.O_WRONLY | os.O_CREAT)
    os.close(fd)  # fdatasync of a closed descriptor fails (EBADF), as an I/O error would
    early = EarlyWriteback(fd, step=1)
    early.wrote(1)
    with pytest.raises(OSError):
        early.finish()
    early.finish()  # raised once, not again


def test_a_pull_reaches_the_disk_while_it_arrives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pull's sink flushes the payload file as batches are written (the install's fsync
    then waits only for the tail), and every byte lands once, hashed."""
    flushed: list[int] = []
    monkeypatch.setattr(module, "STEP", 16 << 10)
    monkeypatch.setattr(module, "_datasync", flushed.append)
    monkeypatch.setattr(receive, "CHUNK", 8 << 10)  # batches of 8 KiB
    chunks = [bytes([i]) * 4096 for i in range(64)]
    digest = hashlib.sha256()
    with (
        (tmp_path / "out").open("wb", buffering=0) as out,
        receive.Sink(digest, out) as sink,
    ):
        for chunk in chunks:
            sink.add(chunk)
        fd = out.fileno()
    expected = b"".join(chunks)
    assert (tmp_path / "out").read_bytes() == expected
    assert digest.hexdigest() == hashlib.sha256(expected).hexdigest()
    assert flushed and set(flushed) == {fd}
