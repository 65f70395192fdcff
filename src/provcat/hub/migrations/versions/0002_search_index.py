"""Search index: one row per (namespace, name) at its latest live version, and its tags.

Search is a query over these small rows (LIKE on casefolded text, exact tag lookups, ordered and
limited by the database) instead of decoding every live manifest per request. Rows are kept
current by publish and delete in the same transaction; this revision fills them for existing data.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

from provcat.hub.ref import parse_version, resolve_latest

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hub_search",
        sa.Column("namespace", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("version", sa.String(64), nullable=False),
        sa.Column("description_cf", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("namespace", "name", name="pk_hub_search"),
    )
    op.create_table(
        "hub_search_tags",
        sa.Column("namespace", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("tag", sa.Text, nullable=False),
        sa.Column("tag_cf", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("namespace", "name", "tag", name="pk_hub_search_tags"),
    )
    op.create_index("ix_hub_search_tags_tag", "hub_search_tags", ["tag"])
    _backfill()


def _backfill() -> None:
    bind = op.get_bind()
    live = sa.text(
        "SELECT namespace, name, version FROM hub_adapters WHERE deleted_at IS NULL "
        "ORDER BY namespace, name"
    )
    groups: dict[tuple[str, str], list[str]] = {}
    for namespace, name, version in bind.execute(live):
        groups.setdefault((namespace, name), []).append(version)
    manifest = sa.text(
        "SELECT manifest FROM hub_adapters WHERE namespace = :namespace AND name = :name "
        "AND version = :version"
    )
    for (namespace, name), versions in groups.items():
        by_semver = {parse_version(v): v for v in versions}
        best = resolve_latest(list(by_semver))
        if best is None:
            continue
        version = by_semver[best]
        key = {"namespace": namespace, "name": name}
        document: dict[str, Any] = json.loads(
            bind.execute(manifest, {**key, "version": version}).scalar_one()
        )
        bind.execute(
            sa.text(
                "INSERT INTO hub_search (namespace, name, version, description_cf) "
                "VALUES (:namespace, :name, :version, :description_cf)"
            ),
            {
                **key,
                "version": version,
                "description_cf": str(document.get("description") or "").casefold(),
            },
        )
        for tag in dict.fromkeys(str(t) for t in document.get("tags") or []):
            bind.execute(
                sa.text(
                    "INSERT INTO hub_search_tags (namespace, name, tag, tag_cf) "
                    "VALUES (:namespace, :name, :tag, :tag_cf)"
                ),
                {**key, "tag": tag, "tag_cf": tag.casefold()},
            )


def downgrade() -> None:
    op.drop_index("ix_hub_search_tags_tag", table_name="hub_search_tags")
    op.drop_table("hub_search_tags")
    op.drop_table("hub_search")
