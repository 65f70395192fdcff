"""Import provider modules and resolve the classes and request models the catalog names.

The generator imports each provider module once, as the runtime will, so a class that does not
exist, a request model that is not a pydantic model or a module that fails to import is reported
at generation time instead of at a user's first request.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from provcat.redact import sanitize


@dataclass(frozen=True, slots=True)
class Resolved:
    """What importing a dotted name gave: the object, or why it failed."""

    value: Any = None
    error: str | None = None


class Importer:
    """Imports each module at most once per run and remembers the outcome."""

    def __init__(self) -> None:
        self._modules: dict[str, ModuleType | str] = {}

    def module(self, name: str) -> ModuleType | str:
        """The module, or a sanitized description of why it failed to import."""
        if name not in self._modules:
            try:
                self._modules[name] = importlib.import_module(name)
            except Exception as exc:  # BaseException (KeyboardInterrupt, SystemExit) propagates
                sys.modules.pop(name, None)
                self._modules[name] = f"{type(exc).__name__}: {sanitize(str(exc))}"
        return self._modules[name]

    def resolve(self, ref: str, default_module: str) -> Resolved:
        """Resolve 'Name' (in ``default_module``) or 'package.module:Name'."""
        module_name, _, attr = ref.rpartition(":")
        module = self.module(module_name or default_module)
        if isinstance(module, str):
            return Resolved(error=f"module '{module_name or default_module}' failed: {module}")
        if not hasattr(module, attr):
            return Resolved(error=f"module '{module.__name__}' has no attribute '{attr}'")
        return Resolved(getattr(module, attr))


def request_model(obj: Any) -> Resolved:
    """A BaseModel subclass as-is; a factory is called exactly once and must return one."""
    from pydantic import BaseModel  # a rebuild that reuses every endpoint check needs none

    if isinstance(obj, type):
        if issubclass(obj, BaseModel):
            return Resolved(obj)
        return Resolved(error=f"'{obj.__qualname__}' is a class but not a pydantic BaseModel")
    if callable(obj):
        try:
            made = obj()
        except Exception as exc:
            return Resolved(error=f"the factory raised {type(exc).__name__}: {sanitize(str(exc))}")
        if isinstance(made, type) and issubclass(made, BaseModel):
            return Resolved(made)
        return Resolved(error=f"the factory returned {type(made).__name__}, not a BaseModel class")
    return Resolved(error=f"a {type(obj).__name__} is neither a BaseModel class nor a factory")
