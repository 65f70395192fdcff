"""The adapter hub: registry protocol v1 client, server, storage and CLI.

``HubRef``, ``AdapterManifest`` and ``RegistryClient`` need only the base install (httpx and
pydantic); the server and storage need the ``hub`` extra. Errors live in ``provcat.hub.errors``.
"""

from __future__ import annotations

from provcat.hub.client import RegistryClient
from provcat.hub.localstore import LocalStore
from provcat.hub.manifest import AdapterManifest, SearchResult
from provcat.hub.ref import HubRef

__all__ = ["AdapterManifest", "HubRef", "LocalStore", "RegistryClient", "SearchResult"]
