"""A provider the catalog lists for its models only (``inventory_only``, as a models.dev import
makes of OpenAI and Anthropic) has no endpoints: resolving one says so, instead of "has no
endpoint 'chat'" (found by a tester with a big catalog first on the path)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.pipeline import run
from provcat import match_endpoint
from provcat.endpoints.checked import CatalogSource
from provcat.endpoints.registry import EndpointRegistry
from provcat.errors import EndpointNotFound
from tests.conftest import SCHEMA_LINE

ACME = (
    SCHEMA_LINE + "provider: acme\ndisplay_name: Acme\ninventory_only: no protocol for its API\n"
    "models:\n  m1: {context_window: 1000}\n"
)


@pytest.fixture
def inventory_only(tmp_path: Path) -> Iterator[None]:
    (tmp_path / "providers").mkdir()
    (tmp_path / "providers" / "acme.yaml").write_text(ACME, encoding="utf-8")
    result = run(tmp_path)
    assert result.ok and result.snapshot is not None, result.diagnostics
    records = [dict(r) for r in result.snapshot["providers"]]
    EndpointRegistry._reset(CatalogSource(lambda: records, fingerprint=lambda: "acme"))
    try:
        yield
    finally:
        EndpointRegistry._reset()


@pytest.mark.usefixtures("inventory_only")
@pytest.mark.parametrize("endpoint", ["chat", ""])
def test_an_inventory_only_provider_says_it_lists_models_only(endpoint: str) -> None:
    with pytest.raises(EndpointNotFound, match=r"acme has no endpoints: .*models only"):
        match_endpoint("acme", endpoint)
