"""Server and storage settings, from options or ``PROVCAT_HUB_*`` environment variables."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT_MAX_UPLOAD_BYTES", "HubSettings"]

DEFAULT_MAX_UPLOAD_BYTES = 4 << 30


@dataclass(frozen=True)
class HubSettings:
    """Everything a hub server needs. URLs may hold credentials: never print them."""

    data_dir: Path = Path("hub-data")
    database_url: str | None = None  # default: sqlite:///<data_dir>/hub.sqlite3
    blobs_url: str | None = None  # default: the data dir; or s3://bucket/prefix
    max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES
    private_reads: bool = False
    public_url: str | None = None  # base of storage_uri; default: the request's own base URL
    busy_timeout_ms: int = 30_000
    orphan_grace_seconds: float = 3600.0

    def __repr__(self) -> str:
        return (
            f"HubSettings(data_dir={str(self.data_dir)!r}, database={self.database_kind}, "
            f"blobs={self.blobs_kind}, max_upload_bytes={self.max_upload_bytes}, "
            f"private_reads={self.private_reads})"
        )

    @property
    def resolved_database_url(self) -> str:
        return self.database_url or f"sqlite:///{(self.data_dir / 'hub.sqlite3').resolve()}"

    @property
    def database_kind(self) -> str:
        return self.resolved_database_url.split(":", 1)[0]

    @property
    def blobs_kind(self) -> str:
        return "s3" if (self.blobs_url or "").startswith("s3://") else "files"
