"""Perplexity's Sonar usage (the ``usage`` of its chat completions, the perplexityai SDK's
``UsageInfo``) read into TokenUsage and costed on the bundled catalog.

Expected costs are worked by hand from Perplexity's pricing page
(https://docs.perplexity.ai/docs/getting-started/pricing), not read from the catalog: Sonar Deep
Research $2 input, $8 output, $2 citation and $3 reasoning tokens per million and $5 per 1,000
search queries; Sonar Pro and Sonar Reasoning Pro $3 / $15 and $2 / $8 per million input / output
tokens plus $6 / $10 / $14 per 1,000 requests at search context size low / medium / high.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from provcat import estimate_cost
from provcat.models.usage import TokenUsage, UsageTracker, usage_of
from provcat.models.usage_input import to_usage

# The pricing page's "Deep Research Example" (Cost Examples, Low tab): input tokens (33)
# $0.000066, output tokens (7163) $0.057304, citation tokens (20016) $0.040032, reasoning tokens
# (73997) $0.221991, search queries (18) $0.09, total $0.409393. Written as the API reports it
# (the SDK's UsageInfo: total_tokens is prompt + completion, as the API reference describes it;
# cost holds the example's lines).
DEEP_RESEARCH: dict[str, Any] = {
    "prompt_tokens": 33,
    "completion_tokens": 7163,
    "total_tokens": 7196,
    "citation_tokens": 20016,
    "num_search_queries": 18,
    "reasoning_tokens": 73997,
    "search_context_size": "low",
    "cost": {
        "input_tokens_cost": 0.000066,
        "output_tokens_cost": 0.057304,
        "citation_tokens_cost": 0.040032,
        "reasoning_tokens_cost": 0.221991,
        "search_queries_cost": 0.09,
        "total_cost": 0.409393,
    },
}

# Perplexity's quickstart (https://docs.perplexity.ai/docs/getting-started/quickstart), the Sonar
# API's example response for sonar-pro: its usage as given, the counts Sonar Pro does not bill
# reported as null.
SONAR_PRO: dict[str, Any] = {
    "completion_tokens": 2681,
    "cost": {
        "input_tokens_cost": 7e-05,
        "output_tokens_cost": 0.04022,
        "total_cost": 0.04629,
        "citation_tokens_cost": None,
        "reasoning_tokens_cost": None,
        "request_cost": 0.006,
        "search_queries_cost": None,
    },
    "prompt_tokens": 24,
    "total_tokens": 2705,
    "citation_tokens": None,
    "num_search_queries": None,
    "reasoning_tokens": None,
    "search_context_size": "low",
}


def test_deep_research_usage_costs_perplexitys_own_example() -> None:
    cost = estimate_cost("perplexity", "sonar-deep-research", DEEP_RESEARCH)
    assert cost.input == Decimal("0.000066")  # 33 x $2 / 1M
    assert cost.output == Decimal("0.057304")  # 7,163 x $8 / 1M
    assert cost.citation == Decimal("0.040032")  # 20,016 x $2 / 1M
    assert cost.reasoning == Decimal("0.221991")  # 73,997 x $3 / 1M
    (fee,) = cost.fees
    assert (fee.unit, fee.count, fee.amount) == ("web_search", 18, Decimal("0.09"))  # 18 x $5/1,000
    # 0.000066 + 0.057304 + 0.040032 + 0.221991 + 0.09: the example's total, to the digit
    assert cost.total == Decimal("0.409393")
    assert cost.as_dict()["citation"] == "0.040032"


def test_the_usage_reads_into_genai_prices_counts() -> None:
    # completion_tokens leaves out the citation and reasoning tokens (the example prices each on
    # its own, and 73,997 reasoning tokens are more than the 7,163 output tokens): the whole
    # output is their sum, as genai-prices' Perplexity extractor reads it; the search queries are
    # the web_search fee's count; the search context size is the option the request fee takes
    assert to_usage(DEEP_RESEARCH) == TokenUsage(
        input_tokens=33,
        output_tokens=7163 + 20016 + 73997,
        reasoning_tokens=73997,
        citation_tokens=20016,
        web_searches=18,
        options=(("search_context_size", "low"),),
    )
    body = {"id": "x", "model": "sonar-deep-research", "object": "chat.completion"}
    assert usage_of({**body, "usage": DEEP_RESEARCH}) == to_usage(DEEP_RESEARCH)
    answer = {**body, "usage": DEEP_RESEARCH}
    assert estimate_cost("perplexity", "sonar-deep-research", answer).total == Decimal("0.409393")


def test_the_sdks_usage_info_object() -> None:
    pytest.importorskip("perplexity")
    from perplexity.types import UsageInfo

    info = UsageInfo.model_validate(DEEP_RESEARCH)
    assert to_usage(info) == to_usage(DEEP_RESEARCH)
    assert estimate_cost("perplexity", "sonar-deep-research", info).total == Decimal("0.409393")


def test_sonar_pro_usage_with_nulls_takes_the_reported_search_context_size() -> None:
    cost = estimate_cost("perplexity", "sonar-pro", SONAR_PRO)
    # 24 x $3 / 1M + 2,681 x $15 / 1M + 1 request x $6 / 1,000 (search_context_size low)
    assert (cost.input, cost.output, cost.citation) == (
        Decimal("0.000072"),
        Decimal("0.040215"),
        Decimal(0),
    )
    (fee,) = cost.fees
    assert (fee.amount, fee.option) == (Decimal("0.006"), "search_context_size=low")
    assert cost.total == Decimal("0.046287")
    # Perplexity's own cost object rounds to five places: total_cost 0.04629
    assert round(cost.total, 5) == Decimal(str(SONAR_PRO["cost"]["total_cost"]))
    # the size the usage reports picks the fee when options name none: high, 1 x $14 / 1,000
    high = estimate_cost("perplexity", "sonar-pro", {**SONAR_PRO, "search_context_size": "high"})
    assert [(f.amount, f.option) for f in high.fees] == [
        (Decimal("0.014"), "search_context_size=high")
    ]


def test_options_that_contradict_the_reported_search_context_size_are_an_error() -> None:
    same = estimate_cost(
        "perplexity", "sonar-pro", SONAR_PRO, options={"search_context_size": "low"}
    )
    assert same == estimate_cost("perplexity", "sonar-pro", SONAR_PRO)
    with pytest.raises(ValueError, match="usage reports search_context_size='low' and options"):
        estimate_cost("perplexity", "sonar-pro", SONAR_PRO, options={"search_context_size": "high"})
    # sonar-deep-research has no fee by search context size: the reported one is not an option
    # of its fees, and is no error
    assert estimate_cost("perplexity", "sonar-deep-research", DEEP_RESEARCH).total == Decimal(
        "0.409393"
    )


@pytest.mark.parametrize(
    ("change", "error", "text"),
    [
        ({"citation_tokens": -1}, ValueError, "usage citation_tokens is -1: token counts cannot"),
        ({"reasoning_tokens": -5}, ValueError, "usage reasoning_tokens is -5: token counts cannot"),
        ({"num_search_queries": -2}, ValueError, "usage num_search_queries is -2: counts cannot"),
        ({"citation_tokens": 1.5}, TypeError, "usage citation_tokens must be an int"),
        ({"num_search_queries": "18"}, TypeError, "usage num_search_queries must be an int"),
    ],
)
def test_bad_counts_are_refused_like_every_other_count(
    change: dict[str, Any], error: type[Exception], text: str
) -> None:
    with pytest.raises(error, match=text):
        estimate_cost("perplexity", "sonar-deep-research", {**DEEP_RESEARCH, **change})


def test_a_model_without_a_citation_price_costs_them_as_output() -> None:
    # Perplexity bills citation tokens on Sonar Deep Research only (its other models report them
    # as null, SONAR_PRO above). Where a usage does carry them for a model that lists no citation
    # price, they stay in the output at its price, as reasoning tokens do on a model without a
    # reasoning price (and as genai-prices costs them): sonar-reasoning-pro, $2 / $8, $6 / 1,000
    # requests at low: 100 x $2 / 1M + (200 + 50) x $8 / 1M + $0.006
    usage = {
        "prompt_tokens": 100,
        "completion_tokens": 200,
        "total_tokens": 300,
        "citation_tokens": 50,
        "search_context_size": "low",
    }
    cost = estimate_cost("perplexity", "sonar-reasoning-pro", usage)
    assert (cost.output, cost.citation) == (Decimal("0.002"), Decimal(0))
    assert cost.total == Decimal("0.0082")


# The same example in genai-prices' names: the whole output, reasoning and citations included
DEEP_RESEARCH_COUNTS: dict[str, int] = {
    "input_tokens": 33,
    "output_tokens": 7163 + 20016 + 73997,
    "reasoning_tokens": 73997,
    "citation_tokens": 20016,
    "web_searches": 18,
}


def test_genai_prices_names_with_citation_tokens_stay_genai_prices_usage() -> None:
    # citation_tokens is Perplexity's name and genai-prices-style usage's: a record of genai-prices
    # names only is read as genai-prices', whole output included
    usage = DEEP_RESEARCH_COUNTS
    assert to_usage(usage) == TokenUsage(**usage)
    assert estimate_cost("perplexity", "sonar-deep-research", usage).total == Decimal("0.409393")


@pytest.mark.parametrize(
    ("usage", "text"),
    [
        # Perplexity's marks with another shape's name: this shape's name for the count
        (
            {"prompt_tokens": 1, "citation_tokens": 2, "output_tokens": 3},
            "no field 'output_tokens' \\(read as Perplexity Sonar usage, from 'citation_tokens'\\)"
            "; did you mean 'completion_tokens'",
        ),
        (
            {
                "prompt_tokens": 1,
                "completion_tokens": 2,
                "search_context_size": "low",
                "web_searches": 1,
            },
            "no field 'web_searches' .*did you mean 'num_search_queries'",
        ),
        # OpenAI's shape is read as before: a Perplexity field without Perplexity's marks is
        # refused (`cost` is OpenRouter's too, accepted in Chat Completions usage)
        (
            {"prompt_tokens": 1, "completion_tokens": 2, "reasoning_tokens": 1},
            "no field 'reasoning_tokens' \\(read as OpenAI Chat Completions usage.*did you mean "
            "'completion_tokens_details.reasoning_tokens'",
        ),
    ],
)
def test_fields_of_another_shape_are_refused(usage: dict[str, Any], text: str) -> None:
    with pytest.raises(ValueError, match=text):
        estimate_cost("perplexity", "sonar-deep-research", usage)


def test_openai_chat_usage_reads_as_before() -> None:
    # OpenAI's completion_tokens includes its reasoning tokens (completion_tokens_details): no
    # Perplexity mark, so the output is not added to
    raw = {
        "prompt_tokens": 10,
        "completion_tokens": 100,
        "total_tokens": 110,
        "completion_tokens_details": {"reasoning_tokens": 60},
    }
    assert to_usage(raw) == TokenUsage(input_tokens=10, output_tokens=100, reasoning_tokens=60)


def test_a_stream_tracker_reads_perplexitys_last_chunk() -> None:
    tracker = UsageTracker()
    tracker.add({"id": "x", "object": "chat.completion.chunk", "choices": []})
    tracker.add({"id": "x", "object": "chat.completion.chunk", "usage": DEEP_RESEARCH})
    assert tracker.usage == to_usage(DEEP_RESEARCH)
