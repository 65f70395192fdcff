"""Upload temp folders owned by live processes (``flock``), what start-up may remove, and the
``Host`` names a server without a public URL accepts."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from provcat.hub.server.middleware import host_name
from provcat.hub.storage.tempdirs import OWNER_FILE, OwnedTempDir, clean_dead_owners

_HOLD = """
import sys, time
from pathlib import Path
from provcat.hub.storage.tempdirs import OwnedTempDir
owned = OwnedTempDir(Path(sys.argv[1]))
(owned.path / "upload-x.part").write_bytes(b"in flight")
print(owned.path, flush=True)
time.sleep(60)
"""


def test_a_live_process_keeps_its_folder_and_a_dead_one_loses_it(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        folder = Path(holder.stdout.readline().strip())
        assert clean_dead_owners(tmp_path, grace_seconds=0) == 0
        assert (folder / "upload-x.part").read_bytes() == b"in flight"
    finally:
        holder.kill()
        holder.wait(timeout=10)
    # the kernel dropped the lock with the process: its folder goes, however it died
    assert clean_dead_owners(tmp_path, grace_seconds=3600) == 1
    assert not folder.exists()


def test_own_folder_loose_files_and_half_made_folders(tmp_path: Path) -> None:
    mine = OwnedTempDir(tmp_path)
    loose = tmp_path / "upload-old-layout.part"
    loose.write_bytes(b"x")
    half = tmp_path / ".new-abc"
    half.mkdir()
    no_owner = tmp_path / "p1-nobody"
    no_owner.mkdir()
    # young: any of them may be another process at work right now
    assert clean_dead_owners(tmp_path, grace_seconds=3600) == 0
    old = time.time() - 7200
    for path in (loose, half, no_owner):
        os.utime(path, (old, old))
    assert clean_dead_owners(tmp_path, grace_seconds=3600) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == [mine.path.name]
    assert (mine.path / OWNER_FILE).exists()  # this process's own folder stays
    mine.close()
    assert not mine.path.exists()


@pytest.mark.parametrize(
    ("host", "name"),
    [
        ("127.0.0.1:8080", "127.0.0.1"),
        ("LOCALHOST", "localhost"),
        ("[::1]:8080", "::1"),
        ("::1", "::1"),
        ("hub.example.com", "hub.example.com"),
        ("evil.example:80", "evil.example"),
    ],
)
def test_host_names(host: str, name: str) -> None:
    assert host_name(host) == name


def test_serve_on_every_interface_needs_a_public_url(tmp_path: Path) -> None:
    from provcat.cli.main import main

    result = CliRunner().invoke(
        main, ["hub", "serve", "--data-dir", str(tmp_path), "--host", "0.0.0.0"]
    )
    assert result.exit_code == 2 and "--public-url" in result.output
    result = CliRunner().invoke(
        main, ["hub", "serve", "--data-dir", str(tmp_path), "--public-url", "hub.example.com"]
    )
    assert result.exit_code == 2 and "http://" in result.output
