"""get_model / list_models and the lifecycle checks of match_endpoint and model_kwargs, on the
acme test catalog (tests/catalogs/models/providers/acme.yaml) compiled by the generator."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from provcat import (
    ModelDeprecated,
    ModelInfo,
    ModelNotFound,
    ModelRetired,
    estimate_cost,
    get_model,
    list_models,
    match_endpoint,
    model_kwargs,
)
from provcat.strict import set_strict
from tests.models.inventory_catalog import use_acme


@pytest.fixture(autouse=True)
def acme() -> Iterator[dict[str, Any]]:
    yield from use_acme()


def test_by_id_and_alias_after_strip_and_casefold_only() -> None:
    info = get_model("acme", "acme-large-2")
    assert isinstance(info, ModelInfo)
    assert get_model(" ACME-AI ", "  Acme-Large-2-20250929 ") == info
    assert info.context_window == 1_000_000 and info.max_output_tokens == 64_000
    assert info.reasoning_efforts == ("low", "medium", "high")
    assert info.input_modalities == ("text", "image", "pdf")
    assert info.sources == ("https://platform.claude.com/docs/en/about-claude/pricing",)
    assert info.prices is not None and info.prices.base.cache_write_1h == Decimal("6")
    with pytest.raises(ModelNotFound):
        get_model("acme", "acme_large_2")  # punctuation is not folded


def test_model_info_is_frozen() -> None:
    info = get_model("acme", "acme-large-2")
    with pytest.raises(AttributeError):
        info.context_window = 1  # type: ignore[misc]


def test_alias_model_names_the_snapshot_it_serves() -> None:
    assert get_model("acme", "acme-large").points_to == "acme-large-2"


def test_not_found_lists_the_closest_ids() -> None:
    with pytest.raises(ModelNotFound) as caught:
        get_model("acme", "acme-larg-2")
    assert caught.value.closest[0] == "acme-large-2"
    assert "acme-large-2" in str(caught.value)


def test_a_model_written_as_a_spec_says_how_to_write_it() -> None:
    # an effort suffix is a model spec's, not part of an id: the hint names the model and how
    # to give the effort
    effort = r"(?i)'-high' is an effort level, not part of the model id 'acme-large-2'"
    for call in (
        lambda: get_model("acme", "acme-large-2-high"),
        lambda: estimate_cost("acme", "acme-large-2-HIGH", {"input_tokens": 1}),
    ):
        with pytest.raises(ModelNotFound, match=effort) as caught:
            call()
        assert "parse_model_spec('acme/acme-large-2-" in str(caught.value)
        assert caught.value.closest[0] == "acme-large-2"
    # a suffix that leaves no listed model is no hint
    with pytest.raises(ModelNotFound) as caught:
        get_model("acme", "acme-nothing-high")
    assert "effort level" not in str(caught.value)
    # PROVIDER/MODEL in one string, as the model or as the provider
    both = "is PROVIDER/MODEL in one string: pass the provider and the model apart"
    with pytest.raises(ModelNotFound, match=f"'acme/acme-large-2' {both}.*'acme', 'acme-large-2'"):
        get_model("acme", "acme/acme-large-2")
    with pytest.raises(ModelNotFound, match=f"unknown provider 'acme/acme-large-2'; .*{both}"):
        get_model("acme/acme-large-2", "acme-large-2")


def test_unknown_provider() -> None:
    with pytest.raises(ModelNotFound, match="unknown provider 'acne'"):
        get_model("acne", "acme-large")


@pytest.mark.parametrize("bad", [None, 3, b"acme-large", ["acme-large"]])
def test_non_string_model_or_provider(bad: Any) -> None:
    with pytest.raises(TypeError, match="must be a str"):
        get_model("acme", bad)
    with pytest.raises(TypeError, match="must be a str"):
        get_model(bad, "acme-large")


def test_retired_by_status_names_date_and_successor() -> None:
    with pytest.raises(ModelRetired) as caught:
        get_model("acme", "acme-ancient")
    assert caught.value.shutdown_date == "2025-06-01"
    assert caught.value.successor == "acme-old"
    assert "2025-06-01" in str(caught.value) and "acme-old" in str(caught.value)


def test_deprecated_returns_with_a_warning_naming_date_and_successor() -> None:
    with pytest.warns(ModelDeprecated) as record:
        info = get_model("acme", "acme-old", as_of=date(2026, 12, 1))
    assert info.id == "acme-old"
    text = str(record[0].message)
    assert "2027-01-14" in text and "acme-large-2" in text


def test_shutdown_date_on_or_before_as_of_is_retired() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert get_model("acme", "acme-sunset", as_of=date(2027, 2, 28)).id == "acme-sunset"
    with pytest.warns(ModelDeprecated):
        get_model("acme", "acme-sunset", as_of=date(2027, 3, 1))
    with pytest.raises(ModelRetired, match="since 2027-06-01"):
        get_model("acme", "acme-sunset", as_of=date(2027, 6, 1))
    with pytest.raises(ModelRetired):
        get_model("acme", "acme-old", as_of=date(2027, 1, 14))


def test_list_models_sorted_and_filtered() -> None:
    ids = [m.id for m in list_models("acme")]
    assert ids == sorted(ids) and len(ids) == 10
    on = date(2026, 12, 1)
    assert [m.id for m in list_models("acme", status="retired", as_of=on)] == ["acme-ancient"]
    assert [m.id for m in list_models("acme", status="deprecated", as_of=on)] == ["acme-old"]
    assert [m.id for m in list_models("acme", status="preview", as_of=on)] == ["acme-think"]
    assert [m.id for m in list_models(status="retired", as_of=date(2027, 6, 1))] == [
        "acme-ancient",
        "acme-old",
        "acme-sunset",
    ]
    assert [m.id for m in list_models("acme", tool_call=True)] == ["acme-free", "acme-large-2"]
    assert [m.id for m in list_models("acme", reasoning=True)] == ["acme-large-2", "acme-think"]
    # False keeps the models recorded without the capability, not those with no record of it
    assert [m.id for m in list_models("acme", tool_call=False)] == ["acme-sunset"]
    assert [m.id for m in list_models("acme", reasoning=False)] == ["acme-free"]
    assert [m.id for m in list_models("acme", structured_output=False)] == []
    assert [m.id for m in list_models("acme", structured_output=True)] == ["acme-large-2"]
    with pytest.raises(ValueError, match="not one of"):
        list_models(status="sunset")


def test_match_endpoint_warns_on_a_deprecated_model() -> None:
    with pytest.warns(ModelDeprecated, match="acme-large-2"):
        match_endpoint("acme", "chat", request_defaults={"model": "acme-old"})


def test_match_endpoint_refuses_a_retired_model_in_strict_mode_only() -> None:
    with pytest.warns(ModelDeprecated, match="retired since 2025-06-01"):
        match_endpoint("acme", "chat", request_defaults={"model": "acme-ancient"})
    set_strict(True)
    try:
        with pytest.raises(ModelRetired):
            match_endpoint("acme", "chat", request_defaults={"model": "acme-ancient"})
    finally:
        set_strict(None)


def test_imodel_warns_and_refuses_a_retired_model_as_match_endpoint_does() -> None:
    """Found in review: iModel built its endpoint without the model check match_endpoint made."""
    from provcat import iModel

    with pytest.warns(ModelDeprecated, match="retired since 2025-06-01"):
        iModel(provider="acme", endpoint="chat", model="acme-ancient")
    set_strict(True)
    try:
        with pytest.raises(ModelRetired):
            iModel(provider="acme", endpoint="chat", model="acme-ancient")
    finally:
        set_strict(None)


def test_an_application_module_shows_the_warning_by_default(tmp_path: Path) -> None:
    """Found by a tester: as DeprecationWarnings, the lifecycle warnings were hidden whenever the
    call was made from an application's own module (Python shows those only in ``__main__``), so
    an app never heard that its model shuts down, or that its calls fail."""
    (tmp_path / "appmod.py").write_text(
        "from provcat import match_endpoint\n"
        "def start():\n"
        "    match_endpoint('openai', 'chat', request_defaults={'model': 'gpt-4.1-mini'})\n",
        encoding="utf-8",
    )
    (tmp_path / "main.py").write_text("import appmod\nappmod.start()\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "PROVCAT_STRICT")}
    done = subprocess.run(
        [sys.executable, "main.py"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "ModelDeprecated" in done.stderr and "openai/gpt-4.1-mini" in done.stderr
    assert "appmod.py" in done.stderr  # pointed at the application's line


def test_the_warnings_point_at_the_callers_line() -> None:
    """model_kwargs' warning pointed into provcat: it is shown at the caller's line."""
    with pytest.warns(ModelDeprecated) as caught:
        model_kwargs("acme/acme-old")
    with pytest.warns(ModelDeprecated) as matched:
        match_endpoint("acme", "chat", request_defaults={"model": "acme-old"})
    for record in (*caught, *matched):
        assert record.filename == __file__


def test_match_endpoint_passes_current_and_unlisted_models_silently() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        match_endpoint("acme", "chat", request_defaults={"model": "acme-large-2"})
        match_endpoint("acme", "chat", request_defaults={"model": "fine-tuned:acme:xyz"})


def test_model_kwargs_warns_and_refuses_likewise() -> None:
    with pytest.warns(ModelDeprecated, match="acme-old"):
        assert model_kwargs("acme/acme-old")["model"] == "acme-old"
    set_strict(True)
    try:
        with pytest.raises(ModelRetired):
            model_kwargs("acme/acme-ancient")
    finally:
        set_strict(None)


def test_model_kwargs_checks_every_spelling_and_each_dated_model_of_a_provider() -> None:
    with pytest.warns(ModelDeprecated, match="acme-old"):
        model_kwargs("ACME-AI/ Acme-Old ")
    with pytest.warns(ModelDeprecated, match="retired since 2025-06-01"):
        model_kwargs("acme/ACME-ANCIENT")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert model_kwargs("acme/acme-large-2")["model"] == "acme-large-2"
        assert model_kwargs("acme/fine-tuned:acme:xyz")["model"] == "fine-tuned:acme:xyz"


def test_the_lifecycle_check_folds_the_provider_and_passes_what_it_cannot_place() -> None:
    from provcat.models.inventory import check_model_use

    with pytest.warns(ModelDeprecated, match="acme-old"):
        check_model_use(" ACME-AI ", "acme-old")
    with pytest.warns(ModelDeprecated, match="acme-old"):
        check_model_use("acme", "Acme-Old")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_model_use("nobody", "acme-old")  # not a provider: nothing to check against
        check_model_use("acme", "acme-olde")  # not listed: the inventory may be partial
    with pytest.raises(TypeError, match="provider must be a str"):
        check_model_use(["acme"], "acme-old")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="model must be a str"):
        check_model_use("acme", None)  # type: ignore[arg-type]


def test_prices_keep_their_text_however_many_models_share_them() -> None:
    """Models repeat prices (the snapshot's records share them); equal values written
    differently stay as each model's record writes them, and tiers keep their own prices."""
    from provcat.models.inventory import _INVENTORY

    def model(mid: str, prices: dict[str, Any]) -> dict[str, Any]:
        return {"model": mid, "aliases": (), "prices": prices}

    models = (
        model("a", {"input": "0.50", "output": "2"}),
        model("b", {"input": "0.5", "output": "2"}),
        model("c", {"input": "0.50", "output": "2"}),
        model(
            "d",
            {"input": "0.50", "output": "2", "tiers": ({"above_input_tokens": 10, "input": "1"},)},
        ),
    )
    index = {m["model"]: m["model"] for m in models}
    _INVENTORY._reset(({"shop": models}, {"shop": index}, {"shop": "shop"}))
    got = {m: get_model("shop", m).prices for m in "abcd"}
    assert {m: p.as_dict() if p else None for m, p in got.items()} == {
        "a": {"input": "0.50", "output": "2"},
        "b": {"input": "0.5", "output": "2"},
        "c": {"input": "0.50", "output": "2"},
        "d": {"input": "0.50", "output": "2", "tiers": [{"above_input_tokens": 10, "input": "1"}]},
    }
