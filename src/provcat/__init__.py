"""provcat: the validated catalog of LLM provider adapters.

The catalog itself lives in the generated ``provcat_catalog`` package; this package is the runtime
that reads it. Importing ``provcat`` is cheap: nothing is imported from the snapshot until first use.
"""

__version__ = "0.1.0"

from typing import TYPE_CHECKING

from provcat.lazy_names import lazy_names

if TYPE_CHECKING:
    from provcat.cost import Cost, estimate_cost
    from provcat.imodel import iModel
    from provcat.inventory import ModelInfo, get_model, list_models
    from provcat.match import match_endpoint
    from provcat.model_errors import ModelDeprecated, ModelNotFound, ModelRetired
    from provcat.models import model_kwargs
    from provcat.modelspec import ModelSpec, parse_model_spec
    from provcat.registry import EndpointRegistry
    from provcat.resolution import resolve

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
    "match_endpoint": "provcat.match",
    "EndpointRegistry": "provcat.registry",
    "iModel": "provcat.imodel",
    "parse_model_spec": "provcat.modelspec",
    "ModelSpec": "provcat.modelspec",
    "model_kwargs": "provcat.models",
    "resolve": "provcat.resolution",
    "get_model": "provcat.inventory",
    "list_models": "provcat.inventory",
    "ModelInfo": "provcat.inventory",
    "estimate_cost": "provcat.cost",
    "Cost": "provcat.cost",
    "ModelNotFound": "provcat.model_errors",
    "ModelRetired": "provcat.model_errors",
    "ModelDeprecated": "provcat.model_errors",
}


__getattr__ = lazy_names(__name__, _LAZY)
