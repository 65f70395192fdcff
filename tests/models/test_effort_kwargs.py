"""An effort suffix becomes the vendor's effort field where the inventory declares the model's
efforts, and is dropped with a visible warning where it does not (issue #25, item 6).

The fields are the vendors' documented request fields: Chat Completions' ``reasoning_effort``
(https://platform.openai.com/docs/api-reference/chat/create), Responses' ``reasoning.effort``
(https://platform.openai.com/docs/api-reference/responses/create) and Messages'
``output_config.effort`` (https://platform.claude.com/docs/en/build-with-claude/effort). Each is
also checked against the endpoint's request model, so the kwargs are accepted as a request.
The models' efforts are the bundled inventory's, from OpenAI's and Groq's model pages.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import pytest

from provcat import get_model, match_endpoint, model_kwargs, parse_model_spec
from provcat.catalog.publish import current
from provcat.errors import EffortIgnored
from provcat.models.reasoning import effort_field


def quiet(spec: str, **options: Any) -> dict[str, Any]:
    """model_kwargs, failing on any EffortIgnored warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", EffortIgnored)
        return model_kwargs(spec, **options)


def test_the_bundled_models_declare_the_efforts_these_tests_use() -> None:
    assert "high" in get_model("openai", "gpt-6.1-terra").reasoning_efforts
    assert "ultra" not in get_model("openai", "gpt-6.1-terra").reasoning_efforts
    assert get_model("groq", "openai/gpt-oss-120b").reasoning_efforts == ("low", "medium", "high")
    assert get_model("anthropic", "claude-sonnet-5-5").reasoning_efforts == ()


def test_a_declared_effort_becomes_reasoning_effort_on_a_chat_completions_provider() -> None:
    kwargs = quiet("openai/gpt-6.1-terra-high")
    assert kwargs == {"provider": "openai", "model": "gpt-6.1-terra", "reasoning_effort": "high"}
    chat = match_endpoint("openai", "chat")
    payload = chat.payload({"messages": []}, model=kwargs["model"], reasoning_effort="high")
    assert payload["reasoning_effort"] == "high"


def test_the_effort_keyword_overrides_the_suffix_the_same_way() -> None:
    assert quiet("openai/gpt-6.1-terra-high", effort="low")["reasoning_effort"] == "low"
    assert quiet("openai/gpt-6.1-terra", effort="medium")["reasoning_effort"] == "medium"


def test_the_responses_endpoint_takes_reasoning_effort_nested() -> None:
    kwargs = quiet("openai/gpt-6.1-terra-xhigh", endpoint="responses")
    assert kwargs == {
        "provider": "openai",
        "model": "gpt-6.1-terra",
        "reasoning": {"effort": "xhigh"},
    }
    kwargs["reasoning"]["effort"] = "changed"  # the caller's copy: the next answer is intact
    assert quiet("openai/gpt-6.1-terra-xhigh", endpoint="responses")["reasoning"] == {
        "effort": "xhigh"
    }
    responses = match_endpoint("openai", "responses")
    payload = responses.payload({"input": "hi"}, model="m", reasoning={"effort": "xhigh"})
    assert payload["reasoning"] == {"effort": "xhigh"}


def test_a_messages_provider_takes_output_config_effort() -> None:
    field, where = effort_field(current(), "anthropic")
    assert (field, where) == (("output_config", "effort"), "anthropic/messages")
    messages = match_endpoint("anthropic", "messages")
    payload = messages.payload(
        {"model": "m", "max_tokens": 1, "messages": []}, output_config={"effort": "high"}
    )
    assert payload["output_config"] == {"effort": "high"}


def test_a_suffix_kept_in_a_vendor_id_with_a_slash_is_read_when_the_model_is_listed() -> None:
    # groq's ids have a "/", so the grammar keeps "-high" literal (parse_model_spec unchanged)
    assert parse_model_spec("groq/openai/gpt-oss-120b-high") == (
        "groq/openai/gpt-oss-120b-high",
        None,
    )
    assert quiet("groq/openai/gpt-oss-120b-high") == {
        "provider": "groq",
        "model": "openai/gpt-oss-120b",
        "reasoning_effort": "high",
    }
    # an id the inventory does not list is passed on literally, as before
    assert quiet("groq/openai/some-model-high")["model"] == "openai/some-model-high"


@pytest.mark.parametrize(
    ("spec", "model", "reason"),
    [
        # a suffix that is not one of the model's efforts
        ("openai/gpt-6.1-terra-ultra", "gpt-6.1-terra", "the model's efforts are none, low"),
        # a model the inventory declares no efforts for
        ("anthropic/claude-sonnet-5-5-high", "claude-sonnet-5-5", "declares no reasoning efforts"),
        # a model the inventory does not know
        ("openai/my-model-low", "my-model", "the inventory does not list the model"),
    ],
)
def test_an_effort_no_field_carries_is_dropped_as_before_with_a_warning(
    spec: str, model: str, reason: str
) -> None:
    with pytest.warns(EffortIgnored, match=reason):
        kwargs = model_kwargs(spec)
    provider = spec.partition("/")[0]
    assert kwargs == {"provider": provider, "model": model}  # today's answer, unchanged
    with pytest.warns(EffortIgnored, match=reason):  # and every time, not only the first
        assert model_kwargs(spec) == kwargs


def test_lionagi_parse_answers_do_not_change() -> None:
    assert parse_model_spec("openai/gpt-6.1-terra-high") == ("openai/gpt-6.1-terra", "high")
    assert parse_model_spec("openai/my-model-low") == ("openai/my-model", "low")
    with pytest.raises(ValueError, match="does not support effort levels"):
        parse_model_spec("gemini/gemini-3.8-flash-high")  # gemini's policy: effort mode none


def test_gemini_takes_no_suffix_but_takes_a_declared_effort_as_the_keyword() -> None:
    # Google's OpenAI-compatible surface takes Chat Completions' reasoning_effort
    # (https://ai.google.dev/gemini-api/docs/openai#thinking); Gemini 3.8 Flash's thinking levels
    # are low, medium and high (https://ai.google.dev/gemini-api/docs/models/gemini-3.8-flash)
    kwargs = quiet("gemini/gemini-3.8-flash", effort="high")
    assert kwargs == {"provider": "gemini", "model": "gemini-3.8-flash", "reasoning_effort": "high"}
    payload = match_endpoint("gemini", "chat").payload({"messages": []}, **kwargs_without(kwargs))
    assert payload["reasoning_effort"] == "high"


@pytest.mark.parametrize(
    ("model", "effort", "why"),
    [
        ("gemini-3.8-flash", "max", "the model's efforts are low, medium, high"),
        ("gemini-unlisted", "high", "does not list the model"),
    ],
)
def test_gemini_refuses_an_effort_the_model_does_not_declare(
    model: str, effort: str, why: str
) -> None:
    with pytest.raises(ValueError, match=why):
        model_kwargs(f"gemini/{model}", effort=effort)


def kwargs_without(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The request fields of model_kwargs' answer (it also names the provider)."""
    return {k: v for k, v in kwargs.items() if k != "provider"}


def test_a_retired_chat_endpoint_gives_way_to_its_successor_and_its_models_field() -> None:
    # Perplexity retired Sonar's chat completions on 2026-09-27 for the Agent API, a
    # Responses-shaped body whose reasoning effort is `reasoning.effort`
    # (https://docs.perplexity.ai/api-reference/responses-post; perplexityai's
    # responses create params); the inventory lists Deep Research's efforts minimal..high
    expected = {
        "provider": "perplexity",
        "model": "sonar-deep-research",
        "reasoning": {"effort": "high"},
    }
    assert quiet("perplexity/sonar-deep-research-high") == expected
    assert quiet("perplexity/sonar-deep-research-high", endpoint="agent") == expected
    agent = match_endpoint("perplexity", "agent")
    payload = agent.payload({"input": "hi"}, **kwargs_without(expected))
    assert payload["reasoning"] == {"effort": "high"}
    # asked for by name, the retired endpoint's own field is still what it takes
    assert (
        quiet("perplexity/sonar-deep-research-high", endpoint="chat")["reasoning_effort"] == "high"
    )


def test_an_endpoint_whose_request_model_declares_no_effort_field_drops_it_with_a_warning() -> None:
    with pytest.warns(EffortIgnored, match="its request model declares none of"):
        kwargs = model_kwargs("openai/gpt-6.1-terra-high", endpoint="embeddings")
    assert kwargs == {"provider": "openai", "model": "gpt-6.1-terra"}


def test_an_endpoint_whose_request_model_cannot_be_imported_drops_the_effort_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a provider module that fails to import (a missing extra, a broken install) makes no field
    # known: the effort is dropped with the warning, and model_kwargs raises nothing
    reference = current().providers["openai"].endpoints["responses"].request_options
    assert reference is not None
    monkeypatch.setitem(sys.modules, reference.partition(":")[0], None)  # import raises
    with pytest.warns(EffortIgnored, match="its request model declares none of"):
        kwargs = model_kwargs("openai/gpt-6.1-terra-high", endpoint="responses")
    assert kwargs == {"provider": "openai", "model": "gpt-6.1-terra"}


def test_a_dropped_effort_warns_anew_on_every_call_even_as_an_error() -> None:
    """Found in review: the warning, remembered with its spec, was one object raised again and
    again under ``-W error``, its traceback growing by a call's frames each time."""
    import traceback

    caught = []
    for _ in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("error", EffortIgnored)
            with pytest.raises(EffortIgnored, match="effort 'high' of 'openai/gpt-4o'") as info:
                model_kwargs("openai/gpt-4o-high")
        caught.append(info.value)
    # each call's own traceback, as long as the first: nothing piles up from earlier calls
    depths = [len(traceback.extract_tb(e.__traceback__)) for e in caught]
    assert depths == [depths[0]] * 3
