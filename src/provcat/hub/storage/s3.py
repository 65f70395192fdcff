"""Blobs in any S3-compatible object store (boto3), so several stateless servers share them.

The endpoint and credentials come from boto3's usual configuration (``AWS_ENDPOINT_URL``,
``AWS_ACCESS_KEY_ID``, ...). Uploads use bounded multipart transfers (memory stays flat).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from provcat.hub.storage.blobfailure import blob_store_failure
from provcat.hub.storage.blobs import CHUNK, blob_key

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

__all__ = ["S3BlobStore"]

_MIB = 1 << 20
# like the database's (connect_timeout=5): a store that does not accept the connection fails
# fast. The read timeout bounds each wait for bytes (a reply, or the next piece of a payload),
# not a whole transfer, so a large payload streams for as long as it keeps coming. boto3's
# default is 60 s for both, times its attempts: ~4 minutes per request to a silent store.
CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 30.0
MAX_ATTEMPTS = 3  # the first try and two retries (boto3's "standard" retry mode)


@dataclass
class _S3Reader:
    body: Any
    size: int

    def chunks(self) -> Iterator[bytes]:
        try:
            yield from self.body.iter_chunks(CHUNK)
        finally:
            self.close()

    def close(self) -> None:
        self.body.close()


class S3BlobStore:
    """Blobs as objects ``<prefix>/blobs/sha256/ab/<hex>`` in ``bucket``."""

    syncs_source = False  # the temp file is only read back to upload it

    def __init__(self, bucket: str, prefix: str = "", client: S3Client | None = None) -> None:
        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self.client: S3Client = client or boto3.client(
            "s3",
            config=Config(
                connect_timeout=CONNECT_TIMEOUT,
                read_timeout=READ_TIMEOUT,
                retries={"max_attempts": MAX_ATTEMPTS, "mode": "standard"},
            ),
        )

    def ping(self) -> None:
        """Check that the bucket is there and these credentials may use it; raise
        ``RegistryUnavailableError`` saying which bucket, what failed and what to do."""
        try:
            self.client.head_bucket(Bucket=self.bucket)
        except (BotoCoreError, ClientError) as exc:
            raise blob_store_failure(
                self.bucket, self.client.meta.endpoint_url, exc, self.describe()
            ) from None

    def key(self, sha256: str) -> str:
        key = blob_key(sha256)
        return f"{self.prefix}/{key}" if self.prefix else key

    def _missing(self, exc: Exception) -> bool:
        if not isinstance(exc, ClientError):
            return False
        code = str(exc.response.get("Error", {}).get("Code", ""))
        return code in {"404", "NoSuchKey", "NotFound"}

    def size(self, sha256: str) -> int | None:
        try:
            head = self.client.head_object(Bucket=self.bucket, Key=self.key(sha256))
        except Exception as exc:
            if self._missing(exc):
                return None
            raise
        return int(head["ContentLength"])

    def exists(self, sha256: str) -> bool:
        return self.size(sha256) is not None

    def put(self, sha256: str, source: Path) -> None:
        if self.exists(sha256):
            return
        config = TransferConfig(
            multipart_threshold=16 * _MIB, multipart_chunksize=8 * _MIB, max_concurrency=4
        )
        # a multipart upload becomes visible only when complete: no reader sees a partial blob
        self.client.upload_file(str(source), self.bucket, self.key(sha256), Config=config)

    def open(self, sha256: str, start: int = 0, end: int | None = None) -> _S3Reader | None:
        total = self.size(sha256)
        if total is None:
            return None
        stop = total if end is None else min(end, total)
        if stop <= start:
            return _S3Reader(_Empty(), 0)
        try:
            got = self.client.get_object(
                Bucket=self.bucket, Key=self.key(sha256), Range=f"bytes={start}-{stop - 1}"
            )
        except Exception as exc:
            if self._missing(exc):
                return None
            raise
        return _S3Reader(got["Body"], stop - start)

    def delete(self, sha256: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=self.key(sha256))

    def _blobs_prefix(self) -> str:
        return f"{self.prefix}/blobs/sha256/" if self.prefix else "blobs/sha256/"

    def old_digests(self, older_than: float) -> list[str]:
        now = time.time()
        out = []
        paginator = self.client.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=self.bucket, Prefix=self._blobs_prefix()):
            for item in page.get("Contents", []):
                if now - item["LastModified"].timestamp() >= older_than:
                    out.append(item["Key"].rsplit("/", 1)[-1])
        return sorted(out)

    def abort_stale_uploads(self, older_than: float) -> int:
        """Abort the multipart uploads of blobs begun over ``older_than`` seconds ago.

        A server killed mid-``put`` leaves its multipart upload open: invisible, but its parts
        are stored (and billed) until aborted. Only this store's blob keys are touched, and only
        old uploads: another server sharing the bucket may be uploading right now.
        """
        now = time.time()
        aborted = 0
        paginator = self.client.get_paginator("list_multipart_uploads")
        for page in paginator.paginate(Bucket=self.bucket, Prefix=self._blobs_prefix()):
            for upload in page.get("Uploads", []):
                if now - upload["Initiated"].timestamp() < older_than:
                    continue
                try:
                    self.client.abort_multipart_upload(
                        Bucket=self.bucket, Key=upload["Key"], UploadId=upload["UploadId"]
                    )
                except Exception as exc:
                    if self._no_upload(exc):  # completed or aborted meanwhile
                        continue
                    raise
                aborted += 1
        return aborted

    def _no_upload(self, exc: Exception) -> bool:
        if not isinstance(exc, ClientError):
            return False
        return str(exc.response.get("Error", {}).get("Code", "")) in {"NoSuchUpload", "404"}

    def describe(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}".rstrip("/")


class _Empty:
    def iter_chunks(self, size: int) -> Iterator[bytes]:
        return iter(())

    def close(self) -> None:
        return None
