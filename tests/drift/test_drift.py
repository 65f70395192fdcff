"""The drift check: every request model against its vendor's official SDK at the pinned version.

A failure names the vendor, the endpoint, the field, what the model says and what the SDK says.
Fix the model (citing the vendor page), or record the difference on the model as an
``SdkDeviation`` with its reason. To move a pin, change the ``==`` version in pyproject.toml's
``dev`` extra and run ``make test``: the venv reinstalls and this check reports every new drift.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import re
import tomllib
from collections.abc import Iterator
from typing import Any

import provcat_catalog
import pytest

from provcat import match_endpoint
from provcat.endpoints.request import RequestModel, SdkDeviation
from tests.conftest import ROOT

from .pairs import NO_SDK, PAIRS, Pair
from .run import load, run


def _dev_pins() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pins: dict[str, str] = {}
    for requirement in project["project"]["optional-dependencies"]["dev"]:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==([A-Za-z0-9_.+-]+)", requirement)
        if match:
            pins[match.group(1).lower()] = match.group(2)
    return pins


SDKS = sorted({pair.sdk for pair in PAIRS})


@pytest.mark.skipif(
    os.environ.get("PROVCAT_DRIFT_LATEST") == "1",
    reason="make drift-latest runs the comparison against the newest SDKs, not the pins",
)
@pytest.mark.parametrize("sdk", SDKS)
def test_each_sdk_is_pinned_in_the_dev_extra_and_installed_at_the_pin(sdk: str) -> None:
    pins = _dev_pins()
    assert sdk in pins, f"{sdk} is compared but not pinned with == in pyproject's dev extra"
    installed = importlib.metadata.version(sdk)
    assert installed == pins[sdk], (
        f"{sdk} {installed} is installed but the dev extra pins {pins[sdk]}: run make test "
        "(it reinstalls when pyproject.toml changes)"
    )


def test_the_sdks_are_test_only_never_runtime_dependencies() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    runtime = " ".join(project["project"]["dependencies"]).lower()
    for sdk in SDKS:
        assert not re.search(rf"(^|\W){re.escape(sdk)}\W", runtime), f"{sdk} is a runtime dep"


@pytest.mark.parametrize("pair", PAIRS, ids=[pair.id for pair in PAIRS])
def test_request_model_matches_the_vendor_sdk(pair: Pair) -> None:
    outcome = run(pair)
    assert not outcome.unrecorded, (
        "drift between the request model and the vendor SDK (fix the model, citing the "
        "vendor page, or record an SdkDeviation with the reason):\n" + outcome.report()
    )


def _recorded() -> Iterator[tuple[str, SdkDeviation]]:
    seen: set[int] = set()
    for ref in sorted({pair.model for pair in PAIRS}):
        model = load(ref)
        for deviation in model.sdk_deviations:
            if id(deviation) not in seen:
                seen.add(id(deviation))
                yield ref, deviation


def test_every_recorded_deviation_still_happens() -> None:
    """A deviation the SDK no longer shows is stale: delete it, so the record stays true."""
    used: set[SdkDeviation] = set()
    for pair in PAIRS:
        used |= run(pair).used
    stale = [f"{ref}: {d.sdk} {d.field!r} [{d.aspect}]" for ref, d in _recorded() if d not in used]
    assert not stale, "recorded deviations the SDKs no longer show:\n" + "\n".join(stale)


def test_every_catalog_request_model_is_compared_or_says_why_not() -> None:
    paired = {(pair.vendor, pair.endpoint, pair.model) for pair in PAIRS}
    missing: list[str] = []
    for provider in provcat_catalog.PROVIDERS:
        for endpoint in provider["endpoints"]:
            key = f"{provider['provider']}/{endpoint['endpoint']}"
            compared = (provider["provider"], endpoint["endpoint"], endpoint["request_options"])
            if compared not in paired and key not in NO_SDK:
                missing.append(f"{key} ({endpoint['request_options']})")
    assert not missing, "endpoints neither paired with an SDK nor in NO_SDK:\n" + "\n".join(missing)
    known = {
        f"{p['provider']}/{e['endpoint']}"
        for p in provcat_catalog.PROVIDERS
        for e in p["endpoints"]
    }
    assert set(NO_SDK) <= known, f"NO_SDK names endpoints the catalog lacks: {set(NO_SDK) - known}"


def test_a_pair_names_a_request_model() -> None:
    for pair in PAIRS:
        model: Any = load(pair.model)
        assert isinstance(model, type) and issubclass(model, RequestModel), pair.model


@pytest.mark.parametrize(
    ("sdk", "provider", "endpoint"),
    [("openai", "openai", "chat"), ("anthropic", "anthropic", "messages")],
)
def test_an_api_endpoint_waits_as_long_as_its_vendors_sdk(
    sdk: str, provider: str, endpoint: str
) -> None:
    """The README's 600 s: a catalog API endpoint that sets no timeout of its own waits for an
    answer as long as the vendor's official SDK does by default (its ``DEFAULT_TIMEOUT``)."""
    constants = importlib.import_module(f"{sdk}._constants")
    assert match_endpoint(provider, endpoint).config.timeout == constants.DEFAULT_TIMEOUT.read
