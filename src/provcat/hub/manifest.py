"""``AdapterManifest``: the manifest v2 document as clients read it (v1 documents are accepted).

Unknown fields are kept (``extra="allow"``) so that a manifest round-trips unchanged. The JSON
Schema ``schemas/hub-manifest.schema.json`` is the contract for pushes; this model is the
reader's view, lenient where the protocol asks clients to be (§7).

A v1 document (``manifest_version`` absent, null or 1) may lack every field but what its writer
knew: llm-patch 1.0.0rc1 writes ``namespace``, ``version`` and ``checksum_sha256`` as null and has
no ``name`` at all; older writers stop after ``storage_uri``. Its reference then comes, field by
field, from the document itself, else from an ``adapter_id`` of the canonical shape
``ns__name__vX.Y.Z`` (unambiguous: a slug holds no ``_``), else from the reference the client was
resolving (passed as validation context ``{"ref": HubRef}``). An ``adapter_id`` that parses but
names another adapter than the reference is reported by the client as the wrong answer.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic import ValidationError as PydanticError

from provcat.hub.errors import ValidationError
from provcat.hub.ref import LATEST, HubRef, adapter_id, check_slug, parse_version

__all__ = [
    "CHECKSUM",
    "AdapterManifest",
    "SearchResult",
    "parse_adapter_id",
    "read_manifest",
    "read_search_rows",
]

log = logging.getLogger("provcat.hub")

CHECKSUM = re.compile(r"[0-9a-f]{64}")
_ADAPTER_ID = re.compile(r"([a-z0-9][a-z0-9-]*)__([a-z0-9][a-z0-9-]*)__(v?[^_]+)")
_REF_FIELDS = ("namespace", "name", "version")


def parse_adapter_id(value: object) -> tuple[str, str, str] | None:
    """``(namespace, name, version)`` of a canonical ``ns__name__vX.Y.Z`` id, else None."""
    match = _ADAPTER_ID.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return None
    namespace, name, version = match.groups()
    try:
        ref = HubRef.of(namespace, name, version)
    except ValidationError:
        return None
    return ref.namespace, ref.name, ref.version


class AdapterManifest(BaseModel):
    """An adapter's manifest (protocol §5). ``manifest_version`` is 1 when the document has none."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    manifest_version: int = Field(1, ge=1, description="2 for v2 documents; 1 when absent (v1).")
    adapter_id: str | None = Field(None, description="Canonical id, e.g. acme__react-19__v1.2.0.")
    namespace: str = Field(description="Lower-kebab owner slug.")
    name: str = Field(description="Lower-kebab adapter name.")
    version: str = Field(description="SemVer, canonical form without the leading 'v'.")
    description: str | None = Field(None, description="Human-readable summary.")
    card: str | None = Field(None, description="The adapter's card, Markdown.")
    license: str | None = Field(None, description="SPDX license expression (or as given).")
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
    def _read_v1(cls, data: Any, info: ValidationInfo) -> Any:
        ref = (info.context or {}).get("ref")
        return _lenient(data, ref if isinstance(ref, HubRef) else None)

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

    def adapter_id_problem(self) -> str | None:
        """What is wrong with the document's ``adapter_id`` (None when nothing is).

        A v2 id is the canonical one (the hub sets it) or absent; a v1 id may be free-form
        (writers made up their own), but one of the canonical shape must name this very adapter.
        A wrong id would otherwise be returned to callers and written into the local store."""
        given = self.adapter_id
        if given is None or given == self.canonical_id:
            return None
        if self.manifest_version < 2 and parse_adapter_id(given) in (
            None,
            (self.namespace, self.name, self.version),
        ):
            return None
        shown = given if len(given) <= 100 else given[:100] + "..."
        return f"its adapter_id {shown!r} is not {self.canonical_id!r}"

    def to_dict(self) -> dict[str, Any]:
        """The document as JSON-ready data, unknown fields included."""
        return self.model_dump(mode="json")


_LIST_FIELDS = frozenset({"tags", "base_model_compatibility", "target_modules"})
# optional text fields a v1 writer may have left empty: "" means absent
_OPTIONAL_TEXT = frozenset({"adapter_id", "checksum_sha256", "storage_uri", "created_at"})


def _lenient(data: Any, ref: HubRef | None = None) -> Any:
    """Read v1 documents (protocol §7): ``manifest_version`` absent or null is 1, a null list is
    ``[]``, an empty optional id/checksum/URI/time is absent, a packed ``namespace:
    "owner/name"`` (with no ``name``) is split, and a missing namespace, name or version comes
    from the ``adapter_id`` or the reference (see the module docstring)."""
    if not isinstance(data, dict):
        return data
    if data.get("manifest_version") in (None, 1):
        data = {k: v for k, v in data.items() if k != "manifest_version"}
        for key in _REF_FIELDS:  # a v1 writer's null is an absent field
            if data.get(key) is None or data.get(key) == "":
                data.pop(key, None)
        if "name" not in data:
            namespace = data.get("namespace")
            if isinstance(namespace, str) and namespace.count("/") == 1:
                owner, name = namespace.split("/")
                data = {**data, "namespace": owner, "name": name}
        data = _fill_reference(data, ref)
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


def _fill_reference(data: dict[str, Any], ref: HubRef | None) -> dict[str, Any]:
    """Namespace, name and version a v1 document left out, from its adapter_id or ``ref``."""
    missing = [key for key in _REF_FIELDS if key not in data]
    if not missing:
        return data
    # an id naming another adapter fills the document as it says: the client then reports that
    # the hub answered another adapter than the one asked for
    from_id = parse_adapter_id(data.get("adapter_id"))
    filled = dict(data)
    for i, key in enumerate(_REF_FIELDS):
        if key in filled:
            continue
        if from_id is not None:
            filled[key] = from_id[i]
        elif ref is not None and not (key == "version" and ref.version == LATEST):
            filled[key] = getattr(ref, key)
    return filled


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


def read_manifest(data: Any, ref: HubRef) -> AdapterManifest:
    """The manifest a hub answered for ``ref`` (v1 documents read as the module says), or a
    ValidationError that says what is wrong with it."""
    try:
        return AdapterManifest.model_validate(data, context={"ref": ref})
    except PydanticError as exc:
        missing = sorted(
            str(e["loc"][0]) for e in exc.errors() if e["type"] == "missing" and e["loc"]
        )
        if missing == ["version"] and ref.is_latest:
            raise ValidationError(
                f"the hub's manifest for {ref} is a v1 document that names no version (no "
                "'version', and no adapter_id like ns__name__v1.2.0): ask for a concrete "
                "version, hub://namespace/name:1.2.0"
            ) from None
        problems = "; ".join(
            f"{'/'.join(map(str, e['loc'])) or 'document'}: {e['msg']}" for e in exc.errors()[:5]
        )
        raise ValidationError(
            f"the hub returned an invalid manifest for {ref} ({problems})"
        ) from None
    except ValidationError as exc:  # a field's own check (a name that is no slug, ...)
        raise ValidationError(
            f"the hub returned an invalid manifest for {ref} ({exc.message})", exc.details
        ) from None


def read_search_rows(rows: Iterable[Any], source: str) -> list[SearchResult]:
    """Search rows as a hub answered them, v1 rows included. A row that names no adapter (no
    namespace, name and version, and no canonical adapter_id to read them from) cannot be
    resolved or pulled: it is left out, with a warning naming ``source``."""
    read: list[SearchResult] = []
    for row in rows:
        try:
            read.append(SearchResult.model_validate(row))
        except PydanticError:
            shown = row.get("adapter_id") if isinstance(row, dict) else None
            log.warning(
                "%s: a search result names no adapter (adapter_id %r); left out", source, shown
            )
    return read
