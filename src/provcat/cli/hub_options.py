"""What every ``provcat hub`` command shares: the ``--format``, client (``--hub``, ``--token``)
and storage (``--data-dir``, ``--database``, ``--blobs``) options, and how output is printed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from provcat.hub.client import RegistryClient
from provcat.hub.errors import HubError
from provcat.hub.settings import HubSettings, default_data_dir
from provcat.hub.tokens import token_problem
from provcat.hub.urls import check_base_url

__all__ = [
    "DEFAULT_HUB",
    "client_options",
    "data_dir_or_default",
    "emit",
    "open_client",
    "open_tool_storage",
    "storage_options",
]

F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_HUB = "http://127.0.0.1:8080"
# what a hub URL holding a credential is told on the command line
CREDENTIALS_HINT = "; give the token with --token or PROVCAT_HUB_TOKEN"


def emit(fmt: str, data: Any, text: str) -> None:
    click.echo(json.dumps(data, sort_keys=True, indent=2) if fmt == "json" else text)


def _checked_token(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A token that can go into an HTTP header, or a usage error (that never repeats it)."""
    if value and (problem := token_problem(value)):
        raise click.BadParameter(problem, ctx, param_hint="'--token' / PROVCAT_HUB_TOKEN")
    return value


def _checked_hub(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A hub URL the client takes, or a usage error (exit 2, as any refused command line) with
    the client's own message: it repeats the URL only when it is a plain host written without
    its scheme (`did you mean http://...?`), never one that may hold a password."""
    try:
        check_base_url(value.rstrip("/"), credentials_hint=CREDENTIALS_HINT)
    except HubError as error:
        raise click.BadParameter(
            error.message, ctx, param_hint="'--hub' / PROVCAT_HUB_URL"
        ) from None
    return value


def client_options(fn: F) -> F:
    fn = click.option(
        "--token",
        envvar="PROVCAT_HUB_TOKEN",
        default=None,
        show_envvar=True,
        callback=_checked_token,
        help="Bearer token (prefer the environment variable: it stays out of shell history).",
    )(fn)
    fn = click.option(
        "--hub",
        "hub_url",
        envvar="PROVCAT_HUB_URL",
        default=DEFAULT_HUB,
        show_default=True,
        show_envvar=True,
        callback=_checked_hub,
        help="Base URL of the hub or static mirror.",
    )(fn)
    return fn


def storage_options(fn: F) -> F:
    fn = click.option(
        "--blobs",
        envvar="PROVCAT_HUB_BLOBS",
        default=None,
        show_envvar=True,
        help="Blob store: a directory (default: the data dir) or s3://bucket/prefix.",
    )(fn)
    fn = click.option(
        "--database",
        envvar="PROVCAT_HUB_DATABASE",
        default=None,
        show_envvar=True,
        help="SQLAlchemy URL (default: SQLite in the data dir), e.g. postgresql+psycopg://...",
    )(fn)
    fn = click.option(
        "--data-dir",
        envvar="PROVCAT_HUB_DATA_DIR",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        show_envvar=True,
        help="Local state: SQLite database, blobs and upload temp files "
        "[default: $XDG_DATA_HOME/provcat/hub, else ~/.local/share/provcat/hub].",
    )(fn)
    return fn


def open_client(hub_url: str, token: str | None, store: Path | None = None) -> Any:
    return RegistryClient(hub_url, token, store=store)


def data_dir_or_default(data_dir: Path | None) -> Path:
    return data_dir if data_dir is not None else default_data_dir()


def open_tool_storage(data_dir: Path | None, database: str | None, blobs: str | None) -> Any:
    """For the tools (token, export-static): migrate, but never clean what a live server uses."""
    from provcat.hub.storage import open_storage  # sqlalchemy (the hub extra), on use

    settings = HubSettings(
        data_dir=data_dir_or_default(data_dir), database_url=database, blobs_url=blobs
    )
    return settings, open_storage(settings, housekeeping=False)
