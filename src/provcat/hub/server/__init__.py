"""The hub's HTTP server: a FastAPI app factory serving the registry protocol v1."""

from __future__ import annotations

from provcat.hub.server.app import create_app

__all__ = ["create_app"]
