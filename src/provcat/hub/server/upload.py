"""Streaming multipart upload: the payload goes to a temp file while it is hashed and counted.

The hub's upload limit (``--max-upload-bytes``) is on the payload part's bytes, counted as they
are written; the whole body may exceed it by at most ``FRAMING_MAX_BYTES`` (the manifest part and
the multipart framing), enforced from ``Content-Length`` before reading and again while
streaming (for chunked bodies), so an oversized body is never read. The event loop only
receives the body and counts it; the multipart
parsing, hashing and file writes run in a worker thread, one batch of received chunks at a time,
while the loop goes on receiving the next batch. The loop waits for the worker once
``PENDING_MAX_BYTES`` are queued, so memory stays flat whatever the size and a slow disk slows the
sender down instead of filling memory (and other requests are served meanwhile). The manifest
part is capped at 1 MiB and must come first: it is checked (schema, token scope, taken version)
the moment it ends, in the worker, before the payload part may open a temp file, so a refused
push never has a payload byte written or hashed. When the blob store fsyncs the temp file
before publishing it, its bytes start going to the disk while the rest arrives (``writeback``).
On any failure, the worker is waited for and the temp file removed; a full disk (``ENOSPC``,
``EDQUOT``) is then ``507 InsufficientStorageError``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import anyio
import anyio.abc
import anyio.to_thread
from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.requests import Request

from provcat.hub.card import CARD_MAX_CHARS
from provcat.hub.errors import PayloadTooLargeError, ValidationError
from provcat.hub.storage.full import full_storage_error, storage_full
from provcat.hub.writeback import EarlyWriteback

__all__ = ["MANIFEST_MAX_BYTES", "Upload", "receive_upload"]

MANIFEST_MAX_BYTES = 1 << 20
HEADERS_MAX_BYTES = 16 << 10
# what a body may hold besides the payload: the manifest part, both parts' headers, boundaries
FRAMING_MAX_BYTES = MANIFEST_MAX_BYTES + (64 << 10)
# received bytes waiting for the worker thread before the event loop stops reading the body
PENDING_MAX_BYTES = 8 << 20
PARTS = ("manifest", "payload")


@dataclass(frozen=True, slots=True)
class Upload:
    """A received upload: the manifest part's bytes and the payload in a temp file."""

    manifest: bytes
    path: Path
    sha256: str
    size: int

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)


@dataclass
class _State:
    tmp_dir: Path
    on_manifest: Callable[[bytes], None]
    max_payload: int
    durable: bool = False
    seen: set[str] = field(default_factory=set)
    current: str | None = None
    header_field: bytearray = field(default_factory=bytearray)
    header_value: bytearray = field(default_factory=bytearray)
    headers: dict[str, bytes] = field(default_factory=dict)
    header_bytes: int = 0
    manifest: bytearray = field(default_factory=bytearray)
    file: IO[bytes] | None = None
    writeback: EarlyWriteback | None = None
    path: Path | None = None
    hasher: Any = field(default_factory=hashlib.sha256)
    size: int = 0
    ended: bool = False
    manifest_done: bool = False

    # -- python-multipart callbacks ------------------------------------------------------------
    def on_part_begin(self) -> None:
        self.headers = {}
        self.header_bytes = 0
        self.current = None

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self._count_header(end - start)
        self.header_field += data[start:end]

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self._count_header(end - start)
        self.header_value += data[start:end]

    def on_header_end(self) -> None:
        self.headers[bytes(self.header_field).decode("latin-1").lower()] = bytes(self.header_value)
        self.header_field.clear()
        self.header_value.clear()

    def on_headers_finished(self) -> None:
        disposition, params = parse_options_header(self.headers.get("content-disposition", b""))
        name = params.get(b"name", b"").decode("latin-1")
        if disposition != b"form-data" or name not in PARTS:
            raise ValidationError(
                "each multipart part must be form-data named 'manifest' or 'payload'",
                {"part": name[:40]},
            )
        if name in self.seen:
            raise ValidationError(f"duplicate multipart part '{name}'", {"part": name})
        if name == "payload" and not self.manifest_done:
            raise ValidationError(
                "the 'manifest' part must come before the 'payload' part (the manifest is "
                "checked before any payload byte is stored)"
            )
        self.seen.add(name)
        self.current = name
        if name == "payload":
            fd, path = tempfile.mkstemp(dir=self.tmp_dir, prefix="upload-", suffix=".part")
            self.path = Path(path)
            # unbuffered: received chunks are large, each is written straight from its buffer
            self.file = os.fdopen(fd, "wb", buffering=0)
            if self.durable:
                self.writeback = EarlyWriteback(fd)

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        chunk = memoryview(data)[start:end]
        if self.current == "manifest":
            if len(self.manifest) + len(chunk) > MANIFEST_MAX_BYTES:
                raise ValidationError(
                    "the manifest part is larger than 1 MiB; its largest field, the card, is at "
                    f"most {CARD_MAX_CHARS:,} characters",
                    {"limit_bytes": MANIFEST_MAX_BYTES, "card_max_chars": CARD_MAX_CHARS},
                )
            self.manifest += chunk
        elif self.file is not None:
            if self.size + len(chunk) > self.max_payload:
                raise _too_large(self.max_payload)
            self.hasher.update(chunk)  # hashlib releases the GIL for large buffers
            _write_all(self.file, chunk)
            self.size += len(chunk)
            if self.writeback is not None:
                self.writeback.wrote(len(chunk))

    def on_part_end(self) -> None:
        if self.current == "manifest":
            self.manifest_done = True
            self.on_manifest(bytes(self.manifest))  # raises to refuse the push
        elif self.current == "payload" and self.file is not None:
            if self.writeback is not None:
                self.writeback.finish()
            self.file.close()
        self.current = None

    def on_end(self) -> None:
        self.ended = True

    # -- helpers -------------------------------------------------------------------------------
    def _count_header(self, n: int) -> None:
        self.header_bytes += n
        if self.header_bytes > HEADERS_MAX_BYTES:
            raise ValidationError("multipart part headers are too large")

    def callbacks(self) -> dict[str, Any]:
        return {
            name: getattr(self, name)
            for name in (
                "on_part_begin",
                "on_header_field",
                "on_header_value",
                "on_header_end",
                "on_headers_finished",
                "on_part_data",
                "on_part_end",
                "on_end",
            )
        }

    def discard(self) -> None:
        if self.file is not None and not self.file.closed:
            if self.writeback is not None:
                with contextlib.suppress(OSError):  # the upload is dropped anyway
                    self.writeback.finish()  # no flush may outlive the descriptor
            self.file.close()
        if self.path is not None:
            self.path.unlink(missing_ok=True)


def _too_large(
    limit: int, *, body: bool = False, body_bytes: int | None = None
) -> PayloadTooLargeError:
    """The 413; ``details.limit`` is the payload limit either way, ``details.body_bytes`` the
    request body's size when its ``Content-Length`` gave it (a payload refused while it streams
    in is never read to its end: its size is not known here)."""
    details: dict[str, int] = {"limit": limit}
    if body:
        size = ""
        if body_bytes is not None:
            size = f" (its request body is {body_bytes} bytes)"
            details["body_bytes"] = body_bytes
        message = (
            f"the upload is larger than this hub accepts{size}: a payload of at most {limit} "
            f"bytes, with at most {FRAMING_MAX_BYTES} bytes of manifest and multipart framing"
        )
    else:
        message = f"the payload is larger than this hub's limit of {limit} bytes"
    return PayloadTooLargeError(message, details)


def _write_all(file: IO[bytes], data: memoryview) -> None:
    while data:
        written = file.write(data)
        data = data[written or 0 :]


class _Worker:
    """Feeds batches of received chunks to the parser in a worker thread, one batch at a time."""

    def __init__(self, parser: MultipartParser) -> None:
        self.parser = parser
        self.pending: list[bytes] = []
        self.pending_bytes = 0
        self.running: anyio.Event | None = None
        self.error: BaseException | None = None

    def _parse(self, batch: Sequence[bytes]) -> None:
        for chunk in batch:
            self.parser.write(chunk)

    async def _run(self, batch: list[bytes], done: anyio.Event) -> None:
        try:
            await anyio.to_thread.run_sync(self._parse, batch)
        except Exception as exc:  # re-raised on the request's task by wait()
            self.error = exc
        finally:
            done.set()

    def start(self, task_group: anyio.abc.TaskGroup) -> None:
        """Hand the pending chunks to the worker (the previous batch must be finished)."""
        batch, self.pending, self.pending_bytes = self.pending, [], 0
        self.running = anyio.Event()
        task_group.start_soon(self._run, batch, self.running)

    @property
    def busy(self) -> bool:
        return self.running is not None and not self.running.is_set()

    async def idle(self) -> None:
        """Wait for the batch in the worker (shielded: the temp file is its to create and write)."""
        if self.running is not None:
            with anyio.CancelScope(shield=True):
                await self.running.wait()
            self.running = None

    async def wait(self) -> None:
        """Wait for the batch in the worker; raise what it raised."""
        await self.idle()
        if self.error is not None:
            error, self.error = self.error, None
            raise error


async def receive_upload(
    request: Request,
    tmp_dir: Path,
    max_bytes: int,
    on_manifest: Callable[[bytes], None],
    *,
    durable: bool = False,
) -> Upload:
    """Parse a ``multipart/form-data`` push whose payload part holds at most ``max_bytes``;
    ``on_manifest`` runs (in the parsing worker thread) as soon as that part ends, so a bad
    manifest or a forbidden namespace is refused before the payload is read. ``durable``: the
    temp file will be fsynced before it is published, so its bytes start going to the disk
    while the rest arrives."""
    ctype, params = parse_options_header(request.headers.get("content-type", ""))
    boundary = params.get(b"boundary")
    if ctype != b"multipart/form-data" or not boundary:
        raise ValidationError(
            "a push is multipart/form-data with parts 'manifest' (JSON) and 'payload' (bytes)"
        )
    max_body = max_bytes + FRAMING_MAX_BYTES
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isascii() or not length.isdigit():
            raise ValidationError("invalid Content-Length")
        if int(length) > max_body:
            raise _too_large(max_bytes, body=True, body_bytes=int(length))
    state = _State(tmp_dir, on_manifest, max_bytes, durable)
    worker = _Worker(MultipartParser(boundary, state.callbacks()))  # type: ignore[arg-type]

    async def pump(task_group: anyio.abc.TaskGroup) -> None:
        received = 0
        async for chunk in request.stream():
            received += len(chunk)
            if received > max_body:
                raise _too_large(max_bytes, body=True)
            if not chunk:
                continue
            worker.pending.append(chunk)
            worker.pending_bytes += len(chunk)
            if worker.busy and worker.pending_bytes < PENDING_MAX_BYTES:
                continue  # keep receiving while the worker parses, hashes and writes
            await worker.wait()
            worker.start(task_group)
        await worker.wait()
        if worker.pending:
            worker.start(task_group)
            await worker.wait()

    try:
        failure: Exception | None = None
        async with anyio.create_task_group() as task_group:
            try:
                await pump(task_group)
            except Exception as exc:  # raised below, once no worker runs (never as a group)
                failure = exc
            finally:
                await worker.idle()  # never leave the worker writing a file we are removing
        if failure is not None:
            raise failure
        worker.parser.finalize()
        if not state.ended:
            raise ValidationError("truncated multipart body: the closing boundary is missing")
        missing = [p for p in PARTS if p not in state.seen]
        if missing:
            raise ValidationError(
                f"missing multipart part(s): {', '.join(missing)}", {"missing": missing}
            )
    except MultipartParseError:
        state.discard()
        raise ValidationError("malformed multipart body") from None
    except OSError as exc:
        state.discard()
        if storage_full(exc):
            raise full_storage_error(exc, "writing an upload") from None
        raise
    except BaseException:
        state.discard()
        raise
    assert state.path is not None
    return Upload(bytes(state.manifest), state.path, state.hasher.hexdigest(), state.size)
