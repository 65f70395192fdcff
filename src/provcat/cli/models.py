"""`provcat models`, `provcat models show` and `provcat cost`: the inventory from the snapshot."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from typing import Any, NoReturn, TypeVar

import click
from click.core import ParameterSource

from provcat.cli.choice import FORMAT_OPTION, Choice
from provcat.cli.failures import (
    UNKNOWN_PROVIDER,
    CommandError,
    key_refused,
    looks_like_a_key,
    not_a_key,
    unknown_provider,
)
from provcat.cli.table import table
from provcat.errors import ModelNotFound, PricingUnavailable, ProviderCatalogError
from provcat.models.cost import estimate_cost
from provcat.models.inventory import (
    STATUSES,
    ModelInfo,
    find_model,
    list_models,
    lookup_model,
)

__all__ = ["cost", "models"]

_AS_OF = click.option(
    "--as-of",
    "as_of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Judge the lifecycle and pick the prices in force on this day, YYYY-MM-DD "
    "[default: today].",
)


def _day(value: datetime | None) -> date:
    return value.date() if value is not None else date.today()


def _fail(
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


class _ProviderModel(click.Command):
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


def _flag(value: bool | None) -> str:
    return "-" if value is None else ("yes" if value else "no")


def _num(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def money(amount: object) -> str:
    """A price or a cost for people, never rounded: every significant digit, at least cents and
    thousands grouped (a batch price derived from a discount, 0.75 x 0.50, is 0.375, not 0.3750)."""
    text = format(Decimal(str(amount)).normalize(), "f")
    whole, _, cents = text.partition(".")
    return f"{int(whole):,}.{cents.ljust(2, '0')}"  # thousands grouped, as the counts are


def _row(m: ModelInfo, day: date) -> list[str]:
    prices = m.prices_on(day)
    base = prices.base if prices is not None else None
    state = m.lifecycle(day)
    return [
        f"{m.provider}/{m.id}",
        f"{state} {m.shutdown_date}" if m.shutdown_date and state != "active" else state,
        _num(m.context_window),
        _num(m.max_output_tokens),
        money(base.input) if base is not None and base.input is not None else "-",
        money(base.output) if base is not None and base.output is not None else "-",
        m.successor or "-",
    ]


# the text table: the facts that fit a terminal's line; capabilities and every other fact are in
# `models show` and `--format json`
HEADER = ["MODEL", "STATUS", "CONTEXT", "MAX OUT", "IN $/M", "OUT $/M", "SUCCESSOR"]


@click.group(invoke_without_command=True)
@click.option("--provider", default=None, help="Only this provider's models (key or alias).")
@click.option("--status", type=Choice(STATUSES), default=None, help="Only models in this state.")
@click.option("--tool-call", is_flag=True, default=None, help="Only models with tool calling.")
@click.option("--reasoning", is_flag=True, default=None, help="Only reasoning models.")
@_AS_OF
@FORMAT_OPTION
@click.pass_context
def models(
    ctx: click.Context,
    provider: str | None,
    status: str | None,
    tool_call: bool | None,
    reasoning: bool | None,
    as_of: datetime | None,
    fmt: str,
) -> None:
    """Models in the catalog: lifecycle, limits, capabilities and prices (USD per 1M tokens)."""
    if ctx.invoked_subcommand is not None:  # `show` reads --as-of and --format from here too
        filters = [
            f"--{name.replace('_', '-')}"
            for name in ("provider", "status", "tool_call", "reasoning")
            if ctx.params[name] is not None
        ]
        if filters:
            raise click.UsageError(
                f"{', '.join(filters)} filter{'s' if len(filters) == 1 else ''} the list of "
                f"models; `models {ctx.invoked_subcommand}` takes PROVIDER MODEL: drop "
                f"{'it' if len(filters) == 1 else 'them'}, or run `provcat models` with "
                f"{'it' if len(filters) == 1 else 'them'} alone",
                ctx,
            )
        return

    day = _day(as_of)
    try:
        found = list_models(
            provider, status=status, tool_call=tool_call, reasoning=reasoning, as_of=day
        )
    except ProviderCatalogError as exc:
        _fail(exc, provider)
    if fmt == "json":
        click.echo(
            json.dumps(
                [{**m.as_dict(day), "lifecycle": m.lifecycle(day)} for m in found],
                indent=2,
                ensure_ascii=False,
            )
        )
        return
    # only a status wraps (at its space): a model id, here or as a successor, never splits
    click.echo(table(HEADER, [_row(m, day) for m in found], wrap=(1,)))
    if not found:  # say why the table is empty
        if provider is not None and not list_models(provider):
            why = f"{provider} has no model inventory in the catalog (see docs/models.md)"
        else:
            why = "no model matches these filters"
        click.echo(f"note: {why}", err=True)


def _from_group(ctx: click.Context, name: str, value: Any) -> Any:
    """``value`` of ``show``'s option ``name``, or, when it was not given there, the value of
    the same option written before ``show`` (`models --as-of 2027-01-01 show ...`)."""
    if ctx.get_parameter_source(name) is ParameterSource.DEFAULT and ctx.parent is not None:
        return ctx.parent.params.get(name, value)
    return value


@models.command(cls=_ProviderModel)
@click.argument("provider")
@click.argument("model", callback=not_a_key())
@_AS_OF
@FORMAT_OPTION
@click.pass_context
def show(ctx: click.Context, provider: str, model: str, as_of: datetime | None, fmt: str) -> None:
    """Every fact the catalog holds about MODEL of PROVIDER, and where it comes from."""
    as_of, fmt = _from_group(ctx, "as_of", as_of), _from_group(ctx, "fmt", fmt)
    day = _day(as_of)
    try:
        info = find_model(provider, model)
    except ProviderCatalogError as exc:
        _fail(exc, provider, model)
    data: dict[str, Any] = {**info.as_dict(day), "lifecycle": info.lifecycle(day)}
    if fmt == "json":
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    click.echo(f"{info.provider}/{info.id}" + (f" ({info.name})" if info.name else ""))
    state = data["lifecycle"]
    if state in ("deprecated", "retired"):
        when = f", shutdown {info.shutdown_date}" if info.shutdown_date else ""
        then = f"; successor: {info.successor}" if info.successor else ""
        click.echo(f"  {state.upper()} as of {day.isoformat()}{when}{then}")
    for key, value in data.items():
        if key in ("provider", "id", "name", "lifecycle") or value in (None, [], {}):
            continue
        if key in _PRICE_KEYS:
            for line in _PRICE_KEYS[key](value):
                click.echo(f"  {line}")
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            text = f"{value:,}"  # token counts, as the table prints them
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            text = ", ".join(value)  # names and addresses, as written
        elif isinstance(value, (dict, list)):
            text = json.dumps(value, ensure_ascii=False)
        else:
            text = value
        click.echo(f"  {key}: {text}")


# ---- prices for people: the JSON shape of ModelInfo.as_dict, one line per rate set


# the keys beside a price set's rates (a period's dates and note, the batch discount)
_NOT_RATES = frozenset({"from", "until", "note", "discount"})


def _rates(prices: dict[str, Any]) -> str:
    """``input 1.00, output 5.00, cache_read 0.05``: a price set's rates, in the data's order."""
    return ", ".join(
        f"{name} {money(rate)}"
        for name, rate in prices.items()
        if isinstance(rate, str) and name not in _NOT_RATES
    )


def _price_set(prices: dict[str, Any], indent: str = "    ") -> list[str]:
    """A model's prices: the base rates, each long-context tier, the batch rates, each fee."""
    base = _rates(prices)
    lines = [indent + base] if base else []
    for tier in prices.get("tiers", []):
        lines.append(f"{indent}above {tier['above_input_tokens']:,} input tokens: {_rates(tier)}")
    batch = prices.get("batch")
    if batch:
        off = f" ({float(batch['discount']):.0%} off)" if batch.get("discount") else ""
        rates = _rates(batch)
        lines += [f"{indent}batch{off}: {rates}"] if rates else []
        for tier in batch.get("tiers", []):
            above = f"above {tier['above_input_tokens']:,} input tokens"
            lines.append(f"{indent}batch, {above}: {_rates(tier)}")
    for fee in prices.get("fees", []):
        when = ", ".join(f"{k}={v}" for k, v in (fee.get("when") or {}).items())
        unit = fee["unit"].replace("_", " ")
        units = unit + ("es" if unit.endswith(("s", "h")) else "s")
        lines.append(
            f"{indent}fee: ${fee['price']} per {fee['per']:,} {units}"
            + (f" when {when}" if when else "")
            + (" (the default)" if fee.get("default") else "")
        )
    return lines


def _prices(value: dict[str, Any]) -> list[str]:
    return ["prices (USD per 1M tokens; fees as stated):", *_price_set(value)]


def _next_change(value: dict[str, Any]) -> list[str]:
    return [f"next price change on {value['on']}:", *_price_set(value["prices"])]


def _schedule(value: list[dict[str, Any]]) -> list[str]:
    lines = ["price schedule:"]
    for period in value:
        start, end = period.get("from"), period.get("until")
        span = " ".join(
            part
            for part in (f"from {start}" if start else "", f"until {end}" if end else "")
            if part
        )
        lines.append(f"  {span or 'always'}:")
        lines += _price_set(period, indent="      ")
        if period.get("note"):
            lines.append(f"      note: {period['note']}")
        if period.get("source"):
            lines.append(f"      sources: {', '.join(period['source'])}")
    return lines


_PRICE_KEYS: dict[str, Callable[[Any], list[str]]] = {
    "prices": _prices,
    "next_price_change": _next_change,
    "price_schedule": _schedule,
}


_F = TypeVar("_F", bound=Callable[..., Any])


def _part(flag: str, help: str) -> Callable[[_F], _F]:
    """An optional count of ``provcat cost``: a non-negative int, 0 unless given."""
    return click.option(flag, type=click.IntRange(min=0), default=0, show_default=True, help=help)


# the usage field each count of `provcat cost` fills, and its flag
_FLAGS = {
    "input_tokens": "--input",
    "output_tokens": "--output",
    "cache_read_tokens": "--cached",
    "cache_write_tokens": "--cache-write",
    "cache_write_1h_tokens": "--cache-write-1h",
    "input_audio_tokens": "--input-audio",
    "cache_audio_read_tokens": "--cached-audio",
    "output_audio_tokens": "--output-audio",
    "reasoning_tokens": "--reasoning",
    "citation_tokens": "--citation",
    "requests": "--requests",
    "web_searches": "--web-searches",
}
_FIELD = re.compile(r"\b(?:" + "|".join(_FLAGS) + r")\b")


@click.command(cls=_ProviderModel)
@click.argument("provider")
@click.argument("model", callback=not_a_key())
@click.option(
    "--input",
    "input_tokens",
    type=click.IntRange(min=0),
    required=True,
    help="Input tokens in all (cached ones included).",
)
@click.option(
    "--output",
    "output_tokens",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Output tokens in all (reasoning, citation and audio included); an embedding model "
    "has none.",
)
@_part("--cached", "Of the input, tokens read from the prompt cache.")
@_part("--cache-write", "Of the input, tokens written to the prompt cache.")
@_part(
    "--cache-write-1h",
    "Of the cache writes, tokens written for an hour (where the vendor prices them apart).",
)
@_part("--input-audio", "Of the input, audio tokens.")
@_part(
    "--cached-audio",
    "Of the audio input, tokens read from the prompt cache (counted in --cached too).",
)
@_part("--output-audio", "Of the output, audio tokens.")
@_part(
    "--reasoning",
    "Of the output, reasoning tokens (billed apart where the model prices reasoning).",
)
@_part(
    "--citation", "Of the output, citation tokens (billed apart where the model prices citations)."
)
@click.option("--batch", is_flag=True, help="Price at the vendor's batch rates.")
@click.option(
    "--requests",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Requests, for a model with a per-request fee.",
)
@_part("--web-searches", "Billed web-search tool calls, for a model with a per-search fee.")
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="A request option a fee depends on, e.g. search_context_size=high (repeatable).",
)
@_AS_OF
@FORMAT_OPTION
def cost(
    provider: str,
    model: str,
    input_tokens: int,
    output_tokens: int,
    cached: int,
    cache_write: int,
    cache_write_1h: int,
    input_audio: int,
    cached_audio: int,
    output_audio: int,
    reasoning: int,
    citation: int,
    batch: bool,
    requests: int,
    web_searches: int,
    options: tuple[str, ...],
    as_of: datetime | None,
    fmt: str,
) -> None:
    """The cost in USD of one request to MODEL of PROVIDER, from the catalog's prices: tokens,
    then each fee (per request, per billed tool call) on its own line."""
    counts = [input_tokens, output_tokens, cached, cache_write, cache_write_1h, input_audio]
    counts += [cached_audio, output_audio, reasoning, citation, requests, web_searches]
    usage = dict(zip(_FLAGS, counts, strict=True))  # in _FLAGS' order
    named: dict[str, str] = {}
    for text in options:
        name, sep, value = text.partition("=")
        if not sep or not name or not value:
            raise click.BadParameter(f"{text!r} is not NAME=VALUE", param_hint="--option")
        if named.get(name, value) != value:
            raise click.BadParameter(
                f"{name} is given twice, as {named[name]!r} and {value!r}: keep one",
                param_hint="--option",
            )
        named[name] = value
    try:
        result = estimate_cost(
            provider, model, usage, batch=batch, as_of=_day(as_of), options=named
        )
    except ValueError as exc:  # told in this command's words: the flags, not the usage fields
        said = _FIELD.sub(lambda m: _FLAGS[m.group(0)], str(exc)).removeprefix("usage ")
        _fail(ValueError(said))
    except PricingUnavailable as exc:
        # the runtime's words say what is missing; what to do is the command line's
        batchless = batch and "no batch prices" in str(exc)
        _fail(exc, provider, model, hint=_NO_BATCH if batchless else "")
    except ProviderCatalogError as exc:
        _fail(exc, provider, model)
    notes = [
        note
        for note in (
            _lifecycle_note(result.provider, result.model, _day(as_of)),
            _limits_note(result.provider, result.model, input_tokens, output_tokens),
        )
        if note is not None
    ]
    for note in notes:
        click.echo(f"note: {note}", err=True)
    data = result.as_dict()
    if fmt == "json":
        click.echo(json.dumps({**data, "notes": notes}, indent=2))
        return
    tier = f", long-context tier above {result.tier:,} input tokens" if result.tier else ""
    click.echo(
        f"{result.provider}/{result.model}{' (batch)' if batch else ''}{tier}, prices of "
        f"{data['as_of']}"
    )
    for part in ("input", "cache_read", "cache_write", "input_audio", "output", "reasoning",
                 "citation", "output_audio"):  # fmt: skip
        if getattr(result, part):
            click.echo(f"  {part:<13} ${money(data[part])}")
    for line in data["fees"]:
        unit = line["unit"].replace("_", " ")
        units = f"{unit}es" if unit.endswith(("s", "h")) else f"{unit}s"  # web search(es)
        what = (
            f"{line['count']:,} {unit if line['count'] == 1 else units} x "
            f"${money(line['price'])} per {line['per']:,}"
        )
        when = f", {line['option']}" if line["option"] else ""
        click.echo(f"  {'fee':<13} ${money(line['amount'])} ({what}{when})")
    click.echo(f"  {'total':<13} ${money(data['total'])} USD")


_NO_BATCH = (
    "; drop --batch for the standard price, or add the vendor's batch pricing under the "
    "model's `prices:` in the catalog (`batch: {discount: ...}` or the batch prices; "
    "docs/models.md)"
)


def _limits_note(provider: str, model: str, input_tokens: int, output_tokens: int) -> str | None:
    """What to note when the request is larger than the model takes: the vendor would refuse
    it, so the cost is of no request that can be made (a sum over many requests is fine)."""
    info = find_model(provider, model)
    most_in = info.max_input_tokens or info.context_window
    over = []
    if most_in is not None and input_tokens > most_in:
        over.append(f"{input_tokens:,} input tokens (it takes {most_in:,})")
    if info.max_output_tokens is not None and output_tokens > info.max_output_tokens:
        over.append(f"{output_tokens:,} output tokens (it writes {info.max_output_tokens:,})")
    if not over:
        return None
    return (
        f"one request to {provider}/{model} cannot hold {' or '.join(over)}; the cost is that "
        "of the tokens, as a total over several requests"
    )


def _lifecycle_note(provider: str, model: str, day: date) -> str | None:
    """A cost is still given for a deprecated or retired model (past usage), with this note."""
    info = find_model(provider, model)
    state = info.lifecycle(day)
    if state not in ("deprecated", "retired"):
        return None
    when = f", shutdown {info.shutdown_date}" if info.shutdown_date else ""
    then = f"; successor: {info.successor}" if info.successor else ""
    return f"{provider}/{model} is {state} as of {day}{when}{then}"
