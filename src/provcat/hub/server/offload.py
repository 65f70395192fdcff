"""Blocking storage reads off the event loop, at most as many at once as the reader pool holds.

Handlers on the hot read path are ``async``: request parsing, validation and JSON rendering stay
on the event loop, and only the metadata query goes to a worker thread. Those threads are bounded
by a limiter sized to the reader connection pool, so under load a read waits in the event loop
(cheap) instead of in the pool's checkout (a blocked thread holding the GIL hostage), and the pool
never has to open and close overflow connections.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import TypeVar, TypeVarTuple

import anyio
import anyio.to_thread

__all__ = ["BoundedReads"]

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class BoundedReads:
    """``await reads(fn, *args)`` runs ``fn(*args)`` in a worker thread, ``limit`` at a time.

    One limiter per event loop: an app may be served by several loops over its life (tests,
    uvicorn restarts), and an anyio limiter belongs to the loop that first used it.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._limiters: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, anyio.CapacityLimiter
        ] = weakref.WeakKeyDictionary()

    def _limiter(self) -> anyio.CapacityLimiter:
        loop = asyncio.get_running_loop()
        limiter = self._limiters.get(loop)
        if limiter is None:
            limiter = self._limiters[loop] = anyio.CapacityLimiter(self.limit)
        return limiter

    async def __call__(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._limiter())
