"""What `provcat models`, `provcat models show` and `provcat cost` share: the PROVIDER MODEL
arguments, `--as-of`, how an error is said, and how money is printed."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import NoReturn

import click

from provcat.cli.failures import (
    UNKNOWN_PROVIDER,
    CommandError,
    key_refused,
    looks_like_a_key,
    unknown_provider,
)
from provcat.errors import ModelNotFound, ProviderCatalogError
from provcat.models.inventory import list_models, lookup_model

__all__ = ["AS_OF", "ProviderModel", "as_of_day", "fail", "money"]

AS_OF = click.option(
    "--as-of",
    "as_of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Judge the lifecycle and pick the prices in force on this day, YYYY-MM-DD "
    "[default: today].",
)


def as_of_day(value: datetime | None) -> date:
    return value.date() if value is not None else date.today()


def fail(
    exc: Exception, provider: str | None = None, model: str | None = None, hint: str = ""
) -> NoReturn:
    """``exc`` as the command's error (exit 1): ``Error: Name: message`` on stderr, or with
    ``--format json`` the JSON object (:mod:`provcat.cli.failures`), with ``hint`` (what to do)
    after the message. An unknown ``provider``, which the inventory says with ModelNotFound, is
    said as every command says it, or as arguments swapped when ``model`` is a provider and
    ``provider`` a model."""
    code, message = type(exc).__name__, str(exc)
    if isinstance(exc, ModelNotFound) and provider is not None:
        unknown = unknown_provider(provider)
        if unknown is not None:
            code, message = UNKNOWN_PROVIDER, _swapped(provider, model) or unknown
    message += hint
    raise CommandError(code, message, text=f"{code}: {message}")


def _swapped(provider: str, model: str | None) -> str | None:
    """What to say of an unknown ``provider`` that is a model when ``model`` is a provider
    (``provcat cost gpt-5-mini openai``): the arguments are the wrong way round. None otherwise."""
    if not model or unknown_provider(model) is not None:
        return None
    try:
        own = lookup_model(model, provider)  # PROVIDER as a model of MODEL, the provider
        owners = [] if own is not None else sorted({m.provider for m in list_models()})
    except ProviderCatalogError:  # MODEL names a provider without inventory, or there is none
        own, owners = None, []
    if own is not None:
        whose, meant = f"one of {model}'s models", model
    else:  # a model of another provider: its own is the one to name
        found = [key for key in owners if lookup_model(key, provider) is not None]
        if not found:
            return None
        whose, meant = f"a model of {', '.join(found)}", found[0]
    command = click.get_current_context().command_path
    return (
        f"unknown provider {provider!r}: the arguments look swapped, {model!r} is a provider and "
        f"{provider!r} {whose}; write PROVIDER, then MODEL: `{command} {meant} {provider}`"
    )


class ProviderModel(click.Command):
    """A command of PROVIDER MODEL: one argument that holds both (`openai/gpt-5-mini`, the
    spelling of `provcat model`) is answered with how to write them."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.MissingParameter as exc:
            given = ctx.params.get("provider")
            if exc.param is None or exc.param.name != "model" or not isinstance(given, str):
                raise
            head, slash, tail = given.strip().partition("/")
            if not slash:
                raise
            if looks_like_a_key(tail):  # what matters more: a key pasted as the model
                raise click.UsageError(key_refused(given, head), ctx) from None
            example = f"{head} {tail}" if head and tail else "openai gpt-5-mini"
            raise click.UsageError(
                f"Missing argument 'MODEL': {given!r} is PROVIDER/MODEL in one argument; write "
                f"PROVIDER MODEL, two arguments: `{ctx.command_path} {example}`",
                ctx,
            ) from None


def money(amount: object) -> str:
    """A price or a cost for people, never rounded: every significant digit, at least cents and
    thousands grouped (a batch price derived from a discount, 0.75 x 0.50, is 0.375, not 0.3750)."""
    text = format(Decimal(str(amount)).normalize(), "f")
    whole, _, cents = text.partition(".")
    return f"{int(whole):,}.{cents.ljust(2, '0')}"  # thousands grouped, as the counts are
