"""`provcat models`, `provcat models show` and `provcat cost` on the acme test catalog."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from provcat.cli.main import main
from tests.models.inventory_catalog import use_acme


@pytest.fixture(autouse=True)
def acme() -> Iterator[dict[str, Any]]:
    yield from use_acme()


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_models_table_and_filters() -> None:
    result = invoke("models", "--provider", "acme-ai", "--as-of", "2026-12-01")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["MODEL", "STATUS"]
    assert any(line.split()[0:2] == ["acme/acme-old", "deprecated"] for line in lines[2:])
    result = invoke("models", "--status", "retired", "--as-of", "2026-12-01", "--format", "json")
    assert [m["id"] for m in json.loads(result.stdout)] == ["acme-ancient"]
    result = invoke("models", "--tool-call", "--format", "json")
    assert [m["id"] for m in json.loads(result.stdout)] == ["acme-free", "acme-large-2"]
    result = invoke("models", "--reasoning", "--format", "json")
    assert [m["id"] for m in json.loads(result.stdout)] == ["acme-large-2", "acme-think"]


def test_an_empty_table_says_no_model_matches() -> None:
    # acme-ancient is the only retired model and records no tool calling
    result = invoke("models", "--provider", "acme", "--status", "retired", "--tool-call",
                    "--as-of", "2026-12-01")  # fmt: skip
    assert result.exit_code == 0 and len(result.stdout.splitlines()) == 2
    assert result.stderr == "note: no model matches these filters\n"


def test_models_unknown_provider_is_a_clear_error() -> None:
    result = invoke("models", "--provider", "acne")
    assert result.exit_code == 1 and "unknown provider 'acne'" in result.stderr
    result = invoke("models", "--provider", "acne", "--format", "json")
    assert (
        json.loads(result.stdout)["error"] == "EndpointNotFound"
    )  # an unknown provider, as every command says it


def test_show_a_deprecated_model_names_its_shutdown_and_successor() -> None:
    result = invoke("models", "show", "acme", "ACME-OLD", "--as-of", "2026-12-01")
    assert result.exit_code == 0
    assert "DEPRECATED (judged on 2026-12-01), shutdown 2027-01-14; successor: acme-large-2" in (
        result.stdout
    )
    data = json.loads(invoke("models", "show", "acme", "acme-large-2", "--format", "json").stdout)
    assert data["prices"]["tiers"][0]["above_input_tokens"] == 200000
    assert data["prices"]["cache_write_1h"] == "6"


def test_show_unknown_model_lists_the_closest() -> None:
    result = invoke("models", "show", "acme", "acme-larg-2")
    assert result.exit_code == 1 and "closest: acme-large-2" in result.stderr


def test_cost() -> None:
    # Claude Sonnet 4.5 prices: 800 x $3 + 200 x $0.30 + 50 x $15 (micro-dollars)
    result = invoke(
        "cost", "acme", "acme-large-2", "--input", "1000", "--output", "50", "--cached", "200"
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1].split() == ["total", "$0.00321", "USD"]
    data = json.loads(
        invoke(
            "cost", "acme", "acme-large-2", "--input", "1000", "--output", "1000", "--batch",
            "--format", "json",
        ).stdout
    )  # fmt: skip
    assert data["total"] == "0.009" and data["batch"] is True


def test_cost_of_input_alone_needs_no_output_flag() -> None:
    """`--output` counts 0 unless given, as a usage without `output_tokens` does in
    `estimate_cost`: an embedding model's request is priced from its input alone."""
    result = invoke("cost", "acme", "acme-large-2", "--input", "1000", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["output"] == "0" and data["total"] == "0.003"  # 1000 x $3 per million


def test_cost_of_a_deprecated_or_retired_model_carries_a_note_on_stderr() -> None:
    day = ("--as-of", "2026-12-01")
    result = invoke("cost", "acme", "acme-old", "--input", "1000", "--output", "1000", *day)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1].split() == ["total", "$0.002", "USD"]  # 0.40 + 1.60
    assert result.stderr == (
        "note: acme/acme-old is deprecated (judged on 2026-12-01), shutdown 2027-01-14; successor: acme-large-2\n"
    )
    result = invoke(
        "cost", "acme", "acme-ancient", "--input", "1", "--output", "1", "--format", "json", *day
    )
    assert json.loads(result.stdout)["total"] == "0.00009"  # stdout stays pure JSON
    assert (
        "is retired (judged on 2026-12-01), shutdown 2025-06-01; successor: acme-old"
        in result.stderr
    )
    result = invoke("cost", "acme", "acme-large-2", "--input", "1", "--output", "1", *day)
    assert result.stderr == ""
    # the day the lifecycle is judged on moves the note, never the price
    later = ("--as-of", "2027-02-01")
    result = invoke("cost", "acme", "acme-old", "--input", "1000", "--output", "1000", *later)
    assert result.stdout.splitlines()[-1].split() == ["total", "$0.002", "USD"]
    assert "acme/acme-old is retired (judged on 2027-02-01), shutdown 2027-01-14" in result.stderr


def test_cost_errors_are_clear() -> None:
    result = invoke("cost", "acme", "acme-free", "--input", "1", "--output", "1")
    assert result.exit_code == 1 and "has no prices" in result.stderr
    result = invoke(
        "cost", "acme", "acme-large-2", "--input", "1", "--output", "1", "--cached", "5"
    )
    assert result.exit_code == 1  # in the command's words: its flags, not the usage fields
    assert "--cached + --cache-write (5) is above --input (1): --input counts" in result.stderr
    result = invoke(
        "cost", "acme", "acme-large-2", "--input", "1000", "--cache-write", "500",
        "--cache-write-1h", "600",
    )  # fmt: skip
    assert result.exit_code == 1  # the rule this check holds to: 1-hour writes are cache writes
    assert (
        "--cache-write-1h (600) is above --cache-write (500): --cache-write counts every cache "
        "write, those for an hour included"
    ) in result.stderr
    result = invoke("cost", "acme", "acme-large-2", "--input", "-1", "--output", "1")
    assert result.exit_code == 2
    result = invoke("cost", "acme", "acme-large-2-high", "--input", "1")
    assert result.exit_code == 1  # an effort suffix is a spec's: the model and the way to say it
    assert "'-high' is an effort level, not part of the model id 'acme-large-2'" in result.stderr
    assert "parse_model_spec('acme/acme-large-2-high') splits it off" in result.stderr
    assert "`provcat model acme/acme-large-2 --effort high`" in result.stderr


def test_generated_docs_list_every_model_and_the_lifecycle(acme: dict[str, Any]) -> None:
    from generator.render import render

    files = render(acme, "tests/catalogs/models/")
    models = files["docs/models/acme.md"]  # the index links one page per provider
    for m in acme["inventory"]["acme"]:
        assert f"`{m['model']}`" in models
    assert "above 200,000 input: in $6, out $22.50" in models
    assert "batch: 50% off every price" in models
    lifecycle = files["docs/lifecycle.md"].splitlines()
    rows = [line.split("|")[2].strip() for line in lifecycle if line.startswith("| `acme`")]
    # by shutdown date, none announced last
    assert rows == ["`acme-ancient`", "`acme-old`", "`acme-sunset`"]


def test_model_command_shows_the_deprecation_warning_it_would_otherwise_hide() -> None:
    result = invoke("model", "acme/acme-old", "--format", "json")
    answer = json.loads(result.stdout)
    assert result.exit_code == 0 and answer["kwargs"]["model"] == "acme-old"
    assert [w.split(" is ")[0] for w in answer["warnings"]] == ["model 'acme/acme-old'"]
    # deprecated, or retired once its shutdown date (2027-01-14) has passed: warned either way
    assert result.stderr.startswith("warning: model 'acme/acme-old' is ")
    assert "successor 'acme-large-2'" in result.stderr
    result = invoke("model", "acme/acme-large-2")
    assert result.exit_code == 0 and result.stderr == ""


def test_as_of_and_format_before_show_count_as_after_it() -> None:
    # `models --as-of DAY show ...` printed today's status and prices: the group's options were
    # read by the list alone (README: --format json counts wherever it stands on the line)
    after = invoke("models", "show", "acme", "ACME-OLD", "--as-of", "2027-02-01")
    before = invoke("models", "--as-of", "2027-02-01", "show", "acme", "ACME-OLD")
    assert before.exit_code == after.exit_code == 0
    assert before.stdout == after.stdout
    assert "RETIRED" in before.stdout  # past its shutdown (2027-01-14) on that day
    data = json.loads(invoke("models", "--format", "json", "show", "acme", "acme-large-2").stdout)
    assert data["id"] == "acme-large-2"
    # a list filter before `show` is refused, not dropped without a word
    refused = invoke("models", "--provider", "acme", "show", "acme", "acme-large-2")
    assert refused.exit_code == 2
    assert "--provider filters the list of models" in refused.stderr


def test_an_alias_model_shows_every_price_fact_of_the_model_it_serves(
    acme: dict[str, Any],
) -> None:
    """Found in review: an alias (``points_to``) of a model with a price schedule showed its
    served model's prices but not the schedule. It shows what `cost` bills it at, all of it."""
    from provcat.models.inventory import _INVENTORY

    inventory = {k: list(v) for k, v in acme["inventory"].items()}
    index = {k: dict(v) for k, v in acme["inventory_index"].items()}
    intro = next(m for m in inventory["acme"] if m["model"] == "acme-intro")
    alias = {k: v for k, v in intro.items() if k not in ("prices", "aliases")}
    alias.update(model="acme-intro-latest", points_to="acme-intro")
    inventory["acme"].append(alias)
    index["acme"]["acme-intro-latest"] = "acme-intro-latest"
    _INVENTORY._reset((inventory, index, acme["provider_index"]))

    def shown(model: str) -> dict[str, Any]:
        args = ["models", "show", "acme", model, "--as-of", "2027-01-01", "--format", "json"]
        result = invoke(*args)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)  # type: ignore[no-any-return]

    served, alias_shown = shown("acme-intro"), shown("acme-intro-latest")
    assert alias_shown["priced_as"] == "acme-intro"
    for key in ("prices", "next_price_change", "price_schedule"):
        assert alias_shown[key] == served[key], key
    assert served["price_schedule"]  # the case in point: the served model has a schedule
    text = invoke("models", "show", "acme", "acme-intro-latest", "--as-of", "2027-01-01").stdout
    assert "price schedule:" in text
