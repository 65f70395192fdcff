"""provcat: the validated catalog of LLM provider adapters.

The catalog itself lives in the generated ``provcat_catalog`` package; this package is the runtime
that reads it. Importing ``provcat`` is cheap: each public name is imported from its home module
on first use (PEP 562), and nothing is read from the snapshot until then.
"""

__version__ = "0.1.0"

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from provcat.endpoints.imodel import iModel
    from provcat.endpoints.match import match_endpoint
    from provcat.endpoints.registry import EndpointRegistry
    from provcat.endpoints.resolution import resolve
    from provcat.endpoints.textstream import Delta, text_stream, text_stream_sync
    from provcat.errors import ModelDeprecated, ModelNotFound, ModelRetired
    from provcat.models.cost import Cost, estimate_cost
    from provcat.models.inventory import ModelInfo, get_model, list_models
    from provcat.models.kwargs import model_kwargs
    from provcat.models.spec import ModelSpec, parse_model_spec
    from provcat.models.usage import TokenUsage

__all__ = [
    "Cost",
    "Delta",
    "EndpointRegistry",
    "ModelDeprecated",
    "ModelInfo",
    "ModelNotFound",
    "ModelRetired",
    "ModelSpec",
    "TokenUsage",
    "estimate_cost",
    "get_model",
    "iModel",
    "list_models",
    "match_endpoint",
    "model_kwargs",
    "parse_model_spec",
    "resolve",
    "text_stream",
    "text_stream_sync",
]

# the one lazy-name table: public name -> its home module
_HOMES = {
    "match_endpoint": "provcat.endpoints.match",
    "EndpointRegistry": "provcat.endpoints.registry",
    "iModel": "provcat.endpoints.imodel",
    "resolve": "provcat.endpoints.resolution",
    "parse_model_spec": "provcat.models.spec",
    "ModelSpec": "provcat.models.spec",
    "model_kwargs": "provcat.models.kwargs",
    "get_model": "provcat.models.inventory",
    "list_models": "provcat.models.inventory",
    "ModelInfo": "provcat.models.inventory",
    "estimate_cost": "provcat.models.cost",
    "Cost": "provcat.models.cost",
    "TokenUsage": "provcat.models.usage",
    "Delta": "provcat.endpoints.textstream",
    "text_stream": "provcat.endpoints.textstream",
    "text_stream_sync": "provcat.endpoints.textstream",
    "ModelNotFound": "provcat.errors",
    "ModelRetired": "provcat.errors",
    "ModelDeprecated": "provcat.errors",
}


def __getattr__(name: str) -> Any:
    """Import a public name from its home on first use and keep it here (later reads are plain
    attribute reads)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
