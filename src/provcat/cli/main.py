"""The `provcat` command: a group whose commands live in their own modules, each imported when it
is used (so `provcat cost` never pays for the endpoint classes and pydantic, nor `provcat
providers` for the hub's web stack, and a missing optional dependency is named). The group also
answers every command's errors under `--format json` (:mod:`provcat.cli.failures`)."""

from __future__ import annotations

import errno
import importlib
import io
import os
import sys
from typing import Any, NoReturn

import click

from provcat.catalog.keys import closest
from provcat.cli.extras import missing_dependency
from provcat.cli.failures import (
    ARGS,
    MISSING_DEPENDENCY,
    CommandError,
    answer,
    for_terminal,
    hide_secrets,
)

# the optional extra a command's own dependencies come from (the others need only the core); a
# hub command that meets a missing one while it runs is answered by provcat.cli.hub_errors
_EXTRA = {"hub": "hub"}

# name -> ("module:attribute" of a click command or group, its summary): `provcat --help` lists
# the summaries without importing any command (tests/test_cli_voice.py holds each to its
# command's own help)
_COMMANDS: dict[str, tuple[str, str]] = {
    "cost": (
        "provcat.cli.cost:cost",
        "The cost in USD of one request to MODEL of PROVIDER, from the catalog's prices: tokens, "
        "then each fee (per request, per billed tool call) on its own line.",
    ),
    "hub": ("provcat.cli.hub:hub", "The adapter hub: registry protocol v1 server and client."),
    "model": (
        "provcat.cli.catalog:model",
        "Parse a model SPEC (provider/model-effort or an alias) and show the kwargs a caller "
        "passes.",
    ),
    "models": (
        "provcat.cli.models:models",
        "Models in the catalog: lifecycle, limits, capabilities and prices (USD per 1M tokens).",
    ),
    "providers": (
        "provcat.cli.catalog:providers",
        "Every provider in the catalog: availability, aliases and endpoints.",
    ),
    "resolve": (
        "provcat.cli.catalog:resolve",
        "Resolve PROVIDER [ENDPOINT] as match_endpoint would, and show the endpoint's "
        "configuration.",
    ),
    "tool": ("provcat.cli.tool:tool", "Check and compile tool schemas for each provider's target."),
}


def _missing(command: str, exc: ModuleNotFoundError) -> click.ClickException:
    """The error for a command whose optional dependency is not installed: which extra to add."""
    extra = _EXTRA.get(command)
    return CommandError(
        MISSING_DEPENDENCY,
        missing_dependency(command, exc.name, extra),
        extra={"details": {"module": exc.name, "extra": extra}},
    )


def _whole_writes() -> Any:
    """Under `python -u` (PYTHONUNBUFFERED) stdout's text layer writes straight to the file, and
    a write that a pipe's reader cut short (`| head -1`) passes for a whole one: the command then
    exited 0 or 1 by timing. A buffered writer writes the rest or raises BrokenPipeError. Every
    line is still written when it is said (click.echo flushes). Returns the stdout to put back
    (the command line may run inside another program)."""
    out = sys.stdout
    if isinstance(out, io.TextIOWrapper) and isinstance(out.buffer, io.RawIOBase):
        # a stream of its own on the same file descriptor, which it never closes
        stream = open(out.fileno(), "w", encoding=out.encoding, errors=out.errors, closefd=False)  # noqa: SIM115
        stream.reconfigure(line_buffering=out.line_buffering, write_through=True)
        sys.stdout = stream
    return out


def _flush_or_quit() -> None:
    """Flush stdout while the command can still say how it ended: when its reader is gone, exit 1
    without a word, as Python's note on SIGPIPE advises (https://docs.python.org/3/library/
    signal.html#note-on-sigpipe), not "Exception ignored" and status 120 at shutdown; when the
    output cannot be written (a full disk), exit 1 saying so, once."""
    if sys.stdout is None:  # started with stdout closed: nothing was written
        return
    try:
        sys.stdout.flush()
    except OSError as exc:
        _unwritable(exc)


def _unwritable(exc: OSError) -> NoReturn:
    """Exit 1: silently when stdout's reader is gone, else saying why stdout took no more."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # the flush at shutdown writes nowhere
    os.close(devnull)
    if not isinstance(exc, BrokenPipeError):
        click.echo(f"provcat: the output could not be written: {exc.strerror}", err=True)
    raise SystemExit(1) from None


class _LazyGroup(click.Group):
    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line. A reader of stdout that leaves early (`provcat models | head
        -1`) ends the command with status 1 and nothing said (click's answer to a broken pipe),
        however far the output had got."""
        given = _whole_writes()
        try:
            return super().main(*args, **kwargs)
        except OSError as exc:
            if exc.filename is None and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
                _unwritable(exc)  # stdout is full (`> /dev/full`): no traceback
            raise
        finally:
            try:
                _flush_or_quit()  # the stream of _whole_writes included
            finally:
                sys.stdout = given

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *_COMMANDS])

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of `provcat --help`, from the summaries (no command imported)."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        # shortened as click shortens a command's own help
        rows = [
            (n, click.Command(n, help=_COMMANDS[n][1]).get_short_help_str(limit)) for n in names
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """click suggests only among registered commands, and these are imported on use: an
        unknown name is answered here, with the closest command."""
        name, known = (args[0] if args else ""), self.list_commands(ctx)
        if name and not name.startswith("-") and name not in known:
            close = closest(name, known)
            ctx.fail(f"No such command {name!r}." + (f" Did you mean {close!r}?" if close else ""))
        return super().resolve_command(ctx, args)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Keep the command line, whose `--format` says how an error met before that option has
        a value is said; `provcat --bogus --format json` is one."""
        ctx.meta[ARGS] = list(args)
        try:
            return super().parse_args(ctx, args)
        except click.ClickException as exc:
            hide_secrets(exc)
            answer(exc, ctx)
            for_terminal(exc)
            raise

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; Ctrl-C ends it with the status a shell gives an interrupted command,
        130 (click's own answer is `Aborted!` and 1). With `--format json` an error (a usage
        error click raises while parsing the command's line included) is one JSON object on
        stdout (:func:`provcat.cli.failures.answer`); otherwise it is said as click says it."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\nprovcat: interrupted", err=True)
            sys.exit(130)
        except Exception as exc:
            hide_secrets(exc)
            answer(exc, ctx)
            for_terminal(exc)
            raise

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in _COMMANDS:
            module_name, _, attr = _COMMANDS[cmd_name][0].partition(":")
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                if exc.name and exc.name.startswith("provcat"):
                    return None
                raise _missing(cmd_name, exc) from exc
            command: Any = getattr(module, attr)
            return command  # type: ignore[no-any-return]
        return super().get_command(ctx, cmd_name)


@click.group(cls=_LazyGroup)
@click.version_option(package_name="provcat")
def main() -> None:
    """provcat: the validated catalog of LLM provider adapters."""
