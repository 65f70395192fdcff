"""How every ``provcat`` command fails (the contract for users: the README, "Errors on the
command line").

Without ``--format json`` errors are text on stderr, as click prints them (its usage text, or
``Error: ...``). With ``--format json`` each error is one JSON object on stdout and nothing else
is printed there:

    {"error": "EndpointNotFound", "message": "openai has no endpoint 'chta' (...)"}

``error`` is a stable code (the name of the error, as the catalog's exceptions, the hub protocol
and the generator name theirs), ``message`` the text a person reads, saying what to do; a command
may add keys (``details``; the tool commands' SchemaPort keys). Exit status: 1 when what was
asked for failed or is not there, 2 for a usage error (``UsageError``).

The main group (:mod:`provcat.cli.main`) answers for every command: click's own usage errors
(raised while parsing, before ``--format`` has a value, so the command line itself is read for
it), a :class:`CommandError` a command raises, and, in JSON only, an unexpected failure.
"""

from __future__ import annotations

import errno
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

import click

from provcat.redact import secret_shapes_hidden
from provcat.terminal import printable

__all__ = [
    "ARGS",
    "INTERNAL_ERROR",
    "MISSING_DEPENDENCY",
    "UNKNOWN_PROVIDER",
    "USAGE_ERROR",
    "CommandError",
    "answer",
    "for_terminal",
    "hide_secrets",
    "json_requested",
    "json_wanted",
    "key_home",
    "key_refused",
    "looks_like_a_key",
    "not_a_key",
    "providers_hint",
    "unknown_provider",
    "usage_message",
]

ARGS = "provcat.args"  # ctx.meta key of the root context: the command line after `provcat`

USAGE_ERROR = "UsageError"
INTERNAL_ERROR = "InternalError"
MISSING_DEPENDENCY = "MissingDependencyError"
# a provider the catalog does not know, whichever command is told it: what the runtime raises for
# one (match_endpoint, model_kwargs); the inventory's lookups raise ModelNotFound for it instead
UNKNOWN_PROVIDER = "EndpointNotFound"


class CommandError(click.ClickException):
    """A failure with a stable ``code``: ``Error: <text>`` on stderr for people (``text``, default
    ``message``), ``{"error": code, "message": message, **extra}`` on stdout with
    ``--format json``; exit status 1 either way."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        text: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message if text is None else text)
        self.code = code
        self.json_message = message
        self.extra = dict(extra or {})
        # the command's context, whose --format decides how this is said
        self.ctx = click.get_current_context(silent=True)


def hide_secrets(exc: BaseException) -> None:
    """Take anything shaped like a key or a hub token out of a click error's message (an API key
    pasted where a provider name goes is repeated by "No such command ..."), for text and JSON
    alike."""
    if isinstance(exc, click.ClickException):
        # click declares `message` final; it is the plain attribute its `show` prints
        setattr(exc, "message", secret_shapes_hidden(exc.message))  # noqa: B010
        if isinstance(exc, CommandError):
            exc.json_message = secret_shapes_hidden(exc.json_message)


def for_terminal(exc: BaseException) -> None:
    """Show a click error's control characters as escapes (``\\x1b``) in the text click prints
    next: a value quoted from the command line or a file may not recolour the terminal, move its
    cursor or overwrite a line. Line breaks and tabs stay (a message may have several lines).
    Called once a JSON answer was ruled out: JSON keeps the values as they are."""
    if isinstance(exc, click.ClickException):
        setattr(exc, "message", printable(exc.message, keep="\n\t"))  # noqa: B010


def json_requested(args: Sequence[str]) -> bool:
    """Whether the command line asks for ``--format json`` (``--format json`` or
    ``--format=json``, before or after anything else; the last ``--format`` wins, as in click;
    nothing after ``--``). Read for an error raised while the line is parsed, before the option
    has a value."""
    fmt = None
    items = list(args)
    for i, item in enumerate(items):
        if item == "--":
            break
        if item == "--format" and i + 1 < len(items):
            fmt = items[i + 1]
        elif item.startswith("--format="):
            fmt = item.partition("=")[2]
    return fmt == "json"


def json_wanted(ctx: click.Context | None) -> bool:
    """Whether errors in ``ctx`` are said in JSON: its parsed ``--format`` when it has one, else
    the command line's."""
    if ctx is None:
        return False
    args = ctx.find_root().meta.get(ARGS, ())
    fmt = ctx.params.get("fmt")
    given = ctx.get_parameter_source("fmt") not in (None, click.core.ParameterSource.DEFAULT)
    # after `--` every word is an argument; but a group that finds no command named by one
    # (`provcat models -- --format json`) parses the words again as options for its error, so
    # its parsed --format may come from after `--`: there the command line decides
    if fmt is not None and given and "--" not in args:
        return bool(fmt == "json")
    # not given to this command (a group's own default, say): the command line decides
    return json_requested(args)


def providers_hint(message: str) -> str:
    """``message`` (one saying a provider is unknown) with where to look."""
    end = " " if message.endswith(("?", ".")) else "; "
    return f"{message}{end}`provcat providers` lists every provider with its aliases"


def unknown_provider(provider: str) -> str | None:
    """What every command says of a provider the catalog does not know, with the code
    :data:`UNKNOWN_PROVIDER`: the registry's words (the closest spelling and every provider, as
    `provcat resolve` says them) and where to look; for an empty ``provider``, that it is empty.
    None when the catalog knows ``provider``."""
    # imported here: only this error's path reads the registry (`provcat cost` never pays for it)
    from provcat.catalog.keys import canonical_provider_key
    from provcat.catalog.publish import current
    from provcat.endpoints.resolution import lookup
    from provcat.errors import EndpointNotFound, ProviderCatalogError

    try:
        if not canonical_provider_key(provider):
            return "the provider is empty: name one (`provcat providers` lists them)"
        snapshot = current()
        if canonical_provider_key(provider) in snapshot.provider_index:
            return None
        lookup(snapshot, provider, "", compatible=False)
    except EndpointNotFound as exc:
        return providers_hint(str(exc))
    except ProviderCatalogError:  # an invalid catalog: the command's own error says it
        return None
    return None


def looks_like_a_key(value: str) -> bool:
    """Whether ``value`` holds something shaped like an API key or a hub token."""
    return secret_shapes_hidden(value) != value


def key_home(provider: str | None) -> str:
    """Where an API key goes instead of the command line: the environment variable the catalog
    reads ``provider``'s key from, as `provcat resolve` names it (its ``api_key_env``)."""
    # imported here: only this error's path reads the registry
    from provcat.catalog.keys import canonical_provider_key
    from provcat.catalog.publish import current
    from provcat.errors import ProviderCatalogError

    anywhere = (
        "an API key goes in its provider's environment variable (`provcat resolve PROVIDER "
        "ENDPOINT` names it, as api_key_env), never on the command line"
    )
    if not provider:
        return anywhere
    try:
        snapshot = current()
        key = snapshot.provider_index.get(canonical_provider_key(provider))
        specs = snapshot.providers[key].endpoints.values() if key is not None else ()
    except (ProviderCatalogError, KeyError):
        return anywhere
    # the chat endpoint's, where it has one (every endpoint of a provider reads the same key)
    named = sorted(
        (s for s in specs if s.api_key_env), key=lambda s: (not s.key.startswith("chat"), s.key)
    )
    if not named:
        return anywhere
    spec = named[0]
    return (
        f"{spec.provider}'s API key goes in the environment variable {spec.api_key_env} "
        f"(`provcat resolve {spec.provider} {spec.key}` names it, as api_key_env), never on the "
        "command line"
    )


def key_refused(value: str, provider: str | None) -> str:
    """What is said of ``value``, a model shaped like an API key (never repeated): where the
    key of ``provider`` goes instead."""
    if provider is not None and looks_like_a_key(provider):
        provider = None
    return f"{secret_shapes_hidden(value)!r} looks like an API key, not a model; " + key_home(
        provider
    )


def not_a_key(
    provider_param: str | None = "provider", *, spec: bool = False
) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """The callback of a parameter that takes a model: a value shaped like an API key (a key
    pasted where the model goes) is refused as a usage error before anything runs, saying where
    the key goes, and never repeated. The provider is the parameter ``provider_param``'s value,
    or with ``spec`` the value's own ``provider/`` part."""

    def check(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if not isinstance(value, str) or not looks_like_a_key(value):
            return value
        if spec:
            head, slash, _ = value.strip().partition("/")
            provider = head if slash else None
        else:
            given = ctx.params.get(provider_param) if provider_param else None
            provider = given if isinstance(given, str) else None
        raise click.BadParameter(key_refused(value, provider), ctx, param)

    return check


def usage_message(exc: click.UsageError) -> str:
    """click's words for a refused command line, and where to look (as click's text says it)."""
    message = exc.format_message()
    ctx = exc.ctx
    if ctx is not None and ctx.command.get_help_option(ctx) is not None:
        option = max(ctx.command.get_help_option_names(ctx), key=len)
        end = "" if message.endswith((".", "?", "!")) else "."
        message += f"{end} Try '{ctx.command_path} {option}' for help."
    return message


def error_json(code: str, message: str, extra: dict[str, Any] | None = None) -> str:
    """The JSON object of one error (ASCII: a lone surrogate from an undecodable argument is
    written as its escape, never as a character stdout cannot encode)."""
    return json.dumps(
        {**(extra or {}), "error": code, "message": message}, indent=2, sort_keys=True
    )


def answer(exc: BaseException, ctx: click.Context) -> None:
    """Say ``exc`` (raised under ``ctx``) as the JSON object and exit, when the command line asks
    for JSON and ``exc`` is an error it covers; otherwise return (the caller re-raises, and click
    or Python says it as before)."""
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):  # the help, not an error
        return
    if isinstance(exc, click.ClickException):
        where = getattr(exc, "ctx", None) or ctx
        if not json_wanted(where):
            return
        if isinstance(exc, CommandError):
            body = error_json(exc.code, exc.json_message, exc.extra)
        elif isinstance(exc, click.UsageError):
            details = {"command": where.command_path}
            body = error_json(USAGE_ERROR, usage_message(exc), {"details": details})
        else:  # a click error no command of ours raises today: named by its class
            body = error_json(type(exc).__name__, exc.format_message())
        click.echo(body)
        sys.exit(exc.exit_code)
    if not isinstance(exc, Exception) or isinstance(exc, click.exceptions.Exit | click.Abort):
        return
    if isinstance(exc, OSError) and exc.errno == errno.EPIPE:  # stdout's reader is gone
        return
    if json_wanted(ctx):
        message = (
            f"unexpected error ({type(exc).__name__}); run the command without --format json "
            "for the traceback, and please report it"
        )
        click.echo(error_json(INTERNAL_ERROR, message))
        sys.exit(1)
