"""The push pipeline: manifest checks (schema, names, scope), checksum, safetensors, publish."""

from __future__ import annotations

import json
from typing import Any

from provcat.hub.card import check_card
from provcat.hub.errors import ValidationError
from provcat.hub.ref import adapter_id, check_slug, parse_version
from provcat.hub.schema import validate_manifest
from provcat.hub.storage import SERVER_FIELDS, StoredAdapter, now_rfc3339
from provcat.hub.text import check_document

__all__ = ["check_checksum", "parse_manifest", "record_for"]


def _no_constants(name: str) -> Any:
    raise ValidationError(f"the manifest is not valid JSON: {name} is not allowed")


def parse_manifest(raw: bytes) -> dict[str, Any]:
    """Decode and schema-check the manifest part; return it canonicalized (server fields unset)."""
    try:
        document = json.loads(raw.decode("utf-8"), parse_constant=_no_constants)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise ValidationError("the manifest part is not valid UTF-8 JSON") from None
    if not isinstance(document, dict):
        raise ValidationError("the manifest must be a JSON object")
    check_document(document)  # before anything else reads, renders or stores its text
    check_card(document)  # its own message, naming the limit (the schema's would echo the text)
    validate_manifest(document)
    # the schema's patterns let "$" match before a final newline: check the whole value again
    check_slug(document["namespace"], "namespace")
    check_slug(document["name"], "name")
    canonical = {k: v for k, v in document.items() if k not in SERVER_FIELDS}
    canonical["version"] = str(parse_version(document["version"]))
    return canonical


def check_checksum(manifest: dict[str, Any], actual: str) -> None:
    expected = manifest["checksum_sha256"]
    if expected != actual:
        raise ValidationError(
            "checksum mismatch: the payload's SHA-256 is not the manifest's checksum_sha256",
            {"expected": expected, "actual": actual},
        )


def record_for(manifest: dict[str, Any], size: int) -> StoredAdapter:
    """The row to publish: the manifest with the server's adapter_id and created_at."""
    created_at = now_rfc3339()
    version = manifest["version"]
    stored = {
        **manifest,
        "adapter_id": adapter_id(manifest["namespace"], manifest["name"], version),
        "created_at": created_at,
    }
    return StoredAdapter(
        namespace=manifest["namespace"],
        name=manifest["name"],
        version=version,
        checksum_sha256=manifest["checksum_sha256"],
        size_bytes=size,
        manifest=stored,
        created_at=created_at,
    )
