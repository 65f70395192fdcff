"""A refused request body: every problem listed with a suggestion, one error type that both
``except EndpointConfigurationError`` and the README's ``except APIError`` catch, nothing sent,
and no value of the request in the message. The field names are OpenAI's documented Chat
Completions fields (https://platform.openai.com/docs/api-reference/chat/create)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from provcat import match_endpoint
from provcat.errors import (
    APIError,
    EndpointConfigurationError,
    RequestProblem,
    RequestValidationError,
)

SECRET = "sk-do-not-print-0123456789abcdef"


@pytest.fixture(autouse=True)
def _keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def test_a_misspelt_field_is_refused_with_a_suggestion_and_nothing_is_sent(
    server: tuple[str, list[dict[str, Any]]],
) -> None:
    url, seen = server
    ep = match_endpoint("openai", "chat", base_url=url, allow_local_network=True)
    with pytest.raises(RequestValidationError) as caught:
        asyncio.run(ep.call({"messages": [], "temprature": 0.2}))
    assert seen == []
    error = caught.value
    assert error.problems == (
        RequestProblem(
            "temprature", "extra inputs are not permitted", "did you mean 'temperature'?"
        ),
    )
    assert error.field == "temprature" and error.status is None
    assert (error.provider, error.endpoint) == ("openai", "chat/completions")
    assert str(error) == (
        "openai/chat/completions: 'temprature' extra inputs are not permitted; "
        "did you mean 'temperature'?"
    )


def test_every_problem_is_listed_each_with_its_suggestion() -> None:
    ep = match_endpoint("openai", "chat")
    body = {
        "messages": [],
        "temprature": 0.2,
        "reasoning_effort": "hgh",
        "stream_options": {"include_usge": True},
        "max_completion_tokens": "many",
    }
    with pytest.raises(RequestValidationError) as caught:
        ep.payload(body)
    problems = {p.location: p for p in caught.value.problems}
    assert set(problems) == {
        "temprature",
        "reasoning_effort",
        "stream_options.include_usge",
        "max_completion_tokens",
    }
    assert problems["temprature"].suggestion == "did you mean 'temperature'?"
    assert problems["reasoning_effort"].suggestion == "did you mean 'high'?"
    assert problems["stream_options.include_usge"].suggestion == "did you mean 'include_usage'?"
    assert "valid integer" in problems["max_completion_tokens"].message
    text = str(caught.value)
    assert "(4 problems in the request)" in text
    assert all(f"'{where}'" in text for where in problems)


def test_the_readme_except_clauses_catch_it_and_no_value_is_shown() -> None:
    ep = match_endpoint("openai", "chat")
    for clause in (APIError, EndpointConfigurationError):
        with pytest.raises(clause) as caught:
            ep.call_sync({"messages": [], "api_kye": SECRET, "user": 12})
        assert SECRET not in str(caught.value) + repr(vars(caught.value))


def test_a_misspelt_field_of_a_nested_object_gets_that_objects_fields() -> None:
    ep = match_endpoint("anthropic", "messages")
    body = {"model": "m", "max_tokens": 1, "messages": [], "output_config": {"efort": "high"}}
    with pytest.raises(RequestValidationError) as caught:
        ep.payload(body)
    (problem,) = caught.value.problems
    assert problem.location == "output_config.efort"
    assert problem.suggestion == "did you mean 'effort'?"


def test_a_missing_model_says_where_the_catalogs_models_are_listed() -> None:
    # Anthropic's Messages API requires `model` and `max_tokens`
    # (https://platform.claude.com/docs/en/api/messages/create); the catalog names no default
    # Claude model, so a first request without one is refused, saying what to do
    ep = match_endpoint("anthropic", "messages", api_key="sk-ant-test0000")
    with pytest.raises(RequestValidationError) as caught:
        ep.create_payload({"messages": [{"role": "user", "content": "hi"}]})
    first, second = caught.value.problems
    assert (first.location, first.message) == ("model", "field required")
    assert "`provcat models --provider anthropic`" in (first.suggestion or "")
    assert (second.location, second.suggestion) == ("max_tokens", None)
