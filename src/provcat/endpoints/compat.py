"""Migration switches and the explicit OpenAI-compatible endpoint (ADR-0028 D4 "Migration").

Two legacy behaviours are staged: an unknown provider given only a ``base_url`` falls back to a
compatible endpoint, and ``iModel`` moves unclassified kwargs into request defaults. Both warn with
``DeprecationWarning`` today. One switch turns both warnings into errors:

* environment: ``PROVCAT_STRICT=1``
* code: ``provcat.endpoints.compat.set_strict(True)``
"""

from __future__ import annotations

import importlib
import os
import threading
from typing import Any

from pydantic import BaseModel

from provcat.endpoints.endpoint import Endpoint
from provcat.endpoints.protocols import COMPATIBLE_PROTOCOL, PROTOCOLS

__all__ = [
    "STRICT_ENV",
    "CompatibleEndpoint",
    "compatible_request_model",
    "is_strict",
    "set_strict",
]

STRICT_ENV = "PROVCAT_STRICT"

_strict: bool | None = None
_lock = threading.Lock()


def set_strict(value: bool | None) -> None:
    """Turn the staged deprecation warnings into errors (True), back (False), or follow the
    environment again (None)."""
    global _strict
    with _lock:
        _strict = value


def is_strict() -> bool:
    """Whether staged fallbacks raise instead of warning."""
    if _strict is not None:
        return _strict
    return os.environ.get(STRICT_ENV, "").strip().casefold() in ("1", "true", "yes", "on")


def compatible_request_model() -> type[BaseModel]:
    """The request model of the protocol compatible endpoints speak (provcat.endpoints.protocols)."""
    ref = PROTOCOLS[COMPATIBLE_PROTOCOL].request_options
    assert ref is not None
    module_name, _, name = ref.partition(":")
    model: Any = getattr(importlib.import_module(module_name), name)
    return model  # type: ignore[no-any-return]


class CompatibleEndpoint(Endpoint):
    """A generic endpoint for a service that speaks the OpenAI-compatible chat protocol.

    Only built on explicit request (``openai_compatible=True`` with a ``base_url``); its config
    carries ``openai_compatible=True`` so inspection can tell intent from accident.
    """
