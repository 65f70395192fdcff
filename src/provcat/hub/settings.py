"""Server and storage settings, from options or ``PROVCAT_HUB_*`` environment variables."""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "DEFAULT_MAX_UPLOAD_BYTES",
    "DEFAULT_ORPHAN_GRACE_SECONDS",
    "LOOPBACK_HOSTS",
    "HubSettings",
    "database_url_for_sqlalchemy",
    "default_data_dir",
    "xdg_data_home",
]

DEFAULT_MAX_UPLOAD_BYTES = 4 << 30
# the Host values trusted when no public URL is configured: only this machine
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
# how old an unfinished blob upload or an unreferenced blob must be before a starting server
# removes it (another server sharing the store may be publishing it right now)
DEFAULT_ORPHAN_GRACE_SECONDS = 3600.0


def xdg_data_home() -> Path:
    """``$XDG_DATA_HOME`` when it is an absolute path, else ``~/.local/share``: the XDG Base
    Directory spec says a relative value is invalid and must be ignored (it would put the data
    in whatever folder a command happens to run from)."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    return Path(base) if os.path.isabs(base) else Path.home() / ".local" / "share"


def default_data_dir() -> Path:
    """A user data directory, never the current one (a clone's work tree):
    ``$XDG_DATA_HOME/provcat/hub`` (when absolute), else ``~/.local/share/provcat/hub``."""
    return xdg_data_home() / "provcat" / "hub"


def database_url_for_sqlalchemy(url: str) -> str:
    """``url`` with a PostgreSQL scheme that names no driver made to name the hub's (psycopg 3):
    ``postgres://`` (as Heroku, libpq and many tools write it) and ``postgresql://`` become
    ``postgresql+psycopg://``; anything else is returned unchanged."""
    scheme, sep, rest = url.partition("://")
    if sep and scheme.lower() in ("postgres", "postgresql"):
        return f"postgresql+psycopg://{rest}"
    return url


@dataclass(frozen=True, slots=True)
class HubSettings:
    """Everything a hub server needs. URLs may hold credentials: never print them."""

    data_dir: Path = field(default_factory=default_data_dir)
    database_url: str | None = None  # default: sqlite:///<data_dir>/hub.sqlite3
    blobs_url: str | None = None  # default: the data dir; or s3://bucket/prefix
    max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES
    private_reads: bool = False
    # base of storage_uri and Location; unset: the request's scheme and Host, and then only a
    # Host in allowed_hosts is served (anything else is 400: a URL never comes from an
    # untrusted header)
    public_url: str | None = None
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    busy_timeout_ms: int = 30_000
    orphan_grace_seconds: float = DEFAULT_ORPHAN_GRACE_SECONDS

    def __post_init__(self) -> None:
        # NaN passes every comparison with an age: S3 would abort every upload, however young
        if not math.isfinite(self.orphan_grace_seconds) or self.orphan_grace_seconds < 0:
            raise ValueError("orphan_grace_seconds must be a finite number >= 0")

    def __repr__(self) -> str:
        return (
            f"HubSettings(data_dir={str(self.data_dir)!r}, database={self.database_kind}, "
            f"blobs={self.blobs_kind}, max_upload_bytes={self.max_upload_bytes}, "
            f"private_reads={self.private_reads})"
        )

    def to_json(self) -> str:
        """For handing the settings to worker processes (through their environment)."""
        data = asdict(self)
        data["data_dir"] = str(self.data_dir)
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> HubSettings:
        data: dict[str, Any] = json.loads(text)
        data["data_dir"] = Path(data["data_dir"])
        data["allowed_hosts"] = tuple(data["allowed_hosts"])
        return cls(**data)

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return database_url_for_sqlalchemy(self.database_url)
        return f"sqlite:///{(self.data_dir / 'hub.sqlite3').resolve()}"

    @property
    def database_kind(self) -> str:
        return self.resolved_database_url.split(":", 1)[0]

    @property
    def blobs_kind(self) -> str:
        return "s3" if (self.blobs_url or "").startswith("s3://") else "files"
