"""An endpoint setting is checked by type when it is configured, as ``max_retries`` is per call:
an int is not a bool, a float or a string, and a timeout is a number, not a string or a bool."""

from __future__ import annotations

from typing import Any

import pytest

from provcat import iModel, match_endpoint
from provcat.errors import EndpointConfigurationError


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("max_retries", True),
        ("max_retries", 2.0),
        ("max_retries", "2"),
        ("timeout", "5"),
        ("timeout", True),
        ("total_timeout", "5"),
        ("max_response_bytes", True),
    ],
)
def test_a_setting_of_the_wrong_type_is_refused_when_configured(setting: str, value: Any) -> None:
    with pytest.raises(EndpointConfigurationError, match=setting):
        match_endpoint("openai", "chat", **{setting: value})
    with pytest.raises(EndpointConfigurationError, match=setting):
        iModel(provider="openai", model="gpt-6.1-terra", **{setting: value})


def test_numbers_of_the_right_type_are_taken() -> None:
    ep = match_endpoint("openai", "chat", timeout=5, total_timeout=7.5, max_retries=2)
    assert (ep.config.timeout, ep.config.total_timeout, ep.config.max_retries) == (5, 7.5, 2)


def test_a_per_call_max_retries_of_the_wrong_type_is_refused_without_quoting_it() -> None:
    ep = match_endpoint(
        "openai",
        "chat",
        api_key="sk-x12345",
        base_url="http://127.0.0.1:9",
        allow_local_network=True,
    )
    secret = "sk-proj-abcdefghSECRET"
    with pytest.raises(EndpointConfigurationError, match="max_retries") as caught:
        ep.call_sync({"messages": [], "model": "gpt-5-mini"}, max_retries=secret)  # type: ignore[arg-type]
    assert "abcdefgh" not in str(caught.value)


def test_a_validator_message_is_shown_in_its_own_words() -> None:
    """Found by a tester: pydantic's "Value error, " prefix stood before the validator's own
    message."""
    with pytest.raises(EndpointConfigurationError) as caught:
        match_endpoint("openai", "chat", base_url="ftp://example.test")
    assert "Value error" not in str(caught.value)
    assert "base_url must start with http:// or https://" in str(caught.value)


@pytest.mark.parametrize("url", ["http://[::1", "http://api.test:99999/v1", "http://api.test:x/v1"])
def test_a_malformed_host_or_port_in_base_url_is_refused(url: str) -> None:
    """Found by a tester: ``http://[::1`` (an unclosed IPv6 bracket) was taken as a base URL and
    failed only at the first call."""
    with pytest.raises(EndpointConfigurationError, match="base_url's host or port is malformed"):
        match_endpoint("openai", "chat", base_url=url)
    assert match_endpoint("openai", "chat", base_url="http://[::1]:8080/v1") is not None
