"""A password written into a base URL (scheme://user:password@host) never shows: a base URL with
credentials is refused (without repeating them), and a sanitized message hides any."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from provcat import match_endpoint
from provcat.cli.main import main
from provcat.errors import EndpointConfigurationError
from provcat.redact import sanitize, url_without_password

URL = "http://bob:Sentinel-PW-42@127.0.0.1:9/v1"


def test_url_without_password_keeps_everything_else() -> None:
    assert url_without_password(URL) == "http://bob:<redacted>@127.0.0.1:9/v1"
    assert url_without_password("https://host/v1?a=b") == "https://host/v1?a=b"
    assert url_without_password("https://host/v1?to=a@b") == "https://host/v1?to=a@b"


def test_a_lone_token_and_a_password_holding_an_at_sign_are_hidden_whole() -> None:
    """Found in review: only ``user:password@`` was hidden, so a token written as the user info
    (RFC 3986 allows any text there, e.g. ``https://TOKEN@host``) showed, and a password with an
    ``@`` showed its tail."""
    assert url_without_password("https://ghp_Sentinel42@host/v1") == "https://<redacted>@host/v1"
    assert url_without_password("https://bob:p@ss-Sentinel@host/v1") == (
        "https://bob:<redacted>@host/v1"
    )
    assert "Sentinel" not in sanitize("GET https://bob:p@ss-Sentinel@host/v1 failed")


def test_a_base_url_with_credentials_is_refused_without_showing_them() -> None:
    """Decided in issue #26: user info in a base URL would replace the bearer key (httpx sends
    it as Basic auth) and travel into model_dump() and logs; it is refused when the endpoint is
    configured, and the error does not repeat it."""
    for url in (URL, "https://ghp_Sentinel42@host/v1", "https://bob:p@ss-Sentinel@host/v1"):
        with pytest.raises(EndpointConfigurationError, match="carries credentials") as caught:
            match_endpoint("acme", "chat", openai_compatible=True, base_url=url)
        assert "Sentinel" not in str(caught.value)


def test_sanitized_messages_hide_the_password() -> None:
    assert "Sentinel-PW-42" not in sanitize(f"could not connect to {URL}/chat/completions")


def test_resolve_command_refuses_the_password_without_showing_it() -> None:
    for fmt in ("text", "json"):
        args = ["resolve", "acme", "chat", "--openai-compatible", "--base-url", URL]
        run = CliRunner().invoke(main, [*args, "--format", fmt])
        assert run.exit_code != 0
        assert "Sentinel-PW-42" not in run.output
        assert "carries credentials" in run.output


def test_a_base_url_with_a_query_or_a_fragment_is_refused_without_showing_it() -> None:
    """The endpoint's path is appended to the base URL, so a query would end up inside the path
    (``/v1?key=k/chat/completions``); a key put there is not repeated."""
    for url in ("https://host/v1?key=Sentinel-KEY", "https://host/v1#Sentinel"):
        with pytest.raises(EndpointConfigurationError, match="query or a fragment") as caught:
            match_endpoint("acme", "chat", openai_compatible=True, base_url=url)
        assert "Sentinel" not in str(caught.value)
