"""A password written into a base URL (scheme://user:password@host) never shows: not in the
endpoint's repr, its summary, `provcat resolve`'s output, nor a sanitized message."""

from __future__ import annotations

import json

from click.testing import CliRunner

from provcat import match_endpoint
from provcat.cli.main import main
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


def test_repr_and_summary_hide_the_password() -> None:
    ep = match_endpoint("acme", "chat", openai_compatible=True, base_url=URL)
    assert "Sentinel-PW-42" not in repr(ep.config)
    assert "Sentinel-PW-42" not in json.dumps(ep.config.summary())
    assert ep.config.summary()["base_url"] == "http://bob:<redacted>@127.0.0.1:9/v1"
    assert ep.config.url().startswith(URL)  # the real URL is still what is used


def test_sanitized_messages_hide_the_password() -> None:
    assert "Sentinel-PW-42" not in sanitize(f"could not connect to {URL}/chat/completions")


def test_resolve_command_hides_the_password() -> None:
    for fmt in ("text", "json"):
        args = ["resolve", "acme", "chat", "--openai-compatible", "--base-url", URL]
        run = CliRunner().invoke(main, [*args, "--format", fmt])
        assert run.exit_code == 0, run.output
        assert "Sentinel-PW-42" not in run.output
        assert "<redacted>" in run.output
