"""Whole-set checks of the model inventory (`models:`), every problem at once.

Keys, references (successor, points_to) and their cycles, limits, lifecycle dates and prices
(generator.prices_check) within each provider; then what makes a stale catalog visible: every
request default and model alias must name a listed model that is not retired, and a deprecated
one is a warning, as is a price change of one within 30 days. Only these last diagnostics depend
on the day (``as_of``), with a review day (``reviewed_at``, the provider's or a model's) after
it; nothing here changes generated output.

A provider's checks read its own file alone, so they run in two halves: ``summarize`` (everything
but the day, kept in the build cache with the file's records) and ``judge`` (the lifecycle of the
models its defaults and aliases name, as of the day). An unchanged file of a one-file rebuild is
judged from its summary; its models are not checked again.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

from generator.checking import at
from generator.diagnostics import Diagnostic, Loc, counted, diag
from generator.model import Key, ModelDecl, ProviderDecl
from generator.prices_check import price_change_days, price_problems
from provcat.catalog.keys import canonical_key, suggest
from provcat.models.lifecycle import parse_day, state

__all__ = ["Listed", "Review", "Summary", "Use", "judge", "standing", "summarize"]

_DATES = ("release_date", "deprecation_date", "shutdown_date")  # in this order
# the dates that may be a month (YYYY-MM); the others are days (the schema's patterns)
_MONTHS = ("release_date", "knowledge_cutoff")


def day_hint(name: str) -> str:
    """What ``invalid_date`` tells the author of date field ``name`` to write."""
    if name in _MONTHS:
        return "write a real date as YYYY-MM-DD, or a month as YYYY-MM (01 to 12)"
    return "write a real date as YYYY-MM-DD"


_LIMITS = ("max_input_tokens", "max_output_tokens")
# the request fields that cap how many tokens a model writes, across the protocols' request
# models (chat completions' max_tokens and max_completion_tokens, responses' max_output_tokens)
OUTPUT_CAPS = ("max_tokens", "max_completion_tokens", "max_output_tokens")


class Use(NamedTuple):
    """A listed model a request default or model alias names, with the facts its lifecycle is
    judged on."""

    what: str
    model: str
    loc: Loc
    status: str | None
    deprecation_date: str | None
    shutdown_date: str | None
    successor: str | None
    price_changes: tuple[str, ...] = ()  # the days its price schedule changes, sorted


class Listed(NamedTuple):
    """A listed model as other files may name it (a schema target's probe): its id, aliases
    and lifecycle facts."""

    id: str
    aliases: tuple[str, ...]
    status: str | None
    deprecation_date: str | None
    shutdown_date: str | None
    successor: str | None
    tool_call: bool | None = None


class Review(NamedTuple):
    """A ``reviewed_at`` day as written (the provider's, or a model's), and where."""

    what: str
    day: str
    loc: Loc


@dataclass(frozen=True, slots=True)
class Summary:
    """One provider's inventory checks without the day: its problems, the models it uses and
    the models it lists (kept in every provider's cache entry)."""

    problems: tuple[Diagnostic, ...]
    uses: tuple[Use, ...]
    models: tuple[Listed, ...] = ()
    reviews: tuple[Review, ...] = ()

    def find(self, name: str) -> Listed | None:
        """The listed model ``name`` spells, by id or alias (compared as keys are), or None;
        ids win over aliases, as in the provider's own checks."""
        canon = canonical_key(name)
        for model in self.models:
            if canonical_key(model.id) == canon:
                return model
        for model in self.models:
            if any(canonical_key(a) == canon for a in model.aliases):
                return model
        return None


def summarize(p: ProviderDecl) -> Summary:
    """Every problem of ``p``'s inventory that does not depend on the day, and what it uses."""
    out: list[Diagnostic] = []
    index = _keys(p, out)
    for m in p.models:
        out.extend(_references(p, m, index))
        out.extend(_limits(m))
        out.extend(_dates(m))
        out.extend(price_problems(m))
    out.extend(_cycles(p, index))
    uses: list[Use] = []
    if p.models:
        out.extend(_uses(p, index, uses))
        out.extend(_output_caps(p, index))
    listed = tuple(
        Listed(
            m.key.value,
            tuple(a.value for a in m.aliases),
            m.facts.get("status"),
            m.facts.get("deprecation_date"),
            m.facts.get("shutdown_date"),
            m.facts.get("successor"),
            m.facts.get("tool_call"),
        )
        for m in p.models
    )
    reviews = [
        Review(f"model '{m.key.value}'", m.facts["reviewed_at"], m.at("reviewed_at"))
        for m in p.models
        if isinstance(m.facts.get("reviewed_at"), str)
    ]
    if p.reviewed_at is not None and p.reviewed_at_loc is not None:
        reviews.insert(0, Review(f"provider '{p.key.value}'", p.reviewed_at, p.reviewed_at_loc))
    return Summary(tuple(out), tuple(uses), listed, tuple(reviews))


def _keys(p: ProviderDecl, out: list[Diagnostic]) -> dict[str, ModelDecl]:
    """Canonical spelling -> model; ids are claimed before aliases so an alias never hides one."""
    index: dict[str, ModelDecl] = {}
    claims: dict[str, tuple[Key, bool]] = {}  # canonical -> (first claim, is an id)

    def claim(m: ModelDecl, key: Key, is_id: bool) -> None:
        canon = canonical_key(key.value)
        if not canon:
            out.append(diag("empty_key", key.loc, f"a model id or alias of {p.key.value} is empty"))
            return
        if key.value != key.value.strip():
            out.append(
                diag(
                    "model_id_whitespace",
                    key.loc,
                    f"model id or alias {key.value!r} of {p.key.value} has surrounding whitespace",
                )
            )
        earlier = claims.get(canon)
        if earlier is None:
            claims[canon] = (key, is_id)
            index[canon] = m
            return
        owner = index[canon]
        if not is_id and owner is m:
            out.append(
                diag("self_alias", key.loc, f"model '{m.key.value}' lists its own id as an alias")
            )
        elif not is_id and earlier[1]:
            out.append(
                diag(
                    "model_alias_is_model_id",
                    key.loc,
                    f"alias '{key.value}' of model '{m.key.value}' is the id of model "
                    f"'{owner.key.value}' ({at(earlier[0].loc)})",
                )
            )
        else:
            same = "" if key.value == earlier[0].value else " (they differ only in case or spaces)"
            out.append(
                diag(
                    "duplicate_model_key",
                    key.loc,
                    f"model id or alias '{key.value}' of {p.key.value} is already "
                    f"'{earlier[0].value}' of model '{owner.key.value}'{same} "
                    f"({at(earlier[0].loc)})",
                )
            )

    for m in p.models:
        claim(m, m.key, True)
    for m in p.models:
        for alias in m.aliases:
            claim(m, alias, False)
    return index


def _references(p: ProviderDecl, m: ModelDecl, index: dict[str, ModelDecl]) -> Iterator[Diagnostic]:
    for name, code in (("successor", "unknown_successor"), ("points_to", "unknown_snapshot")):
        target = m.facts.get(name)
        if target is not None and canonical_key(target) not in index:
            yield diag(
                code,
                m.at(name),
                f"{name} '{target}' of model '{m.key.value}' is no model of {p.key.value}",
                _meant(str(target), p, m),
            )


def _meant(target: str, p: ProviderDecl, m: ModelDecl) -> str | None:
    """The "did you mean" of a reference to ``target``: the provider's model id or alias spelt
    nearest it (compared as keys are, named as declared), ``m`` itself left out; None (the
    code's own hint) when none is near."""
    names: dict[str, str] = {}
    for other in p.models:
        if other is not m:
            for key in (other.key, *other.aliases):
                names.setdefault(canonical_key(key.value), key.value)
    hint = suggest(canonical_key(target), names)
    declared = {f"did you mean '{key}'?": f"did you mean '{name}'?" for key, name in names.items()}
    return declared.get(hint, hint) if hint is not None else None


def _follow(m: ModelDecl, name: str, index: dict[str, ModelDecl]) -> ModelDecl | None:
    target = m.facts.get(name)
    return index.get(canonical_key(target)) if target is not None else None


def _cycles(p: ProviderDecl, index: dict[str, ModelDecl]) -> Iterator[Diagnostic]:
    """One diagnostic per cycle, at the link of its first model in file order."""
    order = {id(m): i for i, m in enumerate(p.models)}
    for name in ("successor", "points_to"):
        reported: set[int] = set()
        for start in p.models:
            chain = [start]
            seen = {id(start)}
            nxt = _follow(start, name, index)
            while nxt is not None and id(nxt) not in seen:
                chain.append(nxt)
                seen.add(id(nxt))
                nxt = _follow(nxt, name, index)
            if nxt is None:
                continue
            loop = chain[chain.index(nxt) :]
            first = min(loop, key=lambda m: order[id(m)])
            if id(first) in reported:
                continue
            reported.update(id(m) for m in loop)
            ring = loop[loop.index(first) :] + loop[: loop.index(first)] + [first]
            yield diag(
                "model_reference_cycle",
                first.at(name),
                f"{name} of {p.key.value} models loops: "
                + " -> ".join(f"'{m.key.value}'" for m in ring),
            )


def _limits(m: ModelDecl) -> Iterator[Diagnostic]:
    window = m.facts.get("context_window")
    if window is None:
        return
    for name in _LIMITS:
        value = m.facts.get(name)
        if value is not None and value > window:
            yield diag(
                "limit_above_context",
                m.at(name),
                f"{name} {value} of model '{m.key.value}' is above its context window {window}",
            )


def _dates(m: ModelDecl) -> Iterator[Diagnostic]:
    days: list[tuple[str, date]] = []
    for name in (*_DATES, "knowledge_cutoff"):
        text = m.facts.get(name)
        if text is None:
            continue
        try:
            day = parse_day(text)
        except ValueError:
            what = "month" if len(text) == 7 else "day"
            yield diag(
                "invalid_date",
                m.at(name),
                f"{name} '{text}' of model '{m.key.value}' is no {what}",
                day_hint(name),
            )
            continue
        if name in _DATES:
            days.append((name, day))
    for i, (later, day) in enumerate(days):
        for earlier, before in days[:i]:
            if day < before:
                yield diag(
                    "lifecycle_dates_out_of_order",
                    m.at(later),
                    f"{later} {m.facts[later]} of model '{m.key.value}' is before its "
                    f"{earlier} {m.facts[earlier]}",
                )
                break
    if m.facts.get("status") == "retired" and "shutdown_date" not in m.facts:
        yield diag(
            "retired_without_shutdown_date",
            m.at("status"),
            f"model '{m.key.value}' is retired but has no shutdown_date",
        )


def _uses(p: ProviderDecl, index: dict[str, ModelDecl], found: list[Use]) -> Iterator[Diagnostic]:
    """Request defaults and policy model aliases against the inventory: an unknown model is
    reported here; each known one is added to ``found`` for ``judge``."""
    uses: list[tuple[str, str, Loc, bool]] = []  # (what, model, where, unknown is ours to report)
    for ep in p.endpoints:
        valued = ep.request_defaults.get("model")
        if valued is not None and isinstance(valued.value, str):
            uses.append(
                (f"request default of {p.key.value}/{ep.key.value}", valued.value, valued.loc, True)
            )
    own = canonical_key(p.key.value)
    spellings = {own, *(canonical_key(a.value) for a in p.aliases)}
    if p.policy is not None:
        for alias, target in p.policy.model_aliases:
            prov, _, model = str(target.value).partition("/")
            if canonical_key(prov) in spellings:
                # an unknown target is validate.py's unknown_alias_target
                uses.append(
                    (f"model alias '{alias.value}' of {p.key.value}", model, target.loc, False)
                )
    for what, model, loc, report_unknown in uses:
        listed = index.get(canonical_key(model))
        if listed is None:
            if report_unknown:
                near = suggest(canonical_key(model), sorted(index))  # keys match in any case
                yield diag(
                    "unknown_default_model",
                    loc,
                    f"{what} names model '{model}', which {p.key.value}'s models do not list",
                    f"{near} Otherwise use an id or alias from {p.key.value}'s `models:`, or add "
                    "the model there"
                    if near
                    else None,
                )
            continue
        facts = listed.facts
        found.append(
            Use(
                what,
                model,
                loc,
                facts.get("status"),
                facts.get("deprecation_date"),
                facts.get("shutdown_date"),
                facts.get("successor"),
                price_change_days(facts.get("prices")),
            )
        )


def _output_caps(p: ProviderDecl, index: dict[str, ModelDecl]) -> Iterator[Diagnostic]:
    """A request default that asks a listed model for more output tokens than its
    ``max_output_tokens`` (of the first model down its points_to chain that has one, when it
    has none of its own)."""
    for ep in p.endpoints:
        named = ep.request_defaults.get("model")
        model = named.value if named is not None else None
        listed = index.get(canonical_key(model)) if isinstance(model, str) else None
        if listed is None:
            continue
        limit = listed.facts.get("max_output_tokens")
        seen = {listed.key.value}
        while limit is None and (target := _follow(listed, "points_to", index)) is not None:
            if target.key.value in seen:  # a points_to cycle: reported where it is checked
                break
            seen.add(target.key.value)
            limit, listed = target.facts.get("max_output_tokens"), target
        if not isinstance(limit, int):
            continue
        for name in OUTPUT_CAPS:
            asked = ep.request_defaults.get(name)
            value = asked.value if asked is not None else None
            if isinstance(value, int) and not isinstance(value, bool) and value > limit:
                yield diag(
                    "request_default_above_output_limit",
                    ep.request_defaults[name].loc,
                    f"request default {name} {value} of {p.key.value}/{ep.key.value} is above "
                    f"the max_output_tokens {limit} of model '{listed.key.value}'",
                    f"write {limit} or less, or leave {name} out",
                )


PRICE_NOTICE_DAYS = 30


def judge(summary: Summary, as_of: date) -> Iterator[Diagnostic]:
    """The models ``summary``'s provider uses, as of ``as_of``: retired is an error,
    deprecated a warning, and so is a price change within PRICE_NOTICE_DAYS days; and a
    review day after ``as_of`` is a warning (one that is no day, as 2026-02-30, an error)."""
    for review in summary.reviews:
        try:
            reviewed = parse_day(review.day)
        except ValueError:  # the schema checks the form, YYYY-MM-DD; this is a day that is not
            yield diag(
                "invalid_date",
                review.loc,
                f"reviewed_at '{review.day}' of {review.what} is no day",
                day_hint("reviewed_at"),
            )
            continue
        if reviewed > as_of:
            yield diag(
                "reviewed_at_in_future",
                review.loc,
                f"reviewed_at {review.day} of {review.what} is after {as_of.isoformat()}, the "
                "day the catalog is checked on",
            )
    for use in summary.uses:
        for text in use.price_changes:
            try:
                days = (parse_day(text) - as_of).days
            except ValueError:  # reported as invalid_date by the price checks
                continue
            if 0 < days <= PRICE_NOTICE_DAYS:
                yield diag(
                    "default_model_price_change",
                    use.loc,
                    f"{use.what} names '{use.model}', whose price changes on {text} "
                    f"(in {counted(days, 'day')}, as of {as_of.isoformat()}); "
                    "check the estimate and budget",
                )
                break
        try:
            found = standing(
                use.status, use.deprecation_date, use.shutdown_date, use.successor, as_of
            )
        except ValueError:  # a date that is no day: reported as invalid_date by _dates
            continue
        if found is not None:
            now, said = found
            code = "retired_model_in_use" if now == "retired" else "deprecated_model_in_use"
            yield diag(code, use.loc, f"{use.what} names '{use.model}', {said}")


def standing(
    status: str | None,
    deprecation_date: str | None,
    shutdown_date: str | None,
    successor: str | None,
    as_of: date,
) -> tuple[str, str] | None:
    """``("retired" | "deprecated", what to say of it)`` for a model that is no longer current
    as of ``as_of``, or None for a current one."""
    now = state(status, deprecation_date, shutdown_date, as_of)
    instead = f"; its successor is '{successor}'" if successor else ""
    if now == "retired":
        since = f" since {shutdown_date}" if shutdown_date else ""
        return now, f"retired{since} (as of {as_of.isoformat()}){instead}"
    if now == "deprecated":
        until = (
            f", shut down on {shutdown_date}" if shutdown_date else ", no shutdown date announced"
        )
        return now, f"deprecated{until}{instead}"
    return None
