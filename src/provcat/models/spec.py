"""parse_model_spec: read "provider/model-effort" specs from the catalog's model policies
(ADR-0028 D5). Provider identity, model aliases and effort handling all come from the snapshot.

The grammar is lionagi 0.36.0's, with its defects fixed (see generated/docs/policies.md):

1. A whole-string model alias (``claude``) expands before anything else; aliases are matched
   after ``strip().casefold()``.
2. The provider is the part before the first ``/``; its spelling is kept as written.
3. An effort suffix ``-<level>`` is split off only when the model part has no ``/`` (vendor ids
   such as ``qwen/qwen3-max`` are literal); the last ``-level`` wins; the level matches ASCII
   letters case-insensitively and is returned lowercase.
4. A provider whose policy says ``effort: {mode: none}`` refuses an effort suffix.
5. A provider's ``model_prefix`` rule is applied to the model name (``claude/opus-4-7`` ->
   ``claude/claude-opus-4-7``).
"""

from __future__ import annotations

import warnings
from functools import lru_cache
from typing import NamedTuple

from provcat.catalog.keys import canonical_key, suggest
from provcat.catalog.publish import current
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.errors import ProviderCatalogError, UnknownProviderWarning
from provcat.models.effort import EFFORT_LEVELS
from provcat.models.tables import SpecProvider, spec_tables
from provcat.redact import secret_shapes_hidden

__all__ = ["ModelSpec", "parse_model_spec", "split_effort_suffix"]


def _ascii_case_variants(word: str) -> list[str]:
    variants = [""]
    for c in word:
        variants = [v + x for v in variants for x in dict.fromkeys((c.lower(), c.upper()))]
    return variants


# every spelling of an effort suffix the grammar accepts (a level in any mix of ASCII letter
# case; 304 of them) -> the level: reading a suffix is one dict read
_SUFFIXES: dict[str, str] = {
    variant: level for level in EFFORT_LEVELS for variant in _ascii_case_variants(level)
}


class ModelSpec(NamedTuple):
    """A parsed model spec: the model string (``provider/model`` or bare) and its effort.

    Immutable; ``model, effort = spec`` unpacks it.
    """

    model: str
    effort: str | None = None

    def __str__(self) -> str:
        return f"{self.model}-{self.effort}" if self.effort else self.model

    def __repr__(self) -> str:
        # a key pasted where the model goes must not reach a log or a traceback through the repr
        model = secret_shapes_hidden(self.model)
        return f"ModelSpec(model={model!r}, effort={self.effort!r})"


def split_effort_suffix(model: str) -> tuple[str, str] | None:
    """``(name, effort)`` when ``model`` ends in ``-<level>``, else None. Linear time."""
    name, _, suffix = model.rpartition("-")
    level = _SUFFIXES.get(suffix) if name else None
    return (name, level) if level is not None and "/" not in name else None


def parse_model_spec(spec: str) -> ModelSpec:
    """Parse ``spec`` into the model string and its effort (see the module docstring)."""
    if not isinstance(spec, str):
        raise TypeError(f"a model spec must be a str, not {type(spec).__name__}")
    parsed, unknown = _parsed(current(), spec)
    if unknown is not None:  # the answer stays lionagi's; model_kwargs refuses it in these words
        warnings.warn(UnknownProviderWarning(unknown), stacklevel=2)
    return parsed


@lru_cache(maxsize=4096)
def _parsed(snapshot: CatalogSnapshot, spec: str) -> tuple[ModelSpec, str | None]:
    """A pure function of the snapshot and the spec: a spelling seen before is a cache hit.
    With the parse, the words for a provider the catalog does not know (None: known, or none)."""
    (model, effort), name, found = read_spec(snapshot, spec)
    unknown = None
    if name is not None and found is None:
        unknown = unknown_provider(snapshot, model.partition("/")[0], ModelSpec(model, effort))
    return ModelSpec(model, effort), unknown


def unknown_provider(snapshot: CatalogSnapshot, provider_raw: str, spec: ModelSpec) -> str:
    """The one wording of "this spec names no provider the catalog knows" (the provider as
    written, without surrounding whitespace)."""
    close = suggest(canonical_key(provider_raw), snapshot.provider_index)
    hint = f"; {close}" if close else ""
    return f"unknown provider '{provider_raw.strip()}' in model spec '{spec}'{hint}"


def read_spec(
    snapshot: CatalogSnapshot, spec: str, effort: str | None = None
) -> tuple[tuple[str, str | None], str | None, SpecProvider | None]:
    """The parse of ``spec`` as a plain ``(model, effort)`` pair (the fields of its ModelSpec,
    which model_kwargs does not need to build), the model part of its ``provider/model`` (None:
    no provider), and the provider it names (None: none, or not one the catalog knows).

    ``effort`` is the effort of a parsed ModelSpec whose model ``spec`` is: the spec is then read
    as ``f"{spec}-{effort}"`` is, with the suffix split off already (the model part is not split
    again, and is no whole-spec alias), so that a ModelSpec and the string it was parsed from
    read the same.

    One pass: each part is split and canonicalized once at most, the effort suffix is one read of
    a table, and the provider is one read of the snapshot's spec tables (model_kwargs goes on from
    here)."""
    if not isinstance(spec, str):
        raise TypeError(f"a model spec must be a str, not {type(spec).__name__}")
    provider_raw, slash, model = spec.partition("/")
    tables = spec_tables(snapshot)
    if not slash or tables.slashed_aliases:
        key = spec.strip().casefold()
        if not key:
            raise ValueError("the model spec is empty")
        alias = tables.aliases.get(key) if effort is None else None
        if alias is not None:
            return (alias.target, None), alias.model, alias.provider
        if not slash:  # a bare model: only the effort suffix to read
            if effort is not None:
                return (spec, effort), None, None
            name, _, suffix = spec.rpartition("-")
            level = _SUFFIXES.get(suffix) if name else None
            if level is not None:
                return (name, level), None, None
            return (spec, None), None, None
    providers = tables.providers
    found = providers.get(provider_raw)  # a canonical spelling as written: one read
    if found is None:
        found = providers.get(provider_raw.strip().casefold())
    if effort is not None:
        name, level = model, effort
    else:
        name, _, suffix = model.rpartition("-")
        # vendor ids such as qwen/qwen3-max are literal
        level = _SUFFIXES.get(suffix) if name and "/" not in name else None
    if level is not None:
        if found is not None:
            if found.refuses_effort:
                written = spec if effort is None else f"{spec}-{effort}"
                # lionagi's words, then where the model takes an effort: as a setting
                raise ValueError(
                    secret_shapes_hidden(
                        f"Provider '{provider_raw}' does not support effort levels. "
                        f"Remove '-{level}' from '{written}'."
                        + _effort_setting(found.provider, provider_raw, name, level)
                    )
                )
            if found.model_prefix:
                name = _with_prefix(name, found.model_prefix, found.model_prefix_for)
        return (f"{provider_raw}/{name}", level), name, found
    if found is not None and found.model_prefix:
        prefixed = _with_prefix(model, found.model_prefix, found.model_prefix_for)
        if prefixed is not model:
            return (f"{provider_raw}/{prefixed}", None), prefixed, found
    return (spec, None), model, found


def _effort_setting(provider: str, provider_raw: str, name: str, level: str) -> str:
    """Where the inventory lists ``name`` with reasoning efforts: how to give it one, as a
    setting rather than a suffix (the policy of a provider that refuses the suffix may still
    send an effort given apart). Empty otherwise."""
    from provcat.models.inventory import lookup_model  # the error path only: no cold-start cost

    try:
        info = lookup_model(provider, name)
    except ProviderCatalogError:  # a catalog without inventory: nothing to say
        return ""
    if info is None or not info.reasoning_efforts:
        return ""
    return f" {info.effort_setting(f'{provider_raw}/{name}', level)}."


def _with_prefix(model: str, prefix: str, starts: tuple[str, ...]) -> str:
    """``prefix + model`` when ``model`` starts with one of ``starts`` and is longer than it;
    otherwise ``model`` itself."""
    if not model.startswith(starts):
        return model
    for start in starts:
        if model.startswith(start) and model != start:
            return prefix + model
    return model
