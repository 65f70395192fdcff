"""The generic effort vocabulary a model spec may carry, ascending.

A leaf module: the generator checks policies against it and the runtime parses specs with it.
Each provider's policy translates these levels into the vendor's own (provcat.models.kwargs.model_kwargs).
"""

from __future__ import annotations

__all__ = ["EFFORT_LEVELS"]

EFFORT_LEVELS: tuple[str, ...] = (
    "none",
    "minimal",
    "low",
    "medium",
    "high",
    "xhigh",
    "max",
    "ultra",
)
