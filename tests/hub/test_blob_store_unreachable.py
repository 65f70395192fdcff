"""What the operator is told when the hub's S3 blob store cannot be used at start-up: which
bucket at which endpoint, what failed (a stable reason) and what to do, before any migration or
clean-up runs.
The failures are real: moto's S3 server without the bucket, and a closed port."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from provcat.hub.storage.blobfailure import shown_endpoint
from tests.hub.services import S3, free_port


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["hub", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'hub.sqlite3'}"


def test_a_bucket_that_does_not_exist(s3: S3, tmp_path: Path) -> None:
    data = tmp_path / "data"
    code, out, err = _run(
        "serve", "--port", str(free_port()), "--data-dir", str(data),
        "--database", _sqlite(tmp_path), "--blobs", "s3://no-such-bucket/hub",
    )  # fmt: skip
    line = err.strip().splitlines()[-1]
    assert code == 1 and "serving on" not in err
    assert line.startswith("provcat hub: RegistryUnavailableError: cannot use the hub's blob store")
    assert f"there is no bucket no-such-bucket at {s3.endpoint}" in line  # which, what failed
    assert "create the bucket" in line  # what to do
    code, out, _ = _run(
        "token", "list", "--data-dir", str(data), "--database", _sqlite(tmp_path),
        "--blobs", "s3://no-such-bucket/hub", "--format", "json",
    )  # fmt: skip
    body = json.loads(out)
    assert code == 1 and body["details"] == {
        "bucket": "no-such-bucket",
        "endpoint": s3.endpoint,
        "reason": "bucket_missing",
    }


def test_an_object_store_that_is_not_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = free_port()  # nothing listens there
    monkeypatch.setenv("AWS_ENDPOINT_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing-secret-value")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    code, out, err = _run(
        "token", "list", "--data-dir", str(tmp_path / "data"), "--database", _sqlite(tmp_path),
        "--blobs", "s3://adapters/prod",
    )  # fmt: skip
    assert code == 1
    assert f"nothing answers at http://127.0.0.1:{port}" in err
    # the store as --blobs named it (a tester saw "s3://adapters" for s3://adapters/prod)
    assert "cannot use the hub's blob store s3://adapters/prod: nothing answers" in err
    assert "start the object store there, or correct AWS_ENDPOINT_URL" in err
    assert "testing-secret-value" not in out + err


def test_the_endpoint_is_shown_without_credentials_or_query() -> None:
    shown = shown_endpoint("https://user:s3cret@minio.internal:9000/base?token=abc")
    assert shown == "https://minio.internal:9000/base"
    assert shown_endpoint(None) == "AWS S3"


def test_an_object_store_that_accepts_connections_but_never_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a tester: a store that accepts connections and then says nothing held each
    request for about 4 minutes (boto3's 60 s timeouts, times its attempts). The hub sets its
    own connect and read timeouts (5 s and 30 s, like the database's connect_timeout); here the
    read timeout is shortened to keep the test fast."""
    import socket
    import threading
    import time

    from provcat.hub.storage import s3 as s3_module

    held: list[socket.socket] = []
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def accept_and_say_nothing() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            held.append(connection)

    threading.Thread(target=accept_and_say_nothing, daemon=True).start()
    client = s3_module.S3BlobStore("adapters", "prod").client
    assert (client.meta.config.connect_timeout, client.meta.config.read_timeout) == (5.0, 30.0)
    monkeypatch.setattr(s3_module, "READ_TIMEOUT", 0.5)
    monkeypatch.setattr(s3_module, "MAX_ATTEMPTS", 1)
    monkeypatch.setenv("AWS_ENDPOINT_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing-secret-value")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    started = time.monotonic()
    try:
        code, out, err = _run(
            "token", "list", "--data-dir", str(tmp_path / "data"),
            "--database", _sqlite(tmp_path), "--blobs", "s3://adapters/prod",
        )  # fmt: skip
    finally:
        listener.close()
        for connection in held:
            connection.close()
    assert time.monotonic() - started < 15
    assert code == 1 and held  # it connected, then waited for an answer in vain
    assert "cannot use the hub's blob store s3://adapters/prod" in err
    assert f"the store at http://127.0.0.1:{port} did not answer in time" in err
    assert "testing-secret-value" not in out + err
