"""The hub's tables, as the code reads them. Their creation and upgrades are alembic revisions in
``provcat/hub/migrations/versions`` (never ``metadata.create_all``)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
)

__all__ = ["adapters", "blobs", "downloads", "metadata", "search", "search_tags", "tokens"]

metadata = MetaData()

adapters = Table(
    "hub_adapters",
    metadata,
    Column("namespace", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("version", String(64), nullable=False),
    Column("checksum_sha256", String(64), nullable=False),
    Column("size_bytes", BigInteger, nullable=False),
    Column("manifest", Text, nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("deleted_at", String(32), nullable=True),
    UniqueConstraint("namespace", "name", "version", name="uq_hub_adapters_ref"),
)
Index("ix_hub_adapters_checksum", adapters.c.checksum_sha256)

blobs = Table(
    "hub_blobs",
    metadata,
    Column("sha256", String(64), primary_key=True),
    Column("size_bytes", BigInteger, nullable=False),
    Column("created_at", String(32), nullable=False),
)

tokens = Table(
    "hub_tokens",
    metadata,
    Column("token_id", String(32), primary_key=True),
    Column("secret_hash", String(64), nullable=False),
    Column("namespaces", Text, nullable=False),
    Column("description", Text, nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("revoked_at", String(32), nullable=True),
)

# the search index: each (namespace, name) at its latest live version (revision 0002), kept
# current by publish and delete; ``*_cf`` columns hold casefolded text for case-insensitive LIKE
search = Table(
    "hub_search",
    metadata,
    Column("namespace", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("version", String(64), nullable=False),
    Column("description_cf", Text, nullable=False),
    PrimaryKeyConstraint("namespace", "name", name="pk_hub_search"),
)

search_tags = Table(
    "hub_search_tags",
    metadata,
    Column("namespace", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("tag", Text, nullable=False),
    Column("tag_cf", Text, nullable=False),
    PrimaryKeyConstraint("namespace", "name", "tag", name="pk_hub_search_tags"),
)
Index("ix_hub_search_tags_tag", search_tags.c.tag)

# download counts per version (revision 0003): kept apart, so a version's row never changes
downloads = Table(
    "hub_downloads",
    metadata,
    Column("namespace", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("version", String(64), nullable=False),
    Column("downloads", BigInteger, nullable=False),
    PrimaryKeyConstraint("namespace", "name", "version", name="pk_hub_downloads"),
)
