"""Structural check of a safetensors file: bounded header, parsed JSON, exact data coverage.

Reads only the 8-byte length and the header, so it is cheap for any payload size.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

from provcat.hub.errors import ValidationError

__all__ = ["MAX_HEADER_BYTES", "check_safetensors", "lora_facts", "read_header"]

MAX_HEADER_BYTES = 25_000_000
# bits per element of every dtype the safetensors format defines
_DTYPE_BITS = {
    "BOOL": 8,
    "U8": 8,
    "I8": 8,
    "F8_E5M2": 8,
    "F8_E4M3": 8,
    "F8_E8M0": 8,
    "F4": 4,
    "F6_E2M3": 6,
    "F6_E3M2": 6,
    "I16": 16,
    "U16": 16,
    "F16": 16,
    "BF16": 16,
    "I32": 32,
    "U32": 32,
    "F32": 32,
    "C64": 64,
    "I64": 64,
    "U64": 64,
    "F64": 64,
}


def _bad(reason: str) -> ValidationError:
    return ValidationError(f"the payload is not a valid safetensors file: {reason}")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _bad(f"duplicate key {key[:80]!r} in the header")
        out[key] = value
    return out


def read_header(path: Path) -> tuple[dict[str, Any], int]:
    """The parsed JSON header of the file at ``path`` and the byte count of its data section;
    ValidationError when the header cannot be read."""
    with path.open("rb") as handle:
        size = handle.seek(0, 2)
        handle.seek(0)
        if size < 8:
            raise _bad("shorter than the 8-byte header length")
        (header_len,) = struct.unpack("<Q", handle.read(8))
        if header_len > MAX_HEADER_BYTES:
            raise _bad(f"header length {header_len} exceeds {MAX_HEADER_BYTES} bytes")
        if 8 + header_len > size:
            raise _bad("truncated: the header runs past the end of the file")
        raw = handle.read(header_len)
    try:
        header = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise _bad("the header is not UTF-8 JSON") from exc
    if not isinstance(header, dict):
        raise _bad("the header is not a JSON object")
    return header, size - 8 - header_len


def check_safetensors(path: Path) -> int:
    """Validate the file at ``path``; return its tensor count. ValidationError when invalid."""
    header, data_len = read_header(path)
    metadata = header.pop("__metadata__", None)
    if metadata is not None and not (
        isinstance(metadata, dict) and all(isinstance(v, str) for v in metadata.values())
    ):
        raise _bad("__metadata__ must map strings to strings")
    if not header:
        raise _bad("no tensors")
    spans: list[tuple[int, int, str]] = []
    for name, info in header.items():
        spans.append(_span(name, info))
    spans.sort()
    cursor = 0
    for begin, end, name in spans:
        if begin != cursor:
            raise _bad(f"tensor {name[:80]!r}: data offsets leave a gap or overlap")
        cursor = end
    if cursor != data_len:
        raise _bad(f"data offsets cover {cursor} bytes but the file holds {data_len}")
    return len(spans)


def _span(name: str, info: object) -> tuple[int, int, str]:
    if not isinstance(info, dict) or set(info) != {"dtype", "shape", "data_offsets"}:
        raise _bad(f"tensor {name[:80]!r} needs exactly dtype, shape and data_offsets")
    dtype, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
    if dtype not in _DTYPE_BITS:
        raise _bad(f"tensor {name[:80]!r}: unknown dtype")
    if not isinstance(shape, list) or not all(_natural(d) for d in shape):
        raise _bad(f"tensor {name[:80]!r}: shape must be a list of non-negative integers")
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(map(_natural, offsets))):
        raise _bad(f"tensor {name[:80]!r}: data_offsets must be [begin, end]")
    begin, end = offsets
    count = 1
    for dim in shape:
        count *= dim
    bits = count * _DTYPE_BITS[dtype]
    if bits % 8 or end - begin != bits // 8:
        raise _bad(f"tensor {name[:80]!r}: data_offsets do not match dtype and shape")
    return begin, end, name


def _natural(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def lora_facts(path: Path) -> tuple[int | None, list[str]]:
    """The LoRA rank and target modules a PEFT adapter file shows, as its manifest states them:
    PEFT saves each adapted module's pair as ``<module path>.lora_A.weight`` (shape
    ``[rank, in_features]``) and ``.lora_B.weight``; the target modules are the modules' own
    names (``q_proj``), as ``LoraConfig(target_modules=...)`` takes them. The rank is None when
    the pairs disagree (a per-module rank) or no pair is found. ValidationError when the header
    cannot be read."""
    header, _ = read_header(path)
    ranks: set[int] = set()
    modules: set[str] = set()
    for name, info in header.items():
        module, marker, _ = name.rpartition(".lora_A.")
        if not marker or not isinstance(info, dict):
            continue
        shape = info.get("shape")
        if isinstance(shape, list) and len(shape) == 2 and _natural(shape[0]) and shape[0]:
            ranks.add(shape[0])
        modules.add(module.rpartition(".")[2])
    return (ranks.pop() if len(ranks) == 1 else None), sorted(modules)
