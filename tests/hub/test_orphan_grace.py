"""The orphan grace period: ``provcat hub serve --orphan-grace-seconds`` (or
``PROVCAT_HUB_ORPHAN_GRACE_SECONDS``) is how old an unfinished S3 multipart upload or a blob that
no version references must be before a starting server removes it. The default (an hour) keeps
young ones (another server sharing the store may be publishing them); 0 removes them all."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from provcat.hub.settings import DEFAULT_ORPHAN_GRACE_SECONDS, HubSettings
from tests.hub.conftest import Hub
from tests.hub.helpers import manifest, multipart_headers, push_body, safetensors
from tests.hub.services import serve


def _orphan_blob(hub: Hub) -> str:
    """A blob no version references."""
    orphan = safetensors(b"orphan")
    digest = hashlib.sha256(orphan).hexdigest()
    source = hub.settings.data_dir / "orphan.bin"
    source.write_bytes(orphan)
    hub.storage.blobs.put(digest, source)
    return digest


def _unfinished_upload(hub: Hub) -> str | None:
    """On S3, a multipart upload a crashed server left open (its id); None on files."""
    if hub.backend != "pg-s3":
        return None
    blobs: Any = hub.storage.blobs
    key = f"{blobs._blobs_prefix()}{'0' * 64}"
    return str(blobs.client.create_multipart_upload(Bucket=blobs.bucket, Key=key)["UploadId"])


def _open_uploads(hub: Hub) -> list[str]:
    if hub.backend != "pg-s3":
        return []
    blobs: Any = hub.storage.blobs
    listed = blobs.client.list_multipart_uploads(Bucket=blobs.bucket)
    return [u["UploadId"] for u in listed.get("Uploads", [])]


@pytest.mark.anyio
async def test_serve_removes_orphans_only_once_older_than_the_grace_period(hub: Hub) -> None:
    kept = safetensors(b"kept")
    async with hub.client() as c:
        body = push_body(manifest("acme", "kept", "1.0.0", kept), kept)
        r = await c.post("/v1/adapters", content=body, headers=multipart_headers(hub.token))
        assert r.status_code == 201
    assert HubSettings().orphan_grace_seconds == DEFAULT_ORPHAN_GRACE_SECONDS == 3600
    digest = _orphan_blob(hub)
    # moto dates every multipart upload 2010-11-10 (its fixed "Initiated"): a grace longer than
    # that keeps it, as the default hour keeps a real upload (or blob) of a moment ago
    upload = _unfinished_upload(hub)
    server = hub.serve("--orphan-grace-seconds", "1e10")
    server.stop()
    assert hub.storage.blobs.exists(digest)
    assert _open_uploads(hub) == ([upload] if upload else [])

    server = serve(hub.serve_args(), env={**hub.env, "PROVCAT_HUB_ORPHAN_GRACE_SECONDS": "0"})
    server.stop()
    assert not hub.storage.blobs.exists(digest)
    assert _open_uploads(hub) == []
    assert hub.storage.blobs.exists(hashlib.sha256(kept).hexdigest())  # referenced: kept


def test_a_negative_grace_period_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["hub", "serve", "--data-dir", str(tmp_path), "--orphan-grace-seconds", "-1"]
    )
    assert result.exit_code == 2 and "--orphan-grace-seconds" in result.stderr
    assert list(tmp_path.iterdir()) == []  # refused before anything was opened


@pytest.mark.parametrize("value", ["nan", "inf", "-nan", "1e400"])
@pytest.mark.parametrize("given_by", ["option", "env"])
def test_a_non_finite_grace_period_is_refused(tmp_path: Path, value: str, given_by: str) -> None:
    """NaN compares false with every age: on S3 every unfinished upload would be aborted."""
    import socket

    with socket.socket() as busy:  # should the value pass, serve fails on the port, not hangs
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        args = ["hub", "serve", "--data-dir", str(tmp_path), "--port", port]
        env = {}
        if given_by == "option":
            args += ["--orphan-grace-seconds", value]
        else:
            env["PROVCAT_HUB_ORPHAN_GRACE_SECONDS"] = value
        result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 2, result.output
    assert "--orphan-grace-seconds" in result.stderr and "finite" in result.stderr
    assert list(tmp_path.iterdir()) == []  # refused before anything was opened


def test_the_grace_period_is_shown_in_seconds() -> None:
    """Found by a new-user audit: the help showed ``--orphan-grace-seconds FINITE FLOAT RANGE``
    (the type's name), and a word for a number was "not a valid finite float range"."""
    result = CliRunner().invoke(main, ["hub", "serve", "--help"])
    assert result.exit_code == 0
    assert "--orphan-grace-seconds SECONDS" in result.stdout and "FLOAT RANGE" not in result.stdout
    result = CliRunner().invoke(main, ["hub", "serve", "--orphan-grace-seconds", "soon"])
    assert result.exit_code == 2
    assert "'soon' is not a valid number of seconds" in result.stderr, result.stderr
