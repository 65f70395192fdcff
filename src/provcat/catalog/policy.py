"""ProviderModelPolicy: how model specs for one provider are read and applied (ADR-0028 D5).

Its own module because only model-spec parsing and ``model_kwargs`` read a policy, and a snapshot
makes each provider's policy on first use: a process that only resolves and uses endpoints never
creates the class. :mod:`provcat.catalog.specs` re-exports both names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from provcat.catalog.specs import frozen_mapping

__all__ = ["EffortMode", "ProviderModelPolicy"]

EffortMode = Literal["none", "kwarg", "model_name"]


@dataclass(frozen=True, slots=True)
class ProviderModelPolicy:
    """How model specs for a provider are read and applied (D5)."""

    provider: str
    provider_aliases: tuple[str, ...] = ()
    model_aliases: Mapping[str, str] = field(default_factory=dict)
    effort_mode: EffortMode = "none"
    effort_kwarg: str | None = None
    effort_levels: tuple[str, ...] = ()
    yolo_kwargs: Mapping[str, Any] = field(default_factory=dict)
    bypass_kwargs: Mapping[str, Any] = field(default_factory=dict)
    fast_kwargs: Mapping[str, Any] = field(default_factory=dict)
    # provcat additions: the model-name prefix rule, and how effort maps to vendor values
    model_prefix: str | None = None
    model_prefix_for: tuple[str, ...] = ()
    effort_translate: Mapping[str, str] = field(default_factory=dict)
    # ((canonical model names, or "*"), vendor level -> vendor level), first match wins
    effort_model_rules: tuple[tuple[frozenset[str], Mapping[str, str]], ...] = ()
    effort_name_format: str | None = None
    # the provider's model inventory: canonical id or alias -> model id, and default efforts
    model_index: Mapping[str, str] = field(default_factory=dict)
    model_default_effort: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in (
            "model_aliases",
            "yolo_kwargs",
            "bypass_kwargs",
            "fast_kwargs",
            "effort_translate",
            "model_index",
            "model_default_effort",
        ):
            object.__setattr__(self, name, frozen_mapping(getattr(self, name)))
