"""What the hub does while its database or blob store is down: the pages keep a signed-in
reader's cookie and say "try again" (503), a delete whose tombstone committed is a success even
when the blob cannot be removed yet (the sweep removes it later), and ``/v1/ready`` tells a load
balancer that a process cannot serve while ``/v1/health`` (liveness) stays up.

The outages are injected in-process (the store's own calls raising what the drivers raise), so
these run in milliseconds; the real PostgreSQL and S3 failures are covered by
``test_database_unreachable.py`` and ``test_blob_store_unreachable.py``."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from provcat.hub.web.pages import COOKIE
from tests.hub.conftest import Hub, make_hub
from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors

pytestmark = pytest.mark.anyio


def _database_down(*_: Any, **__: Any) -> Any:
    raise OperationalError("SELECT 1", {}, Exception("connection refused"))


@pytest.fixture
def private_hub(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Hub]:
    made = make_hub("sqlite", tmp_path / "hub-data", request, private_reads=True)
    yield made
    made.storage.close()


@pytest.fixture
def sqlite_hub(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Hub]:
    made = make_hub("sqlite", tmp_path / "hub-data", request)
    yield made
    made.storage.close()


async def test_a_database_outage_keeps_the_sign_in(
    private_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a tester: with the database down, every signed-in reader was told their token
    was "not valid", and the cookie was deleted (still signed out once the database was back)."""
    hub = private_hub
    origin = {"Origin": "http://hub.test"}
    async with hub.client() as c:
        ok = await c.post("/login", data={"token": hub.token, "next": "/"}, headers=origin)
        assert ok.status_code == 303 and c.cookies.get(COOKIE)
        with monkeypatch.context() as m:
            m.setattr(hub.storage.metadata, "get_token", _database_down)
            for path in ("/", "/a/acme/x", "/namespaces"):
                r = await c.get(path)
                assert r.status_code == 503, (path, r.text)
                assert r.headers["content-type"].startswith("text/html")
                assert "try again" in r.text and "not valid" not in r.text
                assert "set-cookie" not in r.headers  # the cookie is kept
            # signing in during the outage: "unavailable", not "not valid", and no cookie change
            again = await c.post("/login", data={"token": hub.token, "next": "/"}, headers=origin)
            assert again.status_code == 503 and "not valid" not in again.text
            assert "set-cookie" not in again.headers
        # the database is back: still signed in
        assert c.cookies.get(COOKIE)
        assert (await c.get("/")).status_code == 200
        # a page whose own reads meet the outage says the same
        with monkeypatch.context() as m:
            m.setattr(hub.storage.metadata, "namespace_counts", _database_down)
            r = await c.get("/")
            assert r.status_code == 503 and "try again" in r.text
            assert "set-cookie" not in r.headers
        # a token that really is wrong still signs out
        bad = await c.post("/login", data={"token": "pch_000000000000_" + "x" * 43}, headers=origin)
        assert bad.status_code == 401 and "not valid" in bad.text


async def test_a_delete_succeeds_when_the_blob_cannot_be_removed_yet(
    sqlite_hub: Hub, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Found by a tester: with S3 unreachable, ``rm`` answered 503 although the version was
    already deleted (a second ``rm`` said "already deleted"). The tombstone is the delete; the
    blob stays for a later start's sweep, as a crashed publish's does."""
    hub = sqlite_hub
    payload = safetensors(b"\x5a" * 32)
    doc = manifest("acme", "gone", "1.0.0", payload)
    async with hub.client() as c:
        r = await c.post(
            "/v1/adapters", content=push_body(doc, payload), headers=multipart_headers(hub.token)
        )
        assert r.status_code == 201, r.text

        def unreachable(_: str) -> None:
            raise OSError("the blob store is unreachable")

        blob = hub.storage.blobs.path(doc["checksum_sha256"])  # type: ignore[attr-defined]
        auth = {"Authorization": f"Bearer {hub.token}"}
        with monkeypatch.context() as m, caplog.at_level(logging.WARNING, "provcat.hub"):
            m.setattr(hub.storage.blobs, "delete", unreachable)
            r = await c.delete("/v1/adapters/acme/gone/1.0.0", headers=auth)
            assert r.status_code == 204, r.text
        assert "could not be removed now" in caplog.text and "OSError" in caplog.text
        assert blob.is_file()  # left for the sweep
        again = await c.delete("/v1/adapters/acme/gone/1.0.0", headers=auth)
        assert again.status_code == 404 and again.json()["details"]["deleted"] is True
        assert (await c.get("/v1/adapters/acme/gone/latest")).status_code == 404
    assert hub.storage.sweep(0) == 1  # what a later start does (once past the grace period)
    assert not blob.exists()


async def test_ready_checks_the_database_and_the_blob_store(
    sqlite_hub: Hub, private_hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a tester: ``/v1/health`` (the documented load-balancer check) answered 200
    while the database was down. ``/v1/ready`` is the readiness check; health stays liveness."""
    import provcat.hub.server.app as app_module

    hub = sqlite_hub
    async with hub.client() as c:
        r = await c.get("/v1/ready")
        assert r.status_code == 200
        assert r.json()["status"] == "ready"
        assert r.json()["checks"] == {"database": "ok", "blobs": "ok"}
        with monkeypatch.context() as m:
            m.setattr(hub.storage.metadata, "ping", _database_down)
            r = await c.get("/v1/ready")
            assert r.status_code == 503 and r.json()["error"] == "RegistryUnavailableError"
            assert r.json()["details"]["checks"] == {"database": "unavailable", "blobs": "ok"}
            assert "the database" in r.json()["message"] and r.headers["retry-after"]
            assert (await c.get("/v1/health")).status_code == 200  # liveness: the process is up
        # a store that hangs counts as down after READY_TIMEOUT, and probes share one check
        release = threading.Event()
        calls: list[int] = []

        def hanging() -> None:
            calls.append(1)
            release.wait(10)

        with monkeypatch.context() as m:
            m.setattr(app_module, "READY_TIMEOUT", 0.5)
            m.setattr(hub.storage.blobs, "ping", hanging)
            try:
                for _ in range(3):
                    r = await c.get("/v1/ready")
                    assert r.status_code == 503
                    assert r.json()["details"]["checks"]["blobs"] == "timeout"
                    assert "the blob store" in r.json()["message"]
                assert len(calls) == 1  # the hung check is not started again meanwhile
            finally:
                release.set()
    async with private_hub.client() as c:  # private reads: the probe needs no token either
        assert (await c.get("/v1/ready")).status_code == 200
