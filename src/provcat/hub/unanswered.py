"""What a request to the hub that got no HTTP answer means, and what to do about it: the hub
could not be reached, took the connection and did not answer in time, dropped an upload, or
speaks no TLS where ``https://`` was written (or has a certificate the client refuses).

Kept apart from ``RegistryClient``, which sends the requests: this is the wording of their
transport failures, which depends only on the failure, the request and the hub's address.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterator

import httpx

from provcat.hub.errors import RegistryUnavailableError
from provcat.hub.urls import plain_http

__all__ = ["origin", "unanswered"]

# the connection was made, then broke (not: the hub could not be reached at all)
_LOST = (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError, httpx.CloseError)
# what OpenSSL says when the other end answers a TLS hello with something that is not TLS
_NOT_TLS = {
    "WRONG_VERSION_NUMBER",
    "RECORD_LAYER_FAILURE",
    "PACKET_LENGTH_TOO_LONG",
    "UNKNOWN_PROTOCOL",
}
_RETRY_PUSH = (
    "The push can be retried: a version is published whole or not at all, and pushing the "
    "same bytes and manifest again is accepted"
)


def origin(url: httpx.URL) -> tuple[str, str, int | None]:
    """The scheme, host and port the client sends its token to (and compares redirects with)."""
    return (url.scheme, url.host, url.port)


def unanswered(
    exc: httpx.TransportError, request: httpx.Request, base_url: str, timeout: float
) -> RegistryUnavailableError:
    """What a request (to the hub, or where it redirected) that got no HTTP answer means, and
    what to do about it."""
    name, method = type(exc).__name__, request.method
    if isinstance(exc, httpx.ReadTimeout):  # connected and sent: the answer did not come
        message = (
            f"the hub at {base_url} did not answer within {timeout:g} second"
            f"{'' if timeout == 1 else 's'} ({name}): it "
            "took the connection but sent no answer in time; it may be overloaded or stuck: try "
            "again later (in Python, RegistryClient(..., timeout=SECONDS) waits longer)"
        )
        if method == "POST":
            message += f". {_RETRY_PUSH}"
        return RegistryUnavailableError(message, {"reason": "timeout", "timeout": timeout})
    if method == "POST" and isinstance(exc, _LOST):
        # connected, then cut off while sending the body or awaiting the answer
        return RegistryUnavailableError(
            f"the connection to the hub at {base_url} was lost during the upload ({name}): the "
            f"hub stopped or the network failed. {_RETRY_PUSH}",
            {"reason": "connection_lost"},
        )
    tls = next((e for e in _causes(exc) if isinstance(e, ssl.SSLError)), None)
    if isinstance(tls, ssl.SSLCertVerificationError):
        return RegistryUnavailableError(
            f"the TLS certificate of the hub at {base_url} was not accepted "
            f"({tls.verify_message}); this is a certificate problem: check that the certificate "
            "is valid for this host name and not expired, and, if a private CA signed it, set "
            "SSL_CERT_FILE to that CA's certificate",
            {"reason": "certificate"},
        )
    here = origin(request.url) == origin(httpx.URL(base_url))  # not a redirect's target
    if here and tls is not None and tls.reason in _NOT_TLS:
        plain = plain_http(base_url)
        return RegistryUnavailableError(
            f"the TLS handshake with the hub at {base_url} failed "
            f"({str(tls.reason).lower().replace('_', ' ')}): the server at "
            f"{httpx.URL(plain).netloc.decode()} does not speak TLS; if it serves plain HTTP, "
            f"use {plain}",
            {"reason": "not_tls"},
        )
    return RegistryUnavailableError(
        f"cannot reach the hub at {base_url} ({name}); is it running, and is the URL right?"
    )


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and the exceptions it was raised from (httpx wraps httpcore's, which wraps
    ssl's)."""
    seen: BaseException | None = exc
    while seen is not None:
        yield seen
        seen = seen.__cause__ or seen.__context__
