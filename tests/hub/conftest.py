"""Hub fixtures: both storage backends (SQLite + files; PostgreSQL + S3 on moto), in-process
apps and real ``provcat hub serve`` processes, all on 127.0.0.1."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from provcat.hub.server import create_app
from provcat.hub.settings import LOOPBACK_HOSTS, HubSettings
from provcat.hub.storage import Storage, open_storage
from tests.hub.services import S3, Postgres, Served, moto_s3, postgres, serve

BACKENDS = ("sqlite", "pg-s3")
IN_PROCESS_HOSTS = ("hub.test", "sqlite.in-process", "pg-s3.in-process")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def pg() -> Iterator[Postgres]:
    try:
        server = postgres()
        running = server.__enter__()
    except RuntimeError as exc:  # missing binaries: fail loudly, never skip
        pytest.fail(str(exc), pytrace=False)
    try:
        yield running
    finally:
        server.__exit__(None, None, None)


@pytest.fixture(scope="session")
def s3() -> Iterator[S3]:
    with moto_s3() as server:
        saved = {k: os.environ.get(k) for k in server.env()}
        os.environ.update(server.env())
        try:
            yield server
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


@dataclass
class Hub:
    """One hub: its storage, an in-process app, and tokens for two namespaces and an admin."""

    backend: str
    settings: HubSettings
    storage: Storage
    env: dict[str, str]
    token: str = field(repr=False)
    other_token: str = field(repr=False)
    admin_token: str = field(repr=False)
    namespace: str = "acme"
    other_namespace: str = "globex"
    app: Any = None

    def __post_init__(self) -> None:
        self.app = create_app(self.settings, storage=self.storage)

    def client(self, **kwargs: Any) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            transport=httpx.ASGITransport(app=self.app), base_url="http://hub.test", **kwargs
        )

    def storage_args(self) -> list[str]:
        args = ["--data-dir", str(self.settings.data_dir)]
        if self.settings.database_url:
            args += ["--database", self.settings.database_url]
        if self.settings.blobs_url:
            args += ["--blobs", self.settings.blobs_url]
        return args

    def serve_args(self) -> list[str]:
        return [*self.storage_args(), "--max-upload-bytes", str(self.settings.max_upload_bytes)]

    def serve(self, *extra: str) -> Served:
        return serve([*self.serve_args(), *extra], env=self.env)

    def tmp_files(self) -> list[Path]:
        """Every upload temp file under the data dir, whichever process owns it."""
        from provcat.hub.storage.tempdirs import OWNER_FILE

        root = self.storage.tmp_root
        return sorted(p for p in root.rglob("*") if p.is_file() and p.name != OWNER_FILE)


def make_hub(backend: str, root: Path, request: pytest.FixtureRequest, **options: Any) -> Hub:
    env: dict[str, str] = {}
    database = blobs = None
    if backend == "pg-s3":
        pg_server: Postgres = request.getfixturevalue("pg")
        s3_server: S3 = request.getfixturevalue("s3")
        database = pg_server.create_database()
        blobs = f"s3://{s3_server.create_bucket()}/hub"
        env = s3_server.env()
    options.setdefault("max_upload_bytes", 1 << 20)
    # the names in-process clients use (tests' base URLs); a real server trusts only loopback
    options.setdefault("allowed_hosts", (*LOOPBACK_HOSTS, *IN_PROCESS_HOSTS))
    settings = HubSettings(data_dir=root, database_url=database, blobs_url=blobs, **options)
    storage = open_storage(settings)
    return Hub(
        backend,
        settings,
        storage,
        env,
        token=storage.create_token(["acme"]).text,
        other_token=storage.create_token(["globex"]).text,
        admin_token=storage.create_token(["*"]).text,
    )


@pytest.fixture(params=BACKENDS)
def hub(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Hub]:
    """A fresh hub on each backend."""
    made = make_hub(request.param, tmp_path / "hub-data", request)
    yield made
    made.storage.close()


@dataclass
class Live:
    url: str
    hub: Hub


@contextmanager
def served(hub: Hub) -> Iterator[str]:
    """The hub's app behind a real uvicorn socket on 127.0.0.1 (in a thread of this process):
    its URL, until the block ends."""
    import threading

    import uvicorn

    from provcat.hub.server.serving import uvicorn_options
    from tests.hub.services import free_port, wait_for

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            hub.app, host="127.0.0.1", port=port, lifespan="off", **uvicorn_options("warning")
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, "uvicorn to start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def live(hub: Hub) -> Iterator[Live]:
    """The hub's app behind a real uvicorn socket on 127.0.0.1 (in a thread of this process)."""
    with served(hub) as url:
        yield Live(url, hub)
