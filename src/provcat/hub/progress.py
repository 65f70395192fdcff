"""A progress bar on stderr for big transfers, only when stderr is a terminal."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

import click

__all__ = ["PROGRESS_MIN_BYTES", "progress"]

PROGRESS_MIN_BYTES = 8 << 20


@contextlib.contextmanager
def progress(
    label: str, total: int | None, enabled: bool | None
) -> Iterator[Callable[[int], None]]:
    """Yield ``advance(n)``; draws a bar when ``enabled`` (None: auto, for a TTY and big sizes)."""
    if enabled is None:
        enabled = bool(total and total >= PROGRESS_MIN_BYTES and sys.stderr.isatty())
    if not enabled:
        yield lambda _n: None
        return
    with click.progressbar(length=total or 0, label=label, file=sys.stderr, width=30) as bar:
        yield bar.update
