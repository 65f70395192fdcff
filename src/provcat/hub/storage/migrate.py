"""Schema creation and upgrades, versioned by alembic revisions shipped inside the package.

Several server processes may start at once against one PostgreSQL: an advisory lock serialises
their upgrades. A database newer than this code is refused with a clear error.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Engine

from provcat.hub.errors import RegistryUnavailableError

__all__ = ["HEAD", "upgrade"]

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
HEAD = "0003"
_LOCK_KEY = 0x70726F76  # "prov"


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest revision this code knows."""

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    heads = ScriptDirectory.from_config(config).get_heads()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_LOCK_KEY})")
        config.attributes["connection"] = connection
        try:
            command.upgrade(config, "head")
        except CommandError as exc:
            raise RegistryUnavailableError(
                "the hub database has a schema revision this provcat does not know "
                f"(it knows up to {', '.join(heads)}); upgrade provcat",
            ) from exc
