"""Scale-out: several server processes on one PostgreSQL database and one S3 bucket, as behind a
load balancer. Real ``provcat hub serve`` processes (and ``--workers``), real races, a server
killed mid-push while another serves, and migrations started at once."""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from provcat.hub import RegistryClient
from provcat.hub.settings import HubSettings
from provcat.hub.storage import open_storage
from provcat.hub.storage.migrate import HEAD
from provcat.hub.storage.sql import SqlMetadata
from provcat.hub.storage.tempdirs import OWNER_FILE
from tests.hub.conftest import Hub, make_hub
from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors, unique
from tests.hub.services import Postgres, Served, serve, wait_for


@pytest.fixture
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Hub]:
    made = make_hub("pg-s3", tmp_path / "hub-a", request)
    yield made
    made.storage.close()


@pytest.fixture
def two_servers(shared: Hub, tmp_path: Path) -> Iterator[list[Served]]:
    """Two servers on one database and bucket, each with its own local data dir (two hosts)."""
    first = shared.serve()
    other_args = [*shared.serve_args()]
    other_args[other_args.index("--data-dir") + 1] = str(tmp_path / "hub-b")
    second = serve(other_args, env=shared.env)
    try:
        yield [first, second]
    finally:
        first.stop()
        second.stop()


def _push(url: str, token: str, name: str, version: str, payload: bytes) -> httpx.Response:
    body = push_body(manifest("acme", name, version, payload), payload)
    return httpx.post(
        f"{url}/v1/adapters", content=body, headers=multipart_headers(token), timeout=60
    )


def _spread(servers: list[Served], count: int, job: object) -> list[httpx.Response]:
    """Run ``job(url)`` ``count`` times at once, alternating between the servers."""
    barrier = threading.Barrier(count)

    def run(i: int) -> httpx.Response:
        barrier.wait()
        return job(servers[i % len(servers)].url)  # type: ignore[operator,no-any-return]

    with concurrent.futures.ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def test_two_servers_settle_push_and_delete_races(
    shared: Hub, two_servers: list[Served], tmp_path: Path
) -> None:
    name = unique("race")
    answers = _spread(
        two_servers,
        12,
        lambda url: _push(url, shared.token, name, "1.0.0", safetensors(url.encode() * 8)),
    )
    codes = sorted(r.status_code for r in answers)
    # other bytes per server: exactly one 201; the rest 409, or 200 for the winner's twin
    assert codes.count(201) == 1, codes
    assert set(codes) <= {200, 201, 409}, [r.text for r in answers]
    winner = next(r for r in answers if r.status_code == 201).json()
    same = unique("same")
    payload = safetensors(b"\x44" * 64)
    codes = sorted(
        r.status_code
        for r in _spread(
            two_servers, 12, lambda url: _push(url, shared.token, same, "1.0.0", payload)
        )
    )
    assert codes == [200] * 11 + [201], codes
    # a pull from each server verifies (the payload is the same blob on S3)
    for server in two_servers:
        with RegistryClient(server.url, store=tmp_path / f"store-{server.url[-5:]}") as client:
            pulled = client.pull(f"hub://acme/{name}:1.0.0")
            assert pulled.checksum_sha256 == winner["checksum_sha256"]
    deletes = _spread(
        two_servers,
        8,
        lambda url: httpx.delete(
            f"{url}/v1/adapters/acme/{same}/1.0.0",
            headers={"Authorization": f"Bearer {shared.token}"},
        ),
    )
    codes = sorted(r.status_code for r in deletes)
    assert codes == [204] + [404] * 7, codes
    for server in two_servers:
        r = httpx.get(f"{server.url}/v1/adapters/acme/{same}/1.0.0")
        assert r.status_code == 404


def test_a_server_killed_mid_push_while_another_serves(
    shared: Hub, two_servers: list[Served]
) -> None:
    from tests.hub.test_faults import _partial_upload

    doomed, survivor = two_servers
    sock = _partial_upload(doomed.url, shared.token, 400_000)
    try:
        wait_for(lambda: shared.tmp_files() != [], "the upload to reach a temp file")
        doomed.kill9()
    finally:
        sock.close()
    # the survivor never noticed: it serves, and the killed push's version is free
    assert httpx.get(f"{survivor.url}/v1/health").status_code == 200
    assert httpx.get(f"{survivor.url}/v1/adapters/acme/killed/1.0.0").status_code == 404
    payload = safetensors(b"\x45" * 64)
    assert _push(survivor.url, shared.token, "killed", "1.0.0", payload).status_code == 201
    # a restart on the dead server's data dir removes its leftovers, and only those
    restarted = shared.serve()
    try:
        assert shared.tmp_files() == []
        assert httpx.get(f"{restarted.url}/v1/adapters/acme/killed/1.0.0").status_code == 200
    finally:
        restarted.stop()


def test_workers_share_one_port_and_one_data_dir(shared: Hub) -> None:
    served = shared.serve("--workers", "2")
    try:
        tmp = shared.settings.data_dir / "tmp"

        def owners() -> list[Path]:
            return [p for p in tmp.iterdir() if (p / OWNER_FILE).exists()]

        # the in-process test storage, plus one locked folder per worker: none wiped another
        wait_for(lambda: len(owners()) >= 2, "both workers to claim their upload folders")
        name = unique("workers")
        payloads = [safetensors(bytes([i]) * 64) for i in range(8)]
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            answers = list(
                pool.map(lambda p: _push(served.url, shared.token, name, "1.0.0", p), payloads)
            )
        codes = sorted(r.status_code for r in answers)
        assert codes == [201] + [409] * 7, codes
        stored = httpx.get(f"{served.url}/v1/adapters/acme/{name}/1.0.0").json()
        r = httpx.get(stored["storage_uri"])
        assert (
            r.status_code == 200 and r.headers["digest"] == f"sha-256={stored['checksum_sha256']}"
        )
        assert len(owners()) >= 2
    finally:
        served.stop()


def test_migrations_started_at_once_run_once(pg: Postgres, tmp_path: Path) -> None:
    url = pg.create_database()
    stores = [SqlMetadata(url) for _ in range(4)]
    barrier = threading.Barrier(len(stores))

    def migrate(store: SqlMetadata) -> None:
        barrier.wait()
        store.migrate()

    try:
        with concurrent.futures.ThreadPoolExecutor(len(stores)) as pool:
            list(pool.map(migrate, stores))
        from sqlalchemy import text

        with stores[0].reader.connect() as conn:
            versions = conn.execute(text("SELECT version_num FROM hub_alembic_version")).all()
        assert [v[0] for v in versions] == [HEAD]
    finally:
        for store in stores:
            store.close()
    # and whole servers starting at once on a fresh database
    fresh = pg.create_database()
    settings = HubSettings(data_dir=tmp_path / "d", database_url=fresh)
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        opened = list(pool.map(lambda _: open_storage(settings), range(3)))
    for storage in opened:
        assert storage.list_tokens() == []
        storage.close()
