"""Price schedules in the catalog: the generator's checks of the periods, the snapshot's record and
the warning when a default model's price changes soon.

Each bad schedule is written on the valid inventory of tests/test_models_check.py; `fails` proves
the code, the position and that generated/ stayed byte-for-byte the same.
"""

from __future__ import annotations

import pytest

from tests.conftest import Workspace, tree_bytes
from tests.test_models_check import INVENTORY, OLD

PLAIN = """    prices:
      input: "1.25"
      output: "10"
      tiers:
        - {above_input_tokens: 4000, input: "2.50", output: "15"}
"""
# line 43 is "    prices:" (see tests/test_models_check.py)
SCHEDULE = """    prices:
      - {until: "2026-03-01", input: "0.60", output: "5", note: introductory}
      - from: "2026-03-01"
        input: "1.25"
        output: "10"
        tiers:
          - {above_input_tokens: 4000, input: "2.50", output: "15"}
"""


@pytest.fixture
def sched(workspace: Workspace) -> Workspace:
    workspace.edit("alpha.yaml", OLD, INVENTORY.replace(PLAIN, SCHEDULE))
    run = workspace.run("build", "--as-of", "2025-06-01")
    assert run.exit_code == 0, run.stdout + run.stderr
    assert run.json["diagnostics"] == []
    return workspace


def test_a_valid_schedule_is_written_to_the_snapshot_as_periods(sched: Workspace) -> None:
    text = (sched.out / "provcat_catalog" / "inventory.py").read_text()
    if "'from'" not in text:  # the inventory may be split into one module per provider
        text = "".join(p.read_text() for p in (sched.out / "provcat_catalog").rglob("*.py"))
    assert "'from': '2026-03-01'" in text and "'until': '2026-03-01'" in text
    assert "'note': 'introductory'" in text


BAD = [
    (
        "overlapping_periods",
        '      - from: "2026-03-01"\n',
        '      - from: "2026-02-01"\n',
        "price_periods_overlap",
        45,
        15,
        ("starts (2026-02-01) before period 0 ends (2026-03-01)",),
    ),
    (
        "period_ending_before_it_starts",
        '      - from: "2026-03-01"\n',
        '      - from: "2026-03-01"\n        until: "2026-02-01"\n',
        "price_period_ends_before_start",
        46,
        16,
        ("ends (2026-02-01) on or before it starts (2026-03-01)",),
    ),
    (
        "gap_between_periods",
        '      - from: "2026-03-01"\n',
        '      - from: "2026-03-05"\n',
        "price_period_gap",
        45,
        15,
        ("no price in between",),
    ),
    (
        "middle_period_without_from",
        '      - from: "2026-03-01"\n',
        '      - {until: "2026-03-01", input: "1", output: "1"}\n      - from: "2026-03-01"\n',
        "price_period_open",
        45,
        9,
        ("no `from`",),
    ),
    (
        "first_period_without_until",
        '      - {until: "2026-03-01", input',
        "      - {input",
        "price_period_open",
        44,
        9,
        ("no `until`",),
    ),
    (
        "negative_price_in_a_period",
        'input: "0.60"',
        'input: "-0.60"',
        "negative_price",
        44,
        38,
        ("prices/0/input",),
    ),
    (
        "invalid_day",
        '      - from: "2026-03-01"\n',
        '      - from: "2026-02-30"\n',
        "invalid_date",
        45,
        15,
        ("'2026-02-30' is no day",),
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "code", "line", "column", "words"),
    [pytest.param(*rule[1:], id=rule[0]) for rule in BAD],
)
def test_one_broken_schedule(
    sched: Workspace,
    old: str,
    new: str,
    code: str,
    line: int,
    column: int,
    words: tuple[str, ...],
) -> None:
    sched.edit("alpha.yaml", old, new)
    run = sched.fails((code, "alpha.yaml", line, column))
    message = run.json["diagnostics"][0]["message"]
    for word in words:
        assert word in message


def test_a_stated_gap_passes(sched: Workspace) -> None:
    sched.edit(
        "alpha.yaml",
        '      - from: "2026-03-01"\n',
        '      - from: "2026-03-05"\n        gap_before: not sold while the vendor migrates\n',
    )
    assert sched.run("build", "--as-of", "2025-06-01").json["diagnostics"] == []


def test_a_period_field_outside_the_schema_is_refused(sched: Workspace) -> None:
    sched.edit("alpha.yaml", '      - from: "2026-03-01"\n', '      - form: "2026-03-01"\n')
    run = sched.run("build", "--as-of", "2025-06-01")
    assert run.exit_code == 1
    assert "unknown_field" in run.codes


def test_default_models_price_change_within_30_days_is_a_warning(sched: Workspace) -> None:
    written = tree_bytes(sched.out)
    assert sched.run("build", "--as-of", "2026-01-29").json["diagnostics"] == []  # 31 days out
    run = sched.run("build", "--as-of", "2026-01-30")  # 30 days before 2026-03-01
    assert run.exit_code == 0
    found = sorted((d["code"], d["severity"], d["line"]) for d in run.json["diagnostics"])
    # the request default (line 15) and the policy's model alias (line 28) both name alpha-1
    assert found == [
        ("default_model_price_change", "warning", 15),
        ("default_model_price_change", "warning", 28),
    ]
    assert "changes on 2026-03-01 (in 30 days" in run.json["diagnostics"][0]["message"]
    eve = sched.run("build", "--as-of", "2026-02-28").json["diagnostics"]
    assert "changes on 2026-03-01 (in 1 day, as of 2026-02-28)" in eve[0]["message"]
    assert sched.run("build", "--as-of", "2026-03-01").json["diagnostics"] == []  # in force
    assert tree_bytes(sched.out) == written


# Batch prices: a stated discount alone, or every price listed (line 43 is "    prices:")
BATCH_BASE = """    prices:
      input: "1.25"
      output: "10"
      tiers:
"""
BATCH_CACHED = """    prices:
      input: "1.25"
      output: "10"
      cache_read: "0.125"
      batch: {discount: "0.50"}
      tiers:
"""


@pytest.fixture
def batch(workspace: Workspace) -> Workspace:
    workspace.edit("alpha.yaml", OLD, INVENTORY.replace(BATCH_BASE, BATCH_CACHED))
    run = workspace.run()
    assert run.exit_code == 0, run.stdout + run.stderr
    return workspace


def test_batch_listing_a_cache_price_beside_a_discount(batch: Workspace) -> None:
    batch.edit("alpha.yaml", '{discount: "0.50"}', '{discount: "0.50", cache_read: "0.0625"}')
    run = batch.fails(("batch_discount_with_prices", "alpha.yaml", 47, 45))
    assert "lists cache_read beside its discount 0.50" in run.json["diagnostics"][0]["message"]


def test_listed_batch_without_the_cache_price_the_base_lists(batch: Workspace) -> None:
    batch.edit("alpha.yaml", '{discount: "0.50"}', '{input: "0.625", output: "5"}')
    run = batch.fails(("batch_price_missing", "alpha.yaml", 47, 14))
    assert "lists no cache_read price" in run.json["diagnostics"][0]["message"]


def test_a_discount_of_one_or_more_is_refused_by_the_schema(batch: Workspace) -> None:
    batch.edit("alpha.yaml", '{discount: "0.50"}', '{discount: "1.5"}')
    run = batch.run()
    assert run.exit_code == 1 and "schema_violation" in run.codes


FEES = """    prices:
      input: "1.25"
      output: "10"
      fees:
        - {unit: request, price: "5", per: 1000, when: {search_context_size: low}, default: true}
        - {unit: request, price: "12", per: 1000, when: {search_context_size: high}}
      tiers:
"""


@pytest.fixture
def fees(workspace: Workspace) -> Workspace:
    workspace.edit("alpha.yaml", OLD, INVENTORY.replace(BATCH_BASE, FEES))
    run = workspace.run()
    assert run.exit_code == 0, run.stdout + run.stderr
    return workspace


def test_negative_request_fee(fees: Workspace) -> None:
    fees.edit("alpha.yaml", 'price: "12"', 'price: "-12"')
    run = fees.fails(("negative_price", "alpha.yaml", 48, 34))
    assert "prices/fees/1/price of model 'alpha-1' is -12" in run.json["diagnostics"][0]["message"]


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("default: true}", "}", "need exactly one `default: true`"),
        ("{search_context_size: high}}", "{search_context_size: low}}", "two request fees apply"),
        ("when: {search_context_size: high}", "when: {size: high}", "different options"),
    ],
)
def test_fees_that_do_not_pick_one_fee(fees: Workspace, old: str, new: str, words: str) -> None:
    fees.edit("alpha.yaml", old, new)
    run = fees.fails(("fee_conflict", "alpha.yaml", 48, 11))
    assert words in run.json["diagnostics"][0]["message"]


def test_a_fee_unit_outside_the_schema_is_refused(fees: Workspace) -> None:
    fees.edit("alpha.yaml", '{unit: request, price: "12"', '{unit: requests, price: "12"')
    run = fees.run()
    assert run.exit_code == 1 and "schema_violation" in run.codes
