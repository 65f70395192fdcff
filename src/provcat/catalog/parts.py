"""A read-only mapping whose values live in one generated module per key, imported on first use.

The generated snapshot splits a large model inventory per provider (``provcat_catalog.models.*``)
so a process that looks up one provider's model imports that provider's data and nothing else:
start-up stays flat however many providers the catalog holds. The values themselves are the
modules' literal data, unchanged.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from provcat.catalog.lazy import LazyMapping


class ByProvider(LazyMapping[Any]):
    """``key -> getattr(import_module(package + '.' + modules[key]), name)``, made once."""

    __slots__ = ("_name", "_package")

    def __init__(self, package: str, modules: Mapping[str, str], name: str) -> None:
        self._package = package
        self._name = name
        super().__init__(modules, self._load)

    def _load(self, module: str) -> Any:
        return getattr(importlib.import_module(f"{self._package}.{module}"), self._name)

    def __repr__(self) -> str:
        return f"ByProvider({self._package!r}, {len(self._records)} providers, {self._name!r})"
