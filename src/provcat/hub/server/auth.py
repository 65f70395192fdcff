"""Bearer-token checks: 401 for missing or bad tokens, 403 for another namespace."""

from __future__ import annotations

from starlette.requests import Request

from provcat.hub.errors import AuthenticationError, AuthorizationError
from provcat.hub.storage import Storage
from provcat.hub.tokens import TokenRecord, hash_secret, split_token

__all__ = ["authenticate", "authorize", "optional_token", "verify_token"]

_DUMMY = TokenRecord("000000000000", hash_secret("x"), ())


def authenticate(request: Request, storage: Storage) -> TokenRecord:
    """The token presented as ``Authorization: Bearer <token>``; AuthenticationError otherwise."""
    header = request.headers.get("authorization")
    if not header:
        raise AuthenticationError("missing bearer token: send 'Authorization: Bearer <token>'")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise AuthenticationError("malformed Authorization header: expected 'Bearer <token>'")
    return verify_token(storage, value.strip())


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


def authorize(token: TokenRecord, namespace: str) -> None:
    if not token.allows(namespace):
        raise AuthorizationError(
            f"this token may not act on namespace '{namespace}'; use a token created with "
            f"--namespace {namespace}",
            {"namespace": namespace},
        )


def optional_token(request: Request, storage: Storage, required: bool) -> TokenRecord | None:
    """For reads: the token when reads are private (required), else None."""
    return authenticate(request, storage) if required else None
