"""A read-only mapping whose values live in one generated module per key, imported on first use.

The generated snapshot splits a large model inventory per provider (``provcat_catalog.models.*``)
so a process that looks up one provider's model imports that provider's data and nothing else:
start-up stays flat however many providers the catalog holds. The values themselves are the
modules' literal data, unchanged.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["ByProvider"]


class ByProvider(Mapping[str, Any]):
    """``key -> getattr(import_module(package + '.' + modules[key]), name)``, imported on first
    access; iteration follows ``modules``. Two threads racing on a key both import the module
    (Python's import lock makes it one module) and both keep the value stored first."""

    __slots__ = ("_loaded", "_modules", "_name", "_package")

    def __init__(self, package: str, modules: Mapping[str, str], name: str) -> None:
        self._package = package
        self._modules = modules
        self._name = name
        self._loaded: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        try:
            return self._loaded[key]
        except KeyError:
            module = self._modules[key]  # a key the catalog lacks raises KeyError, as a dict does
        value = getattr(importlib.import_module(f"{self._package}.{module}"), self._name)
        return self._loaded.setdefault(key, value)

    def __contains__(self, key: object) -> bool:
        return key in self._modules

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __repr__(self) -> str:
        return f"ByProvider({self._package!r}, {len(self._modules)} providers, {self._name!r})"
