"""What an operator is told when the hub cannot reach its S3 blob store at start-up: which bucket
at which endpoint, what failed (a stable ``reason``) and what to do.

Like the database check (``dbfailure``), only the start-up says this; a request that meets an
outage later answers the protocol's generic 503.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

from botocore.exceptions import (
    ClientError,
    ConnectTimeoutError,
    EndpointConnectionError,
    NoCredentialsError,
    ReadTimeoutError,
)

from provcat.hub.errors import RegistryUnavailableError
from provcat.redact import sanitize

__all__ = ["blob_store_failure", "shown_endpoint"]

_FIX = "--blobs / PROVCAT_HUB_BLOBS"

# S3 error codes (and HTTP statuses, as head_bucket reports them) -> (reason, what, what to do)
_CODES: dict[str, tuple[str, str, str]] = {
    **dict.fromkeys(
        ("404", "NoSuchBucket", "NotFound"),
        (
            "bucket_missing",
            "there is no bucket {bucket} at {endpoint}",
            f"create the bucket, or correct its name in {_FIX}",
        ),
    ),
    **dict.fromkeys(
        ("403", "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "Forbidden"),
        (
            "access_denied",
            "the store at {endpoint} refused these credentials for bucket {bucket}",
            "check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or the profile) and the bucket policy",
        ),
    ),
}


def shown_endpoint(url: str | None) -> str:
    """The store's endpoint as it may be shown: no user, password or query."""
    if not url:
        return "AWS S3"
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def blob_store_failure(
    bucket: str, endpoint_url: str | None, exc: BaseException, store: str | None = None
) -> RegistryUnavailableError:
    """The error for an S3 blob store that cannot be used: ``details`` has ``bucket``,
    ``endpoint`` and a stable ``reason``; the message names the store as ``--blobs`` gave it
    (``store``: ``s3://bucket/prefix``; default ``s3://bucket``)."""
    endpoint = shown_endpoint(endpoint_url)
    where: dict[str, Any] = {"bucket": bucket, "endpoint": endpoint}
    if isinstance(exc, ClientError):
        code = str(exc.response.get("Error", {}).get("Code", ""))
        reason, what, todo = _CODES.get(
            code,
            (
                "unavailable",
                f"the store at {{endpoint}} answered {sanitize(code) or 'an error'}",
                f"check that it runs and that {_FIX} is right",
            ),
        )
    elif isinstance(exc, (ConnectTimeoutError, ReadTimeoutError)):
        reason, what, todo = (
            "timeout",
            "the store at {endpoint} did not answer in time",
            "check that it is reachable from here (network, firewall)",
        )
    elif isinstance(exc, EndpointConnectionError):
        reason, what, todo = (
            "connection_refused",
            "nothing answers at {endpoint}",
            "start the object store there, or correct AWS_ENDPOINT_URL",
        )
    elif isinstance(exc, NoCredentialsError):
        reason, what, todo = (
            "no_credentials",
            "no credentials were found for {endpoint}",
            "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE",
        )
    else:
        reason, what, todo = (
            "unavailable",
            f"{sanitize(type(exc).__name__)} from {{endpoint}}",
            f"check that the store runs and that {_FIX} is right",
        )
    named = sanitize(store) if store else f"s3://{bucket}"
    message = f"cannot use the hub's blob store {named}: {what.format(**where)}; {todo}"
    return RegistryUnavailableError(message, {**where, "reason": reason})
