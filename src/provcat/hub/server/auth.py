"""Bearer-token checks: 401 for missing or bad tokens, 403 for another namespace."""

from __future__ import annotations

from starlette.requests import Request

from provcat.hub.auth import verify_token
from provcat.hub.errors import AuthenticationError, AuthorizationError
from provcat.hub.storage import Storage
from provcat.hub.tokens import TokenRecord

__all__ = ["authenticate", "authorize", "optional_token"]


def authenticate(request: Request, storage: Storage) -> TokenRecord:
    """The token presented as ``Authorization: Bearer <token>``; AuthenticationError otherwise."""
    header = request.headers.get("authorization")
    if not header:
        # worded without "Authorization: Bearer", which the hiding of secrets would eat
        raise AuthenticationError(
            "missing bearer token: send an Authorization header holding 'Bearer <token>'"
        )
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise AuthenticationError("malformed Authorization header: expected 'Bearer <token>'")
    return verify_token(storage, value.strip())


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
