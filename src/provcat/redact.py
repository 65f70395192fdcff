"""Keep secrets out of messages: the one sanitizer for diagnostics, errors, logs and reprs."""

from __future__ import annotations

import functools
import os
import re

__all__ = ["redact_secrets", "sanitize", "secret_name", "url_without_password"]

MAX_LENGTH = 300


@functools.cache
def _userinfo() -> re.Pattern[str]:
    """A URL's whole user info (scheme://userinfo@host): up to the last ``@`` before the path,
    query or fragment, so a password holding ``@`` is matched whole."""
    return re.compile(r"(?<=://)[^/?#\s]*@")


def _hide(found: re.Match[str]) -> str:
    user, colon, _ = found.group(0)[:-1].partition(":")
    # user:password keeps the user; a lone token (https://TOKEN@host) is all secret
    return f"{user}:<redacted>@" if colon else "<redacted>@"


def url_without_password(url: str) -> str:
    """``url`` with the secret of its user info replaced, for reprs, summaries and messages."""
    return _userinfo().sub(_hide, url) if "@" in url else url


@functools.cache
def secret_name(name: str) -> bool:
    """Whether an environment variable named ``name`` holds a secret (its value is redacted)."""
    return _patterns()[0].search(name) is not None


def _patterns() -> tuple[re.Pattern[str], tuple[re.Pattern[str], ...]]:
    """The secret-name and secret-shape patterns, compiled on the first message (not at import:
    the catalog build imports this module and usually has nothing to sanitize)."""
    return re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.IGNORECASE), (
        re.compile(r"\b(sk|pk|rk|gsk|xai|pplx|fc|tvly|nvapi)[-_][A-Za-z0-9_-]{8,}"),
        re.compile(r"(?i)\b(bearer|token|api[-_]?key)\s*[:=]?\s+[A-Za-z0-9._~+/-]{8,}=*"),
        re.compile(r"(?i)\b(authorization|x-api-key)\s*[:=]\s*\S+"),
    )


def sanitize(message: str, *, limit: int = MAX_LENGTH) -> str:
    """Redact secret-looking values and the values of secret-named environment variables."""
    secret_name, secret_shapes = _patterns()
    text = url_without_password(message)
    for name, value in os.environ.items():
        if len(value) >= 6 and secret_name.search(name) and value in text:
            text = text.replace(value, f"<{name} redacted>")
    for shape in secret_shapes:
        text = shape.sub("<redacted>", text)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def redact_secrets(message: str, secrets: list[str], *, limit: int = MAX_LENGTH) -> str:
    """:func:`sanitize` after replacing each of ``secrets`` (the credentials a call carries,
    however they were given), stripped and as written, wherever it appears."""
    for secret in secrets:
        for form in {secret, secret.strip()}:
            if len(form) >= 4 and form in message:
                message = message.replace(form, "<api key redacted>")
    return sanitize(message, limit=limit)
