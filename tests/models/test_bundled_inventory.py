"""The bundled catalog's inventory: no lifecycle diagnostic as of the review day, every model
sourced, and the request defaults the issue names moved off deprecated or retired models."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from generator.pipeline import run
from provcat import ModelRetired, get_model, list_models
from provcat.registry import EndpointRegistry

CATALOG = Path(__file__).resolve().parents[2] / "catalog"
REVIEWED = date(2026, 12, 1)


def test_no_lifecycle_diagnostic_as_of_the_review_day() -> None:
    result = run(CATALOG, as_of=REVIEWED)
    assert result.ok
    assert [d.as_text() for d in result.diagnostics] == []


def test_every_model_with_facts_names_its_source_and_review_day() -> None:
    for m in list_models():
        if m.provider == "gemini_code":  # agy's display names: policy data, no vendor facts
            continue
        assert m.sources, f"{m.provider}/{m.id} has no source"
        assert all(s.startswith("https://") for s in m.sources)
        assert m.reviewed_at == "2026-12-01", f"{m.provider}/{m.id}"


@pytest.mark.parametrize(
    ("provider", "old"),
    [
        ("deepseek", "deepseek-chat"),
        ("deepseek", "deepseek-reasoner"),
        ("gemini", "gemini-2.5-flash"),
        ("openrouter", "google/gemini-2.5-flash"),
        ("groq", "llama-3.3-70b-versatile"),
    ],
)
def test_retired_models_the_old_defaults_named(provider: str, old: str) -> None:
    with pytest.raises(ModelRetired) as caught:
        get_model(provider, old, as_of=REVIEWED)
    assert caught.value.successor is not None
    assert get_model(provider, caught.value.successor, as_of=REVIEWED).lifecycle(REVIEWED) in (
        "active",
        "preview",
        "deprecated",
    )


def test_request_defaults_name_current_models() -> None:
    snapshot = EndpointRegistry.snapshot()
    checked = 0
    for key in ("openai", "gemini", "deepseek", "groq", "mistral", "xai", "openrouter"):
        for spec in snapshot.providers[key].endpoints.values():
            model = spec.request_defaults.get("model")
            if model is None:
                continue
            assert get_model(key, model, as_of=REVIEWED).lifecycle(REVIEWED) == "active"
            checked += 1
    assert checked == 9
