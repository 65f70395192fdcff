"""The receiving end of a pull: the payload's bytes hashed and written as they arrive, and the
SHA-256 values the answer's headers announce for them.

Kept apart from ``RegistryClient``, which only drives the download: this is the part that must
keep memory bounded (at most two batches of about ``CHUNK`` bytes held) and overlap hashing and
disk writes with the network, whatever the payload size.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, BinaryIO

import httpx

from provcat.hub.writeback import EarlyWriteback

__all__ = ["CHUNK", "Sink", "header_digests"]

CHUNK = 1 << 20


class Sink:
    """Hash and write received chunks in a worker thread, a batch at a time, one batch behind
    the receiving thread (hashlib and file writes release the GIL); the file's bytes go to the
    disk as they come (the install's fsync then waits only for the tail). Leaving the ``with``
    block normally writes what is left; either way it waits until the worker and the writeback
    are done with the file."""

    def __init__(self, digest: Any, out: BinaryIO) -> None:
        self.digest = digest
        self.out = out
        self.writeback = EarlyWriteback(out.fileno())
        self.batch: list[bytes] = []
        self.size = 0
        self.pending: Future[None] | None = None
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="provcat-pull")

    def __enter__(self) -> Sink:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        try:
            if kind is None:
                self.flush()
                self._wait()
        finally:
            self.pool.shutdown(wait=True)
            if kind is None:
                self.writeback.finish()
            else:
                with contextlib.suppress(OSError):  # the download is dropped anyway
                    self.writeback.finish()

    def add(self, chunk: bytes) -> None:
        self.batch.append(chunk)
        self.size += len(chunk)
        if self.size >= CHUNK:
            self.flush()

    def flush(self) -> None:
        self._wait()
        if self.batch:
            self.pending = self.pool.submit(self._consume, self.batch)
            self.batch, self.size = [], 0

    def _wait(self) -> None:
        if self.pending is not None:
            pending, self.pending = self.pending, None
            pending.result()

    def _consume(self, batch: list[bytes]) -> None:
        for chunk in batch:
            self.digest.update(chunk)
            view = memoryview(chunk)
            while view:
                view = view[self.out.write(view) or 0 :]
            self.writeback.wrote(len(chunk))


def header_digests(headers: httpx.Headers) -> list[tuple[str, str]]:
    """SHA-256 values announced by ``Digest`` (hex or base64) and ``Repr-Digest`` (RFC 9530)."""
    found: list[tuple[str, str]] = []
    for header in ("digest", "repr-digest"):
        for item in headers.get(header, "").split(","):
            algo, _, value = item.strip().partition("=")
            if algo.strip().lower() != "sha-256" or not value:
                continue
            value = value.strip().strip(":")
            if len(value) == 64 and all(c in "0123456789abcdefABCDEF" for c in value):
                found.append((f"{header} header", value.lower()))
                continue
            try:
                found.append((f"{header} header", base64.b64decode(value, validate=True).hex()))
            except (binascii.Error, ValueError):
                found.append((f"{header} header", "unparseable"))
    return found
