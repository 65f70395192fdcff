"""`provcat models` and `provcat models show`: the inventory from the snapshot."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

import click
from click.core import ParameterSource

from provcat.cli.choice import FORMAT_OPTION, Choice
from provcat.cli.failures import not_a_key
from provcat.cli.model_options import AS_OF, ProviderModel, as_of_day, fail, money
from provcat.cli.table import table
from provcat.errors import ProviderCatalogError
from provcat.models.inventory import STATUSES, ModelInfo, find_model, list_models, priced_as

__all__ = ["models"]


def _num(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def _facts(m: ModelInfo, day: date) -> dict[str, Any]:
    """``m``'s facts as JSON with its lifecycle on ``day``, priced as it is billed: an alias
    model without prices of its own has the prices of the model it serves, named in
    ``priced_as`` just before them."""
    data: dict[str, Any] = {**m.as_dict(day), "lifecycle": m.lifecycle(day)}
    served = priced_as(m)
    if served is m:
        return data
    billed = served.as_dict(day)
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key == "prices":  # the served model's price facts, all of them, in their order
            out["priced_as"] = served.id
            out.update((k, billed[k]) for k in _PRICE_KEYS if k in billed)
        if key not in _PRICE_KEYS:
            out[key] = value
    return out


def _row(m: ModelInfo, day: date) -> list[str]:
    prices = priced_as(m).prices_on(day)
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
@AS_OF
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

    day = as_of_day(as_of)
    try:
        found = list_models(
            provider, status=status, tool_call=tool_call, reasoning=reasoning, as_of=day
        )
    except ProviderCatalogError as exc:
        fail(exc, provider)
    if fmt == "json":
        click.echo(
            json.dumps(
                [_facts(m, day) for m in found],
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


@models.command(cls=ProviderModel)
@click.argument("provider")
@click.argument("model", callback=not_a_key())
@AS_OF
@FORMAT_OPTION
@click.pass_context
def show(ctx: click.Context, provider: str, model: str, as_of: datetime | None, fmt: str) -> None:
    """Every fact the catalog holds about MODEL of PROVIDER, and where it comes from."""
    as_of, fmt = _from_group(ctx, "as_of", as_of), _from_group(ctx, "fmt", fmt)
    day = as_of_day(as_of)
    try:
        info = find_model(provider, model)
    except ProviderCatalogError as exc:
        fail(exc, provider, model)
    data = _facts(info, day)
    if fmt == "json":
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    click.echo(f"{info.provider}/{info.id}" + (f" ({info.name})" if info.name else ""))
    state = data["lifecycle"]
    if state in ("deprecated", "retired"):
        when = f", shutdown {info.shutdown_date}" if info.shutdown_date else ""
        then = f"; successor: {info.successor}" if info.successor else ""
        click.echo(f"  {state.upper()} (judged on {day.isoformat()}){when}{then}")
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
