"""The explicit OpenAI-compatible endpoint (ADR-0028 D4): a service the catalog does not list that
speaks the compatible chat protocol, built only when a caller asks (``openai_compatible=True``)."""

from __future__ import annotations

import importlib
from typing import Any

from pydantic import BaseModel

from provcat.endpoints.endpoint import Endpoint
from provcat.endpoints.protocols import COMPATIBLE_PROTOCOL, PROTOCOLS

__all__ = ["CompatibleEndpoint", "compatible_request_model"]


def compatible_request_model() -> type[BaseModel]:
    """The request model of the protocol compatible endpoints speak (imported on first use)."""
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
