"""Names a module offers but loads from their home module on first use (PEP 562).

``import provcat`` stays cheap, and types moved off the cold path still import from where they
used to live: each such module sets ``__getattr__ = lazy_names(__name__, {name: home})``.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(module: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``name`` from ``homes[name]`` the first time it is
    read and keeps it in ``module``'s namespace, so later reads are plain lookups."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        sys.modules[module].__dict__[name] = value
        return value

    return __getattr__
