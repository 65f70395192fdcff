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

from typing import NamedTuple

from provcat.catalog.snapshot import CatalogSnapshot
from provcat.catalog.specs import ProviderModelPolicy
from provcat.effort import EFFORT_LEVELS
from provcat.keys import canonical_key
from provcat.registry import EndpointRegistry

__all__ = ["ModelSpec", "parse_model_spec", "split_effort_suffix"]

_LEVELS = frozenset(EFFORT_LEVELS)


class ModelSpec(NamedTuple):
    """A parsed model spec: the model string (``provider/model`` or bare) and its effort.

    Immutable; ``model, effort = spec`` unpacks it.
    """

    model: str
    effort: str | None = None

    def __str__(self) -> str:
        return f"{self.model}-{self.effort}" if self.effort else self.model


def split_effort_suffix(model: str) -> tuple[str, str] | None:
    """``(name, effort)`` when ``model`` ends in ``-<level>``, else None. Linear time."""
    if "/" in model:
        return None
    name, dash, suffix = model.rpartition("-")
    if not dash or not name or not suffix.isascii():
        return None
    effort = suffix.lower()
    return (name, effort) if effort in _LEVELS else None


def _policy(snapshot: CatalogSnapshot, provider_raw: str) -> ProviderModelPolicy | None:
    owner = snapshot.provider_index.get(canonical_key(provider_raw))
    return snapshot.policy(owner) if owner is not None else None


def _with_prefix(model: str, policy: ProviderModelPolicy | None) -> str:
    if policy is None or not policy.model_prefix:
        return model
    for start in policy.model_prefix_for:
        if model.startswith(start) and model != start:
            return policy.model_prefix + model
    return model


def parse_model_spec(spec: str) -> ModelSpec:
    """Parse ``spec`` into the model string and its effort (see the module docstring)."""
    snapshot = EndpointRegistry.snapshot()
    try:  # a pure function of (spec, snapshot): a spelling seen before is a dict read
        known: ModelSpec = snapshot.parsed_specs[spec]
        return known
    except (KeyError, TypeError):
        pass
    result = _parse(snapshot, spec)
    if len(snapshot.parsed_specs) < snapshot.MEMO_LIMIT:
        snapshot.parsed_specs[spec] = result
    return result


def _parse(snapshot: CatalogSnapshot, spec: str) -> ModelSpec:
    if not isinstance(spec, str):
        raise TypeError(f"a model spec must be a str, not {type(spec).__name__}")
    if not spec.strip():
        raise ValueError("the model spec is empty")
    target = snapshot.model_aliases.get(canonical_key(spec))
    if target is not None:
        return ModelSpec(target, None)
    provider_raw, slash, model_part = spec.partition("/")
    if not slash:
        split = split_effort_suffix(spec)
        return ModelSpec(spec) if split is None else ModelSpec(split[0], split[1])
    policy = _policy(snapshot, provider_raw)
    split = split_effort_suffix(model_part)
    if split is None:
        return ModelSpec(f"{provider_raw}/{_with_prefix(model_part, policy)}")
    name, effort = split
    if policy is not None and policy.effort_mode == "none":
        raise ValueError(
            f"Provider '{provider_raw}' does not support effort levels. "
            f"Remove '-{effort}' from '{spec}'."
        )
    return ModelSpec(f"{provider_raw}/{_with_prefix(name, policy)}", effort)
