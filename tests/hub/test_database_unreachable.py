"""A hub whose database cannot be opened says which database (URL without its password or
query), what failed (a stable reason) and what to do, from ``serve`` and the tools, in text and
JSON; nothing is written for it. The failures are real: a closed port, a directory that does not
exist, and a real PostgreSQL asked for a database and a role it does not have."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from provcat.hub.errors import RegistryUnavailableError
from provcat.hub.settings import HubSettings
from provcat.hub.storage import open_storage
from tests.hub.services import Postgres, free_port

PASSWORD = "pw-Secr3t-value"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["hub", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _refused(database: str, data_dir: Path) -> RegistryUnavailableError:
    with pytest.raises(RegistryUnavailableError) as caught:
        open_storage(HubSettings(data_dir=data_dir, database_url=database))
    return caught.value


def test_postgresql_on_a_closed_port(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    url = f"postgresql+psycopg://hub:{PASSWORD}@127.0.0.1:{port}/hubdb?password={PASSWORD}"
    data_dir = tmp_path / "data"
    for command in (["serve", "--port", str(free_port())], ["token", "list"]):
        code, out, err = run(*command, "--data-dir", str(data_dir), "--database", url)
        assert code == 1 and PASSWORD not in out + err
        line = err.strip().splitlines()[-1]
        assert line.startswith("provcat hub: RegistryUnavailableError: cannot open the hub ")
        assert f"@127.0.0.1:{port}/hubdb" in line and "?" not in line  # which database
        assert f"nothing accepts connections at 127.0.0.1:{port}" in line  # what failed
        assert "start the database server there" in line and "--database" in line  # what to do
        assert "serving on" not in err  # a start that failed never announced itself
    code, out, err = run("token", "list", "--data-dir", str(data_dir), "--database", url,
                         "--format", "json")  # fmt: skip
    body = json.loads(out)
    assert code == 1 and body["error"] == "RegistryUnavailableError"
    assert body["details"]["reason"] == "connection_refused" and PASSWORD not in out + err
    assert body["details"]["database"].endswith(f"@127.0.0.1:{port}/hubdb")
    # nothing was written for a database that was never reached
    assert sorted(p.name for p in data_dir.iterdir()) == []


def test_sqlite_in_a_directory_that_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-dir" / "hub.sqlite3"
    error = _refused(f"sqlite:///{missing}", tmp_path / "data")
    assert error.details == {"database": f"sqlite:///{missing}", "reason": "cannot_open_file"}
    assert f"SQLite cannot open '{missing}'" in error.message
    assert "check that its directory exists" in error.message
    assert not missing.parent.exists()


def test_postgresql_without_that_database_or_that_role(pg: Postgres, tmp_path: Path) -> None:
    error = _refused(pg.url("no_such_db"), tmp_path / "a")
    assert error.details["reason"] == "database_missing"
    assert f"there is no database 'no_such_db' on 127.0.0.1:{pg.port}" in error.message
    assert "CREATE DATABASE" in error.message
    nobody = f"postgresql+psycopg://nobody_here:{PASSWORD}@127.0.0.1:{pg.port}/postgres"
    error = _refused(nobody, tmp_path / "b")
    assert error.details["reason"] == "authentication_failed"
    assert "the server refused the user 'nobody_here'" in error.message
    assert PASSWORD not in error.message + json.dumps(error.details)


def test_the_advice_fits_where_the_database_was_chosen(tmp_path: Path) -> None:
    """An explicit --database is corrected there (--data-dir would not move it); the default
    database in the data dir is moved with --data-dir."""
    missing = tmp_path / "no-such-dir" / "x.db"
    code, out, _ = run(
        "token", "list", "--data-dir", str(tmp_path / "data"),
        "--database", f"sqlite:///{missing}", "--format", "json",
    )  # fmt: skip
    body = json.loads(out)
    assert code == 1 and body["details"]["reason"] == "cannot_open_file"
    assert "--data-dir" not in body["message"]
    fix = "or correct the path in --database / PROVCAT_HUB_DATABASE"
    assert body["message"].endswith(fix), body["message"]
    blocked = tmp_path / "blocked"
    (blocked / "hub.sqlite3").mkdir(parents=True)  # the default database's place is taken
    code, out, _ = run("token", "list", "--data-dir", str(blocked), "--format", "json")
    body = json.loads(out)
    assert code == 1 and body["details"]["reason"] == "cannot_open_file", body
    assert body["message"].endswith("(or give --data-dir)"), body["message"]


def test_database_urls_as_other_tools_write_them(pg: Postgres, tmp_path: Path) -> None:
    """Found by a tester: ``postgres://`` (Heroku's, libpq's) failed with "(NoSuchModuleError)"
    and a libpq keyword string with "(ArgumentError)". The first is the hub's PostgreSQL; the
    second is refused with the URL form to use, and neither message holds the password."""
    database = pg.create_database().rsplit("/", 1)[1]
    for scheme in ("postgres", "postgresql"):
        url = f"{scheme}://postgres:{PASSWORD}@127.0.0.1:{pg.port}/{database}"
        storage = open_storage(HubSettings(data_dir=tmp_path / scheme, database_url=url))
        try:
            assert storage.list_tokens() == []
        finally:
            storage.close()
    keywords = f"host=127.0.0.1 port={pg.port} dbname={database} password={PASSWORD}"
    code, out, err = run("token", "list", "--data-dir", str(tmp_path / "k"), "--database", keywords)
    assert code == 1 and PASSWORD not in out + err
    assert "is not a URL (a libpq keyword string" in err
    assert "as a URL: sqlite:///PATH, or postgresql+psycopg://HOST:PORT/DATABASE" in err
    assert "(USER:PASSWORD@HOST)" in err
    code, out, err = run(
        "token", "list", "--data-dir", str(tmp_path / "m"),
        "--database", f"mysql://root:{PASSWORD}@127.0.0.1/hub",
    )  # fmt: skip
    assert code == 1 and PASSWORD not in out + err
    assert "no database driver for 'mysql://'" in err


def test_a_user_that_may_not_create_tables(pg: Postgres, tmp_path: Path) -> None:
    """Found by a tester: PostgreSQL 15 no longer lets every user create in schema public; the
    hub said "permission denied for schema public (InsufficientPrivilege); check that it runs"."""
    database = pg.create_database().rsplit("/", 1)[1]
    pg.sql("DO $$ BEGIN CREATE ROLE hub_reader LOGIN; EXCEPTION WHEN duplicate_object THEN END $$")
    url = f"postgresql+psycopg://hub_reader:{PASSWORD}@127.0.0.1:{pg.port}/{database}"
    error = _refused(url, tmp_path / "data")
    assert error.details["reason"] == "permission_denied", error.message
    assert "the user 'hub_reader' may not create the hub's tables" in error.message
    assert "GRANT CREATE ON SCHEMA public TO hub_reader" in error.message
    assert f"ALTER DATABASE {database} OWNER TO hub_reader" in error.message
    assert PASSWORD not in error.message + json.dumps(error.details)
    pg.sql("GRANT CREATE ON SCHEMA public TO hub_reader", database)  # as the message says
    open_storage(HubSettings(data_dir=tmp_path / "data", database_url=url)).close()
