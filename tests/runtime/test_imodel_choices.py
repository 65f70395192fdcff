"""What iModel chooses when a caller does not say, and what it refuses: the default endpoint
follows model_kwargs' (a retired ``chat`` gives way to its successor), a field of another
endpoint says to name it, and a model given twice (two values) or not as a str is refused."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from provcat import iModel, model_kwargs
from provcat.errors import EndpointConfigurationError
from provcat.strict import set_strict


@pytest.fixture(autouse=True)
def _not_strict() -> Iterator[None]:
    set_strict(False)
    yield
    set_strict(None)


def test_the_default_endpoint_skips_a_retired_chat_for_its_successor() -> None:
    """Perplexity retired its chat completions for the Agent API (v1/agent)."""
    set_strict(True)  # a retired endpoint raises EndpointRetired here: none is chosen
    with pytest.warns(UserWarning, match=r"perplexity/chat/completions is retired .* successor"):
        im = iModel(provider="perplexity", model="sonar")
    assert im.endpoint.config.endpoint == "v1/agent"
    assert im.request_defaults["model"] == "sonar"


def test_the_default_endpoint_is_still_chat_where_chat_is_live() -> None:
    assert iModel(provider="openai", model="gpt-4o").endpoint.config.endpoint == "chat/completions"


def test_a_field_of_another_endpoint_says_to_name_the_endpoint() -> None:
    kwargs = model_kwargs("openai/gpt-6.1-terra-high", endpoint="responses")
    with pytest.raises(EndpointConfigurationError, match=r"endpoint='responses'"):
        iModel(**kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the model's own lifecycle, if any
        im = iModel(endpoint="responses", **kwargs)
    assert im.endpoint.config.endpoint == "responses"
    assert im.request_defaults["reasoning"] == {"effort": "high"}


def test_a_model_that_is_not_a_str_is_a_type_error_naming_it() -> None:
    with pytest.raises(TypeError, match=r"model must be a str, not int"):
        iModel(model=123)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"model must be a str, not int"):
        iModel(provider="openai", model=123)  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ["model", "temperature"])
def test_a_request_field_given_twice_is_refused(field: str) -> None:
    given = {"model": "gpt-4o"} if field == "model" else {"model": "gpt-4o", field: 0.2}
    with pytest.raises(EndpointConfigurationError, match=rf"'{field}' twice"):
        iModel(provider="openai", request_defaults={field: "other"}, **given)


def test_the_same_value_given_twice_is_that_value() -> None:
    """lionagi-era code passes the model both ways; only two different values conflict."""
    im = iModel(provider="openai", model="gpt-4o", request_defaults={"model": "gpt-4o"})
    assert im.request_defaults["model"] == "gpt-4o"
