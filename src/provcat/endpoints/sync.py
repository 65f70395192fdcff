"""The blocking forms of a call and a stream, for scripts and notebooks.

Each coroutine runs on one event loop that provcat keeps in a daemon thread of its own, so a
blocking call works the same in a plain script, inside a notebook (whose own loop is already
running in the caller's thread) and from any worker thread; the loop's default connection pool is
shared by every blocking call, so connections are reused between them.

Ctrl-C while a blocking call waits cancels the call's task on that loop (the connection is closed,
a stream's response too) and then raises :class:`KeyboardInterrupt` in the caller, as a blocking
function does. Nothing of a cancelled call keeps running.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from typing import Any, TypeVar

__all__ = ["BlockingStream", "iterate_sync", "run_sync"]

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None


def _shared_loop() -> asyncio.AbstractEventLoop:
    """The event loop blocking calls run on, started on first use."""
    global _loop, _thread
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            _thread = threading.Thread(target=loop.run_forever, name="provcat-sync", daemon=True)
            _thread.start()
            _loop = loop
        return _loop


def _close_shared_loop() -> None:
    """At exit: close the shared pool's connections and stop the loop."""
    loop = _loop
    if loop is None or loop.is_closed():
        return
    # deferred to exit: importing sync never imports the pool (httpx); a call does
    from provcat.endpoints.pool import aclose_default

    with contextlib.suppress(Exception):  # leaving anyway: the OS closes the sockets
        asyncio.run_coroutine_threadsafe(aclose_default(), loop).result(timeout=5)
    loop.call_soon_threadsafe(loop.stop)
    if _thread is not None:
        _thread.join(timeout=5)
        if not _thread.is_alive():
            loop.close()


atexit.register(_close_shared_loop)


def run_sync(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine ``make()`` gives on the shared loop and return its result, blocking.

    Ctrl-C (KeyboardInterrupt) cancels the coroutine, waits for its cleanup and is re-raised."""
    loop = _shared_loop()
    done = threading.Event()
    started: list[asyncio.Task[T]] = []

    def start() -> None:
        task = loop.create_task(make())
        task.add_done_callback(lambda _: done.set())
        started.append(task)

    loop.call_soon_threadsafe(start)
    try:
        done.wait()
    except BaseException:  # KeyboardInterrupt (or another exception thrown into this thread)
        loop.call_soon_threadsafe(lambda: started[0].cancel())  # runs after start(): FIFO
        done.wait()  # the task's own cleanup (closing its connection) finishes first
        raise
    return started[0].result()


def iterate_sync(make: Callable[[], AsyncIterator[T]]) -> Iterator[T]:
    """The items of the async iterator ``make()`` gives, one blocking step at a time.

    Closing the generator closes the async iterator (and so its connection), as does its
    garbage collection: a loop over it that nothing else holds closes it when left. Ctrl-C
    cancels the step under way, which closes it too."""
    source = make()

    async def step() -> T:
        return await source.__anext__()

    async def close() -> None:
        aclose = getattr(source, "aclose", None)
        if aclose is not None:
            await aclose()

    try:
        while True:
            try:
                item = run_sync(step)
            except StopAsyncIteration:
                return
            yield item
    finally:
        run_sync(close)


class BlockingStream:
    """A stream's events, one blocking step at a time (what ``stream_sync`` returns).

    :attr:`usage` is the stream's token usage once it has ended. The connection is closed when
    the events run out, when the stream raises an error, by ``close()``, at the end of a
    ``with`` block (``with chat.stream_sync(request) as stream:``) or when the stream is garbage
    collected (a loop over a stream nothing else holds, when it is left). A ``break`` out of a
    ``for`` over a stream still held in a variable closes nothing: Python does not tell an
    iterator it was left, so hold it in a ``with`` block."""

    def __init__(self, source: Any) -> None:
        self._source = source
        self._items = iterate_sync(lambda: source)

    @property
    def usage(self) -> Any:
        return getattr(self._source, "usage", None)

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        return next(self._items)

    def close(self) -> None:
        close = getattr(self._items, "close", None)
        if close is not None:
            close()

    def __enter__(self) -> BlockingStream:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
