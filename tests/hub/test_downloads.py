"""Download counts: a whole payload sent is one download of its version (a HEAD, a range or a
304 is not), exact under concurrency on both backends (50 at once on PostgreSQL counted exactly
50), no client identity stored; the list sorts by recent, name or downloads; a hub database made
before counts existed is migrated and keeps its adapters."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, inspect, text

from provcat.hub import RegistryClient
from provcat.hub.settings import HubSettings
from provcat.hub.storage import open_storage
from provcat.hub.storage.migrate import MIGRATIONS
from tests.hub.conftest import BACKENDS, Hub, Live
from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors

pytestmark = pytest.mark.anyio


def _push(url: str, token: str, name: str, version: str, data: bytes = b"") -> bytes:
    payload = safetensors(data or f"{name}/{version}".encode() * 8)
    r = httpx.post(
        f"{url}/v1/adapters",
        content=push_body(manifest("acme", name, version, payload), payload),
        headers=multipart_headers(token),
    )
    assert r.status_code == 201, r.text
    return payload


def test_fifty_concurrent_downloads_of_one_version_are_counted_exactly(
    live: Live, tmp_path: Path
) -> None:
    """On each backend; on ``pg-s3`` this is the PostgreSQL case of issue #28."""
    url, storage = live.url, live.hub.storage
    payload = _push(url, live.hub.token, "react-19", "1.0.0")
    _push(url, live.hub.token, "react-19", "1.1.0")
    where = f"{url}/v1/adapters/acme/react-19/1.0.0/payload"

    def download(_: int) -> bytes:
        with httpx.Client(timeout=60) as client:
            return client.get(where).content

    with ThreadPoolExecutor(50) as pool:
        bodies = list(pool.map(download, range(50)))
    assert bodies == [payload] * 50
    assert storage.version_downloads("acme", "react-19") == {"1.0.0": 50}
    # not downloads: headers only, a part, and a copy the client already holds
    assert httpx.head(where).status_code == 200
    assert httpx.get(where, headers={"Range": "bytes=0-9"}).status_code == 206
    etag = httpx.head(where).headers["etag"]
    assert httpx.get(where, headers={"If-None-Match": etag}).status_code == 304
    assert storage.version_downloads("acme", "react-19") == {"1.0.0": 50}
    # latest counts for the version it is; a pull from the local store asks the hub nothing
    with RegistryClient(url, store=tmp_path / "store") as client:
        client.pull("hub://acme/react-19")
        client.pull("hub://acme/react-19:1.1.0")
    assert storage.version_downloads("acme", "react-19") == {"1.0.0": 50, "1.1.0": 1}
    assert storage.download_totals([("acme", "react-19"), ("acme", "none")]) == {
        ("acme", "react-19"): 51
    }


def test_counts_store_no_client_identity(live: Live) -> None:
    _push(live.url, live.hub.token, "quiet", "1.0.0")
    httpx.get(f"{live.url}/v1/adapters/acme/quiet/1.0.0/payload").raise_for_status()
    engine = live.hub.storage.metadata.reader  # type: ignore[attr-defined]
    columns = {c["name"] for c in inspect(engine).get_columns("hub_downloads")}
    assert columns == {"namespace", "name", "version", "downloads"}


def _listed(html: str) -> list[str]:
    return re.findall(r'<div class="row-head">\s*<a href="/a/([^"]+)">', html)


async def test_the_list_sorts_by_recent_name_or_downloads(hub: Hub) -> None:
    async with hub.client() as c:
        for name in ("alpha", "beta", "gamma"):
            payload = safetensors(name.encode() * 8)
            body = push_body(manifest("acme", name, "1.0.0", payload, tags=["demo"]), payload)
            r = await c.post("/v1/adapters", content=body, headers=multipart_headers(hub.token))
            assert r.status_code == 201
        # publication times one day apart (pushes within a second share their time)
        with hub.storage.metadata.writer.begin() as conn:  # type: ignore[attr-defined]
            for day, name in ((1, "beta"), (2, "gamma"), (3, "alpha")):
                conn.execute(
                    text("UPDATE hub_adapters SET created_at = :at WHERE name = :name"),
                    {"at": f"2026-01-0{day}T00:00:00Z", "name": name},
                )
        for name, times in (("gamma", 3), ("beta", 1)):
            for _ in range(times):
                assert (await c.get(f"/v1/adapters/acme/{name}/1.0.0/payload")).status_code == 200
        pages = {
            sort: _listed((await c.get("/", params={"sort": sort})).text)
            for sort in ("name", "recent", "downloads")
        }
        assert pages == {
            "name": ["acme/alpha", "acme/beta", "acme/gamma"],
            "recent": ["acme/alpha", "acme/gamma", "acme/beta"],
            "downloads": ["acme/gamma", "acme/beta", "acme/alpha"],
        }
        # sorting composes with a search and a filter
        found = await c.get("/", params={"q": "a", "tag": "demo", "sort": "downloads"})
        assert _listed(found.text) == ["acme/gamma", "acme/beta", "acme/alpha"]
        listing = (await c.get("/", params={"sort": "downloads"})).text
        assert '<span class="downloads">3</span> downloads' in listing
        page = (await c.get("/a/acme/gamma")).text
        assert '<span class="downloads">3</span> downloads' in page
        bad = await c.get("/", params={"sort": "popularity"})
        assert bad.status_code == 400 and "sort must be one of" in bad.text


async def test_the_list_and_the_page_count_a_deleted_versions_downloads_alike(hub: Hub) -> None:
    """Found by a new user: after a downloaded version was deleted, the list said "1 download"
    and the adapter's page "0 downloads, all versions"."""
    async with hub.client() as c:
        for version in ("1.0.0", "1.1.0"):
            payload = safetensors(version.encode() * 8)
            body = push_body(manifest("acme", "kept", version, payload), payload)
            r = await c.post("/v1/adapters", content=body, headers=multipart_headers(hub.token))
            assert r.status_code == 201
        assert (await c.get("/v1/adapters/acme/kept/1.0.0/payload")).status_code == 200
        gone = await c.delete(
            "/v1/adapters/acme/kept/1.0.0", headers={"Authorization": f"Bearer {hub.token}"}
        )
        assert gone.status_code in (200, 204)
        listing = (await c.get("/")).text
        assert '<span class="downloads">1</span> download' in listing
        page = (await c.get("/a/acme/kept")).text
        assert '<p class="muted" id="total-downloads">1 download, all versions</p>' in page


def _at_revision(url: str, revision: str) -> None:
    """A hub database as an older provcat left it: migrated up to ``revision`` only."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
            connection.execute(
                text(
                    "INSERT INTO hub_adapters (namespace, name, version, checksum_sha256, "
                    "size_bytes, manifest, created_at) VALUES ('acme', 'old', '1.0.0', :sha, "
                    "3, :manifest, '2026-01-01T00:00:00Z')"
                ),
                {"sha": "a" * 64, "manifest": '{"name": "old", "namespace": "acme"}'},
            )
            connection.execute(
                text(
                    "INSERT INTO hub_search (namespace, name, version, description_cf) "
                    "VALUES ('acme', 'old', '1.0.0', '')"
                )
            )
    finally:
        engine.dispose()


@pytest.fixture(params=BACKENDS)
def old_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "pg-s3":
        yield request.getfixturevalue("pg").create_database()
    else:
        yield f"sqlite:///{tmp_path / 'old.sqlite3'}"


def test_a_hub_database_from_before_counts_is_migrated(old_database: str, tmp_path: Path) -> None:
    _at_revision(old_database, "0002")
    storage = open_storage(
        HubSettings(data_dir=tmp_path / "data", database_url=old_database), housekeeping=False
    )
    try:
        with storage.metadata.reader.connect() as conn:  # type: ignore[attr-defined]
            revision = conn.execute(text("SELECT version_num FROM hub_alembic_version")).scalar()
        assert revision == "0003"
        [row] = storage.search(None, sort="downloads")
        assert (row.namespace, row.name, row.version) == ("acme", "old", "1.0.0")
        assert storage.version_downloads("acme", "old") == {}
        storage.count_download("acme", "old", "1.0.0")
        assert storage.version_downloads("acme", "old") == {"1.0.0": 1}
    finally:
        storage.close()
