"""What one side of the drift check says about each request field, read from its types.

Both sides are reduced to the same facts: the field's spellings, whether it is required, the
enum/literal values it accepts, and its numeric and length bounds. A request model is read from
its pydantic fields; an SDK from whatever typed form it publishes its request parameters in: a
TypedDict (openai, anthropic, groq), a pydantic model (ollama, firecrawl-py) or a function's
signature (exa-py, tavily-python). One reader per form, no per-vendor code.
"""

from __future__ import annotations

import collections.abc
import inspect
import types
import typing
from dataclasses import dataclass, field
from typing import Any

import annotated_types
import typing_extensions
from pydantic import AliasChoices, BaseModel
from pydantic.fields import FieldInfo

__all__ = ["FieldFacts", "Values", "model_facts", "sdk_facts"]

# Bounds compared: pydantic/annotated-types constraint -> the name the report uses.
_BOUNDS: dict[type[Any], tuple[str, str]] = {
    annotated_types.Ge: ("ge", "ge"),
    annotated_types.Gt: ("gt", "gt"),
    annotated_types.Le: ("le", "le"),
    annotated_types.Lt: ("lt", "lt"),
    annotated_types.MinLen: ("min_length", "min_length"),
    annotated_types.MaxLen: ("max_length", "max_length"),
}
_WRAPPERS = {
    typing.Required,
    typing.NotRequired,
    typing_extensions.Required,
    typing_extensions.NotRequired,
    typing_extensions.ReadOnly,
    typing.ClassVar,
    typing.Final,
}
_SEQUENCES = {
    list,
    tuple,
    set,
    frozenset,
    collections.abc.Sequence,
    collections.abc.Iterable,
    collections.abc.Collection,
    collections.abc.MutableSequence,
}
_OPEN_SCALARS = {str}


@dataclass(frozen=True)
class Values:
    """The literal values a field accepts; ``open`` when any string is accepted as well."""

    literals: frozenset[Any]
    open: bool

    @property
    def closed(self) -> bool:
        return bool(self.literals) and not self.open

    def show(self) -> str:
        shown = ", ".join(sorted(repr(v) for v in self.literals)) or "no literal values"
        return f"[{shown}]" + (" or any string" if self.open else "")


@dataclass(frozen=True)
class FieldFacts:
    """One request field as one side describes it."""

    name: str  # the name the report uses: the wire name when the side knows one
    spellings: frozenset[str]  # every accepted spelling (name, alias, wire name)
    required: bool
    values: Values
    bounds: dict[str, float] = field(default_factory=dict)


def _metadata_bounds(metadata: collections.abc.Iterable[Any]) -> dict[str, float]:
    bounds: dict[str, float] = {}
    for item in metadata:
        if isinstance(item, annotated_types.GroupedMetadata):
            bounds.update(_metadata_bounds(item))
            continue
        for kind, (attr, name) in _BOUNDS.items():
            if isinstance(item, kind):
                bounds[name] = getattr(item, attr)
        if isinstance(item, FieldInfo):
            bounds.update(_metadata_bounds(item.metadata))
    return bounds


def _walk(tp: Any, literals: set[Any], found: dict[str, bool], bounds: dict[str, float]) -> None:
    """Collect the literal values of ``tp``, through unions, aliases, wrappers and sequences."""
    alias_value = getattr(tp, "__value__", None)  # PEP 695 / typing_extensions.TypeAliasType
    if alias_value is not None and not isinstance(tp, type):
        _walk(alias_value, literals, found, bounds)
        return
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated or origin is typing_extensions.Annotated:
        _walk(args[0], literals, found, bounds)
        for key, value in _metadata_bounds(tp.__metadata__).items():
            bounds.setdefault(key, value)
        return
    if origin in _WRAPPERS:
        _walk(args[0], literals, found, bounds)
        return
    if origin is typing.Union or origin is types.UnionType:
        for arg in args:
            _walk(arg, literals, found, bounds)
        return
    if origin is typing.Literal or origin is typing_extensions.Literal:
        literals.update(args)
        return
    if origin in _SEQUENCES and args:
        _walk(args[0], literals, found, bounds)
        return
    if tp in _OPEN_SCALARS or (isinstance(tp, type) and issubclass(tp, str)):
        found["open"] = True


def _type_facts(tp: Any) -> tuple[Values, dict[str, float]]:
    literals: set[Any] = set()
    found = {"open": False}
    bounds: dict[str, float] = {}
    _walk(tp, literals, found, bounds)
    return Values(frozenset(literals), found["open"]), bounds


def _pydantic_facts(model: type[BaseModel]) -> dict[str, FieldFacts]:
    facts: dict[str, FieldFacts] = {}
    for name, info in model.model_fields.items():
        spellings = {name}
        wire = name
        for spelling in (info.alias, info.validation_alias, info.serialization_alias):
            if isinstance(spelling, str):
                spellings.add(spelling)
                wire = spelling
        if isinstance(info.validation_alias, AliasChoices):
            spellings.update(c for c in info.validation_alias.choices if isinstance(c, str))
        values, bounds = _type_facts(info.annotation)
        bounds.update(_metadata_bounds(info.metadata))
        facts[wire] = FieldFacts(wire, frozenset(spellings), info.is_required(), values, bounds)
    return facts


def model_facts(model: type[BaseModel]) -> dict[str, FieldFacts]:
    """The facts of a provcat request model, keyed by wire name."""
    return _pydantic_facts(model)


def _typeddict_facts(td: Any) -> dict[str, FieldFacts]:
    hints = typing.get_type_hints(td, include_extras=True)
    # __required_keys__ misses Required[...] written as a string annotation (SDKs that use
    # ``from __future__ import annotations``), so the resolved hint decides first.
    required_keys = set(getattr(td, "__required_keys__", ()))
    facts: dict[str, FieldFacts] = {}
    for name, tp in hints.items():
        origin = typing.get_origin(tp)
        if origin in (typing.Required, typing_extensions.Required):
            required = True
        elif origin in (typing.NotRequired, typing_extensions.NotRequired):
            required = False
        else:
            required = name in required_keys
        values, bounds = _type_facts(tp)
        facts[name] = FieldFacts(name, frozenset({name}), required, values, bounds)
    return facts


def _signature_facts(func: Any) -> dict[str, FieldFacts]:
    hints = typing.get_type_hints(func, include_extras=True)
    facts: dict[str, FieldFacts] = {}
    for name, param in inspect.signature(func).parameters.items():
        if name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        values, bounds = _type_facts(hints.get(name, Any))
        required = param.default is inspect.Parameter.empty
        facts[name] = FieldFacts(name, frozenset({name}), required, values, bounds)
    return facts


def sdk_facts(target: Any) -> dict[str, FieldFacts]:
    """The facts of an SDK's typed request parameters, whatever form they take."""
    if isinstance(target, type) and issubclass(target, BaseModel):
        return _pydantic_facts(target)
    if typing_extensions.is_typeddict(target):
        return _typeddict_facts(target)
    if callable(target):
        return _signature_facts(target)
    raise TypeError(f"cannot read request parameters from {target!r}")
