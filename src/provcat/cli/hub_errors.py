"""How ``provcat hub`` commands fail: ``provcat hub: Code: message`` on stderr for people; with
``--format json``, one JSON object on stdout, where the command's JSON goes, for machines:

    {"error": "AdapterNotFoundError", "message": "no adapter hub://acme/x:1.0.0", "details": {}}

``error`` is a stable code: a hub error's wire name (the protocol's, e.g. ``AdapterNotFoundError``
or ``RegistryUnavailableError``: exit 1), ``UsageError`` for a command line that is refused
(exit 2), ``TokenNotFoundError`` (exit 1), ``LocalFileError`` for a local file or directory that
cannot be read or written (exit 1), ``MissingDependencyError`` when the ``hub`` extra is not
installed (exit 1), ``InternalError`` for anything unexpected (exit 1). The
token and URL passwords never appear in a message.
"""

from __future__ import annotations

import errno
import io
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from provcat.cli.extras import missing_dependency
from provcat.cli.failures import (
    ARGS,
    INTERNAL_ERROR,
    MISSING_DEPENDENCY,
    USAGE_ERROR,
    hide_secrets,
    json_wanted,
    usage_message,
)
from provcat.hub.errors import HubError
from provcat.redact import secret_shapes_hidden, without_secrets
from provcat.terminal import printable

__all__ = [
    "LOCAL_FILE_ERROR",
    "TOKEN_NOT_FOUND",
    "HubGroup",
    "fail",
    "fail_with",
]

TOKEN_NOT_FOUND = "TokenNotFoundError"
LOCAL_FILE_ERROR = "LocalFileError"


def _token_values(args: Sequence[str]) -> set[str]:
    """The values of ``--token`` on the command line (parsed or not)."""
    values = set()
    for i, item in enumerate(args):
        if item == "--token" and i + 1 < len(args):
            values.add(args[i + 1])
        elif item.startswith("--token="):
            values.add(item.partition("=")[2])
    return values


def _redact(text: str, ctx: click.Context | None) -> str:
    """Without the token (given by option or environment, or anything shaped like a hub token,
    such as one pasted where a REF goes) and without URL passwords."""
    secrets = {os.environ.get("PROVCAT_HUB_TOKEN") or ""}
    if ctx is not None:
        secrets |= _token_values(ctx.find_root().meta.get(ARGS, ()))
    while ctx is not None:
        token = ctx.params.get("token")
        if isinstance(token, str):
            secrets.add(token)
        ctx = ctx.parent
    given = sorted((s for s in secrets if len(s) >= 6), key=len, reverse=True)
    text = without_secrets(text, given, label="<redacted>")  # a cut-off token too
    return secret_shapes_hidden(text)  # hub tokens, API keys, URL passwords


def fail_with(
    code: str, message: str, details: dict[str, Any] | None = None, *, exit_code: int = 1
) -> NoReturn:
    """Print an error the way the current command's ``--format`` asks, and exit."""
    ctx = click.get_current_context(silent=True)
    message = _redact(message, ctx)
    if json_wanted(ctx):
        body = {"error": code, "message": message, "details": details or {}}
        text = _redact(json.dumps(body, sort_keys=True, indent=2, ensure_ascii=False), ctx)
        click.echo(text)
    else:  # a message may quote a hub's text: its control characters are shown escaped
        click.echo(f"provcat hub: {code}: {printable(message)}", err=True)
    sys.exit(exit_code)


def fail(error: HubError) -> NoReturn:
    message = error.message
    if error.wire_name == "AuthenticationError":
        message = _token_hint(click.get_current_context(silent=True))
    fail_with(error.wire_name, message, error.details)


def _token_hint(ctx: click.Context | None) -> str:
    """What a refused token means on the command line (the server speaks HTTP headers)."""
    given = False
    while ctx is not None:
        given = given or bool(ctx.params.get("token"))
        ctx = ctx.parent
    make = "`provcat hub token create --namespace NAMESPACE`, run where the hub's data is"
    if given:
        return (
            "the hub refused the token (from --token or PROVCAT_HUB_TOKEN): it is invalid or "
            f"revoked; set PROVCAT_HUB_TOKEN (or --token) to an active one, made with {make}"
        )
    return f"this needs a token: set PROVCAT_HUB_TOKEN or pass --token; make one with {make}"


def _show_redacted(exc: click.ClickException, ctx: click.Context) -> NoReturn:
    """Click's own usage text, as ``exc.show`` prints it, without secrets; then exit."""
    shown = io.StringIO()
    exc.show(file=shown)
    click.echo(_redact(shown.getvalue(), ctx), err=True, nl=False)
    sys.exit(exc.exit_code)


_LOCAL_HINTS = {
    errno.ENOTDIR: "a part of the path is a file, not a directory: give another path",
    errno.EISDIR: "it is a directory: give a file's path",
    errno.EEXIST: "a file is in the way: give another path, or move that file",
    # the system's own text already says "Directory not empty": only what to do is added
    errno.ENOTEMPTY: "give a new or empty directory, or move its files away",
    errno.ENOENT: "check the path",
    errno.EACCES: "check its permissions",
    errno.EPERM: "check its permissions",
    errno.ENOSPC: "free some space",
    errno.EROFS: "give a path on a writable file system",
}


def _local_file_message(exc: OSError) -> str:
    """What went wrong with a local path, and what to do."""
    what = exc.strerror or type(exc).__name__
    # a path shaped like a key (one pasted where a path goes) is not repeated
    where = f": {secret_shapes_hidden(str(exc.filename))}" if exc.filename else ""
    hint = _LOCAL_HINTS.get(exc.errno or 0, "check the path and its permissions")
    return f"{what}{where}; {hint}"


class HubGroup(click.Group):
    """A command group whose commands' errors follow ``--format`` (see the module docstring).

    Usage errors (click's own, raised while parsing, and the commands') and unexpected failures
    are turned into the JSON object here when the command line asks for JSON; in text mode they
    stay click's usage text on stderr, redacted too (a token pasted where an argument goes is
    echoed by click), and a traceback for a bug. A local file error is ``LocalFileError`` in
    both modes.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.find_root().meta.setdefault(ARGS, list(args))  # when the hub group is the root
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            hide_secrets(exc)  # an API key pasted where a path or a value goes, as every command
            where = getattr(exc, "ctx", None) or ctx
            if not json_wanted(where) and not json_wanted(ctx):
                _show_redacted(exc, where)
            with where.scope(cleanup=False):
                if isinstance(exc, click.UsageError):
                    code, message = USAGE_ERROR, usage_message(exc)
                else:
                    code, message = INTERNAL_ERROR, exc.format_message()
                details = {"command": where.command_path}
                fail_with(code, message, details, exit_code=exc.exit_code)
        except HubError as exc:  # one a command did not catch itself
            with ctx.scope(cleanup=False):
                fail(exc)
        except ModuleNotFoundError as exc:  # an optional dependency (the hub extra) is missing
            if exc.name is None or exc.name.split(".")[0] == "provcat":
                raise
            with ctx.scope(cleanup=False):
                fail_with(
                    MISSING_DEPENDENCY,
                    missing_dependency("hub", exc.name, "hub"),
                    {"module": exc.name, "extra": "hub"},
                )
        except OSError as exc:  # a local file or directory (store, payload, data dir, output)
            if exc.errno == errno.EPIPE:  # stdout's reader is gone: click exits quietly
                raise
            fail_with(LOCAL_FILE_ERROR, _local_file_message(exc), {"errno": exc.errno})
        except Exception as exc:
            if isinstance(exc, click.exceptions.Exit) or not json_wanted(ctx):
                raise
            fail_with(
                INTERNAL_ERROR,
                f"unexpected error ({type(exc).__name__}); run without --format json for the "
                "traceback, and please report it",
            )
