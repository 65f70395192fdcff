"""What a repr or a configuration error may show: a default header named like a secret is hidden
in reprs (whatever its case), a refused request default is named with its type but never quoted,
and a key with surrounding spaces is blamed on where it came from."""

from __future__ import annotations

import pytest

from provcat import match_endpoint
from provcat.errors import EndpointConfigurationError

SECRET = "tok-SECRET999"
REQUEST = {"messages": [{"role": "user", "content": "hi"}], "model": "gpt-5-mini"}


@pytest.mark.parametrize("name", ["X-Api-Token", "x-api-token", "X-AUTH-Secret", "Cookie"])
def test_a_secret_named_default_header_is_hidden_in_the_config_and_headers_reprs(
    name: str,
) -> None:
    ep = match_endpoint("openai", "chat", default_headers={name: SECRET}, api_key="sk-abcdefgh12")
    _, headers = ep.create_payload(REQUEST)
    for shown in (repr(ep.config), repr(headers), str(ep.config.summary())):
        assert SECRET not in shown and "sk-abcdefgh12" not in shown
        assert name in shown, "the header is named, only its value is hidden"
    assert headers[name] == SECRET, "the header is still sent"


def test_a_plain_default_header_is_shown() -> None:
    ep = match_endpoint("openai", "chat", default_headers={"X-Trace": "trace-1"}, api_key="sk-x1")
    assert "trace-1" in repr(ep.config) + repr(ep.create_payload(REQUEST)[1])


def test_a_refused_request_default_names_the_field_and_its_type_never_the_value() -> None:
    secret = "sk-proj-abcdefghSECRET"
    with pytest.raises(EndpointConfigurationError) as caught:
        match_endpoint("openai", "chat", request_defaults={"temperature": secret})
    message = str(caught.value)
    assert secret not in message and "abcdefgh" not in message
    assert "'temperature' (a str) is rejected by" in message


def test_a_key_with_spaces_given_as_api_key_is_blamed_on_api_key() -> None:
    ep = match_endpoint("openai", "chat", api_key=" sk-abc ", api_key_env="OPENAI_API_KEY")
    with pytest.raises(EndpointConfigurationError, match=r"api_key=") as caught:
        ep.create_payload(REQUEST)
    assert "OPENAI_API_KEY" not in str(caught.value)


def test_a_key_with_spaces_in_the_variable_is_blamed_on_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", " sk-abc ")
    with pytest.raises(EndpointConfigurationError, match=r"the key in OPENAI_API_KEY holds"):
        match_endpoint("openai", "chat").create_payload(REQUEST)
