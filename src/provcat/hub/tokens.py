"""Bearer tokens: ``pch_<id>_<secret>``. Only SHA-256 of the secret is stored; checks run in
constant time; a token's text never appears in a repr, message or log."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field

__all__ = [
    "ADMIN",
    "PYTHON_TOKEN_ADVICE",
    "SHELL_TOKEN_ADVICE",
    "TOKEN_ID",
    "NewToken",
    "TokenRecord",
    "hash_secret",
    "new_token",
    "split_token",
    "token_problem",
]

ADMIN = "*"
TOKEN_ID = re.compile(r"[0-9a-f]{12}")  # secrets.token_hex(6): what `token list` shows
_SHAPE = re.compile(rf"pch_({TOKEN_ID.pattern})_([A-Za-z0-9_-]{{20,100}})")


@dataclass(frozen=True, slots=True)
class NewToken:
    """A token just created: ``text`` is shown once and never stored."""

    token_id: str
    text: str = field(repr=False)
    secret_hash: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class TokenRecord:
    """A stored token: its public id, the hash of its secret and its namespaces (``*``: all)."""

    token_id: str
    secret_hash: str = field(repr=False)
    namespaces: tuple[str, ...]
    description: str = ""
    created_at: str = ""
    revoked_at: str | None = None

    @property
    def admin(self) -> bool:
        return ADMIN in self.namespaces

    def allows(self, namespace: str) -> bool:
        return self.admin or namespace in self.namespaces

    def matches(self, secret: str) -> bool:
        """Constant-time comparison of the presented secret with the stored hash."""
        return hmac.compare_digest(hash_secret(secret), self.secret_hash)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_token() -> NewToken:
    token_id = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    return NewToken(token_id, f"pch_{token_id}_{secret}", hash_secret(secret))


# how to read a token from a file without its newline, for a shell user and for Python code
SHELL_TOKEN_ADVICE = "in a shell: PROVCAT_HUB_TOKEN=\"$(tr -d '[:space:]' < FILE)\""
PYTHON_TOKEN_ADVICE = "in Python: token=Path(FILE).read_text().strip()"


def token_problem(token: str, advice: str = SHELL_TOKEN_ADVICE) -> str | None:
    """What makes ``token`` unusable in an ``Authorization`` header, else None; never the token.

    A token is sent exactly as given: whitespace (a trailing newline read from a file, a leading
    space) is refused rather than stripped, so the token that works is the one written down.
    ``advice`` says how to read one from a file, for the reader of the error.
    """
    if any(c.isspace() for c in token):
        found = "whitespace (a trailing newline or space, as when it is read from a file?)"
    elif any(ord(c) < 0x20 or ord(c) == 0x7F for c in token):
        found = "a control character"
    elif not token.isascii():
        found = "a non-ASCII character"
    else:
        return None
    return (
        f"the token holds {found}; a token is printable ASCII without spaces: give it exactly "
        f"as `provcat hub token create` printed it ({advice})"
    )


def split_token(text: str) -> tuple[str, str] | None:
    """``(token_id, secret)`` of a well-formed token, else None."""
    match = _SHAPE.fullmatch(text)
    return (match.group(1), match.group(2)) if match else None
