"""provcat: the validated catalog of LLM provider adapters.

The catalog itself lives in the generated ``provcat_catalog`` package; this package is the runtime
that reads it. Importing ``provcat`` is cheap: nothing is imported from the snapshot until first use.
"""

__version__ = "0.1.0"

from typing import TYPE_CHECKING

from provcat.lazy_names import lazy_names

if TYPE_CHECKING:
    from provcat.endpoints.imodel import iModel
    from provcat.endpoints.match import match_endpoint
    from provcat.endpoints.registry import EndpointRegistry
    from provcat.endpoints.resolution import resolve
    from provcat.errors import ModelDeprecated, ModelNotFound, ModelRetired
    from provcat.models.cost import Cost, estimate_cost
    from provcat.models.inventory import ModelInfo, get_model, list_models
    from provcat.models.kwargs import model_kwargs
    from provcat.models.spec import ModelSpec, parse_model_spec

__all__ = [
    "Cost",
    "EndpointRegistry",
    "ModelDeprecated",
    "ModelInfo",
    "ModelNotFound",
    "ModelRetired",
    "ModelSpec",
    "estimate_cost",
    "get_model",
    "iModel",
    "list_models",
    "match_endpoint",
    "model_kwargs",
    "parse_model_spec",
    "resolve",
]

_LAZY = {
    "match_endpoint": "provcat.endpoints.match",
    "EndpointRegistry": "provcat.endpoints.registry",
    "iModel": "provcat.endpoints.imodel",
    "parse_model_spec": "provcat.models.spec",
    "ModelSpec": "provcat.models.spec",
    "model_kwargs": "provcat.models.kwargs",
    "resolve": "provcat.endpoints.resolution",
    "get_model": "provcat.models.inventory",
    "list_models": "provcat.models.inventory",
    "ModelInfo": "provcat.models.inventory",
    "estimate_cost": "provcat.models.cost",
    "Cost": "provcat.models.cost",
    "ModelNotFound": "provcat.errors",
    "ModelRetired": "provcat.errors",
    "ModelDeprecated": "provcat.errors",
}


__getattr__ = lazy_names(__name__, _LAZY)
