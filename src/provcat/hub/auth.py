"""A presented token's text checked against the stored tokens: the API's bearer check
(``hub.server.auth``) and the pages' cookie (``hub.web``) both use it."""

from __future__ import annotations

from provcat.hub.errors import AuthenticationError
from provcat.hub.storage import Storage
from provcat.hub.tokens import TokenRecord, hash_secret, split_token

__all__ = ["verify_token"]

_DUMMY = TokenRecord("000000000000", hash_secret("x"), ())


def verify_token(storage: Storage, value: str) -> TokenRecord:
    """The active token whose text is ``value``; AuthenticationError otherwise."""
    parts = split_token(value)
    record = storage.find_token(parts[0]) if parts else None
    secret = parts[1] if parts else "x"
    # compare even when the id is unknown, so timing says nothing about which part was wrong
    good = (record or _DUMMY).matches(secret)
    if record is None or record.revoked_at is not None or not good:
        error = AuthenticationError("invalid or revoked bearer token")
        error.headers["WWW-Authenticate"] = 'Bearer realm="provcat-hub", error="invalid_token"'
        raise error
    return record
