"""Pause Python's cyclic garbage collector for one batch run of the compiler.

A build of a large catalog allocates millions of small containers (positions, records, rendered
chunks) that reference counting frees on its own; the cyclic collector's repeated passes over
them cost about a third of the run. Reference counting keeps freeing memory while it is paused; the
collector resumes when the run returns (or raises).
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def paused_gc(fn: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was_enabled:
                gc.enable()

    return run
