"""Throwaway services for the hub tests, all on 127.0.0.1: PostgreSQL 15 (run as the postgres
user from a temp data dir), moto's S3 server, and real ``provcat hub serve`` processes."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

PG_BIN = Path(os.environ.get("PROVCAT_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"))
S3_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for(predicate: object, what: str, timeout: float = 30.0) -> None:
    """Poll ``predicate`` until true; fail with ``what`` after ``timeout`` (a safety net only)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@dataclass
class Postgres:
    port: int
    data_dir: Path
    process: subprocess.Popen[bytes]

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname={database}", autocommit=True
        ) as conn:
            conn.execute(statement)  # type: ignore[arg-type]

    def create_database(self) -> str:
        name = f"hub_{uuid.uuid4().hex[:12]}"
        self.sql(f"CREATE DATABASE {name}")
        return self.url(name)


@contextlib.contextmanager
def postgres() -> Iterator[Postgres]:
    initdb, server = PG_BIN / "initdb", PG_BIN / "postgres"
    if not (initdb.exists() and server.exists()) or shutil.which("runuser") is None:
        raise RuntimeError(
            f"PostgreSQL 15 binaries not found in {PG_BIN} (or runuser missing): install "
            "postgresql-15 or set PROVCAT_TEST_PG_BIN; the PostgreSQL backend tests need them"
        )
    root = Path(tempfile.mkdtemp(prefix="provcat-pg-"))
    data = root / "data"
    data.mkdir()
    shutil.chown(root, "postgres")
    shutil.chown(data, "postgres")
    run = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [*run, str(initdb), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"],
        check=True,
        capture_output=True,
    )
    port = free_port()
    process = subprocess.Popen(
        [
            *run,
            str(server),
            "-D",
            str(data),
            "-p",
            str(port),
            "-k",
            str(root),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            "fsync=off",
            "-c",
            "max_connections=200",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    pg = Postgres(port, data, process)

    def ready() -> bool:
        try:
            pg.sql("SELECT 1")
        except Exception:
            return False
        return True

    try:
        wait_for(ready, "PostgreSQL to accept connections")
        yield pg
    finally:
        subprocess.run(
            [*run, str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            check=False,
        )
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(root, ignore_errors=True)


@dataclass
class S3:
    endpoint: str

    def env(self) -> dict[str, str]:
        return {**S3_ENV, "AWS_ENDPOINT_URL": self.endpoint}

    def client(self) -> object:
        import boto3

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
            region_name="us-east-1",
        )

    def create_bucket(self) -> str:
        name = f"hub-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)  # type: ignore[attr-defined]
        return name


@contextlib.contextmanager
def moto_s3() -> Iterator[S3]:
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield S3(f"http://127.0.0.1:{port}")
    finally:
        server.stop()


@dataclass
class Served:
    """A ``provcat hub serve`` process."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def kill9(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def serve(
    args: list[str],
    env: dict[str, str] | None = None,
    port: int | None = None,
    cwd: Path | None = None,
) -> Served:
    port = port or free_port()
    log = Path(tempfile.mkstemp(prefix="provcat-serve-", suffix=".log")[1])
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from provcat.cli.main import main; sys.argv[0] = 'provcat'; main()",
            "hub",
            "serve",
            "--port",
            str(port),
            "--log-level",
            "warning",
            *args,
        ],
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        env={**os.environ, **(env or {})},
        cwd=cwd,
    )
    served = Served(f"http://127.0.0.1:{port}", process, log)

    def healthy() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"provcat hub serve exited: {log.read_text()[-2000:]}")
        try:
            return httpx.get(served.url + "/v1/health", timeout=1).status_code == 200
        except httpx.TransportError:
            return False

    wait_for(healthy, "provcat hub serve to answer /v1/health")
    return served
