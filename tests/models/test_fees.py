"""Fees on top of token prices, on the bundled catalog. Expected totals are worked by hand from
Perplexity's pricing page (docs.perplexity.ai/getting-started/pricing): Sonar Pro $3 / $15 per
million tokens plus $6 / $10 / $14 per 1,000 requests at search context size low / medium / high
(low is Perplexity's default); Sonar Deep Research $5 per 1,000 search queries."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from click.testing import CliRunner

from provcat import estimate_cost
from provcat.cli.main import main
from provcat.errors import PricingUnavailable

USAGE = {"input_tokens": 1000, "output_tokens": 500}  # $0.003 + $0.0075


@pytest.mark.parametrize(
    ("options", "fee", "total"),
    [
        (None, "0.006", "0.0165"),  # the default: low
        ({"search_context_size": "medium"}, "0.01", "0.0205"),
        ({"search_context_size": "high"}, "0.014", "0.0245"),
    ],
)
def test_request_fee_by_search_context_size(
    options: dict[str, str] | None, fee: str, total: str
) -> None:
    cost = estimate_cost("perplexity", "sonar-pro", USAGE, options=options)
    (line,) = cost.fees
    assert line.unit == "request" and line.count == 1 and line.amount == Decimal(fee)
    assert cost.total == Decimal(total)
    wanted = (options or {"search_context_size": "low"})["search_context_size"]
    assert line.option == f"search_context_size={wanted}"


def test_usage_carries_the_request_count() -> None:
    cost = estimate_cost("perplexity", "sonar-pro", {**USAGE, "requests": 3})
    assert cost.fees[0].amount == Decimal("0.018")  # 3 x $6 / 1,000


def test_fee_per_billed_search() -> None:
    usage = {"input_tokens": 10_000, "output_tokens": 2_000, "web_searches": 3}
    cost = estimate_cost("perplexity", "sonar-deep-research", usage)
    # 10,000 x $2 + 2,000 x $8 per million, then 3 searches x $5 / 1,000
    assert cost.as_dict()["fees"] == [
        {
            "unit": "web_search",
            "count": 3,
            "price": "5",
            "per": 1000,
            "option": None,
            "amount": "0.015",
        }
    ]
    assert cost.total == Decimal("0.051")


def test_a_billed_call_the_model_has_no_fee_for_is_refused_not_costed_at_zero() -> None:
    """Anthropic's usage counts the searches its web search tool ran
    (`server_tool_use.web_search_requests`, anthropic-sdk-python's `ServerToolUsage`), each
    billed on top of the tokens; a model whose fee the catalog does not hold cannot be costed
    whole, and a total without them would be a wrong number."""
    anthropic = pytest.importorskip("anthropic.types")
    usage = anthropic.Usage(
        input_tokens=1000,
        output_tokens=100,
        server_tool_use=anthropic.ServerToolUsage(web_search_requests=5, web_fetch_requests=0),
    )
    with pytest.raises(PricingUnavailable, match=r"lists no fees .* reports 5 web searches"):
        estimate_cost("anthropic", "claude-sonnet-5-5", usage)
    none = {"input_tokens": 1000, "output_tokens": 100, "web_searches": 0}
    assert estimate_cost("anthropic", "claude-sonnet-5-5", none).fees == ()
    run = CliRunner().invoke(
        main, ["cost", "openai", "gpt-6.1-terra", "--input", "1", "--web-searches", "2"]
    )
    assert run.exit_code == 1 and "reports 2 web searches" in run.output


def test_cost_command_prints_no_empty_fee_and_notes_a_count_no_fee_takes() -> None:
    """Sonar Deep Research bills searches, not requests ($5 per 1,000 search queries, $2 per
    million input tokens: the pricing page); Sonar's request fee pays for its searches. A count
    for a fee the model does not have changes nothing, and is said to; a fee of no units is no
    line."""
    args = ["cost", "perplexity", "sonar-deep-research", "--input", "10"]
    run = CliRunner().invoke(main, [*args, "--requests", "5"])
    assert run.exit_code == 0 and "total         $0.00002 USD" in run.stdout
    assert "fee" not in run.stdout  # no "$0.00 (0 web searches ...)"
    assert (
        "note: perplexity/sonar-deep-research has no per-request fee in the catalog: --requests 5 "
        "changes nothing"
    ) in run.stderr
    run = CliRunner().invoke(main, [*args, "--web-searches", "2"])
    assert "fee           $0.01 (2 web searches x $5.00 per 1,000)" in run.stdout
    assert "note:" not in run.stderr
    run = CliRunner().invoke(
        main, ["cost", "perplexity", "sonar", "--input", "10", "--web-searches", "3"]
    )
    assert run.exit_code == 0 and "(1 request x $5.00 per 1,000, search_context_size=low)" in (
        run.stdout
    )
    assert "has no web-search fee in the catalog: --web-searches 3 changes nothing" in run.stderr
    # a model that lists no fees at all: the count is refused (its fee may be missing), in the
    # command's words
    run = CliRunner().invoke(
        main, ["cost", "openai", "gpt-6.1-terra", "--input", "1", "--web-searches", "2"]
    )
    assert run.exit_code == 1 and "reports 2 web searches (--web-searches)" in run.output


def test_searches_a_request_fee_covers_are_costed_by_it() -> None:
    """Sonar's request fee pays for its searches (Perplexity's pricing page: a fee per request by
    search context size); a usage that reports them, as Perplexity's `num_search_queries`, is
    costed with that fee, not refused."""
    usage = {"prompt_tokens": 10, "completion_tokens": 20, "num_search_queries": 1}
    cost = estimate_cost("perplexity", "sonar", usage)
    assert [line.unit for line in cost.fees] == ["request"] and cost.total > 0


def test_unknown_option_value_and_option_name_are_errors() -> None:
    with pytest.raises(ValueError, match="no request fee for search_context_size='hihg'"):
        estimate_cost("perplexity", "sonar-pro", USAGE, options={"search_context_size": "hihg"})
    with pytest.raises(ValueError, match="did you mean 'search_context_size'"):
        estimate_cost("perplexity", "sonar-pro", USAGE, options={"search_context": "high"})


def test_negative_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="usage requests is -1"):
        estimate_cost("perplexity", "sonar-pro", {**USAGE, "requests": -1})


def test_cost_command_prints_each_fee_line() -> None:
    args = ["cost", "perplexity", "sonar-pro", "--input", "1000", "--output", "500"]
    result = CliRunner().invoke(main, [*args, "--option", "search_context_size=high"])
    assert result.exit_code == 0
    assert (
        "fee           $0.014 (1 request x $14.00 per 1,000, search_context_size=high)"
        in result.stdout
    )
    data = json.loads(
        CliRunner().invoke(main, [*args, "--requests", "2", "--format", "json"]).stdout
    )
    assert data["fees"][0]["amount"] == "0.012" and data["total"] == "0.0225"
    bad = CliRunner().invoke(main, [*args, "--option", "high"])
    assert bad.exit_code == 2 and "is not NAME=VALUE" in bad.output


def test_cost_command_takes_every_part_a_model_prices_apart() -> None:
    # Perplexity's Deep Research example (pricing page, Low tab): 33 input, 7,163 output,
    # 20,016 citation and 73,997 reasoning tokens, 18 searches: $0.000066 + $0.057304 +
    # $0.040032 + $0.221991 + $0.09 = $0.409393
    args = ["cost", "perplexity", "sonar-deep-research", "--input", "33"]
    parts = ["--reasoning", "73997", "--citation", "20016", "--web-searches", "18"]
    result = CliRunner().invoke(main, [*args, "--output", str(7163 + 20016 + 73997), *parts])
    assert result.exit_code == 0, result.output
    assert "citation      $0.040032" in result.stdout
    assert "reasoning     $0.221991" in result.stdout
    assert "total         $0.409393 USD" in result.stdout
    # the parts of the output cannot exceed it: the error says what output_tokens counts
    short = CliRunner().invoke(main, [*args, "--output", "100", *parts])
    assert short.exit_code == 1
    assert "is above --output (100): --output counts the whole output" in short.output
    negative = CliRunner().invoke(main, [*args, "--output", "100", "--citation", "-1"])
    assert negative.exit_code == 2 and "-1 is not in the range x>=0" in negative.output
