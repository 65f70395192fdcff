"""Running the app under uvicorn: one process, or ``--workers N`` processes on one socket.

Every process serves the same settings (handed to workers through ``PROVCAT_HUB_SERVE_SETTINGS``,
never on a command line) and opens its own storage: its own connection pools and its own
locked upload temp folder, and (where the OS has ``SO_REUSEPORT``) its own listening socket on
the shared address, so new connections are spread evenly (``listeners``). Start-up housekeeping
runs once, in the parent, before any worker starts; it removes only what dead processes left, so
a worker that restarts, or another server on the same database and bucket, never loses an upload
in flight. Forwarded headers are never
trusted: URLs come from the configured public URL. The access log never shows a hub token: one
pasted into a URL's path or query, plain or percent-encoded, is logged as ``<redacted>``
(``HideTokens``).
"""

from __future__ import annotations

import copy
import errno
import inspect
import logging
import os
import socket
from collections.abc import Callable
from typing import Any

import uvicorn
from fastapi import FastAPI
from uvicorn.config import LOGGING_CONFIG
from uvicorn.supervisors import Multiprocess

from provcat.hub.errors import RegistryUnavailableError
from provcat.hub.server.app import create_app
from provcat.hub.server.listeners import REUSE_PORT, bind, reserve
from provcat.hub.server.transport import HubHttpProtocol
from provcat.hub.settings import HubSettings
from provcat.hub.storage import open_storage
from provcat.redact import hub_tokens_hidden

__all__ = ["SETTINGS_ENV", "HideTokens", "run", "worker_app"]

SETTINGS_ENV = "PROVCAT_HUB_SERVE_SETTINGS"


class HideTokens(logging.Filter):
    """On uvicorn's access logger: a hub token in a request line (``GET /?token=pch_...``, or
    pasted into the path), plain or percent-encoded (``pch%5F...``), is logged as
    ``<redacted>``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):  # (client, method, path and query, version, status)
            record.args = tuple(
                hub_tokens_hidden(a) if isinstance(a, str) else a for a in record.args
            )
        return True


def _log_config() -> dict[str, Any]:
    """uvicorn's own logging configuration, with ``HideTokens`` on its access logger."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["hide_tokens"] = {"()": HideTokens}
    config["loggers"]["uvicorn.access"]["filters"] = ["hide_tokens"]
    return config


def uvicorn_options(log_level: str) -> dict[str, Any]:
    """The uvicorn settings every hub process uses (tests use them too)."""
    return {
        "http": HubHttpProtocol,
        "proxy_headers": False,  # X-Forwarded-* never changes scheme, host or client
        "server_header": False,
        "log_level": log_level,
        "log_config": _log_config(),
        "timeout_graceful_shutdown": 5,
        # NO_COLOR set and not empty (https://no-color.org): no colour even on a terminal;
        # otherwise uvicorn's own choice (colour on a terminal only)
        "use_colors": False if os.environ.get("NO_COLOR") else None,
    }


def worker_app() -> FastAPI:
    """The app factory each ``--workers`` process calls (settings from the environment)."""
    settings = HubSettings.from_json(os.environ[SETTINGS_ENV])
    # the parent migrated and cleaned before any worker started: a worker only opens
    return create_app(settings, storage=open_storage(settings, prepare=False))


def run(
    settings: HubSettings,
    host: str,
    port: int,
    workers: int,
    log_level: str,
    opened: Callable[[], None] = lambda: None,
) -> None:
    """Serve; ``opened`` is called once the address is bound and the storage has opened (so a
    start that fails there never announces itself as serving)."""
    options = uvicorn_options(log_level)
    if workers <= 1:
        with _listening(bind, host, port) as sock:
            app = create_app(settings, storage=open_storage(settings))
            opened()
            uvicorn.Server(uvicorn.Config(app, host=host, port=port, **options)).run([sock])
        return
    open_storage(settings).close()  # migrate and clean once, before any worker starts
    os.environ[SETTINGS_ENV] = settings.to_json()
    factory = "provcat.hub.server.serving:worker_app"
    if not REUSE_PORT:  # one shared accept queue: uvicorn's own way
        _listening(bind, host, port).close()  # a busy port is refused now, not by uvicorn
        opened()
        uvicorn.run(factory, factory=True, host=host, port=port, workers=workers, **options)
        return
    config = uvicorn.Config(factory, factory=True, host=host, port=port, workers=workers, **options)
    supervisor: Any = Multiprocess
    # uvicorn < 0.30 also takes the function each worker runs
    extra = {"target": uvicorn.Server(config).run} if "target" in _parameters(supervisor) else {}
    with _listening(reserve, host, port) as sock:
        opened()
        supervisor(config, sockets=[sock], **extra).run()


def _listening(make: Callable[[str, int], socket.socket], host: str, port: int) -> socket.socket:
    """``make(host, port)``, or RegistryUnavailableError saying what to change."""
    try:
        return make(host, port)
    except OSError as exc:
        if isinstance(exc, socket.gaierror):
            todo = "that host name does not resolve: give another --host"
        elif exc.errno == errno.EADDRNOTAVAIL:
            todo = "it is not an address of this machine: give another --host"
        elif exc.errno == errno.EADDRINUSE:
            todo = "another server is using that port: stop it, or give another --port"
        elif exc.errno == errno.EACCES:
            todo = "this user may not use that port: give a --port above 1023"
        else:
            todo = "check --host and --port"
        raise RegistryUnavailableError(
            f"cannot listen on {host}:{port} ({exc.strerror or type(exc).__name__}); {todo}"
        ) from None


def _parameters(fn: Any) -> set[str]:
    return set(inspect.signature(fn).parameters)
