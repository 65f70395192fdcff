"""Download counts: one row per version that has been downloaded, holding how many times.

A separate table, so a version's own row never changes once published; a count is one upsert
(``INSERT ... ON CONFLICT DO UPDATE SET downloads = downloads + 1``), atomic on SQLite and
PostgreSQL alike. No client identity is stored. Existing hubs start every count at 0.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hub_downloads",
        sa.Column("namespace", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("version", sa.String(64), nullable=False),
        sa.Column("downloads", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("namespace", "name", "version", name="pk_hub_downloads"),
    )


def downgrade() -> None:
    op.drop_table("hub_downloads")
