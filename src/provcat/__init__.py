"""provcat: the validated catalog of LLM provider adapters.

The catalog itself lives in the generated ``provcat_catalog`` package; this package is the runtime
that reads it. Importing ``provcat`` is cheap: nothing is imported from the snapshot until first use.
"""

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from provcat.imodel import iModel
    from provcat.match import match_endpoint
    from provcat.registry import EndpointRegistry

__all__ = ["EndpointRegistry", "iModel", "match_endpoint"]

_LAZY = {
    "match_endpoint": "provcat.match",
    "EndpointRegistry": "provcat.registry",
    "iModel": "provcat.imodel",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'provcat' has no attribute {name!r}")
