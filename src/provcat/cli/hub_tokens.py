"""``provcat hub token``: create, list and revoke bearer tokens (stored hashed in the hub's
database; a token is shown once, a secret never printed again)."""

from __future__ import annotations

from pathlib import Path

import click

from provcat.cli.choice import FORMAT_OPTION
from provcat.cli.hub_errors import TOKEN_NOT_FOUND, fail, fail_with
from provcat.cli.hub_options import emit, open_tool_storage, storage_options
from provcat.cli.table import table
from provcat.hub.errors import HubError
from provcat.hub.ref import check_slug
from provcat.hub.tokens import ADMIN, TOKEN_ID, split_token
from provcat.terminal import printable

__all__ = ["token"]


@click.group()
def token() -> None:
    """Create, list and revoke bearer tokens (stored hashed in the hub's database)."""


@token.command("create")
@storage_options
@click.option(
    "--namespace",
    "namespaces",
    multiple=True,
    help="Namespace the token may write (repeat it for several).",
)
@click.option("--admin", is_flag=True, help="A token for every namespace.")
@click.option("--description", default="", help="A note to recognise the token by.")
@FORMAT_OPTION
def token_create(
    data_dir: Path | None,
    database: str | None,
    blobs: str | None,
    namespaces: tuple[str, ...],
    admin: bool,
    description: str,
    fmt: str,
) -> None:
    """Create a token and print it once (it cannot be shown again)."""
    if not namespaces and not admin:
        raise click.UsageError("give --namespace NAME (repeatable) or --admin")
    if namespaces and admin:  # an admin token covers every namespace: one of them was a slip
        raise click.UsageError(
            "give --namespace NAME (a token for those namespaces) or --admin (a token for "
            "every namespace), not both"
        )
    for ns in namespaces:  # refused on the command line, as a REF's namespace is (exit 2)
        try:
            check_slug(ns, "namespace")
        except HubError as error:
            raise click.BadParameter(
                f"{error.message}, not {ns!r}", param_hint="'--namespace'"
            ) from None
    try:
        _, storage = open_tool_storage(data_dir, database, blobs)
        scope = [ADMIN] if admin else sorted(set(namespaces))
        created = storage.create_token(scope, description)
        storage.close()
    except HubError as error:
        fail(error)
    emit(
        fmt,
        {"token": created.text, "token_id": created.token_id, "namespaces": scope},
        created.text,
    )
    click.echo(
        f"token {created.token_id} for {', '.join(scope)}: store it now, it is not shown again",
        err=True,
    )


@token.command("list")
@storage_options
@FORMAT_OPTION
def token_list(data_dir: Path | None, database: str | None, blobs: str | None, fmt: str) -> None:
    """List tokens (ids and scopes only)."""
    try:
        _, storage = open_tool_storage(data_dir, database, blobs)
        records = storage.list_tokens()
        storage.close()
    except HubError as error:
        fail(error)
    rows = [
        {
            "token_id": r.token_id,
            "namespaces": list(r.namespaces),
            "description": r.description,
            "created_at": r.created_at,
            "revoked_at": r.revoked_at,
        }
        for r in records
    ]
    text = table(
        ["ID", "NAMESPACES", "STATE", "CREATED", "DESCRIPTION"],
        [
            [
                r["token_id"],
                ", ".join(r["namespaces"]),
                "revoked" if r["revoked_at"] else "active",
                str(r["created_at"]),
                printable(r["description"] or "-"),
            ]
            for r in rows
        ],
        wrap=(4, 1),
    )
    emit(fmt, {"tokens": rows}, text if rows else "no tokens")


@token.command("revoke")
@storage_options
@click.argument("token_id")
@FORMAT_OPTION
def token_revoke(
    data_dir: Path | None, database: str | None, blobs: str | None, token_id: str, fmt: str
) -> None:
    """Revoke a token by its id (as `token list` shows it) or by the whole token."""
    whole = split_token(token_id)
    if whole is not None:  # the whole token was pasted: revoke it by its id, never echo it
        token_id = whole[0]
    elif not TOKEN_ID.fullmatch(token_id):
        raise click.BadParameter(
            "give a token id, 12 hex digits (the first column of `provcat hub token list`), "
            "or the whole token",
            param_hint="TOKEN_ID",
        )  # the text is not echoed: it may be a mistyped secret
    try:
        _, storage = open_tool_storage(data_dir, database, blobs)
        found = storage.find_token(token_id)
        if whole is not None and found is not None and not found.matches(whole[1]):
            storage.close()  # a whole token revokes only itself, never another of its id
            fail_with(
                TOKEN_NOT_FOUND,
                # "the token <id>" would be eaten whole by the hiding of secrets (a word of 8
                # or more characters after "token" is taken for one): "the one with id <id>"
                f"the token given is not the one with id {token_id}: its secret does not "
                f"match; give the id alone to revoke that one",
                {"token_id": token_id},
            )
        revoked = storage.revoke_token(token_id)
        # as `rm` of a version already deleted: an already revoked token says so and exits 0
        known = revoked or found is not None
        storage.close()
    except HubError as error:
        fail(error)
    if not known:
        fail_with(
            TOKEN_NOT_FOUND,
            f"no token has the id {token_id}; `provcat hub token list` shows the ids",
            {"token_id": token_id},
        )
    emit(
        fmt,
        {"token_id": token_id, "revoked": revoked},
        f"revoked {token_id}" if revoked else f"token {token_id} was already revoked",
    )
