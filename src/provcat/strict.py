"""The one switch that turns the staged deprecations into errors (ADR-0028 D4 "Migration").

Staged today, each with a warning: an unknown provider given only a ``base_url`` falls back to
a compatible endpoint (a ``DeprecationWarning``), and a retired endpoint or model is still built
(or, for a model, still given by ``model_kwargs``; ``EndpointDeprecated`` and ``ModelDeprecated``,
both ``FutureWarning``). Strict mode raises instead (``EndpointNotFound``,
``EndpointRetired``, ``ModelRetired``). The switch is read on every use, never remembered.
``iModel``'s unclassified keywords are no longer staged: they are refused in either mode
(``EndpointConfigurationError``). Strict mode is on with:

* environment: ``PROVCAT_STRICT=1``
* code: ``provcat.strict.set_strict(True)``
"""

from __future__ import annotations

import os
import threading
import warnings

__all__ = ["STRICT_ENV", "is_strict", "set_strict"]

STRICT_ENV = "PROVCAT_STRICT"

_strict: bool | None = None
_lock = threading.Lock()


def set_strict(value: bool | None) -> None:
    """Turn the staged deprecation warnings into errors (True), back (False), or follow the
    environment again (None)."""
    global _strict
    with _lock:
        _strict = value


_ON = ("1", "true", "yes", "on")
_OFF = ("", "0", "false", "no", "off")
_warned: set[str] = set()  # the unreadable values already warned about


def is_strict() -> bool:
    """Whether staged fallbacks raise instead of warning. ``PROVCAT_STRICT`` is on for 1, true,
    yes or on (any case), off for 0, false, no, off or empty; any other value is off with a
    warning (once per value), since a typo such as ``ture`` would otherwise pass unseen."""
    if _strict is not None:
        return _strict
    value = os.environ.get(STRICT_ENV, "").strip().casefold()
    if value in _ON:
        return True
    if value not in _OFF and value not in _warned:
        _warned.add(value)
        warnings.warn(
            f"{STRICT_ENV}={value!r} is neither on (1, true, yes, on) nor off (0, false, no, "
            "off): strict mode stays off",
            UserWarning,
            stacklevel=2,
        )
    return False
