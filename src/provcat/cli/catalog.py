"""The catalog's own commands: `providers` (every provider and its availability), `resolve` (an
endpoint as match_endpoint builds it) and `model` (a model spec and the kwargs it gives)."""

from __future__ import annotations

import json
import re
import warnings
from typing import Any

import click

from provcat.catalog.keys import closest
from provcat.cli.choice import FORMAT_OPTION, Choice
from provcat.cli.failures import (
    UNKNOWN_PROVIDER,
    CommandError,
    not_a_key,
    providers_hint,
    unknown_provider,
)
from provcat.cli.table import table
from provcat.endpoints.match import match_endpoint
from provcat.endpoints.registry import EndpointRegistry
from provcat.endpoints.resolution import resolve as record
from provcat.errors import (
    CatalogValidationError,
    EndpointNotFound,
    ModelNotFound,
    ProviderCatalogError,
)
from provcat.models.effort import EFFORT_LEVELS
from provcat.models.inventory import find_model, list_models
from provcat.models.kwargs import model_kwargs
from provcat.models.spec import parse_model_spec

__all__ = ["model", "providers", "resolve"]


@click.command()
@FORMAT_OPTION
def providers(fmt: str) -> None:
    """Every provider in the catalog: availability, aliases and endpoints."""
    try:
        items = EndpointRegistry.list_providers()
    except CatalogValidationError as exc:
        raise CommandError(type(exc).__name__, str(exc)) from None
    if fmt == "json":
        click.echo(json.dumps(items, indent=2, sort_keys=True))
        return
    rows = [
        [
            item["provider"],
            item["availability"],
            ", ".join(item["aliases"]) or "-",
            ", ".join(e["endpoint"] for e in item["endpoints"]) or "-",
        ]
        for item in items
    ]
    click.echo(table(["PROVIDER", "AVAILABILITY", "ALIASES", "ENDPOINTS"], rows, wrap=(3, 2)))
    for item in items:
        for diagnostic in item["diagnostics"]:
            click.echo(
                f"{item['provider']}: {diagnostic['code']}: {diagnostic['message']}", err=True
            )


@click.command()
@click.argument("provider")
@click.argument("endpoint", default="")
@click.option("--openai-compatible", is_flag=True, help="Allow a compatible endpoint on a miss.")
@click.option(
    "--base-url", default=None, help="Override (or, with --openai-compatible, set) the base URL."
)
@FORMAT_OPTION
def resolve(
    provider: str, endpoint: str, openai_compatible: bool, base_url: str | None, fmt: str
) -> None:
    """Resolve PROVIDER [ENDPOINT] as match_endpoint would, and show the endpoint's configuration."""
    overrides: dict[str, Any] = {"base_url": base_url} if base_url else {}
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DeprecationWarning)  # the staged fallback's
            warnings.simplefilter("always", FutureWarning)  # a deprecated endpoint or model
            ep = match_endpoint(
                provider, endpoint, openai_compatible=openai_compatible, **overrides
            )
    except ProviderCatalogError as exc:
        message = str(exc)
        if "openai_compatible=True" in message:  # the Python spelling; say the flag here
            message += " (on the command line: --openai-compatible)"
        code = type(exc).__name__
        if isinstance(exc, EndpointNotFound) and unknown_provider(provider) is not None:
            code, message = UNKNOWN_PROVIDER, providers_hint(message)
        raise CommandError(code, message, text=f"{code}: {message}") from None
    told: list[str] = []
    for warning in caught:  # a legacy behaviour or a retiring endpoint the command would hide
        text = str(warning.message)
        flag = " (on the command line: --openai-compatible)" if "openai_compatible=" in text else ""
        told.append(text + flag)
        click.echo(f"warning: {text}{flag}", err=True)
    model = ep.request_model
    config = ep.config.summary()
    info: dict[str, Any] = {
        "class": f"{type(ep).__module__}:{type(ep).__qualname__}",
        "config": config,
        "request_model": f"{model.__module__}:{model.__qualname__}" if model else None,
        "request_defaults": ep.request_defaults,
        "lifecycle": _lifecycle(config["provider"], config["endpoint"]),
        "warnings": told,
    }
    if fmt == "json":
        click.echo(json.dumps(info, indent=2, sort_keys=True))
        return
    click.echo(f"{config['provider']}/{config['endpoint']} -> {info['class']}")
    for key in sorted(config):
        click.echo(f"  {key}: {json.dumps(config[key])}")
    click.echo(f"  request_model: {info['request_model'] or '-'}")
    click.echo(f"  request_defaults: {json.dumps(ep.request_defaults, sort_keys=True)}")
    if info["lifecycle"] is not None:
        click.echo(f"  lifecycle: {json.dumps(info['lifecycle'], sort_keys=True)}")


def _lifecycle(provider: str, endpoint: str) -> dict[str, Any] | None:
    """The catalog's lifecycle of a registered endpoint (None when active or not registered)."""
    try:
        life = record(provider, endpoint).lifecycle
    except ProviderCatalogError:
        return None
    if life is None:
        return None
    return {k: list(v) if isinstance(v, tuple) else v for k, v in life.items()}


def _misspelt_effort(model: str) -> str | None:
    """A note when ``model`` (``provider/name``, read without an effort) ends in what looks like
    a misspelt effort level (``gpt-5.4-hihg``): the grammar reads it as part of the name, and
    the vendor gets it as one."""
    _, _, name = model.partition("/")
    head, _, tail = name.rpartition("-")
    if "/" in name or not head:  # a vendor id such as qwen/qwen3-max is literal
        return None
    close = closest(tail.lower(), EFFORT_LEVELS, cutoff=0.75)
    if close is None:
        return None
    return (
        f"'-{tail}' is not an effort level (did you mean '-{close}'?); it was read as part "
        f"of the model name '{name}'"
    )


def _unlisted(model: str) -> str | None:
    """A note when the spec names no model after its provider, or when the catalog lists models
    of the provider but not this one (a typo would reach the vendor as the model's name); None
    when it lists it or lists none."""
    provider, slash, name = model.partition("/")
    if slash and not name.strip():
        return f"'{model}' names no model after the provider; the vendor would get {name!r}"
    try:
        if list_models(provider):
            find_model(provider, name)
    except ModelNotFound as exc:
        return f"{exc}; it is sent as written"
    except ProviderCatalogError:
        pass
    return None


@click.command()
@click.argument("spec", callback=not_a_key(spec=True))
@click.option("--yolo", is_flag=True, help="Apply the provider's yolo kwargs.")
@click.option("--bypass", is_flag=True, help="Apply the provider's bypass kwargs (beats --yolo).")
@click.option("--fast", is_flag=True, help="Apply the provider's fast-mode kwargs.")
@click.option(
    "--effort",
    type=Choice(EFFORT_LEVELS, case_sensitive=False),
    default=None,
    help="Override the spec's effort level.",
)
@click.option(
    "--endpoint",
    default=None,
    help="The endpoint the kwargs are for (its field carries the effort) [default: the "
    "provider's chat, or its successor once retired].",
)
@FORMAT_OPTION
def model(
    spec: str,
    yolo: bool,
    bypass: bool,
    fast: bool,
    effort: str | None,
    endpoint: str | None,
    fmt: str,
) -> None:
    """Parse a model SPEC (provider/model-effort or an alias) and show the kwargs a caller passes."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DeprecationWarning)  # the staged fallback's
            warnings.simplefilter("always", FutureWarning)  # a deprecated endpoint or model
            # surrounding whitespace is no part of a spec to model_kwargs: the parse shown too
            parsed = parse_model_spec(spec.strip())
            kwargs = model_kwargs(
                parsed, yolo=yolo, bypass=bypass, fast=fast, effort=effort, endpoint=endpoint
            )
    except (ValueError, ProviderCatalogError) as exc:
        # the Python spelling of an effort given apart; say the option here
        message = re.sub(r"with effort='([a-z]+)'", r"with --effort \1", str(exc))
        code = type(exc).__name__
        if isinstance(exc, EndpointNotFound) and unknown_provider(exc.provider) is not None:
            code, message = UNKNOWN_PROVIDER, providers_hint(message)
        # `Error: Code: message`, as every other command says its error
        raise CommandError(code, message, text=f"{code}: {message}") from None
    said = [str(w.message) for w in caught]  # a deprecated or retired model, an ignored effort
    notes = [
        note
        for note in (
            _misspelt_effort(parsed.model) if parsed.effort is None else None,
            _unlisted(parsed.model),
        )
        if note is not None
    ]
    for text in said:
        click.echo(f"warning: {text}", err=True)
    for text in notes:
        click.echo(f"note: {text}", err=True)
    if fmt == "json":
        result = {
            "spec": {"model": parsed.model, "effort": parsed.effort},
            "effort_override": effort,  # --effort, which wins over the spec's own (null: none)
            "kwargs": kwargs,
            "warnings": said,
            "notes": notes,
        }
        click.echo(json.dumps(result, indent=2, sort_keys=True))
        return
    click.echo(f"model:  {parsed.model}")
    shown = f"{effort} (from --effort)" if effort else parsed.effort or "-"
    click.echo(f"effort: {shown}")
    click.echo("kwargs:")
    for key in sorted(kwargs):
        click.echo(f"  {key}: {json.dumps(kwargs[key])}")
