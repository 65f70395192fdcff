"""catalog.json: valid against its own JSON Schema, the same content as the snapshot package the
runtime reads, every model round-tripping through the runtime's get_model/list_models, and the
same bytes on every build."""

from __future__ import annotations

import json
import shutil
import warnings
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import jsonschema

from provcat.models.inventory import ModelInfo, PriceSet, get_model, list_models
from provcat.models.prices import Prices
from tests.conftest import ROOT, Workspace

CATALOG_JSON = ROOT / "generated" / "provcat_catalog" / "catalog.json"
SCHEMA = ROOT / "schemas" / "catalog.schema.json"
MODELS_CATALOG = ROOT / "tests" / "catalogs" / "models"


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _plain(value: Any) -> Any:
    """Python literal data as JSON reads it back (tuples become lists)."""
    return json.loads(json.dumps(value))


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(_load(SCHEMA))


def test_the_bundled_catalog_json_validates_against_its_schema() -> None:
    validator = jsonschema.Draft202012Validator(_load(SCHEMA))
    errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(_load(CATALOG_JSON))]
    assert errors == []


def test_the_schema_refuses_what_the_catalog_never_holds() -> None:
    """The schema is a contract, not a formality: a float price, an unknown fact or a missing
    index fails it."""
    validator = jsonschema.Draft202012Validator(_load(SCHEMA))
    data = _load(CATALOG_JSON)
    priced = next(m for p in data["providers"] for m in p["models"] if "prices" in m)
    priced["prices"]["input"] = 0.4
    priced["speed"] = "fast"
    del data["provider_index"]
    messages = sorted(e.message for e in validator.iter_errors(data))
    assert any("0.4 is not of type 'string'" in m for m in messages), messages
    assert any("'speed' was unexpected" in m for m in messages), messages
    assert any("'provider_index' is a required property" in m for m in messages), messages


def test_catalog_json_holds_what_the_snapshot_package_holds() -> None:
    """Providers, endpoints, aliases, policies, indexes and targets equal the runtime's snapshot
    package field by field; the policy's short model list is the inventory's records cut down."""
    import provcat_catalog
    from provcat_catalog.data import MODEL_ALIAS_INDEX, PROVIDER_INDEX, PROVIDERS
    from provcat_catalog.inventory import MODEL_INDEX, MODELS
    from provcat_catalog.targets import TARGETS

    data = _load(CATALOG_JSON)
    assert data["fingerprint"] == provcat_catalog.FINGERPRINT
    assert data["snapshot_format"] == provcat_catalog.FORMAT_VERSION
    assert data["provider_index"] == PROVIDER_INDEX
    assert data["model_alias_index"] == MODEL_ALIAS_INDEX
    assert data["schema_targets"] == _plain(TARGETS)
    assert [p["provider"] for p in data["providers"]] == [p["provider"] for p in PROVIDERS]
    for row, record in zip(data["providers"], PROVIDERS, strict=True):
        key = record["provider"]
        expected = _plain({k: v for k, v in record.items() if k != "models"})
        assert {k: v for k, v in row.items() if k not in ("models", "model_index")} == expected
        assert row["models"] == _plain(MODELS.get(key, ()))
        assert row["model_index"] == dict(MODEL_INDEX.get(key, {}))
        short = [
            {k: m[k] for k in ("model", "aliases", "default_effort") if k in m}
            for m in row["models"]
        ]
        assert _plain(record["models"]) == (short if record["policy"] is not None else [])


def _block_agrees(raw: dict[str, Any], prices: Prices) -> None:
    """Every price of one JSON price block, read as an exact Decimal, is the runtime's price;
    its fees are the runtime's fees and a stated batch discount prices every batch field."""

    def same(block: dict[str, Any], found: PriceSet) -> None:
        for name, text in block.items():
            if name in _NOT_PRICES:
                continue
            assert isinstance(text, str)
            assert getattr(found, name) == Decimal(text), name

    same(raw, prices.base)
    assert [t["above_input_tokens"] for t in raw.get("tiers", ())] == [
        t.above_input_tokens for t in prices.tiers
    ]
    for tier, runtime in zip(raw.get("tiers", ()), prices.tiers, strict=True):
        same(tier, runtime.prices)
    if "batch" in raw:
        assert prices.batch is not None
        if "discount" in raw["batch"]:
            factor = 1 - Decimal(raw["batch"]["discount"])
            assert prices.batch_discount == Decimal(raw["batch"]["discount"])
            expected = {k: str(Decimal(v) * factor) for k, v in raw.items() if k not in _NOT_PRICES}
            same(expected, prices.batch)
            # each long-context tier, filled in from the base, at the same discount
            for tier, runtime in zip(raw.get("tiers", ()), prices.batch_tiers, strict=True):
                full = {k: v for k, v in raw.items() if k not in _NOT_PRICES} | tier
                same(
                    {k: str(Decimal(v) * factor) for k, v in full.items() if k not in _NOT_PRICES},
                    runtime.prices,
                )
        else:
            same(raw["batch"], prices.batch)
            listed = raw["batch"].get("tiers", ())
            for tier, runtime in zip(listed, prices.batch_tiers, strict=True):
                same(tier, runtime.prices)
    else:
        assert prices.batch is None
    fees = [
        (f["unit"], Decimal(f["price"]), f.get("per", 1), f.get("when"), f.get("default", False))
        for f in raw.get("fees", ())
    ]
    assert fees == [
        (f.unit, f.price, f.per, {f.option: f.value} if f.option else None, f.default)
        for f in prices.fees
    ]


# keys of a price block that are not a price of its own
_NOT_PRICES = ("tiers", "batch", "above_input_tokens", "fees", "discount", "from", "until")
_NOT_PRICES += ("note", "source", "gap_before")


def _prices_agree(raw: dict[str, Any] | list[dict[str, Any]], info: ModelInfo) -> None:
    """A plain price block is the runtime's prices on any day; each period of a schedule is the
    runtime's period (days, note, sources) and ``prices_on`` its first and last day."""
    if isinstance(raw, dict):
        assert info.next_price_change(date(2020, 1, 1)) is None
        prices = info.prices_on(date(2020, 1, 1))
        assert prices is not None and prices == info.prices_on(date(2040, 1, 1))
        _block_agrees(raw, prices)
        return
    assert len(raw) == len(info.price_periods) > 1
    for period, runtime in zip(raw, info.price_periods, strict=True):
        start, end = period.get("from"), period.get("until")
        assert (start, end) == (
            runtime.start.isoformat() if runtime.start else None,
            runtime.end.isoformat() if runtime.end else None,
        )
        assert period.get("note") == runtime.note
        assert period.get("source", []) == list(runtime.sources)
        _block_agrees(period, runtime.prices)
        first = date.fromisoformat(start) if start else date(2000, 1, 1)
        last = date.fromisoformat(end) - timedelta(days=1) if end else date(2100, 1, 1)
        for day in (first, last):
            on = info.prices_on(day)
            assert on is not None
            _block_agrees(period, on)
        if end is not None:  # the day a period ends, the next change is that day
            change = info.next_price_change(last)
            assert change is not None and change.day == date.fromisoformat(end)


# JSON record field -> ModelInfo attribute, where the names differ
_RENAMED = {"model": "id", "source": "sources"}


def _round_trip(data: dict[str, Any]) -> int:
    """Every model of catalog.json against the runtime's answer for it; returns the count."""
    listed = {(m.provider, m.id): m for m in list_models()}
    seen = 0
    for p in data["providers"]:
        for raw in p["models"]:
            info = listed.pop((p["provider"], raw["model"]))
            if info.lifecycle() != "retired":
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    assert get_model(p["provider"], raw["model"]) == info
            for name, value in raw.items():
                if name == "prices":
                    _prices_agree(value, info)
                elif name == "modalities":
                    assert list(info.input_modalities) == value.get("input", [])
                    assert list(info.output_modalities) == value.get("output", [])
                elif name == "default_effort":  # read by the policy tables, not ModelInfo
                    continue
                elif name in ("secondary", "differences"):
                    # reviewers' marks the runtime does not read; the site and docs list them
                    # (the snapshot package test compares them field by field)
                    continue
                else:
                    got = getattr(info, _RENAMED.get(name, name))
                    assert _plain(got) == value, (p["provider"], raw["model"], name)
            # and no fact of the runtime's answer is missing from the file
            for name, value in info.as_dict().items():
                skip = ("provider", "status", "next_price_change", "price_schedule")
                if value not in (None, [], ()) and name not in skip:
                    key = {v: k for k, v in _RENAMED.items()}.get(name, name)
                    if name in ("input_modalities", "output_modalities"):
                        key = "modalities"
                    assert key in raw, (p["provider"], raw["model"], name)
            seen += 1
    assert listed == {}, f"models the runtime lists that catalog.json lacks: {sorted(listed)}"
    return seen


def test_every_bundled_model_round_trips_through_the_runtime() -> None:
    data = _load(CATALOG_JSON)
    assert _round_trip(data) == sum(len(p["models"]) for p in data["providers"]) > 50


def test_a_catalog_with_tiers_batch_and_audio_round_trips(tmp_path: Path) -> None:
    """The acme test catalog prices tiers, batch, audio and reasoning apart: built with the
    generator, its catalog.json round-trips through the runtime pointed at it."""
    from tests.models.inventory_catalog import use_acme

    ws = Workspace(tmp_path)
    shutil.copytree(MODELS_CATALOG, ws.catalog)
    for path in ws.providers.glob("*.yaml"):
        text = path.read_text(encoding="utf-8").replace("../../../../schemas/", "../../schemas/")
        path.write_text(text, encoding="utf-8")
    assert ws.run().exit_code == 0
    data = _load(ws.out / "provcat_catalog" / "catalog.json")
    jsonschema.Draft202012Validator(_load(SCHEMA)).validate(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        context = use_acme()
        next(context)
        try:
            assert _round_trip(data) == 10  # acme prices a schedule and a discount too
        finally:
            next(context, None)


def test_a_rebuild_writes_the_same_bytes(workspace: Workspace, tmp_path: Path) -> None:
    first = (workspace.out / "provcat_catalog" / "catalog.json").read_bytes()
    shutil.rmtree(workspace.out)
    assert workspace.run("build", "--no-cache").exit_code == 0
    assert (workspace.out / "provcat_catalog" / "catalog.json").read_bytes() == first
    assert first.endswith(b"\n") and b"\r" not in first


def test_providers_written_once_give_the_bytes_of_the_whole_document() -> None:
    """A build takes each provider's models (catalog.json lines, canonical JSON) as written with
    its file's part; the result is what encoding the whole snapshot at once gives (the reference:
    json.dumps of the snapshot, and catalog.json written from the plain records)."""
    import hashlib

    from generator.catalog_json import render_json
    from generator.pipeline import run

    result = run(ROOT / "catalog")
    assert result.snapshot is not None and result.files is not None
    whole = json.dumps(result.snapshot, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    reference = "sha256:" + hashlib.sha256(whole.encode("utf-8")).hexdigest()
    written = result.files["provcat_catalog/catalog.json"]
    assert json.loads(written)["fingerprint"] == reference
    assert written == render_json(result.snapshot, reference, "catalog/")


def test_catalog_json_is_part_of_the_generated_tree() -> None:
    """`make check` compares it like every generated file: the build writes it."""
    from generator.pipeline import run

    result = run(ROOT / "catalog")
    assert result.files is not None
    assert result.files["provcat_catalog/catalog.json"] == CATALOG_JSON.read_text(encoding="utf-8")


def test_the_schema_refuses_malformed_schedules_fees_and_batch_discounts() -> None:
    """The new facts are described precisely: a discount beside a listed batch price, a fee of
    an unknown unit, a period day that is not a date and an unknown period key all fail."""
    validator = jsonschema.Draft202012Validator(_load(SCHEMA))
    data = _load(CATALOG_JSON)
    models = [m for p in data["providers"] for m in p["models"] if "prices" in m]
    discounted = next(m for m in models if "discount" in m["prices"].get("batch", {}))
    discounted["prices"]["batch"]["input"] = "1"
    feed = next(m for m in models if "fees" in m["prices"])
    feed["prices"]["fees"][0]["unit"] = "image"
    scheduled = next(m for m in models if isinstance(m["prices"], list))
    scheduled["prices"][-1]["from"] = "next year"
    scheduled["prices"][0]["speed"] = "fast"
    messages = sorted(e.message for e in validator.iter_errors(data))
    assert any("too many properties" in m for m in messages), messages
    assert any("'image' is not one of" in m for m in messages), messages
    assert any("'next year' does not match" in m for m in messages), messages
    assert any("'speed' was unexpected" in m for m in messages), messages
    assert len(messages) == 4, messages
