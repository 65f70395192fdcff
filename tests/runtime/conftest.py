"""Runtime fixtures: the registry pointed at a test catalog, restored afterwards."""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from generator.pipeline import run
from provcat.registry import CatalogSource, EndpointRegistry
from tests.conftest import BASE_CATALOG, FIXTURE_MODULES

Records = list[dict[str, Any]]

if str(FIXTURE_MODULES) not in sys.path:
    sys.path.insert(0, str(FIXTURE_MODULES))


def _base_records() -> Records:
    result = run(BASE_CATALOG, (FIXTURE_MODULES,))
    assert result.ok and result.snapshot is not None, result.diagnostics
    return [dict(r) for r in result.snapshot["providers"]]


_BASE = _base_records()


def base_records() -> Records:
    """A deep copy of the base test catalog's snapshot records (alpha, beta, scripted)."""
    return copy.deepcopy(_BASE)


def source_of(records: Records) -> CatalogSource:
    return CatalogSource(lambda: records, fingerprint=lambda: "test")


@pytest.fixture
def use_catalog() -> Iterator[Callable[[Records], CatalogSource]]:
    """Point the registry at records for one test; the bundled catalog is restored after."""

    def use(records: Records) -> CatalogSource:
        source = source_of(records)
        EndpointRegistry._reset(source)
        return source

    yield use
    EndpointRegistry._reset()


@pytest.fixture
def base(use_catalog: Callable[[Records], CatalogSource]) -> Records:
    records = base_records()
    use_catalog(records)
    return records


def record(records: Records, provider: str) -> dict[str, Any]:
    return next(r for r in records if r["provider"] == provider)


def assert_configs_equal_validated(snapshot: Any) -> None:
    """Every bound config of ``snapshot`` (after inspection loaded them all) equals the validated
    ``EndpointConfig`` of its record: the same values, of the same types, with the same fields set
    (what the trusted publication must give)."""
    from provcat.config import EndpointConfig

    EndpointRegistry.list_providers()
    assert snapshot.bindings, "nothing was loaded"
    for provider in snapshot.providers.values():
        for spec in provider.endpoints.values():
            config = snapshot.bindings[spec.provider][spec.key].config
            validated = EndpointConfig(
                **spec.config_values(), request_options=config.request_options
            )
            assert config == validated
            assert [(k, type(v)) for k, v in config.__dict__.items()] == [
                (k, type(v)) for k, v in validated.__dict__.items()
            ]
            assert config.model_fields_set == validated.model_fields_set
