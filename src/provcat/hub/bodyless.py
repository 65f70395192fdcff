"""What an HTTP error without the protocol's error body means to the client.

A provcat hub answers every failure with ``{"error", "message", "details"}``. A static mirror
(``provcat hub export-static`` on a plain static host) has no error bodies: a file it lacks is
its way of saying "no such adapter", and it refuses writes (``501``, or ``405``); its
``/v1/health`` says ``"static": true``. Anything else that answers a 404 without that body
(another web server, a site of other files, the wrong port or path) is no hub at all: "adapter
not found" from there would send the reader looking for a typo in the reference when it is the
URL that is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from provcat.hub.errors import (
    AdapterNotFoundError,
    HubError,
    MethodNotAllowedError,
    RegistryUnavailableError,
)
from provcat.hub.ref import HubRef
from provcat.hub.urls import api_root_hint

__all__ = ["explain", "is_mirror", "protocol_error"]

_WRITES = frozenset({"POST", "PUT", "DELETE"})


def protocol_error(body: Any) -> bool:
    """Whether a decoded body is the protocol's error body (it names its error)."""
    return isinstance(body, dict) and isinstance(body.get("error"), str)


def is_mirror(health: Any) -> bool:
    """Whether the decoded JSON of ``GET /v1/health`` (None: none) is a static mirror's."""
    return (
        isinstance(health, dict) and health.get("status") == "ok" and health.get("static") is True
    )


def explain(
    status: int,
    method: str,
    url: str,
    base_url: str,
    ref: HubRef | None,
    mirror: Callable[[], bool],
) -> HubError | None:
    """The error for an answer without the protocol's body, or None when its status says it all
    (a proxy's 502, a 401). ``url`` is the address that answered (no query, no password),
    ``ref`` the adapter asked for (None: a search or a health check), ``mirror`` asks whether
    ``base_url`` is a static mirror (one ``GET /v1/health``, made only when it matters)."""
    write = method in _WRITES
    if status != 404 and not (write and status in (405, 501)):
        return None
    if mirror():
        if write:
            return MethodNotAllowedError(
                f"{base_url} is a read-only static mirror (written by provcat hub "
                "export-static): push to, or delete on, the live hub it was exported from",
                {"reason": "static_mirror", "status": status},
            )
        if ref is not None:  # a file the mirror does not have: no such adapter there
            return AdapterNotFoundError(
                f"no adapter {ref} on the static mirror at {base_url}",
                {"namespace": ref.namespace, "name": ref.name, "version": ref.version},
            )
    return RegistryUnavailableError(
        f"{url} answered HTTP {status} without a hub's error body: {base_url} does not look "
        "like a provcat hub (or a static mirror of one); check --hub / PROVCAT_HUB_URL: its "
        f"host, port and path{api_root_hint(base_url)}",
        {"reason": "not_a_hub", "status": status},
    )
