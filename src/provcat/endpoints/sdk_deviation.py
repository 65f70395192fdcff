"""SdkDeviation: a known, intended difference between a request model and its vendor's SDK.

Its own module because only the request models that record a deviation, and the drift check,
need it: a process that uses an endpoint whose model records none never creates the class.
:mod:`provcat.endpoints.request` re-exports both names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["DeviationAspect", "SdkDeviation"]

DeviationAspect = Literal["missing", "extra", "required", "values", "bounds"]
"""What differs: a field only the SDK has, one only the model has, which side requires it, the
enum/literal values accepted, or a numeric or length bound."""


@dataclass(frozen=True, slots=True)
class SdkDeviation:
    """A known, intended difference between a request model and a vendor's official SDK.

    The drift check (``tests/drift``) compares every request model with the typed request
    parameters of its vendor's SDK at the pinned version; a difference fails unless the model
    records it here with the reason the model is right (or the SDK is), e.g. a field the SDK sends
    as a header, or an SDK type that lags the vendor's API reference.
    """

    sdk: str  # the SDK's distribution name on PyPI, e.g. "openai"
    field: str  # the field as the report names it: the SDK's spelling, else the model's
    aspect: DeviationAspect
    reason: str  # why the difference is right, with the vendor page that says so

    def __post_init__(self) -> None:
        if not self.reason.strip():
            raise ValueError(f"SdkDeviation {self.sdk}:{self.field}:{self.aspect} needs a reason")
