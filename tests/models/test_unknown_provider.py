"""parse_model_spec and model_kwargs agree on a provider the catalog does not know: the same
words, a warning where lionagi's answer must stay (parse), an error where a call would follow
(model_kwargs: EndpointNotFound, as match_endpoint raises for the provider)."""

from __future__ import annotations

import warnings

import pytest

from provcat import model_kwargs, parse_model_spec
from provcat.errors import EndpointNotFound, ProviderCatalogError, UnknownProviderWarning


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (
            "opnai/gpt-6.1-terra-high",
            "unknown provider 'opnai' in model spec 'opnai/gpt-6.1-terra-high'; did you mean 'openai'?",
        ),
        ("zzzz/x", "unknown provider 'zzzz' in model spec 'zzzz/x'"),
    ],
)
def test_both_say_the_same_words(spec: str, words: str) -> None:
    with pytest.warns(UnknownProviderWarning) as caught:
        parsed = parse_model_spec(spec)
    assert str(caught[0].message) == words
    assert parsed.model == spec.rpartition("-high")[0] or parsed.model == spec  # lionagi's answer
    with pytest.raises(EndpointNotFound) as raised:
        model_kwargs(spec)
    assert str(raised.value) == words
    assert isinstance(raised.value, ProviderCatalogError) and not isinstance(
        raised.value, ValueError
    )


def test_a_known_provider_and_a_bare_model_are_silent() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnknownProviderWarning)
        assert parse_model_spec("openai/gpt-6.1-terra-high").effort == "high"
        assert parse_model_spec("gpt-4o").model == "gpt-4o"
