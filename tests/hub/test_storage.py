"""Storage start-up and read-path behaviour: unfinished S3 multipart uploads aborted at start, a
dropped PostgreSQL connection retried by reads, latest resolved from one query."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from provcat.hub.settings import HubSettings
from provcat.hub.storage import open_storage
from provcat.hub.storage import s3 as s3_module
from provcat.hub.storage.blobs import FileBlobStore, blob_key
from provcat.hub.storage.records import StoredAdapter
from tests.hub.conftest import Hub, make_hub
from tests.hub.helpers import safetensors
from tests.hub.services import S3, Postgres


def _open_uploads(s3: S3, bucket: str) -> dict[str, str]:
    client = s3.client()
    listed = client.list_multipart_uploads(Bucket=bucket)  # type: ignore[attr-defined]
    return {u["UploadId"]: u["Key"] for u in listed.get("Uploads", [])}


def _begin_upload(s3: S3, bucket: str, key: str) -> str:
    """What a server killed mid-``put`` leaves behind: a multipart upload with a part, open."""
    client = s3.client()
    upload_id: str = client.create_multipart_upload(Bucket=bucket, Key=key)["UploadId"]  # type: ignore[attr-defined]
    client.upload_part(  # type: ignore[attr-defined]
        Bucket=bucket, Key=key, UploadId=upload_id, PartNumber=1, Body=b"\x00" * 1024
    )
    return upload_id


def test_start_aborts_unfinished_multipart_uploads_once_old(
    s3: S3, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bucket = s3.create_bucket()
    digest = hashlib.sha256(b"crashed").hexdigest()
    crashed = _begin_upload(s3, bucket, f"hub/{blob_key(digest)}")
    foreign = _begin_upload(s3, bucket, f"other-app/{blob_key(digest)}")  # not the hub's prefix
    assert set(_open_uploads(s3, bucket)) == {crashed, foreign}
    settings = HubSettings(data_dir=tmp_path / "hub-data", blobs_url=f"s3://{bucket}/hub")

    # within the grace period the upload may be another server's publish in progress: kept.
    # (moto reports one fixed "Initiated" date for every upload: make it ten seconds ago)
    listed = s3.client().list_multipart_uploads(Bucket=bucket)  # type: ignore[attr-defined]
    initiated = listed["Uploads"][0]["Initiated"].timestamp()
    with monkeypatch.context() as patch:
        patch.setattr(s3_module.time, "time", lambda: initiated + 10)
        open_storage(settings).close()
    assert set(_open_uploads(s3, bucket)) == {crashed, foreign}

    # older than the grace period (an hour by default): a crash's leftover, aborted at start
    storage = open_storage(settings)
    try:
        assert _open_uploads(s3, bucket) == {foreign: f"other-app/{blob_key(digest)}"}
        assert storage.abort_stale_uploads(0) == 0  # idempotent
        assert not storage.blobs.exists(digest)  # an aborted upload never becomes a blob
    finally:
        storage.close()


def test_file_blobs_have_no_unfinished_uploads_beyond_temp_files(tmp_path: Path) -> None:
    assert FileBlobStore(tmp_path).abort_stale_uploads(0) == 0


def test_reads_survive_a_dropped_database_connection(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Reads skip the per-checkout ping; a pooled connection the server dropped is retried."""
    hub: Hub = make_hub("pg-s3", tmp_path / "hub-data", request)
    try:
        pg: Postgres = request.getfixturevalue("pg")
        database = str(hub.settings.database_url).rsplit("/", 1)[1]
        assert hub.storage.resolve("acme", "nothing", "latest") is None  # pool warmed
        pg.sql(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{database}'"
        )
        assert hub.storage.resolve("acme", "nothing", "latest") is None  # no 503
        assert hub.storage.find_token("000000000000") is None
    finally:
        hub.storage.close()


def test_latest_decodes_the_winner_of_one_query(hub: Hub, tmp_path: Path) -> None:
    payload = safetensors(b"\x05" * 10)
    source = tmp_path / "payload"
    source.write_bytes(payload)
    digest = hashlib.sha256(payload).hexdigest()
    for version in ("1.9.0", "1.10.0", "2.0.0-rc1"):
        record = StoredAdapter(
            namespace="acme",
            name="many",
            version=version,
            checksum_sha256=digest,
            size_bytes=len(payload),
            manifest={"namespace": "acme", "name": "many", "version": version},
            created_at="2026-01-01T00:00:00Z",
        )
        hub.storage.publish(record, source)
    latest = hub.storage.resolve("acme", "many", "latest")
    assert latest is not None and latest.version == "1.10.0"
    assert latest.manifest["version"] == "1.10.0"
    assert hub.storage.delete("acme", "many", "1.10.0")
    again = hub.storage.resolve("acme", "many", "latest")
    assert again is not None and again.version == "1.9.0"


@pytest.mark.parametrize("fault_at", ["UploadPart", "CompleteMultipartUpload"])
def test_s3_fault_mid_put_leaves_no_partial_blob(
    tmp_path: Path, request: pytest.FixtureRequest, s3: S3, fault_at: str
) -> None:
    """A multipart put that fails part-way (a part, or the completion) is aborted: no object under
    the blob key, no open multipart upload, no version, no temp file; a retry then publishes."""
    import httpx
    from botocore.exceptions import EndpointConnectionError

    from tests.hub.helpers import manifest, multipart_headers, push_body

    hub = make_hub("pg-s3", tmp_path / "hub-data", request, max_upload_bytes=40 << 20)
    try:
        blobs = hub.storage.blobs
        assert isinstance(blobs, s3_module.S3BlobStore)
        calls = {"n": 0}

        def fail(**_: object) -> None:
            calls["n"] += 1
            if calls["n"] == 2 or fault_at == "CompleteMultipartUpload":
                raise EndpointConnectionError(endpoint_url="http://127.0.0.1:1")

        event = f"before-call.s3.{fault_at}"
        blobs.client.meta.events.register(event, fail)
        payload = safetensors(b"\x5a" * (20 << 20))  # over the 16 MiB multipart threshold
        digest = hashlib.sha256(payload).hexdigest()
        body = push_body(manifest("acme", "big", "1.0.0", payload), payload)

        async def push() -> httpx.Response:
            async with hub.client(timeout=120) as c:
                return await c.post(
                    "/v1/adapters", content=body, headers=multipart_headers(hub.token)
                )

        import anyio

        r = anyio.run(push)
        assert r.status_code == 503 and r.json()["error"] == "RegistryUnavailableError", r.text
        assert calls["n"] >= 1
        assert not blobs.exists(digest)
        bucket = blobs.bucket
        assert _open_uploads(s3, bucket) == {}
        listed = s3.client().list_objects_v2(Bucket=bucket)  # type: ignore[attr-defined]
        assert listed.get("Contents", []) == []
        assert hub.storage.metadata.get("acme", "big", "1.0.0") is None
        assert hub.tmp_files() == []
        blobs.client.meta.events.unregister(event, fail)
        assert anyio.run(push).status_code == 201  # the same push, once S3 answers again
        assert blobs.exists(digest)
    finally:
        hub.storage.close()
