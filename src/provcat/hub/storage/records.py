"""What the storage layer hands back: one stored version, plus the time format it writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from provcat.hub.ref import Version, parse_version

__all__ = ["SERVER_FIELDS", "StoredAdapter", "now_rfc3339"]

# manifest fields the server owns: pushed values are ignored
SERVER_FIELDS = frozenset({"adapter_id", "storage_uri", "created_at"})


def now_rfc3339() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class StoredAdapter:
    """One version as stored: its canonical manifest (without ``storage_uri``) and its blob."""

    namespace: str
    name: str
    version: str
    checksum_sha256: str
    size_bytes: int
    manifest: dict[str, Any]
    created_at: str
    deleted_at: str | None = None

    @property
    def semver(self) -> Version:
        return parse_version(self.version)

    def search_row(self) -> dict[str, Any]:
        m = self.manifest
        return {
            "adapter_id": m.get("adapter_id"),
            "namespace": self.namespace,
            "name": self.name,
            "version": self.version,
            "description": m.get("description"),
            "tags": list(m.get("tags") or []),
            "base_model_compatibility": list(m.get("base_model_compatibility") or []),
        }
