"""Faults at the storage and socket level: database outages, kill -9 mid-upload, a client that
disconnects, raw traversal paths, start-up clean-up, migrations. Nothing is lost or half-written."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import socket
import sqlite3
from pathlib import Path
from typing import IO

import httpx
import pytest

from provcat.hub.errors import RegistryUnavailableError
from provcat.hub.settings import HubSettings
from provcat.hub.storage import open_storage
from tests.hub.conftest import Hub, Live, make_hub
from tests.hub.helpers import BOUNDARY, manifest, multipart_headers, push_body, safetensors, unique
from tests.hub.services import Postgres, wait_for

pytestmark = pytest.mark.anyio


def _blobs_are_whole(hub: Hub) -> None:
    """Every blob present hashes to its own name: none is partial."""
    from provcat.hub.storage.blobs import FileBlobStore

    if isinstance(hub.storage.blobs, FileBlobStore):
        for path in (hub.settings.data_dir / "blobs" / "sha256").glob("*/*"):
            assert hashlib.sha256(path.read_bytes()).hexdigest() == path.name


async def _push(hub: Hub, name: str, payload: bytes) -> httpx.Response:
    body = push_body(manifest("acme", name, "1.0.0", payload), payload)
    async with hub.client() as c:
        return await c.post("/v1/adapters", content=body, headers=multipart_headers(hub.token))


async def test_database_unavailable_is_503_and_nothing_is_half_written(
    hub: Hub, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    payload = safetensors(b"\x31" * 1000)
    name = unique()
    if hub.backend == "sqlite":
        # a second hub process holds the write lock: our writes time out
        quick = make_hub("sqlite", hub.settings.data_dir, request, busy_timeout_ms=100)
        hub = quick
        holder = sqlite3.connect(hub.settings.data_dir / "hub.sqlite3", isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            r = await _push(hub, name, payload)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    else:
        pg: Postgres = request.getfixturevalue("pg")
        database = str(hub.settings.database_url).rsplit("/", 1)[1]
        pg.sql(f"ALTER DATABASE {database} ALLOW_CONNECTIONS false")
        pg.sql(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{database}'"
        )
        try:
            r = await _push(hub, name, payload)
            async with hub.client() as c:
                for path in ("/v1/search", f"/v1/adapters/acme/{name}/latest"):
                    down = await c.get(path)
                    assert down.status_code == 503, down.text
                    assert down.json()["error"] == "RegistryUnavailableError"
                    assert "postgres" not in down.text.lower() and "select" not in down.text.lower()
        finally:
            pg.sql(f"ALTER DATABASE {database} ALLOW_CONNECTIONS true")
    assert r.status_code == 503, r.text
    assert r.json()["error"] == "RegistryUnavailableError"
    assert hub.tmp_files() == []
    _blobs_are_whole(hub)
    async with hub.client() as c:
        assert (await c.get(f"/v1/adapters/acme/{name}/1.0.0")).status_code == 404
    assert (await _push(hub, name, payload)).status_code == 201  # recovers once it is back


def _partial_upload(url: str, token: str, payload_bytes: int) -> socket.socket:
    """Open a push whose body is announced but only partly sent."""
    payload = safetensors(b"\x00" * payload_bytes)
    body = push_body(manifest("acme", "killed", "1.0.0", payload), payload)
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)))
    head = (
        "POST /v1/adapters HTTP/1.1\r\n"
        f"Host: {host}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    sock.sendall(head + body[: len(body) // 2])
    return sock


def test_kill_9_during_upload_then_restart(hub: Hub) -> None:
    served = hub.serve()
    sock = _partial_upload(served.url, hub.token, 200_000)
    try:
        wait_for(lambda: hub.tmp_files() != [], "the upload to reach a temp file")
        served.kill9()
    finally:
        sock.close()
    assert hub.tmp_files() != []  # the crash left a stray temp file ...
    restarted = hub.serve()
    try:
        assert hub.tmp_files() == []  # ... removed at start
        r = httpx.get(f"{restarted.url}/v1/adapters/acme/killed/1.0.0")
        assert r.status_code == 404 and r.json()["error"] == "AdapterNotFoundError"
        _blobs_are_whole(hub)
    finally:
        restarted.stop()


def test_client_disconnect_mid_upload_leaves_nothing(hub: Hub) -> None:
    served = hub.serve()
    try:
        sock = _partial_upload(served.url, hub.token, 200_000)
        wait_for(lambda: hub.tmp_files() != [], "the upload to reach a temp file")
        sock.close()
        wait_for(lambda: hub.tmp_files() == [], "the server to discard the partial upload")
        r = httpx.get(f"{served.url}/v1/adapters/acme/killed/1.0.0")
        assert r.status_code == 404
        assert httpx.get(f"{served.url}/v1/health").status_code == 200
    finally:
        served.stop()
    # a client going away is no server error: one line, no traceback
    log = served.log.read_text()
    assert "Traceback" not in log and "unexpected error" not in log, log
    said = [line for line in log.splitlines() if "disconnected" in line]
    assert said == ["client disconnected during POST '/v1/adapters'; the request was dropped"], log


def _raw(url: str, request: bytes) -> tuple[int, bytes]:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, data


def test_socket_level_traversal_and_chunked_cap(hub: Hub) -> None:
    served = hub.serve()
    try:
        for target in (
            "/v1/adapters/../../../etc/passwd",
            "/v1/adapters/acme/../../x/1.0.0",
            "/v1/adapters/acme/x/..",
            "/v1/adapters/acme/x/1.0.0/../../../../payload",
            "/v1/adapters/%2e%2e/%2e%2e/1.0.0/payload",
            "/v1/adapters/acme/%252e%252e/1.0.0",
        ):
            status, data = _raw(
                served.url,
                f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode(),
            )
            assert status == 400, (target, data)
            assert b'"error":"ValidationError"' in data and b"root:" not in data
        # a chunked body over the cap: refused while streaming, nothing kept
        payload = safetensors(b"\x00" * (hub.settings.max_upload_bytes + 1000))
        body = push_body(manifest("acme", "chunky", "1.0.0", payload), payload)
        chunks = b"".join(
            f"{len(body[i : i + 65536]):x}\r\n".encode() + body[i : i + 65536] + b"\r\n"
            for i in range(0, len(body), 65536)
        )
        head = (
            f"POST /v1/adapters HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {hub.token}\r\n"
            f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        ).encode()
        # the whole body is sent and the typed answer read: never a reset connection
        status, data = _raw(served.url, head + chunks + b"0\r\n\r\n")
        assert status == 413 and b'"error":"PayloadTooLargeError"' in data
        wait_for(lambda: hub.tmp_files() == [], "the temp file to go")
        assert httpx.get(f"{served.url}/v1/adapters/acme/chunky/1.0.0").status_code == 404
    finally:
        served.stop()


def test_start_up_removes_stray_temp_files_and_sweeps_orphan_blobs(hub: Hub) -> None:
    # what a crashed server leaves: its own temp folder, its owner file no longer locked
    dead = hub.storage.tmp_root / "p999999-crashed"
    dead.mkdir(parents=True)
    (dead / ".owner").write_text("999999\n")
    stray = dead / "upload-stray.part"
    stray.write_bytes(b"partial")
    live = hub.storage.tmp_dir / "upload-live.part"  # a live process's upload: kept
    live.write_bytes(b"in flight")
    orphan = safetensors(b"orphan")
    orphan_sha = hashlib.sha256(orphan).hexdigest()
    source = hub.settings.data_dir / "orphan.bin"
    source.write_bytes(orphan)
    hub.storage.blobs.put(orphan_sha, source)
    assert hub.storage.blobs.exists(orphan_sha)
    again = open_storage(
        HubSettings(
            data_dir=hub.settings.data_dir,
            database_url=hub.settings.database_url,
            blobs_url=hub.settings.blobs_url,
            orphan_grace_seconds=0,
        )
    )
    try:
        assert not stray.exists() and not dead.exists()
        assert live.read_bytes() == b"in flight"
        assert not again.blobs.exists(orphan_sha)
    finally:
        again.close()


async def test_delete_removes_the_blob_only_when_unused(hub: Hub) -> None:
    payload = safetensors(b"\x77" * 50)
    digest = hashlib.sha256(payload).hexdigest()
    async with hub.client() as c:
        for name in ("one", "two"):
            body = push_body(manifest("acme", name, "1.0.0", payload), payload)
            r = await c.post("/v1/adapters", content=body, headers=multipart_headers(hub.token))
            assert r.status_code == 201
        auth = {"Authorization": f"Bearer {hub.token}"}
        assert (await c.delete("/v1/adapters/acme/one/1.0.0", headers=auth)).status_code == 204
        assert hub.storage.blobs.exists(digest)
        assert (await c.get("/v1/adapters/acme/two/1.0.0/payload")).content == payload
        assert (await c.delete("/v1/adapters/acme/two/1.0.0", headers=auth)).status_code == 204
        assert not hub.storage.blobs.exists(digest)


def test_schema_is_versioned_by_alembic(hub: Hub) -> None:
    from sqlalchemy import text

    with hub.storage.metadata.reader.connect() as conn:
        revision = conn.execute(text("SELECT version_num FROM hub_alembic_version")).scalar_one()
    assert revision == "0003"
    open_storage(hub.settings).close()  # idempotent upgrade
    with hub.storage.metadata.writer.begin() as conn:
        conn.execute(text("UPDATE hub_alembic_version SET version_num = '9999'"))
    with pytest.raises(RegistryUnavailableError, match="upgrade provcat"):
        open_storage(hub.settings)


def test_unreachable_database_at_start_is_a_clear_error(tmp_path: Path) -> None:
    settings = HubSettings(
        data_dir=tmp_path, database_url="postgresql+psycopg://u:hunter2@127.0.0.1:1/db"
    )
    with pytest.raises(RegistryUnavailableError) as err:
        open_storage(settings)
    assert "hunter2" not in str(err.value)
    assert "hunter2" not in repr(settings)


def test_manifest_json_of_server_has_sorted_keys(hub: Hub) -> None:
    with hub.storage.metadata.reader.connect() as conn:
        from sqlalchemy import text

        rows = conn.execute(text("SELECT manifest FROM hub_adapters")).all()
    for (raw,) in rows:
        assert list(json.loads(raw)) == sorted(json.loads(raw))


def _disk_full(code: int, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make an upload's writes fail as on a full disk (``code``: ENOSPC or EDQUOT) once part of
    the payload is in its temp file; the sizes that file had then."""
    from provcat.hub.server import upload

    real = upload._write_all
    written: list[int] = []

    def filling(file: IO[bytes], data: memoryview) -> None:
        real(file, data[: len(data) // 2])
        written.append(os.fstat(file.fileno()).st_size)
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(upload, "_write_all", filling)
    return written


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT], ids=["ENOSPC", "EDQUOT"])
async def test_a_full_disk_during_an_upload_is_507_and_leaves_nothing(
    hub: Hub, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    """Found by a tester: a full disk mid-upload answered ``500 InternalServerError: unexpected
    server error``. It is the protocol's 507: the hub's storage is full, tell its operator; the
    partial upload is removed and no version appears."""
    payload = safetensors(b"\x5f" * 5000)
    name = unique()
    with monkeypatch.context() as m:
        written = _disk_full(code, m)
        r = await _push(hub, name, payload)
    assert r.status_code == 507, r.text
    assert r.json() == {
        "error": "InsufficientStorageError",
        "message": "the hub's storage is full (no space left on its disk, or its quota used "
        "up), so nothing was stored; tell the hub's operator, who must free space or enlarge it",
        "details": {"reason": "storage_full"},
    }
    assert written and written[0] > 0  # part of the payload was on the disk ...
    assert hub.tmp_files() == []  # ... and is gone
    _blobs_are_whole(hub)
    async with hub.client() as c:
        assert (await c.get(f"/v1/adapters/acme/{name}/1.0.0")).status_code == 404
    assert (await _push(hub, name, payload)).status_code == 201  # space again: it goes through


async def test_a_full_disk_while_publishing_is_507_and_leaves_nothing(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The upload arrived whole, then publishing its blob ran out of space (a file system that
    allocates late fails the fsync): 507 as well, not "unavailable, try again later"."""
    from provcat.hub.storage.blobs import FileBlobStore

    hub = make_hub("sqlite", tmp_path / "hub-data", request)
    try:

        def no_space(self: FileBlobStore, sha256: str, source: Path) -> None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(source))

        payload = safetensors(b"\x60" * 500)
        with monkeypatch.context() as m:
            m.setattr(FileBlobStore, "put", no_space)
            r = await _push(hub, "late", payload)
        assert r.status_code == 507 and r.json()["error"] == "InsufficientStorageError", r.text
        assert str(tmp_path) not in r.text  # the server's paths stay in its log
        assert hub.tmp_files() == [] and list(hub.storage.blobs.root.glob("blobs/sha256/*/*")) == []
        async with hub.client() as c:
            assert (await c.get("/v1/adapters/acme/late/1.0.0")).status_code == 404
    finally:
        hub.storage.close()


def test_a_push_to_a_full_hub_says_so_on_the_command_line(
    live: Live, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from provcat.cli.main import main

    payload = tmp_path / "adapter.safetensors"
    payload.write_bytes(safetensors(b"\x61" * 4000))
    _disk_full(errno.ENOSPC, monkeypatch)
    env = {"PROVCAT_HUB_URL": live.url, "PROVCAT_HUB_TOKEN": live.hub.token}
    args = ["hub", "push", str(payload), "hub://acme/full:1.0.0"]
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        "provcat hub: InsufficientStorageError: the hub's storage is full (no space left on its "
        "disk, or its quota used up), so nothing was stored; tell the hub's operator, who must "
        "free space or enlarge it\n"
    )
    assert live.hub.tmp_files() == []


def test_what_counts_as_full_storage(tmp_path: Path) -> None:
    """A full disk or quota, and a database's own "full" (SQLite's SQLITE_FULL, PostgreSQL's
    disk_full as SQLAlchemy wraps them); anything else stays an outage (503) or a bug (500)."""
    import psycopg.errors
    from sqlalchemy.exc import OperationalError

    from provcat.hub.storage.full import storage_full

    full = sqlite3.connect(tmp_path / "full.sqlite3")
    full.execute("PRAGMA max_page_count = 2")  # a database that cannot grow: full for real
    with pytest.raises(sqlite3.OperationalError) as sqlite_full:
        full.execute("CREATE TABLE t (b BLOB)")
        full.execute("INSERT INTO t VALUES (zeroblob(100000))")
    full.close()
    disk_full = psycopg.errors.lookup("53100")("could not extend file")
    for exc in (
        OSError(errno.ENOSPC, "No space left on device"),
        OSError(errno.EDQUOT, "Disk quota exceeded"),
        OperationalError("INSERT ...", {}, sqlite_full.value),
        OperationalError("INSERT ...", {}, disk_full),
    ):
        assert storage_full(exc), exc
    locked = sqlite3.OperationalError("database is locked")
    for exc in (OSError(errno.EIO, "I/O error"), OperationalError("SELECT 1", {}, locked)):
        assert not storage_full(exc), exc
