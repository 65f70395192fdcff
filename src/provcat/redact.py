"""Keep secrets out of messages: the one sanitizer for diagnostics, errors, logs and reprs."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Iterator

__all__ = [
    "HUB_TOKEN_SHAPE",
    "REDACTED",
    "Secrets",
    "hub_tokens_hidden",
    "redact_secrets",
    "sanitize",
    "secret_name",
    "secret_shapes_hidden",
    "url_without_password",
    "without_secrets",
]

MAX_LENGTH = 300
REDACTED = "<api key redacted>"  # what a call's own credential becomes


class Secrets:
    """The credentials one call carries, to take out of whatever quotes the answer. Iterable,
    but neither a sequence nor a container: its repr says only how many it holds, so a traceback
    rendered with its locals (``traceback`` with ``capture_locals``, Sentry, rich, pytest's
    ``--showlocals``) prints no key from the frames it passes through."""

    __slots__ = ("_values",)

    def __init__(self, values: Iterable[str] = ()) -> None:
        self._values = tuple(values)

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"<{len(self._values)} secrets hidden>"


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


def secret_name(name: str) -> bool:
    """Whether an environment variable named ``name`` holds a secret (its value is redacted)."""
    return _patterns()[0].search(name) is not None


# the prefixes of vendors' keys, each with the vendor's own separator (`xai_responses`, an
# endpoint's name, is no key): OpenAI `sk-proj-`, `sk-svcacct-`, `sk-admin-` and the older `sk-`;
# Anthropic `sk-ant-api03-` (`sk-ant-admin01-`); OpenRouter `sk-or-v1-`; DeepSeek `sk-`; Stripe-
# style `sk_`, `pk_`, `rk_`; Groq `gsk_`; Fireworks `fw_`; Cerebras `csk-`; xAI `xai-`; Perplexity
# `pplx-`; Firecrawl `fc-`; Tavily `tvly-`; NVIDIA `nvapi-`. Mistral's, Together's, DeepInfra's
# and Exa's keys have no prefix: only their environment variable's name hides them.
_PREFIXED = r"(?:sk[-_]|(?:pk|rk|gsk|fw)_|(?:csk|xai|pplx|fc|tvly|nvapi)-)"


@functools.cache
def _patterns() -> tuple[re.Pattern[str], tuple[re.Pattern[str], ...]]:
    """The secret-name and secret-shape patterns, compiled on the first message (not at import:
    the catalog build imports this module and usually has nothing to sanitize)."""
    return re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.IGNORECASE), (
        # a vendor's prefixed key where a word starts (`\b`: after a space, `/`, `=`, `-`, `.`),
        # or glued to a word by `_` (`key_sk-proj-....json`): there 20 or more characters after
        # the prefix (keys are 32 and more) holding a digit and a capital letter, as a key's
        # random body does, tell it from a name such as `get_fw_update_status` or `use_fc_config`
        re.compile(
            rf"\b{_PREFIXED}[A-Za-z0-9_-]{{8,}}"
            rf"|(?<=_){_PREFIXED}(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{{20,}}"
        ),
        # Google's keys, which start with no word boundary after `_` either (`KEY_AIza...`):
        # a standard API key is `AIza` and 35 characters of [0-9A-Za-z_-], 39 in all (Google
        # Cloud, "Manage API keys": "AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
        # https://cloud.google.com/docs/authentication/api-keys); Gemini's newer auth keys,
        # which Google AI Studio creates by default ("Using Gemini API keys",
        # https://ai.google.dev/gemini-api/docs/api-key), start `AQ.` (Google's answer on
        # discuss.ai.google.dev: "Authentication Key (AQ)"); their length is not documented.
        # Either case: a message may repeat a name casefolded ("unknown provider 'aizasy...'")
        re.compile(r"(?<![0-9A-Za-z])(?i:AIza)[0-9A-Za-z_-]{35,}"),
        re.compile(r"(?<![0-9A-Za-z])(?i:AQ)\.[0-9A-Za-z_-]{20,}"),
        re.compile(r"(?i)\b(bearer|token|api[-_]?key)\s*[:=]?\s+[A-Za-z0-9._~+/-]{8,}=*"),
        # (a value already written `<... redacted>` stays whole)
        re.compile(r"(?i)\b(authorization|x-api-key)\s*[:=]\s*(?!<[^<>]*redacted>)\S+"),
    )


# a hub token (provcat.hub.tokens): pasted where a name goes, it must not come back in an error
HUB_TOKEN_SHAPE = re.compile(r"pch_[0-9a-f]{12}_[A-Za-z0-9_-]{8,}")


_UNIT = re.compile(r"%[0-9A-Fa-f]{2}|.", re.DOTALL)


def hub_tokens_hidden(text: str) -> str:
    """``text`` (a URL, or a log line quoting one) with each hub token replaced by
    ``<redacted>``, whether written plainly or with any of its characters percent-encoded, once
    or up to three times over (``pch%5F...``, ``%70%63%68...``, ``pch%255F...``): the token is
    found in the decoded text and its span in ``text`` replaced, so everything else stays as it
    was written."""
    if "%" not in text:
        return HUB_TOKEN_SHAPE.sub("<redacted>", text)
    chars = list(text)
    starts = list(range(len(text)))  # where in `text` each character of `chars` starts
    for _ in range(3):
        if "%" not in chars:
            break
        decoded: list[str] = []
        at: list[int] = []
        for unit in _UNIT.finditer("".join(chars)):
            at.append(starts[unit.start()])
            found = unit.group(0)
            decoded.append(chr(int(found[1:], 16)) if len(found) == 3 else found)
        chars, starts = decoded, at
    starts.append(len(text))
    parts: list[str] = []
    done = 0
    for token in HUB_TOKEN_SHAPE.finditer("".join(chars)):
        parts += (text[done : starts[token.start()]], "<redacted>")
        done = starts[token.end()]
    return "".join(parts) + text[done:]


def secret_shapes_hidden(text: str) -> str:
    """``text`` with anything shaped like an API key or a hub token (percent-encoded too), and
    URL passwords, replaced; nothing else changes (whitespace and length kept: a command line's own error
    text, where an argument pasted in the wrong place is repeated)."""
    text = hub_tokens_hidden(url_without_password(text))
    for shape in _patterns()[1]:
        text = shape.sub("<redacted>", text)
    return text


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


def without_secrets(text: str, secrets: Iterable[str], *, label: str = REDACTED) -> str:
    """``text`` with each of ``secrets`` (the credentials a call carries, however they were
    given; stripped, 4 characters or more) replaced by ``label`` wherever it appears, and any
    start of one of 8 characters or more too: a field cut at its bound may end inside a key.
    Nothing else changes (no length bound, whitespace kept)."""
    for secret in secrets:
        secret = secret.strip()
        if len(secret) < 4:
            continue
        head = secret[:8]
        parts: list[str] = []
        start = 0
        while (found := text.find(head, start)) >= 0:
            end = found + len(head)
            while (
                end - found < len(secret) and end < len(text) and text[end] == secret[end - found]
            ):
                end += 1
            parts += (text[start:found], label)
            start = end
        text = "".join(parts) + text[start:]
    return text


def redact_secrets(message: str, secrets: Iterable[str], *, limit: int = MAX_LENGTH) -> str:
    """:func:`sanitize` after :func:`without_secrets`."""
    return sanitize(without_secrets(message, secrets), limit=limit)
