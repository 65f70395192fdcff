"""Endpoint lifecycle checks: a successor that names another endpoint of the same provider (and
not a retired one), dates in order, a shutdown date for every retired endpoint, and no request
defaults on a retired one.

The state an endpoint is in on a given day is judged at run time (``provcat.models.lifecycle``); here
only what the YAML says must hold together.
"""

from __future__ import annotations

from generator.diagnostics import Diagnostic, diag
from generator.model import EndpointDecl, ProviderDecl
from provcat.catalog.keys import canonical_key, suggest
from provcat.models.lifecycle import parse_day

__all__ = ["check_endpoint_lifecycles", "successor_key"]


def _index(provider: ProviderDecl) -> dict[str, EndpointDecl]:
    index: dict[str, EndpointDecl] = {}
    for ep in provider.endpoints:
        index.setdefault(canonical_key(ep.key.value), ep)
        for alias in ep.aliases:
            index.setdefault(canonical_key(alias.value), ep)
    return index


def successor_key(provider: ProviderDecl, ep: EndpointDecl) -> str | None:
    """The canonical key of ``ep``'s successor (written as a key or an alias), or None."""
    if ep.lifecycle is None or "successor" not in ep.lifecycle:
        return None
    found = _index(provider).get(canonical_key(ep.lifecycle["successor"].value))
    return canonical_key(found.key.value) if found is not None else None


def check_endpoint_lifecycles(providers: list[ProviderDecl]) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    for provider in providers:
        index = _index(provider)
        for ep in provider.endpoints:
            life = ep.lifecycle
            if life is None:
                continue
            name = f"{provider.key.value}/{ep.key.value}"
            status = life["status"]
            if status.value == "retired" and ep.request_defaults:
                first = next(iter(ep.request_defaults.values()))
                problems.append(
                    diag(
                        "request_default_on_retired_endpoint",
                        first.loc,
                        f"{name} is retired but still gives request defaults "
                        f"({', '.join(sorted(ep.request_defaults))}); no request reaches it",
                    )
                )
            if status.value == "retired" and "shutdown_date" not in life:
                problems.append(
                    diag(
                        "retired_endpoint_without_shutdown_date",
                        status.loc,
                        f"{name} is retired but has no shutdown_date",
                    )
                )
            days = {}
            for field in ("deprecation_date", "shutdown_date"):
                written = life.get(field)
                if written is None:
                    continue
                try:  # the schema checks the shape; the runtime reads it as a day
                    days[field] = parse_day(str(written.value))
                except ValueError:
                    problems.append(
                        diag(
                            "invalid_date",
                            written.loc,
                            f"{field} '{written.value}' of endpoint {name} is no day",
                            "write a real date as YYYY-MM-DD",
                        )
                    )
            dep, shut = life.get("deprecation_date"), life.get("shutdown_date")
            if dep and shut and len(days) == 2 and days["deprecation_date"] > days["shutdown_date"]:
                problems.append(
                    diag(
                        "endpoint_dates_out_of_order",
                        shut.loc,
                        f"{name}: shutdown_date {shut.value} is before deprecation_date {dep.value}",
                    )
                )
            successor = life.get("successor")
            if successor is None:
                continue
            target = index.get(canonical_key(successor.value))
            if target is None or target is ep:
                others = sorted(k for k, e in index.items() if e is not ep)
                hint = suggest(canonical_key(successor.value), others)
                problems.append(
                    diag(
                        "unknown_endpoint_successor",
                        successor.loc,
                        f"{name}: successor '{successor.value}' is not another endpoint of "
                        f"{provider.key.value} (its endpoints: "
                        f"{', '.join(sorted(e.key.value for e in provider.endpoints))})",
                        hint,
                    )
                )
            elif target.lifecycle is not None and target.lifecycle["status"].value == "retired":
                problems.append(
                    diag(
                        "endpoint_successor_retired",
                        successor.loc,
                        f"{name}: successor '{successor.value}' is itself retired",
                    )
                )
    return problems
