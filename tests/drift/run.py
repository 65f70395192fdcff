"""Resolve a pair's model and SDK targets and compare them."""

from __future__ import annotations

import importlib
import importlib.metadata
import typing
from dataclasses import dataclass
from typing import Any

from provcat.endpoints.request import RequestModel, SdkDeviation

from .compare import Difference, compare, split_recorded
from .facts import FieldFacts, model_facts, sdk_facts
from .pairs import Pair

__all__ = ["Outcome", "load", "run"]


def load(ref: str) -> Any:
    """The object named by ``module:Qualified.name`` (``@N``: its Nth typing.overload)."""
    ref, _, overload = ref.partition("@")
    module_name, _, qualname = ref.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    if overload:
        obj = typing.get_overloads(obj)[int(overload)]
    return obj


@dataclass(frozen=True)
class Outcome:
    pair: Pair
    label: str  # "openai 3.57.0 (module:Name)"
    unrecorded: list[Difference]
    used: set[SdkDeviation]

    def report(self) -> str:
        where = f"{self.pair.vendor} {self.pair.endpoint} ({self.pair.model})"
        return "\n".join(d.line(where, self.label) for d in self.unrecorded)


def run(pair: Pair) -> Outcome:
    model = load(pair.model)
    assert isinstance(model, type) and issubclass(model, RequestModel), pair.model
    sdk: dict[str, FieldFacts] = {}
    for target in pair.targets:
        sdk.update(sdk_facts(load(target)))
    diffs = compare(model_facts(model), sdk, pair.ignore)
    unrecorded, used = split_recorded(diffs, pair.sdk, model.sdk_deviations)
    version = importlib.metadata.version(pair.sdk)
    label = f"{pair.sdk} {version} ({', '.join(pair.targets)})"
    return Outcome(pair, label, unrecorded, used)
