"""A call to a provider whose optional dependency is missing names the provcat extra that
installs it (pyproject.toml's optional-dependencies), and nothing else breaks."""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterator

import pytest

from provcat import match_endpoint
from provcat.endpoints.registry import EndpointRegistry
from provcat.errors import ProviderUnavailable
from tests.conftest import ROOT


@pytest.fixture
def without_ag2(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in [m for m in sys.modules if m.split(".")[0] == "ag2" or ".ag2" in m]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "ag2", None)  # `import ag2` fails as if not installed
    EndpointRegistry._reset()
    yield
    EndpointRegistry._reset()


def test_an_ag2_endpoint_without_ag2_names_the_extra(without_ag2: None) -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert any(r.startswith("ag2") for r in extras["ag2"])  # the extra the message names
    with pytest.raises(ProviderUnavailable, match=r"pip install -e '\.\[ag2\]' in your provcat"):
        match_endpoint("ag2", "agent")
    assert match_endpoint("openai", "chat").config.provider == "openai"  # the rest still works
