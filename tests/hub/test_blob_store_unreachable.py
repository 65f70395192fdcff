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
    assert "start the object store there, or correct AWS_ENDPOINT_URL" in err
    assert "testing-secret-value" not in out + err


def test_the_endpoint_is_shown_without_credentials_or_query() -> None:
    shown = shown_endpoint("https://user:s3cret@minio.internal:9000/base?token=abc")
    assert shown == "https://minio.internal:9000/base"
    assert shown_endpoint(None) == "AWS S3"
