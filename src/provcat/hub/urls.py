"""The one check of a hub's base URL, for the client's ``--hub`` and the server's
``--public-url``: such a URL is printed (errors, reprs, the start line) and copied into every
``storage_uri``, so it must hold no credential, and a query or fragment would break every URL
built from it."""

from __future__ import annotations

import re

import httpx

from provcat.hub.errors import ValidationError

__all__ = ["api_root_hint", "check_base_url", "plain_http"]

# a host (a name or an IPv4 address) with a port and a path perhaps, written without its scheme:
# safe to repeat (no user info, no token: a token's `_` is no host character)
_PLAIN_HOST = re.compile(r"[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)?")


def check_base_url(url: str, what: str = "the hub URL", credentials_hint: str = "") -> httpx.URL:
    """``url`` parsed; ValidationError unless it is ``http(s)://host[:port][/prefix]``. The
    error repeats the URL only when it is a plain host written without its scheme (the URL
    meant is suggested); ``credentials_hint`` ends the error when the URL holds a credential."""
    shape = f"{what} must be an http:// or https:// URL: http(s)://host[:port][/prefix]"
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        raise ValidationError(shape) from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        if "://" not in url and _PLAIN_HOST.fullmatch(url):  # `127.0.0.1:8080`: no scheme
            raise ValidationError(f"{shape}: did you mean http://{url}?")
        raise ValidationError(shape)
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise ValidationError(f"{shape}: its port must be 1 to 65535")
    authority = url.partition("://")[2].split("/", 1)[0]
    credential = bool(parsed.userinfo) or "@" in authority
    if credential or parsed.query or "#" in url or "?" in url:
        raise ValidationError(
            f"{shape}, without user:password@, ?query or #fragment (it is shown in messages "
            "and copied into URLs)" + (credentials_hint if credential else "")
        )
    return parsed


def api_root_hint(base_url: str) -> str:
    """A hint to append to a 404 for a route when ``base_url``'s path ends in ``/v1`` (the API
    root, pasted as the hub URL: the client adds ``/v1/...`` itself, so every request missed),
    else "". Not a refusal: a hub may be served under any prefix, one ending in ``/v1`` too."""
    url = httpx.URL(base_url)
    path = url.path.rstrip("/")
    if not path.endswith("/v1"):
        return ""
    root = str(url.copy_with(path=path[: -len("/v1")] or "/")).rstrip("/")
    return (
        f"; drop the /v1 suffix: the hub URL is the server's root (or the prefix it is served "
        f"under) and the client adds /v1/... itself: --hub {root}"
    )


def plain_http(base_url: str) -> str:
    """``base_url`` with ``http://`` for ``https://``, keeping its host, port (443 when it named
    none) and prefix."""
    url = httpx.URL(base_url)
    return str(url.copy_with(scheme="http", port=url.port or 443)).rstrip("/")
