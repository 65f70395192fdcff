"""Frozen records without dataclasses, for the classes every build imports.

A frozen dataclass compiles its generated methods (``__init__``, ``__eq__``, ``__hash__``,
``__repr__``, ``__setattr__``, ``__delattr__``) from source when its module is imported: for the
records a build imports that was some 0.5 ms each, a tenth of a one-file rebuild's start. These
records get the same behaviour from one base class written once.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, ClassVar, Self

set_field = object.__setattr__  # how a record's __init__ sets its (otherwise frozen) fields


class Frozen:
    """What a frozen dataclass gives its instances, field by field (``_fields``: its slots, in
    field order): equality, hash, repr, immutability, ``replace``, and pickling by one
    constructor call (not the generic state restore). A subclass lists its fields and sets them
    in its ``__init__`` with ``set_field``."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()  # each record's fields, in order: its slots

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({fields})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return (type(self), self._values())

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` (``dataclasses.replace``)."""
        values: dict[str, Any] = {name: getattr(self, name) for name in self._fields}
        unknown = set(changes) - set(values)
        if unknown:
            raise TypeError(f"{type(self).__qualname__} has no field {sorted(unknown)[0]!r}")
        values.update(changes)
        return type(self)(**values)
