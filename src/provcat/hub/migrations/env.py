"""Alembic environment for the hub. ``provcat.hub.storage.migrate`` passes an open connection
(already in a transaction, holding the migration lock) in ``config.attributes["connection"]``."""

from __future__ import annotations

from alembic import context


def _run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, version_table="hub_alembic_version")
    with context.begin_transaction():
        context.run_migrations()


_run()
