"""The one check of a hub's base URL, for the client's ``--hub`` and the server's
``--public-url``: such a URL is printed (errors, reprs, the start line) and copied into every
``storage_uri``, so it must hold no credential, and a query or fragment would break every URL
built from it."""

from __future__ import annotations

import httpx

from provcat.hub.errors import ValidationError

__all__ = ["check_base_url"]


def check_base_url(url: str, what: str = "the hub URL") -> httpx.URL:
    """``url`` parsed; ValidationError (which never repeats the URL) unless it is
    ``http(s)://host[:port][/prefix]``."""
    shape = f"{what} must be an http:// or https:// URL: http(s)://host[:port][/prefix]"
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        raise ValidationError(shape) from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ValidationError(shape)
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise ValidationError(f"{shape}: its port must be 1 to 65535")
    authority = url.partition("://")[2].split("/", 1)[0]
    if parsed.userinfo or "@" in authority or parsed.query or "#" in url or "?" in url:
        raise ValidationError(
            f"{shape}, without user:password@, ?query or #fragment (it is shown in messages "
            "and copied into URLs)"
        )
    return parsed
