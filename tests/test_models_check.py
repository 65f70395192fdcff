"""Whole-set validation of the model inventory: one test per rule, at its node.

Each test gives the base catalog's provider alpha a small valid inventory, breaks it in one place
and proves the code, the position and that generated/ stayed byte-for-byte the same
(Workspace.fails). Lifecycle diagnostics are judged on --as-of and never change generated/.
"""

from __future__ import annotations

import pytest

from tests.conftest import Workspace, tree_bytes

OLD = """models:
  alpha-1: {aliases: [alpha-one], context_window: 8192}
  vendor/alpha-2:7b: {context_window: 4096}
"""
# line 35 is "models:"; the positions below count from there
INVENTORY = """models:
  alpha-1:
    aliases: [alpha-one]
    status: active
    release_date: "2025-01-10"
    context_window: 8192
    max_output_tokens: 4096
    successor: alpha-3
    prices:
      input: "1.25"
      output: "10"
      tiers:
        - {above_input_tokens: 4000, input: "2.50", output: "15"}
  alpha-3: {context_window: 16384, release_date: "2026-01-01"}
  vendor/alpha-2:7b: {context_window: 4096}
"""


@pytest.fixture
def inv(workspace: Workspace) -> Workspace:
    workspace.edit("alpha.yaml", OLD, INVENTORY)
    run = workspace.run()
    assert run.exit_code == 0, run.stdout + run.stderr
    assert run.json["diagnostics"] == []
    return workspace


# One rule each: (test id, text to replace, replacement, code, line, column, words the message
# must contain). Every edit is made on the valid INVENTORY above.
RULES = [
    (
        "model_id_with_surrounding_spaces",
        "  alpha-3: {",
        '  " alpha-3 ": {',
        "model_id_whitespace",
        48,
        3,
        ("' alpha-3 '",),
    ),
    (
        "model_ids_differing_only_in_case",
        "  vendor/alpha-2:7b: {",
        "  ALPHA-3: {",
        "duplicate_model_key",
        49,
        3,
        ("differ only in case", "alpha.yaml:48:3"),
    ),
    (
        "duplicate_alias_within_a_provider",
        "  alpha-3: {",
        "  alpha-3: {aliases: [Alpha-One], ",
        "duplicate_model_key",
        48,
        23,
        (),
    ),
    (
        "alias_equal_to_another_models_id",
        "  alpha-3: {",
        "  alpha-3: {aliases: [vendor/alpha-2:7b], ",
        "model_alias_is_model_id",
        48,
        23,
        ("'vendor/alpha-2:7b'",),
    ),
    (
        "alias_equal_to_its_own_id",
        "aliases: [alpha-one]",
        "aliases: [alpha-one, alpha-1]",
        "self_alias",
        37,
        26,
        (),
    ),
    (
        "successor_that_names_nothing",
        "successor: alpha-3",
        "successor: alpha-9",
        "unknown_successor",
        42,
        16,
        (),
    ),
    (
        "points_to_that_names_nothing",
        "  alpha-3: {",
        "  alpha-3: {points_to: alpha-3-0101, ",
        "unknown_snapshot",
        48,
        24,
        (),
    ),
    (
        "successor_cycle_is_reported_once",
        "  alpha-3: {",
        "  alpha-3: {successor: alpha-one, ",
        "model_reference_cycle",
        42,
        16,
        ("'alpha-1' -> 'alpha-3' -> 'alpha-1'",),
    ),
    (
        "points_to_itself_is_a_cycle",
        "  alpha-3: {",
        "  alpha-3: {points_to: ALPHA-3, ",
        "model_reference_cycle",
        48,
        24,
        (),
    ),
    (
        "max_output_above_the_context_window",
        "max_output_tokens: 4096",
        "max_output_tokens: 8193",
        "limit_above_context",
        41,
        24,
        (),
    ),
    (
        "max_input_above_the_context_window",
        "  alpha-3: {",
        "  alpha-3: {max_input_tokens: 20000, ",
        "limit_above_context",
        48,
        31,
        (),
    ),
    (
        "dates_out_of_order",
        "  alpha-3: {",
        '  alpha-3: {deprecation_date: "2025-06-01", ',
        "lifecycle_dates_out_of_order",
        48,
        31,
        (),
    ),
    (
        "shutdown_before_deprecation",
        "  vendor/alpha-2:7b: {",
        '  vendor/alpha-2:7b: {deprecation_date: "2026-05-01", shutdown_date: "2026-04-30", ',
        "lifecycle_dates_out_of_order",
        49,
        70,
        (),
    ),
    (
        "a_date_that_is_no_day",
        'release_date: "2025-01-10"',
        'release_date: "2025-02-30"',
        "invalid_date",
        39,
        19,
        (),
    ),
    (
        "retired_model_without_shutdown_date",
        "  vendor/alpha-2:7b: {",
        "  vendor/alpha-2:7b: {status: retired, ",
        "retired_without_shutdown_date",
        49,
        31,
        (),
    ),
    (
        "tier_thresholds_not_increasing",
        '        - {above_input_tokens: 4000, input: "2.50", output: "15"}\n',
        '        - {above_input_tokens: 4000, input: "2.50", output: "15"}\n'
        '        - {above_input_tokens: 4000, input: "3", output: "20"}\n',
        "tier_threshold_not_increasing",
        48,
        32,
        (),
    ),
    (
        "tier_threshold_at_or_above_the_context_window",
        "above_input_tokens: 4000",
        "above_input_tokens: 8192",
        "tier_above_context",
        47,
        32,
        (),
    ),
    # The schema's price pattern admits a minus sign on purpose: the generator, not the schema,
    # refuses a negative price, with its code and the price's path. Every price set (base, tier,
    # batch, batch tier) and both written forms (string, integer) reach it.
    (
        "negative_price_in_a_tier",
        'output: "15"',
        'output: "-15"',
        "negative_price",
        47,
        61,
        ("prices/tiers/0/output",),
    ),
    (
        "negative_integer_price",
        '      output: "10"\n',
        "      output: -10\n",
        "negative_price",
        45,
        15,
        ("prices/output",),
    ),
    (
        "negative_batch_price",
        '      output: "10"\n',
        '      output: "10"\n      batch: {input: "-0.5", output: "5"}\n',
        "negative_price",
        46,
        22,
        ("prices/batch/input",),
    ),
    (
        "negative_batch_tier_price",
        '      output: "10"\n',
        '      output: "10"\n      batch: {input: "0.6", output: "5", tiers: [{above_input_tokens: 10, output: -1}]}\n',
        "negative_price",
        46,
        83,
        ("prices/batch/tiers/0/output",),
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "code", "line", "column", "words"),
    [pytest.param(*rule[1:], id=rule[0]) for rule in RULES],
)
def test_one_broken_rule(
    inv: Workspace, old: str, new: str, code: str, line: int, column: int, words: tuple[str, ...]
) -> None:
    inv.edit("alpha.yaml", old, new)
    run = inv.fails((code, "alpha.yaml", line, column))
    message = run.json["diagnostics"][0]["message"]
    for word in words:
        assert word in message


@pytest.mark.parametrize(
    ("old", "new", "line", "column"),
    [
        ('      output: "10"\n', '      output: "10"\n      cache_raed: "1"\n', 46, 7),
        ('output: "15"}', 'output: "15", cache_raed: "1"}', 47, 67),
        ('      output: "10"\n', '      output: "10"\n      batch: {cache_raed: "1"}\n', 46, 15),
    ],
)
def test_misspelled_price_in_every_price_set(
    inv: Workspace, old: str, new: str, line: int, column: int
) -> None:
    """The price sets share one block of fields in the schema; each still refuses an unknown one
    and names the field meant."""
    inv.edit("alpha.yaml", old, new)
    run = inv.fails(("unknown_field", "alpha.yaml", line, column))
    assert run.json["diagnostics"][0]["hint"] == "did you mean 'cache_read'?"


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        # OpenAI's pricing page: "Cached input"; by letters it is nearest cache_write
        ("cached_input", "cache_read"),
        # DeepSeek's pricing page: "input price (cache hit)" and "(cache miss)"
        ("Cache-Hit", "cache_read"),
        ("cache_miss", "input"),
        # Anthropic's usage fields: cache_creation_input_tokens, cache_read_input_tokens
        ("cache_creation_input_tokens", "cache_write"),
    ],
)
def test_a_vendors_word_for_a_price_names_the_field_it_means(
    inv: Workspace, written: str, meant: str
) -> None:
    """A maintainer copies a column from the vendor's pricing page: the hint names the field
    with that meaning, not the nearest spelling (a cache-read price given as cache_write would
    pass the schema and price every cached token wrong)."""
    inv.edit("alpha.yaml", '      output: "10"\n', f'      output: "10"\n      {written}: "1"\n')
    run = inv.fails(("unknown_field", "alpha.yaml", 46, 7))
    hint = run.json["diagnostics"][0]["hint"]
    assert hint.startswith(f"did you mean '{meant}'? ") and "USD per million tokens" in hint


@pytest.mark.parametrize(
    ("written", "meant", "said"),
    [
        # by letters nearest max_input_tokens; vendors' max_tokens caps the output
        ("max_tokens", "max_output_tokens", "Most tokens one response may hold"),
        # OpenRouter's models API: context_length, max_completion_tokens
        ("context_length", "context_window", "Context window"),
        # the Gemini API's Model: inputTokenLimit (camel case as the API writes it)
        ("inputTokenLimit", "max_input_tokens", ""),
        # Vertex AI's "retirement date" is by letters nearest release_date, and is the last day
        # served: the hint says what shutdown_date holds (the first day not served)
        ("retirement_date", "shutdown_date", "The first day the vendor no longer serves"),
    ],
)
def test_a_vendors_word_for_a_model_field_names_the_field_and_what_it_holds(
    inv: Workspace, written: str, meant: str, said: str
) -> None:
    inv.edit(
        "alpha.yaml", "    context_window: 8192\n", f"    context_window: 8192\n    {written}: 1\n"
    )
    run = inv.fails(("unknown_field", "alpha.yaml", 41, 5))
    hint = run.json["diagnostics"][0]["hint"]
    assert hint.startswith(f"did you mean '{meant}'?") and said in hint


def test_float_price_with_binary_noise_is_refused(inv: Workspace) -> None:
    inv.edit("alpha.yaml", 'input: "1.25"', "input: 0.1")
    run = inv.fails(("schema_violation", "alpha.yaml", 44, 14))
    diagnostic = run.json["diagnostics"][0]
    assert "got a number 0.1" in diagnostic["message"]
    # what to write, without the description's other sentences (the minus sign's)
    assert diagnostic["hint"] == (
        'quote it: "0.1" (floats are refused: YAML reads 0.1 as a binary fraction)'
    )


def test_request_default_not_in_the_inventory(inv: Workspace) -> None:
    inv.edit("alpha.yaml", "{model: alpha-1, temperature", "{model: alpah-1, temperature")
    run = inv.fails(("unknown_default_model", "alpha.yaml", 15, 24))
    # found by a new maintainer: the hint named no near id, where unknown_probe_model does
    assert run.json["diagnostics"][0]["hint"].startswith("did you mean 'alpha-1'? Otherwise")
    inv.edit("alpha.yaml", "{model: alpah-1, temperature", "{model: ALPAH-1, temperature")
    run = inv.fails(("unknown_default_model", "alpha.yaml", 15, 24))  # ids match in any case
    assert run.json["diagnostics"][0]["hint"].startswith("did you mean 'alpha-1'? Otherwise")


def test_a_request_default_near_no_listed_model_gets_the_codes_hint(inv: Workspace) -> None:
    inv.edit("alpha.yaml", "{model: alpha-1, temperature", "{model: zzzzzz, temperature")
    run = inv.fails(("unknown_default_model", "alpha.yaml", 15, 24))
    assert run.json["diagnostics"][0]["hint"] == (
        "use an id or alias from the provider's `models:`, or add the model there"
    )


def test_retired_model_in_a_default_and_an_alias_as_of_a_day(inv: Workspace) -> None:
    inv.edit(
        "alpha.yaml",
        "    status: active\n",
        '    status: active\n    deprecation_date: "2026-01-15"\n    shutdown_date: "2026-06-30"\n',
    )
    before = tree_bytes(inv.out)
    run = inv.run("build", "--as-of", "2026-06-30")
    assert run.exit_code == 1
    found = sorted((d["code"], d["line"], d["column"]) for d in run.json["diagnostics"])
    assert found == [("retired_model_in_use", 15, 24), ("retired_model_in_use", 28, 20)]
    message = run.json["diagnostics"][0]["message"]
    assert "2026-06-30" in message and "'alpha-3'" in message
    assert tree_bytes(inv.out) == before


def test_deprecated_model_is_a_warning_that_never_changes_the_output(inv: Workspace) -> None:
    inv.edit(
        "alpha.yaml",
        "    status: active\n",
        '    status: active\n    deprecation_date: "2026-01-15"\n    shutdown_date: "2026-06-30"\n',
    )
    assert inv.run("build", "--as-of", "2025-12-31").json["diagnostics"] == []
    written = tree_bytes(inv.out)
    run = inv.run("build", "--as-of", "2026-03-01")
    assert run.exit_code == 0
    found = sorted((d["code"], d["severity"], d["line"]) for d in run.json["diagnostics"])
    assert found == [
        ("deprecated_model_in_use", "warning", 15),
        ("deprecated_model_in_use", "warning", 28),
    ]
    assert "shut down on 2026-06-30" in run.json["diagnostics"][0]["message"]
    assert "successor is 'alpha-3'" in run.json["diagnostics"][0]["message"]
    assert tree_bytes(inv.out) == written
    assert inv.run("check", "--as-of", "2026-03-01").exit_code == 0


def test_every_inventory_problem_in_one_run(inv: Workspace) -> None:
    inv.edit("alpha.yaml", "successor: alpha-3", "successor: alpha-9")
    inv.edit("alpha.yaml", "max_output_tokens: 4096", "max_output_tokens: 8193")
    inv.edit("alpha.yaml", 'output: "15"', 'output: "-15"')
    inv.edit("alpha.yaml", "  vendor/alpha-2:7b: {", "  vendor/alpha-2:7b: {status: retired, ")
    inv.fails(
        ("unknown_successor", "alpha.yaml", 42, 16),
        ("limit_above_context", "alpha.yaml", 41, 24),
        ("negative_price", "alpha.yaml", 47, 61),
        ("retired_without_shutdown_date", "alpha.yaml", 49, 31),
    )


@pytest.mark.parametrize(
    ("written", "what", "hint"),
    [
        ("2026-13", "no month", "or a month as YYYY-MM"),
        ("2026-02-31", "no day", "or a month as YYYY-MM"),
    ],
)
def test_a_knowledge_cutoff_that_is_no_calendar_date(
    inv: Workspace, written: str, what: str, hint: str
) -> None:
    inv.edit("alpha.yaml", "  alpha-3: {", f'  alpha-3: {{knowledge_cutoff: "{written}", ')
    run = inv.fails(("invalid_date", "alpha.yaml", 48, 31))
    found = run.json["diagnostics"][0]
    assert f"knowledge_cutoff '{written}'" in found["message"] and what in found["message"]
    assert hint in found["hint"]


def test_the_invalid_date_hint_names_the_form_the_field_takes(inv: Workspace) -> None:
    inv.edit("alpha.yaml", "  alpha-3: {", '  alpha-3: {shutdown_date: "2026-02-30", ')
    run = inv.fails(("invalid_date", "alpha.yaml", 48, 28))
    assert run.json["diagnostics"][0]["hint"] == "write a real date as YYYY-MM-DD"


GAMMA_CAPS = """provider: gamma
display_name: Gamma
defaults:
  base_url: http://127.0.0.1:9/v1
  api_key_env: GAMMA_API_KEY
endpoints:
  chat/completions:
    type: api
    protocol: openai-chat
    request_defaults: {model: gamma-large-1, DEFAULTS}
  responses:
    type: api
    protocol: http
    request_options: provcat.providers.openai.responses:ResponsesRequest
    request_defaults: {model: gamma-large, max_output_tokens: 20000}
models:
  gamma-large:
    points_to: gamma-large-1
  gamma-large-1:
    context_window: 128000
    max_output_tokens: 16384
"""


@pytest.mark.parametrize("field", ["max_tokens", "max_completion_tokens"])
def test_a_request_default_above_the_models_output_limit_is_warned_about(
    workspace: Workspace, field: str
) -> None:
    """The model writes 16,384 tokens at most (its max_output_tokens): a request default asking
    for more, under any of the request fields that cap the output (max_tokens,
    max_completion_tokens, max_output_tokens; through a points_to alias too), is a warning at
    the field, where invalid_request_default is reported too."""
    path = workspace.write("gamma.yaml", GAMMA_CAPS.replace("DEFAULTS", f"{field}: 999999"))
    lines = path.read_text(encoding="utf-8").splitlines()
    run = workspace.run()
    assert run.exit_code == 0, run.stdout
    assert run.where("request_default_above_output_limit") == [  # at each field's key
        ("catalog/providers/gamma.yaml", 11, lines[10].index(field) + 1),
        ("catalog/providers/gamma.yaml", 16, lines[15].index("max_output") + 1),
    ]
    first = run.json["diagnostics"][0]
    assert first["severity"] == "warning"
    assert f"{field} 999999" in first["message"] and "16384" in first["message"]
    assert "gamma-large-1" in first["message"]


def test_a_request_default_above_the_limit_down_a_points_to_chain_is_warned_about(
    workspace: Workspace,
) -> None:
    """gamma-latest points to gamma-large, which points to gamma-large-1 and its limit."""
    text = (
        GAMMA_CAPS.replace(
            "model: gamma-large-1, DEFAULTS", "model: gamma-latest, max_tokens: 999999"
        )
        + "  gamma-latest:\n    points_to: gamma-large\n"
    )
    workspace.write("gamma.yaml", text)
    run = workspace.run()
    found = [
        d for d in run.json["diagnostics"] if d["code"] == "request_default_above_output_limit"
    ]
    assert len(found) == 2, run.stdout  # the chat default, and the responses one of before
    assert "16384" in found[0]["message"] and "gamma-large-1" in found[0]["message"]


def test_a_request_default_within_the_models_output_limit_passes(workspace: Workspace) -> None:
    text = GAMMA_CAPS.replace("DEFAULTS", "max_tokens: 16384").replace(
        "max_output_tokens: 20000", "max_output_tokens: 100"
    )
    workspace.write("gamma.yaml", text)
    run = workspace.run()
    assert run.exit_code == 0 and run.json["diagnostics"] == [], run.stdout


def test_a_review_day_after_the_check_day_is_a_warning(inv: Workspace) -> None:
    """A `reviewed_at` in the future (a typo for the year, say) is no review: a warning at the
    value, judged on `--as-of` (default today), for the provider's and for a model's."""
    inv.edit(
        "alpha.yaml", "display_name: Alpha\n", 'display_name: Alpha\nreviewed_at: "2999-01-01"\n'
    )
    inv.edit(
        "alpha.yaml", "    status: active\n", '    status: active\n    reviewed_at: "2026-12-01"\n'
    )
    run = inv.run("build", "--as-of", "2026-11-30")
    assert run.exit_code == 0, run.stdout + run.stderr
    found = sorted(
        (d["code"], d["severity"], d["line"], d["column"]) for d in run.json["diagnostics"]
    )
    assert found == [
        ("reviewed_at_in_future", "warning", 4, 14),
        ("reviewed_at_in_future", "warning", 40, 18),
    ]
    first = run.json["diagnostics"][0]
    assert "2999-01-01" in first["message"] and "2026-11-30" in first["message"]
    assert first["hint"]
    today = inv.run("build")  # judged on today's date: the model's review is past by now
    assert [(d["code"], d["line"]) for d in today.json["diagnostics"]] == [
        ("reviewed_at_in_future", 4)
    ]


def test_a_review_day_that_is_no_day_is_an_error(inv: Workspace) -> None:
    """`reviewed_at: "2026-02-30"` has the form the schema asks for but names no day (February
    has no 30th): invalid_date at the value, as for the model's other dates."""
    inv.edit(
        "alpha.yaml", "display_name: Alpha\n", 'display_name: Alpha\nreviewed_at: "2026-02-30"\n'
    )
    run = inv.run("build")
    assert run.exit_code == 1, run.stdout + run.stderr
    assert [(d["code"], d["line"], d["column"]) for d in run.json["diagnostics"]] == [
        ("invalid_date", 4, 14)
    ]
    assert "2026-02-30" in run.json["diagnostics"][0]["message"]
