"""What is no regular file, or cannot be read, in the catalog or the output folder: `build`
(with its cache) says what `check` and `build --no-cache` say, and never waits on a named pipe.

The generator runs in a fresh process with a timeout: a named pipe opened for reading waits for
a writer forever, so a regression fails the test instead of hanging it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURE_MODULES, ROOT, Workspace, tree_bytes

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")

TIMEOUT = 20  # seconds: a build of the test catalog takes about one


def _generator(
    *args: str, prefix: tuple[str, ...] = (), cwd: Path = ROOT
) -> tuple[int, dict[str, Any]]:
    """``python -m generator *args --format json`` in a fresh process: (exit code, its JSON)."""
    try:
        done = subprocess.run(
            [*prefix, sys.executable, "-m", "generator", *args, "--format", "json"],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"`generator {' '.join(args)}` still ran after {TIMEOUT}s (it waits on a pipe)")
    assert done.stdout, done.stderr
    payload: dict[str, Any] = json.loads(done.stdout)
    return done.returncode, payload


def _build(ws: Workspace, *extra: str, prefix: tuple[str, ...] = ()) -> tuple[int, dict[str, Any]]:
    return _generator(
        "build",
        "--catalog",
        str(ws.catalog),
        "--out",
        str(ws.out),
        "--import-path",
        str(FIXTURE_MODULES),
        *extra,
        prefix=prefix,
    )


def _codes(payload: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (d["code"], Path(d["file"]).name, d["message"].rsplit("/", 1)[-1])
        for d in payload["diagnostics"]
        if d["severity"] == "error"
    ]


@pytest.mark.parametrize("command", [("build",), ("build", "--no-cache"), ("check",)])
def test_a_named_pipe_in_providers_is_not_a_regular_file(
    workspace: Workspace, command: tuple[str, ...]
) -> None:
    os.mkfifo(workspace.providers / "pipe.yaml")
    before = tree_bytes(workspace.out)
    code, payload = _build(workspace, *command[1:]) if command[0] == "build" else _check(workspace)
    assert code == 1
    assert _codes(payload) == [
        ("not_regular_file", "pipe.yaml", "pipe.yaml is not a regular file (a named pipe)")
    ]
    assert tree_bytes(workspace.out) == before


def _check(ws: Workspace) -> tuple[int, dict[str, Any]]:
    return _generator(
        "check",
        "--catalog",
        str(ws.catalog),
        "--out",
        str(ws.out),
        "--import-path",
        str(FIXTURE_MODULES),
    )


def test_a_named_pipe_elsewhere_in_the_catalog_is_left_alone_without_the_cache(
    workspace: Workspace,
) -> None:
    """The loader reads only providers/ and schema-targets/: a pipe beside them is no error, but
    the cache cannot hash it, so every build runs in full (and says so) until it is gone."""
    os.mkfifo(workspace.catalog / "pipe")
    for _ in range(2):
        code, payload = _build(workspace)
        assert (code, payload["ok"], payload["cached"]) == (0, True, False)
    (workspace.catalog / "pipe").unlink()
    assert _build(workspace)[0] == 0
    assert _build(workspace)[1]["cached"] is True  # the cache is back


def test_a_named_pipe_in_the_out_folder_is_a_file_the_generator_did_not_write(
    workspace: Workspace,
) -> None:
    pipe = workspace.out / "docs" / "pipe"
    os.mkfifo(pipe)
    before = tree_bytes(workspace.out)
    for extra in ((), ("--no-cache",)):
        code, payload = _build(workspace, *extra)
        assert (code, payload["error"]) == (2, "UnsafeOutput")
        assert f"did not write: {workspace.out}/docs/pipe." in payload["message"]
    assert pipe.is_fifo() and tree_bytes(workspace.out) == before
    code, payload = _check(workspace)  # never opened: read as a file that is not the build's
    assert (code, payload["stale"], payload["foreign"]) == (1, ["docs/pipe"], ["docs/pipe"])


def test_the_site_refuses_an_out_folder_holding_a_named_pipe(
    workspace: Workspace, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    os.mkfifo(site / "index.html")  # by a name the site writes, and one it recognises
    source = workspace.out / "provcat_catalog" / "catalog.json"
    code, payload = _generator("site", "--from", str(source), "--out", str(site))
    assert (code, payload["error"]) == (2, "UnsafeOutput")
    assert f"did not write: {site}/index.html." in payload["message"]
    assert [p.name for p in site.iterdir()] == ["index.html"] and (site / "index.html").is_fifo()


def _unprivileged() -> tuple[str, ...] | None:
    """A command prefix that runs a process without the power to read any file (root's
    CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH); None when there is none."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return (setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--")


def test_build_reports_an_unreadable_catalog_file_as_check_does(workspace: Workspace) -> None:
    prefix = _unprivileged()
    if prefix is None:
        pytest.skip("running as root without setpriv: every file is readable")
    locked = workspace.file("alpha.yaml")
    locked.chmod(0)
    probe = subprocess.run([*prefix, "cat", str(locked)], capture_output=True, timeout=TIMEOUT)
    if probe.returncode == 0:
        pytest.skip("this process cannot give up reading every file")
    before = tree_bytes(workspace.out)
    expected = [("file_unreadable", "alpha.yaml", "cannot read the file: Permission denied")]
    for extra in ((), ("--no-cache",)):
        code, payload = _build(workspace, *extra, prefix=prefix)
        assert (code, _codes(payload)) == (1, expected)
    assert tree_bytes(workspace.out) == before


@pytest.mark.parametrize("option", ["--catalog", "--out"])
def test_a_path_the_file_system_refuses_is_said_not_a_traceback(
    tmp_path: Path, option: str
) -> None:
    """A name longer than the file system allows (ENAMETOOLONG): before, a traceback and no JSON.
    Now the path and the reason, exit 2, as the commands' own refusals of a path."""
    too_long = str(tmp_path / ("b" * 300))
    command = "check" if option == "--catalog" else "build"
    code, body = _generator(command, option, too_long)
    assert code == 2 and body["ok"] is False and body["error"] == "PathError"
    assert too_long in body["message"] and "File name too long" in body["message"]
