"""A tiny, valid LoRA adapter in safetensors form, to try ``provcat hub push`` with.

It holds the two tensors of one LoRA pair as PEFT names them for a Llama-style model
(``...q_proj.lora_A.weight`` of shape ``[rank, width]`` and ``...lora_B.weight`` of shape
``[width, rank]``, F32, little-endian), with ``lora_A`` filled with small deterministic values and
``lora_B`` zero, as PEFT initializes a fresh adapter. The file follows the safetensors format: an
8-byte little-endian header length, a JSON header padded with spaces to a multiple of 8 bytes, then
the tensors' bytes with offsets that cover the data exactly. Same arguments, same bytes.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SAMPLE_MODULE", "Sample", "sample_bytes", "write_sample"]

SAMPLE_MODULE = "base_model.model.model.layers.0.self_attn.q_proj"
DEFAULT_RANK = 4
DEFAULT_WIDTH = 16


@dataclass(frozen=True, slots=True)
class Sample:
    """What :func:`write_sample` wrote."""

    path: Path
    sha256: str
    size_bytes: int
    rank: int
    target_modules: tuple[str, ...]


def sample_bytes(rank: int = DEFAULT_RANK, width: int = DEFAULT_WIDTH) -> bytes:
    """The sample adapter's file content."""
    if not 1 <= rank <= 64 or not 1 <= width <= 1024:
        raise ValueError("rank must be 1..64 and width 1..1024")
    lora_a = struct.pack(f"<{rank * width}f", *(((i % 7) - 3) / 100 for i in range(rank * width)))
    lora_b = bytes(4 * width * rank)
    header = {
        "__metadata__": {"format": "pt"},
        f"{SAMPLE_MODULE}.lora_A.weight": {
            "dtype": "F32",
            "shape": [rank, width],
            "data_offsets": [0, len(lora_a)],
        },
        f"{SAMPLE_MODULE}.lora_B.weight": {
            "dtype": "F32",
            "shape": [width, rank],
            "data_offsets": [len(lora_a), len(lora_a) + len(lora_b)],
        },
    }
    raw = json.dumps(header, sort_keys=True, separators=(",", ":")).encode("utf-8")
    raw += b" " * (-len(raw) % 8)
    return struct.pack("<Q", len(raw)) + raw + lora_a + lora_b


def write_sample(path: Path, rank: int = DEFAULT_RANK, *, overwrite: bool = False) -> Sample:
    """Write the sample to ``path`` (FileExistsError when it exists, unless ``overwrite``;
    NotADirectoryError when a file stands where one of its folders goes)."""
    data = sample_bytes(rank)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file where a folder goes: not the FileExistsError of ``path``
        raise NotADirectoryError(
            errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path.parent)
        ) from None
    temp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        temp.write_bytes(data)
    except OSError as exc:  # said of the path asked for: the temporary file is ours, not theirs
        temp.unlink(missing_ok=True)
        raise type(exc)(exc.errno, exc.strerror, str(path)) from None
    try:
        if overwrite:
            os.replace(temp, path)
        else:
            os.link(temp, path)  # fails, changing nothing, when path exists
    finally:
        temp.unlink(missing_ok=True)
    return Sample(path, hashlib.sha256(data).hexdigest(), len(data), rank, ("q_proj",))
