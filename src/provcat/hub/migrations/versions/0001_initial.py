"""Initial schema: adapters (with tombstones), blobs, tokens.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hub_adapters",
        sa.Column("namespace", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("version", sa.String(64), nullable=False),
        sa.Column("checksum_sha256", sa.String(64), nullable=False),
        sa.Column("size_bytes", sa.BigInteger, nullable=False),
        sa.Column("manifest", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("deleted_at", sa.String(32), nullable=True),
        sa.UniqueConstraint("namespace", "name", "version", name="uq_hub_adapters_ref"),
    )
    op.create_index("ix_hub_adapters_checksum", "hub_adapters", ["checksum_sha256"])
    op.create_table(
        "hub_blobs",
        sa.Column("sha256", sa.String(64), primary_key=True),
        sa.Column("size_bytes", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "hub_tokens",
        sa.Column("token_id", sa.String(32), primary_key=True),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("namespaces", sa.Text, nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("revoked_at", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("hub_tokens")
    op.drop_table("hub_blobs")
    op.drop_index("ix_hub_adapters_checksum", table_name="hub_adapters")
    op.drop_table("hub_adapters")
