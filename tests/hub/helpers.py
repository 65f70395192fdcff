"""Builders shared by the hub tests: safetensors payloads, manifests and raw multipart bodies."""

from __future__ import annotations

import hashlib
import json
import struct
import uuid
from typing import Any

BOUNDARY = "provcat-test-boundary"


def safetensors(data: bytes = b"\x00" * 64, *, header: dict[str, Any] | None = None) -> bytes:
    """A valid safetensors file holding ``data`` as one U8 tensor (or ``header`` verbatim)."""
    if header is None:
        header = {"t": {"dtype": "U8", "shape": [len(data)], "data_offsets": [0, len(data)]}}
    raw = json.dumps(header).encode("utf-8")
    return struct.pack("<Q", len(raw)) + raw + data


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def unique(prefix: str = "a") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def manifest(
    namespace: str, name: str, version: str, payload: bytes, **extra: Any
) -> dict[str, Any]:
    return {
        "manifest_version": 2,
        "namespace": namespace,
        "name": name,
        "version": version,
        "checksum_sha256": sha256(payload),
        "description": f"{name} test adapter",
        "tags": ["test"],
        **extra,
    }


def part(name: str, body: bytes, content_type: str, filename: str | None = None) -> bytes:
    disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
    return (
        (
            f"--{BOUNDARY}\r\nContent-Disposition: {disposition}\r\n"
            f"Content-Type: {content_type}\r\n\r\n"
        ).encode()
        + body
        + b"\r\n"
    )


def multipart(*parts: bytes, close: bool = True) -> bytes:
    return b"".join(parts) + (f"--{BOUNDARY}--\r\n".encode() if close else b"")


def push_body(document: dict[str, Any] | bytes, payload: bytes) -> bytes:
    raw = document if isinstance(document, bytes) else json.dumps(document).encode()
    return multipart(
        part("manifest", raw, "application/json"),
        part("payload", payload, "application/octet-stream", "adapter.safetensors"),
    )


def multipart_headers(token: str | None = None) -> dict[str, str]:
    headers = {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return headers
