"""The model inventory at run time: get_model, list_models, and the lifecycle check of a model in use.

Read from the generated ``provcat_catalog.inventory`` only, imported on the first lookup (never at
``import provcat``). Model ids and aliases are compared after ``strip().casefold()`` and nothing
else. A retired model raises :class:`ModelRetired`; a deprecated one is returned with a
:class:`ModelDeprecated` warning naming its shutdown date and successor.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import Any

from provcat.catalog.keys import canonical_key, close_matches
from provcat.errors import ModelDeprecated, ModelNotFound, ModelRetired
from provcat.models.effort import EFFORT_LEVELS
from provcat.models.lifecycle import day_of, state
from provcat.models.prices import (
    PriceChange,
    PricePeriod,
    Prices,
    PriceSet,
    PriceTier,
    next_change,
    period_on,
    periods_from_record,
)
from provcat.strict import is_strict

__all__ = [
    "STATUSES",
    "ModelInfo",
    "PriceChange",
    "PricePeriod",
    "PriceSet",
    "PriceTier",
    "Prices",
    "check_model_use",
    "check_use",
    "dated_model",
    "get_model",
    "limited_as",
    "list_models",
    "lookup_model",
    "priced_as",
    "with_provider_hint",
]

STATUSES = ("preview", "active", "deprecated", "retired")


@dataclass(frozen=True, slots=True)
class ModelInfo:
    """One model of one provider, as the catalog records it (facts the vendor did not state are
    None). ``status`` is as written; :meth:`lifecycle` applies the dates to a day."""

    provider: str
    id: str
    aliases: tuple[str, ...] = ()
    name: str | None = None
    family: str | None = None
    status: str = "active"
    release_date: str | None = None
    deprecation_date: str | None = None
    shutdown_date: str | None = None
    successor: str | None = None
    points_to: str | None = None
    context_window: int | None = None
    max_input_tokens: int | None = None
    max_output_tokens: int | None = None
    tool_call: bool | None = None
    structured_output: bool | None = None
    reasoning: bool | None = None
    reasoning_efforts: tuple[str, ...] = ()
    temperature: bool | None = None
    attachment: bool | None = None
    open_weights: bool | None = None
    input_modalities: tuple[str, ...] = ()
    output_modalities: tuple[str, ...] = ()
    knowledge_cutoff: str | None = None
    # the prices and the days each holds: one open period, or the vendor's announced schedule
    price_periods: tuple[PricePeriod, ...] = ()
    sources: tuple[str, ...] = ()
    reviewed_at: str | None = None
    note: str | None = None
    # whether any lifecycle fact can make the model deprecated or retired on some day
    dated: bool = field(default=False, repr=False, compare=False)

    def effort_setting(self, spec: str, level: str) -> str:
        """How to give this model effort ``level`` as a setting, for an error about a suffix
        (``spec`` is the PROVIDER/MODEL the user wrote, without the level): the model's own
        levels, or that it lists none."""
        efforts = self.reasoning_efforts
        if not efforts:
            return f"{self.id} lists no effort levels"
        if level not in efforts:
            return (
                f"{self.id} takes effort as a setting, one of {', '.join(efforts)}: "
                f"`provcat model {spec} --effort LEVEL` / model_kwargs('{spec}', effort=LEVEL)"
            )
        return (
            f"{self.id} takes effort as a setting: `provcat model {spec} --effort {level}` / "
            f"model_kwargs('{spec}', effort='{level}')"
        )

    def lifecycle(self, as_of: date | None = None) -> str:
        """``preview``, ``active``, ``deprecated`` or ``retired`` on ``as_of`` (default today; a
        datetime is read as its date). The deprecation and shutdown dates apply; the release date
        does not: a day before it is judged as ``status`` as written
        (:mod:`provcat.models.lifecycle`)."""
        if not self.dated:
            if as_of is not None:
                day_of(as_of)  # the same TypeError whatever the model
            return self.status
        return state(self.status, self.deprecation_date, self.shutdown_date, day_of(as_of))

    @property
    def prices(self) -> Prices | None:
        """The prices in force today (see :meth:`prices_on`)."""
        return self.prices_on()

    def prices_on(self, as_of: date | None = None) -> Prices | None:
        """The prices in force on ``as_of`` (default today); None when the catalog lists none
        for that day."""
        if as_of is not None:
            as_of = day_of(as_of)  # a TypeError for what is no date, whatever the prices
        periods = self.price_periods
        if len(periods) == 1 and periods[0].start is None and periods[0].end is None:
            return periods[0].prices  # no schedule: no day to compare
        found = period_on(periods, day_of(as_of))
        return found.prices if found is not None else None

    def next_price_change(self, as_of: date | None = None) -> PriceChange | None:
        """The first change of the prices after ``as_of`` (default today), or None."""
        day = day_of(as_of)
        if not any(p.start or p.end for p in self.price_periods):
            return None
        return next_change(self.price_periods, day)

    def as_dict(self, as_of: date | None = None) -> dict[str, Any]:
        """Plain JSON-ready data (prices as decimal strings): ``prices`` are those in force on
        ``as_of`` (default today), ``next_price_change`` the next announced change, and
        ``price_schedule`` every period where the vendor announced a change."""
        as_of = day_of(as_of)
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            if name in ("dated", "price_periods"):
                continue
            value = getattr(self, name)
            if isinstance(value, tuple):
                value = list(value)
            out[name] = value
            if name == "knowledge_cutoff":
                prices = self.prices_on(as_of)
                out["prices"] = prices.as_dict() if prices is not None else None
                change = self.next_price_change(as_of)
                out["next_price_change"] = change.as_dict() if change is not None else None
                if any(p.start or p.end for p in self.price_periods):
                    out["price_schedule"] = [p.as_dict() for p in self.price_periods]
        return out


def _info(provider: str, raw: Mapping[str, Any]) -> ModelInfo:
    modalities = raw.get("modalities", {})
    status = raw.get("status", "active")
    return ModelInfo(
        provider=provider,
        id=raw["model"],
        aliases=tuple(raw.get("aliases", ())),
        name=raw.get("name"),
        family=raw.get("family"),
        status=status,
        release_date=raw.get("release_date"),
        deprecation_date=raw.get("deprecation_date"),
        shutdown_date=raw.get("shutdown_date"),
        successor=raw.get("successor"),
        points_to=raw.get("points_to"),
        context_window=raw.get("context_window"),
        max_input_tokens=raw.get("max_input_tokens"),
        max_output_tokens=raw.get("max_output_tokens"),
        tool_call=raw.get("tool_call"),
        structured_output=raw.get("structured_output"),
        reasoning=raw.get("reasoning"),
        reasoning_efforts=tuple(raw.get("reasoning_efforts", ())),
        temperature=raw.get("temperature"),
        attachment=raw.get("attachment"),
        open_weights=raw.get("open_weights"),
        input_modalities=tuple(modalities.get("input", ())),
        output_modalities=tuple(modalities.get("output", ())),
        knowledge_cutoff=raw.get("knowledge_cutoff"),
        price_periods=periods_from_record(raw["prices"]) if "prices" in raw else (),
        sources=tuple(raw.get("source", ())),
        reviewed_at=raw.get("reviewed_at"),
        note=raw.get("note"),
        dated=status in ("deprecated", "retired")
        or "deprecation_date" in raw
        or "shutdown_date" in raw,
    )


_Data = tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, str]]


def _apart(given: str, provider: str, model: str) -> str:
    """The hint for PROVIDER/MODEL given where one of the two goes."""
    return (
        f"; '{given}' is PROVIDER/MODEL in one string: pass the provider and the model apart, "
        f"as the command line does: '{provider}', '{model}'"
    )


class _Inventory:
    """ModelInfo objects built once per provider, on its first lookup."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._source: _Data | None = None
        self._reset()

    def _reset(self, source: _Data | None = None) -> None:
        """Drop what was built; read ``source`` (models, model index, provider index) from now
        on, or the bundled snapshot again (None). For tests of a catalog of their own."""
        with self._lock:
            self._source = source
            self._by_provider: dict[str, dict[str, ModelInfo]] = {}
            self._models: dict[str, tuple[ModelInfo, ...]] = {}
            # (provider, model) as given -> ModelInfo: a repeated get_model is a cache hit
            # (make bench BENCH=models). A new cache for each source: none serves another's
            self.remembered: Callable[[str, str], ModelInfo] = lru_cache(maxsize=4096)(self.find)

    def _data(self) -> _Data:
        if self._source is not None:
            return self._source
        try:
            from provcat_catalog import PROVIDER_INDEX
            from provcat_catalog.inventory import MODEL_INDEX, MODELS
        except ImportError as exc:  # a snapshot generated before the inventory existed
            raise ModelNotFound(
                "",
                "",
                (),
                f"the installed catalog snapshot has no model inventory ({exc}); "
                "regenerate it with `make generate`",
            ) from None
        return MODELS, MODEL_INDEX, PROVIDER_INDEX

    def provider_key(self, provider: str) -> str:
        if not isinstance(provider, str):
            raise TypeError(f"provider must be a str, not {type(provider).__name__}")
        models, _, provider_index = self._data()
        key = provider_index.get(canonical_key(provider))
        if key is None:
            close = close_matches(canonical_key(provider), models, n=3)
            head, slash, tail = provider.strip().partition("/")
            known = provider_index.get(canonical_key(head)) if slash and tail else None
            hint = _apart(provider, known, tail) if known is not None else ""
            raise ModelNotFound(provider, "", close, f"unknown provider '{provider}'", hint)
        return key

    def models(self, key: str) -> tuple[ModelInfo, ...]:
        found = self._models.get(key)
        if found is None:
            self._load(key)
            found = self._models[key]
        return found

    def index(self, key: str) -> dict[str, ModelInfo]:
        found = self._by_provider.get(key)
        if found is None:
            self._load(key)
            found = self._by_provider[key]
        return found

    def _load(self, key: str) -> None:
        with self._lock:  # the data read under the lock too: a reset may swap it meanwhile
            if key in self._models:
                return
            models, model_index, _ = self._data()
            infos = tuple(_info(key, raw) for raw in models.get(key, ()))
            by_id = {m.id: m for m in infos}
            index = {spelling: by_id[model] for spelling, model in model_index.get(key, {}).items()}
            self._by_provider[key] = index
            self._models[key] = infos

    def find(self, provider: str, model: str) -> ModelInfo:
        """The model by id or alias, whatever its lifecycle; ModelNotFound with the closest ids."""
        if not isinstance(model, str):
            raise TypeError(f"model must be a str, not {type(model).__name__}")
        key = self.provider_key(provider)
        index = self.index(key)
        info = index.get(canonical_key(model))
        if info is None:
            if not index:
                raise ModelNotFound(
                    key, model, (), f"provider '{key}' has no model inventory in the catalog"
                )
            close = close_matches(canonical_key(model), index, n=3)
            ids = list(dict.fromkeys(index[c].id for c in close))
            raise ModelNotFound(
                key,
                model,
                ids,
                f"provider '{key}' lists no model '{model}'",
                self._misread(key, model, index),
            )
        return info

    def _misread(self, key: str, model: str, index: Mapping[str, ModelInfo]) -> str:
        """What to say of a model that is a listed one written as a spec: with an effort suffix
        (``gpt-6.1-terra-high``), or with its provider in front (``openai/gpt-6.1-terra``)."""
        name, _, suffix = model.strip().rpartition("-")
        if name and suffix.lower() in EFFORT_LEVELS:
            info = index.get(canonical_key(name))
            if info is not None:
                return (
                    f"; '-{suffix}' is an effort level, not part of the model id '{info.id}' "
                    f"(a model spec ends in it: parse_model_spec('{key}/{model}') splits it "
                    f"off); {info.effort_setting(f'{key}/{info.id}', suffix.lower())}"
                )
        head, slash, tail = model.strip().partition("/")
        if slash and self._data()[2].get(canonical_key(head)) == key:
            info = index.get(canonical_key(tail))
            if info is not None:
                return _apart(model, key, info.id)
        return ""

    def lookup(self, provider: str, model: str) -> ModelInfo | None:
        """The model by id or alias, or None when the provider lists no such model (or is not
        known, or there is no inventory). For the lifecycle check of a model in use, which lets
        unlisted models pass: no suggestions are computed and no exception is raised for them."""
        if not isinstance(model, str):
            raise TypeError(f"model must be a str, not {type(model).__name__}")
        if not isinstance(provider, str):
            raise TypeError(f"provider must be a str, not {type(provider).__name__}")
        index = self._by_provider.get(provider)  # callers pass the canonical key: one read
        if index is None:
            try:
                provider_index = self._data()[2]
            except ModelNotFound:  # a snapshot without inventory lists nothing
                return None
            key = provider_index.get(canonical_key(provider))
            if key is None:
                return None
            index = self.index(key)
        return index.get(model.strip().casefold())


_INVENTORY = _Inventory()


def get_model(provider: str, model: str, *, as_of: date | None = None) -> ModelInfo:
    """The model ``model`` (id or alias) of ``provider`` (key or alias).

    Raises :class:`ModelRetired` when it is retired or its shutdown date is on or before
    ``as_of`` (default today; a datetime is read as its date), :class:`ModelNotFound` (with the
    closest ids) when the provider lists no such model, :class:`TypeError` for a non-string or an
    ``as_of`` that is no date. A deprecated model is returned with a :class:`ModelDeprecated`
    warning.
    """
    if as_of is not None:
        as_of = day_of(as_of)
    try:
        info = _INVENTORY.remembered(provider, model)
    except TypeError:  # unhashable: find says what is wrong with it
        info = _INVENTORY.find(provider, model)
    if info.dated:
        now = info.lifecycle(as_of)
        if now == "retired":
            raise ModelRetired(info.provider, info.id, info.shutdown_date, info.successor)
        if now == "deprecated":
            warnings.warn(
                ModelDeprecated(info.provider, info.id, info.shutdown_date, info.successor),
                stacklevel=2,
            )
    return info


def list_models(
    provider: str | None = None,
    *,
    status: str | None = None,
    tool_call: bool | None = None,
    reasoning: bool | None = None,
    structured_output: bool | None = None,
    family: str | None = None,
    as_of: date | None = None,
) -> tuple[ModelInfo, ...]:
    """Models sorted by (provider, id), filtered: ``status`` is the lifecycle on ``as_of``
    (default today; a datetime is read as its date); a capability filter keeps models whose
    recorded flag equals it (a model whose flag is not recorded, None, matches neither True nor
    False)."""
    if status is not None and status not in STATUSES:
        raise ValueError(f"status {status!r} is not one of {', '.join(STATUSES)}")
    if provider is None:
        keys = sorted(_INVENTORY._data()[0])
    else:
        keys = [_INVENTORY.provider_key(provider)]
    day = day_of(as_of)
    found = []
    for key in keys:
        for m in _INVENTORY.models(key):
            if status is not None and m.lifecycle(day) != status:
                continue
            if tool_call is not None and m.tool_call != tool_call:
                continue
            if reasoning is not None and m.reasoning != reasoning:
                continue
            if structured_output is not None and m.structured_output != structured_output:
                continue
            if family is not None and m.family != family:
                continue
            found.append(m)
    return tuple(found)


def lookup_model(provider: str, model: str) -> ModelInfo | None:
    """The model by id or alias of canonical ``provider``, or None when it is not listed (no
    warning, no exception): for deciding what a spec means, not for using the model."""
    return _INVENTORY.lookup(provider, model)


def find_model(provider: str, model: str) -> ModelInfo:
    """The model whatever its lifecycle (no warning, no ModelRetired): for costs of past usage."""
    try:
        return _INVENTORY.remembered(provider, model)
    except TypeError:  # unhashable: find says what is wrong with it
        return _INVENTORY.find(provider, model)


def with_provider_hint(model: str, written: str | None = None) -> str:
    """What to write for ``model`` given without its provider: ``the catalog lists 'x' under
    openai: write 'openai/x'``, from the providers whose inventory lists it by id or alias; ""
    when none does (or the snapshot has no inventory). ``written`` (default ``model``) is what
    follows the provider in the suggestion, e.g. the model with its effort suffix."""
    try:
        _, model_index, _ = _INVENTORY._data()
    except ModelNotFound:
        return ""
    key = canonical_key(model)
    found = sorted(p for p, index in model_index.items() if key in index)
    if not found:
        return ""
    named = ", ".join(f"'{p}/{written or model}'" for p in found)
    which = named if len(found) == 1 else f"one of {named}"
    return f"the catalog lists '{model}' under {', '.join(found)}: write {which}"


def priced_as(info: ModelInfo) -> ModelInfo:
    """The model whose prices a request to ``info`` is billed at: ``info`` itself, or, for an
    alias model without prices of its own (``points_to``), the model it serves."""
    return _served(info, lambda m: bool(m.price_periods))


def limited_as(info: ModelInfo) -> ModelInfo:
    """The model whose limits bound a request to ``info``: ``info`` itself, or, for an alias
    model that records no limit (``points_to``), the first model down the chain that does."""
    return _served(
        info,
        lambda m: any(
            limit is not None
            for limit in (m.context_window, m.max_input_tokens, m.max_output_tokens)
        ),
    )


def _served(info: ModelInfo, has: Callable[[ModelInfo], bool]) -> ModelInfo:
    """``info``, or the first model down its ``points_to`` chain that ``has`` what is looked for
    (the last one reached when none has)."""
    served, seen = info, {info.id}
    while not has(served) and served.points_to is not None:
        if served.points_to in seen:
            break
        served = find_model(info.provider, served.points_to)
        seen.add(served.id)
    return served


def check_model_use(provider_key: str, model: str, stacklevel: int = 3) -> None:
    """For an endpoint or model spec about to use ``model``: warn when it is deprecated; when it
    is retired, raise :class:`ModelRetired` in strict mode and warn otherwise. A model the
    provider does not list (or a provider without inventory) passes: the inventory may be partial.
    ``stacklevel`` points the warning at the caller's line, counted from this function.
    """
    info = dated_model(provider_key, model)
    if info is not None:
        check_use(info, stacklevel + 1)


def dated_model(provider_key: str, model: str) -> ModelInfo | None:
    """The model ``model`` of ``provider_key`` when the inventory lists it with a lifecycle date
    or status (the models :func:`check_use` can act on), else None. A fact of the inventory,
    not of the day: callers may remember it and judge it on each use."""
    info = _INVENTORY.lookup(provider_key, model)
    return info if info is not None and info.dated else None


def check_use(info: ModelInfo, stacklevel: int = 2) -> None:
    """The lifecycle check of a model in use, judged today and in strict mode as set now:
    deprecated warns; retired raises :class:`ModelRetired` when strict and warns otherwise.
    ``stacklevel`` is counted from this function."""
    now = info.lifecycle()
    if now == "retired":
        if is_strict():
            raise ModelRetired(info.provider, info.id, info.shutdown_date, info.successor)
        warnings.warn(
            ModelDeprecated(
                info.provider, info.id, info.shutdown_date, info.successor, retired=True
            ),
            stacklevel=stacklevel,
        )
    elif now == "deprecated":
        warnings.warn(
            ModelDeprecated(info.provider, info.id, info.shutdown_date, info.successor),
            stacklevel=stacklevel,
        )
