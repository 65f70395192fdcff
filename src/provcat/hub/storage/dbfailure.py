"""What an operator is told when the hub cannot open its database: which database (the URL with
its password hidden and its query left out), what failed (a stable ``reason``) and what to do.

Only the start-up (``serve``, ``token``, ``export-static``) says this: it runs for the operator.
A request that meets a database outage later answers the protocol's generic 503, since the
database's address is none of a client's business.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import make_url

from provcat.hub.errors import RegistryUnavailableError
from provcat.redact import sanitize

__all__ = ["REASONS", "database_failure", "shown_url"]

_FIX_URL = "--database / PROVCAT_HUB_DATABASE"

# reason -> (fragments of the driver's message, lower case; what happened; what to do)
REASONS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "connection_refused": (
        ("connection refused",),
        "nothing accepts connections at {where}",
        f"start the database server there, or correct the host and port in {_FIX_URL}",
    ),
    "host_not_found": (
        (
            "could not translate host name",
            "name or service not known",
            "nodename nor servname",
            "temporary failure in name resolution",
            "no address associated",
        ),
        "the host name {host} does not resolve",
        f"correct the host in {_FIX_URL}",
    ),
    "timeout": (
        ("timeout expired", "timed out"),
        "{where} did not answer in time",
        "check that the host is reachable from here (network, firewall) and the port is right",
    ),
    "authentication_failed": (
        (
            "password authentication failed",
            "no password supplied",
            "authentication failed",
            'role "',
        ),
        "the server refused the user {user}",
        f"check the user name and password in {_FIX_URL}",
    ),
    "database_missing": (
        ("does not exist",),
        "there is no database {database} on {where}",
        "create it (CREATE DATABASE ...) or correct its name in the URL",
    ),
    "permission_denied": (
        ("permission denied",),
        "the user {user} may not create the hub's tables in {database} (the hub creates and "
        "upgrades its own schema at start)",
        "grant it CREATE on the schema (PostgreSQL 15 and later no longer grant that to every "
        "user): GRANT CREATE ON SCHEMA public TO {user_name}; or make it the database's "
        "owner: ALTER DATABASE {database_name} OWNER TO {user_name}",
    ),
    "cannot_open_file": (
        ("unable to open database file",),
        "SQLite cannot open {database}",
        "check that its directory exists and this user may write there{elsewhere}",
    ),
    "read_only": (
        ("readonly database", "read-only"),
        "the database {database} is read-only for this user",
        "give this user write access to it and its directory",
    ),
}


def _parts(url: str) -> dict[str, str]:
    parsed = make_url(url)
    port = parsed.port or (5432 if parsed.get_backend_name() == "postgresql" else None)
    host = parsed.host or "localhost"
    return {
        "host": host,
        "where": f"{host}:{port}" if port else host,
        "user": repr(parsed.username or ""),
        "database": repr(parsed.database or ""),
        "user_name": _identifier(parsed.username or "USER"),
        "database_name": _identifier(parsed.database or "DATABASE"),
    }


def _identifier(name: str) -> str:
    """``name`` as it may be pasted into SQL: bare when plain, else double-quoted."""
    if name.isascii() and name.replace("_", "a").isalnum() and name == name.lower():
        return name
    return '"' + name.replace('"', '""') + '"'


def shown_url(url: str) -> str:
    """``url`` as it may be shown: password hidden, query (which may hold one too) left out."""
    try:
        parsed = make_url(url)
    except Exception:  # unparseable: show only the scheme
        return url.split(":", 1)[0] + "://..."
    return parsed.set(query={}).render_as_string(hide_password=True)


def database_failure(
    url: str, exc: BaseException, *, explicit: bool = True
) -> RegistryUnavailableError:
    """The error for a database that cannot be opened: ``details`` has ``database`` and a stable
    ``reason`` (a key of :data:`REASONS`, or ``unavailable`` when the driver's message is none of
    those, then quoted with secrets removed). ``explicit``: the URL was given (--database), so
    the advice names that option, not --data-dir, which then does not choose the database."""
    driver: Any = getattr(exc, "orig", None) or exc
    said = str(driver).strip().splitlines()[0] if str(driver).strip() else type(driver).__name__
    lowered = str(driver).lower()
    shown = shown_url(url)
    parts = _parts(url)
    reason = next(
        (r for r, (frags, _, _) in REASONS.items() if any(f in lowered for f in frags)), ""
    )
    if reason:
        _, what, todo = REASONS[reason]
        elsewhere = f", or correct the path in {_FIX_URL}" if explicit else " (or give --data-dir)"
        todo = todo.format(elsewhere=elsewhere, **parts)
        message = f"cannot open the hub database {shown}: {what.format(**parts)}; {todo}"
    else:
        reason = "unavailable"
        password = _password(url)
        if password:
            said = said.replace(password, "***")
        message = (
            f"cannot open the hub database {shown}: {sanitize(said)} "
            f"({type(driver).__name__}); check that it runs and that {_FIX_URL} is right"
        )
    return RegistryUnavailableError(message, {"database": shown, "reason": reason})


def _password(url: str) -> str | None:
    try:
        return make_url(url).password
    except Exception:
        return None
