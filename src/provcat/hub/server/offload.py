"""Blocking storage reads off the event loop, at most as many at once as the reader pool holds.

Handlers on the hot read path are ``async``: request parsing, validation and JSON rendering stay
on the event loop, and only the metadata query goes to a worker thread. Those threads are a pool
of their own, as many as the reader connection pool has connections, so under load a read waits
in the pool's queue (cheap) instead of in the connection pool's checkout (a blocked thread), and
the connection pool never has to open and close overflow connections.

A plain executor rather than anyio's ``to_thread``: the hand-off is the same (a queue, a thread,
a wake-up of the loop), without anyio's per-call limiter, token and backend look-ups, which cost
about as much CPU as the SQLite read itself on every resolve.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar, TypeVarTuple

__all__ = ["BoundedReads"]

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class BoundedReads:
    """``await reads(fn, *args)`` runs ``fn(*args)`` in a worker thread, ``limit`` at a time;
    ``reads.from_thread(fn, *args)`` does the same from a thread that is not the event loop's.

    The threads start on first use and stop at :meth:`close` (the app's shutdown); a later call
    starts a new pool (an app may be served again, as tests do).
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> ThreadPoolExecutor:
        pool = self._pool
        if pool is None:
            with self._lock:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(self.limit, thread_name_prefix="hub-read")
                pool = self._pool
        return pool

    async def __call__(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), functools.partial(fn, *args))

    def from_thread(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """``fn(*args)`` in a worker of the pool, for code already in some other worker thread
        (a push's parsing thread): the calling thread waits, and the read still takes a slot."""
        return self._executor().submit(fn, *args).result()

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)
