"""The hub's storage: one small interface over metadata (SQL) and blobs (files or S3).

Two real configurations: the embedded default, SQLite (WAL) + content-addressed files under the
data dir; and the scale-out one, PostgreSQL + an S3-compatible store, shared by several stateless
server processes. Connectivity failures surface as ``RegistryUnavailableError``.
"""

from __future__ import annotations

from provcat.hub.storage.records import SERVER_FIELDS, StoredAdapter, now_rfc3339
from provcat.hub.storage.service import Storage, open_storage

__all__ = ["SERVER_FIELDS", "Storage", "StoredAdapter", "now_rfc3339", "open_storage"]
