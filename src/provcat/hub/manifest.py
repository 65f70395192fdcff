"""``AdapterManifest``: the manifest v2 document as clients read it (v1 documents are accepted).

Unknown fields are kept (``extra="allow"``) so that a manifest round-trips unchanged. The JSON
Schema ``schemas/hub-manifest.schema.json`` is the contract for pushes; this model is the
reader's view, lenient where the protocol asks clients to be (§7).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from provcat.hub.ref import HubRef, adapter_id, check_slug, parse_version

__all__ = ["CHECKSUM", "AdapterManifest", "SearchResult"]

CHECKSUM = re.compile(r"[0-9a-f]{64}")


class AdapterManifest(BaseModel):
    """An adapter's manifest (protocol §5). ``manifest_version`` is 1 when the document has none."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    manifest_version: int = Field(1, ge=1, description="2 for v2 documents; 1 when absent (v1).")
    adapter_id: str | None = Field(None, description="Canonical id, e.g. acme__react-19__v1.2.0.")
    namespace: str = Field(description="Lower-kebab owner slug.")
    name: str = Field(description="Lower-kebab adapter name.")
    version: str = Field(description="SemVer, canonical form without the leading 'v'.")
    description: str | None = Field(None, description="Human-readable summary.")
    tags: list[str] = Field(default_factory=list, description="Search tags.")
    base_model_compatibility: list[str] = Field(
        default_factory=list, description="Base model ids this adapter applies to."
    )
    rank: int | None = Field(None, description="LoRA rank.")
    target_modules: list[str] = Field(default_factory=list, description="Adapted modules.")
    storage_uri: str | None = Field(None, description="Where the payload can be downloaded.")
    checksum_sha256: str | None = Field(None, description="SHA-256 of the payload, 64 hex.")
    created_at: str | None = Field(None, description="Publication time, RFC 3339 UTC.")

    @model_validator(mode="before")
    @classmethod
    def _read_v1(cls, data: Any) -> Any:
        return _lenient(data)

    @field_validator("namespace", "name")
    @classmethod
    def _slug(cls, value: str, info: Any) -> str:
        return check_slug(value, info.field_name)

    @field_validator("version")
    @classmethod
    def _version(cls, value: str) -> str:
        return str(parse_version(value))

    @field_validator("checksum_sha256")
    @classmethod
    def _checksum(cls, value: str | None) -> str | None:
        if value is not None and not CHECKSUM.fullmatch(value):
            raise ValueError("checksum_sha256 must be 64 lowercase hex characters")
        return value

    @property
    def ref(self) -> HubRef:
        """The concrete reference of this manifest."""
        return HubRef.of(self.namespace, self.name, self.version)

    @property
    def canonical_id(self) -> str:
        """``adapter_id`` as the protocol defines it (whatever the document carried)."""
        return adapter_id(self.namespace, self.name, self.version)

    def to_dict(self) -> dict[str, Any]:
        """The document as JSON-ready data, unknown fields included."""
        return self.model_dump(mode="json")


_LIST_FIELDS = frozenset({"tags", "base_model_compatibility", "target_modules"})
# optional text fields a v1 writer may have left empty: "" means absent
_OPTIONAL_TEXT = frozenset({"adapter_id", "checksum_sha256", "storage_uri", "created_at"})


def _lenient(data: Any) -> Any:
    """Read v1 documents (protocol §7): ``manifest_version`` absent or null is 1, a null list is
    ``[]``, an empty optional id/checksum/URI/time is absent, and llm-patch's packed
    ``namespace: "owner/name"`` (with no ``name``) is split."""
    if not isinstance(data, dict):
        return data
    if data.get("manifest_version") is None:
        data = {k: v for k, v in data.items() if k != "manifest_version"}
        if "name" not in data:
            namespace = data.get("namespace")
            if isinstance(namespace, str) and namespace.count("/") == 1:
                owner, name = namespace.split("/")
                data = {**data, "namespace": owner, "name": name}
    return {
        k: (
            []
            if v is None and k in _LIST_FIELDS
            else None
            if v == "" and k in _OPTIONAL_TEXT
            else v
        )
        for k, v in data.items()
    }


class SearchResult(BaseModel):
    """One search hit: a (namespace, name) with its latest version."""

    model_config = ConfigDict(extra="allow")

    adapter_id: str | None = None
    namespace: str
    name: str
    version: str
    description: str | None = None
    tags: list[str] = Field(default_factory=list)
    base_model_compatibility: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _nulls(cls, data: Any) -> Any:
        return _lenient(data)

    @model_validator(mode="after")
    def _canonical_id(self) -> SearchResult:
        # a v1 row may lack adapter_id: it is a function of the reference
        if not self.adapter_id:
            self.adapter_id = adapter_id(self.namespace, self.name, self.version)
        return self
