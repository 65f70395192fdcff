"""`provcat cost`: the cost of one request, from the snapshot's prices."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date, datetime
from typing import Any, TypeVar

import click

from provcat.cli.choice import FORMAT_OPTION
from provcat.cli.failures import not_a_key
from provcat.cli.model_options import AS_OF, ProviderModel, as_of_day, fail, money
from provcat.errors import PricingUnavailable, ProviderCatalogError
from provcat.models.cost import Cost, estimate_cost
from provcat.models.inventory import find_model, limited_as

__all__ = ["LIMITS_NOTE", "cost", "request_limits"]


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


@click.command(cls=ProviderModel)
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
@AS_OF
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
            provider, model, usage, batch=batch, as_of=as_of_day(as_of), options=named
        )
    except ValueError as exc:  # told in this command's words: the flags, not the usage fields
        said = _FIELD.sub(lambda m: _FLAGS[m.group(0)], str(exc)).removeprefix("usage ")
        fail(ValueError(said))
    except PricingUnavailable as exc:
        # the runtime's words say what is missing (in this command's words: its flags); what to
        # do is the command line's
        batchless = batch and "no batch prices" in str(exc)
        said = _FIELD.sub(lambda m: _FLAGS[m.group(0)], str(exc))
        fail(PricingUnavailable(said), provider, model, hint=_NO_BATCH if batchless else "")
    except ProviderCatalogError as exc:
        fail(exc, provider, model)
    notes = [
        note
        for note in (
            _lifecycle_note(result.provider, result.model, as_of_day(as_of)),
            _limits_note(result.provider, result.model, input_tokens, output_tokens),
            *_feeless_notes(result, requests=requests, web_searches=web_searches),
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
        if not line["count"]:  # no searches, say: nothing billed, nothing to print
            continue
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


# the note on a request larger than the model takes, in its words: `provcat cost` and the
# site's cost calculator (generator/site, static/model.js) fill in the same ones
LIMITS_NOTE = {
    "note": (
        "one request to {model} cannot hold {over}; the cost is that of the tokens, as a total "
        "over several requests"
    ),
    "input": "{input} input tokens (it takes {most_input})",
    "output": "{output} output tokens (it writes {most_output})",
    "window": (
        "{input} input and {output} output tokens together ({together}; its context window is "
        "{window})"
    ),
    "or": " or ",
}


def request_limits(
    context_window: int | None, max_input_tokens: int | None, max_output_tokens: int | None
) -> tuple[int | None, int | None, int | None]:
    """The most input tokens one request holds, the most output tokens, and the window that
    holds the input and the output together: the context window only where the model records
    no input limit of its own (a vendor that gives one, as Gemini's input limit is its window,
    bounds each side apart), None where not recorded. The site's calculator takes the same."""
    window = context_window if max_input_tokens is None else None
    return max_input_tokens or context_window, max_output_tokens, window


def _limits_note(provider: str, model: str, input_tokens: int, output_tokens: int) -> str | None:
    """What to note when the request is larger than the model takes: the vendor would refuse
    it, so the cost is of no request that can be made (a sum over many requests is fine). Each
    side is held to its own limit, and both together to the context window where the model
    records no input limit apart (``request_limits``); a model that records no limit takes
    those of the model it points to, down the chain."""
    info = limited_as(find_model(provider, model))
    most_in, most_out, window = request_limits(
        info.context_window, info.max_input_tokens, info.max_output_tokens
    )
    counts = {"input": f"{input_tokens:,}", "output": f"{output_tokens:,}"}
    over = []
    if most_in is not None and input_tokens > most_in:
        over.append(LIMITS_NOTE["input"].format(**counts, most_input=f"{most_in:,}"))
    if most_out is not None and output_tokens > most_out:
        over.append(LIMITS_NOTE["output"].format(**counts, most_output=f"{most_out:,}"))
    if not over and window is not None and input_tokens + output_tokens > window:
        together = f"{input_tokens + output_tokens:,}"
        over.append(LIMITS_NOTE["window"].format(**counts, together=together, window=f"{window:,}"))
    if not over:
        return None
    return LIMITS_NOTE["note"].format(
        model=f"{provider}/{model}", over=LIMITS_NOTE["or"].join(over)
    )


def _feeless_notes(result: Cost, *, requests: int, web_searches: int) -> list[str | None]:
    """A count given for a fee the model does not have changes nothing: said, not silently
    dropped. (Billed calls on a model that lists no fees at all are an error instead: its fees
    may be missing from the catalog; a model that lists fees lists all it bills.)"""
    units = {line.unit for line in result.fees}
    given = (("request", "per-request", "--requests", requests, 1),
             ("web_search", "web-search", "--web-searches", web_searches, 0))  # fmt: skip
    return [
        f"{result.provider}/{result.model} has no {what} fee in the catalog: {flag} {count:,} "
        "changes nothing"
        for unit, what, flag, count, default in given
        if count != default and unit not in units
    ]


def _lifecycle_note(provider: str, model: str, day: date) -> str | None:
    """A cost is still given for a deprecated or retired model (past usage), or for a day before
    the model's release (a typo in --as-of, say), with this note."""
    info = find_model(provider, model)
    if info.release_date is not None and day.isoformat() < info.release_date:
        return (
            f"{provider}/{model}'s release date, {info.release_date}, is after {day}: no request "
            "can be made to it on that day; the cost uses the prices the catalog holds for it"
        )
    state = info.lifecycle(day)
    if state not in ("deprecated", "retired"):
        return None
    when = f", shutdown {info.shutdown_date}" if info.shutdown_date else ""
    then = f"; successor: {info.successor}" if info.successor else ""
    return f"{provider}/{model} is {state} (judged on {day}){when}{then}"
