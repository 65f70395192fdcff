"""The whole-catalog files and exactly what each one reads.

Every such file (the snapshot's modules beside the per-provider ones, the index pages, the
lifecycle and targets pages) is rendered from its named inputs alone: its template sees those
and the header's fields, nothing else (generator.plain_pages writes four of them in Python, from
that same context), so a template that read more would fail rather than be served stale. The build cache keeps each text under the exact bytes of those inputs; an edit that
leaves a file's inputs as they were neither renders nor reads it. ``snapshot.<member>`` names one
member of the snapshot, ``snapshot.providers(provider,endpoints)`` those fields of each of its
rows (the template gets the rows with those fields alone); a name made from the runtime's or the generator's code (``codes``,
``format_version``, ``effort_levels``, ``vocabulary``) adds nothing to the key, which holds that
code already.
"""

from __future__ import annotations

import hashlib
from typing import Any, Protocol

from generator.codes import all_codes
from generator.stored_parts import exact
from provcat.catalog.format import SUPPORTED_FORMAT as FORMAT_VERSION
from provcat.endpoints.protocols import PROTOCOLS
from provcat.models.effort import EFFORT_LEVELS

# (file, template, the inputs it reads); the models package's files come at its own line, and
# py.typed is empty; a template named ``plain:…`` is a function of generator.plain_pages (the
# files a provider-level edit changes, written without jinja), given the same context
PAGES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "provcat_catalog/__init__.py",
        "plain:package/__init__.py",
        ("counts", "fingerprint", "format_version"),
    ),
    (
        "provcat_catalog/data.py",
        "plain:package/data.py",
        ("snapshot.provider_index", "snapshot.model_alias_index", "provider_rows"),
    ),
    ("provcat_catalog/inventory.py", "package/inventory.py.j2", ("parts",)),
    (
        "provcat_catalog/names.py",
        "package/names.py.j2",
        ("provider_keys", "provider_names", "endpoint_keys", "endpoint_names"),
    ),
    ("provcat_catalog/records.py", "package/records.py.j2", ("format_version",)),
    (
        "provcat_catalog/targets.py",
        "package/targets.py.j2",
        ("snapshot.targets", "snapshot.provider_targets", "snapshot.endpoint_targets"),
    ),
    ("provcat_catalog/models/__init__.py", "package/models_init.py.j2", ()),
    ("provcat_catalog/py.typed", "", ()),
    ("docs/README.md", "plain:docs/README.md", ("counts", "fingerprint")),
    (
        "docs/providers.md",
        "plain:docs/providers.md",
        (
            "snapshot.providers(provider,display_name,docs_url,aliases,endpoints,module,source,"
            "description,reviewed_at,inventory_only)",
        ),
    ),
    (
        "docs/endpoints.md",
        "docs/endpoints.md.j2",
        ("snapshot.providers(provider,endpoints)", "snapshot.endpoint_targets"),
    ),
    ("docs/protocols.md", "docs/protocols.md.j2", ("protocols",)),
    (
        "docs/aliases.md",
        "docs/aliases.md.j2",
        (
            "snapshot.provider_index",
            "snapshot.providers(provider,endpoint_index)",
            "snapshot.model_alias_index",
            "endpoint_names",
        ),
    ),
    (
        "docs/policies.md",
        "docs/policies.md.j2",
        ("effort_levels", "no_policy", "snapshot.providers(provider,policy,models)"),
    ),
    ("docs/diagnostics.md", "docs/diagnostics.md.j2", ("codes",)),
    ("docs/models.md", "docs/models.md.j2", ("inventory", "provider_keys", "model_counts")),
    ("docs/lifecycle.md", "docs/lifecycle.md.j2", ("lifecycle_rows",)),
    (
        "docs/schema-targets.md",
        "docs/schema-targets.md.j2",
        (
            "targets",
            "matrix",
            "snapshot.provider_targets",
            "snapshot.endpoint_targets",
            "vocabulary",
        ),
    ),
)

_CODE = {"codes", "format_version", "effort_levels", "vocabulary"}  # in every key already
_DERIVED = {"provider_rows": "snapshot.providers", "matrix": "targets"}  # made from that alone


def _member(name: str) -> tuple[str, tuple[str, ...]]:
    """``snapshot.providers(provider,endpoints)``: the member and the fields of its rows read
    (none named: all of it)."""
    member, _, fields = name.removeprefix("snapshot.").partition("(")
    return member, tuple(fields.rstrip(")").split(",")) if fields else ()


class RowsCache(Protocol):
    def digest(self, *parts: bytes) -> str: ...
    def text(self, key: str) -> str | None: ...
    def put_text(self, key: str, text: str) -> None: ...


class PageInputs:
    """The named inputs of the whole-catalog files, each made (and hashed) once, when asked."""

    def __init__(
        self,
        snapshot: dict[str, Any],
        fingerprint: str,
        cache: RowsCache | None,
        rows: list[bytes] | None = None,
    ) -> None:
        self.snapshot = snapshot
        self.fingerprint = fingerprint
        self.cache = cache
        self._values: dict[str, Any] = {}
        self._digests: dict[str, bytes] = {}
        self._rows = rows  # row_digests, when the caller took them already

    def value(self, name: str) -> Any:
        if name not in self._values:
            self._values[name] = self._make(name)
        return self._values[name]

    def _make(self, name: str) -> Any:
        from generator import emit  # emit renders with these; imported when first asked

        snapshot = self.snapshot
        providers = snapshot["providers"]
        inventory = snapshot.get("inventory", {})
        if name.startswith("snapshot."):
            member, fields = _member(name)
            if not fields:
                return snapshot[member]
            return tuple({f: row[f] for f in fields} for row in snapshot[member])
        if name == "fingerprint":
            return self.fingerprint
        if name == "counts":
            return emit.counts(snapshot)
        if name == "format_version":
            return FORMAT_VERSION
        if name == "parts":
            return {key: emit.part_module(key) for key in inventory}
        if name == "provider_keys":
            return [p["provider"] for p in providers]
        if name == "provider_names":
            return sorted(
                {p["declared"] for p in providers} | {a for p in providers for a in p["aliases"]}
            )
        if name == "endpoint_keys":
            return sorted({e["endpoint"] for p in providers for e in p["endpoints"]})
        if name == "endpoint_names":
            return {
                p["provider"]: {e["key"]: e["endpoint"] for e in p["endpoints"]} for p in providers
            }
        if name == "no_policy":
            return [p["provider"] for p in providers if p["policy"] is None]
        if name == "effort_levels":
            return EFFORT_LEVELS
        if name == "codes":
            return all_codes()
        if name == "protocols":
            return [
                (
                    protocol,
                    [
                        f"{p['provider']}/{e['endpoint']}"
                        for p in providers
                        for e in p["endpoints"]
                        if e["protocol"] == protocol.name
                    ],
                )
                for protocol in PROTOCOLS.values()
            ]
        if name == "inventory":  # the pages read which providers have one, not their models
            return tuple(inventory)
        if name == "model_counts":
            return emit.model_counts(inventory)
        if name == "lifecycle_rows":
            return emit.lifecycle_rows(inventory)
        if name == "provider_rows":
            return emit.provider_rows(providers, self.cache, self.row_digests())
        if name == "targets":
            return snapshot.get("targets", ())
        if name == "matrix":
            return emit.matrix(self.value("targets"))
        if name == "vocabulary":
            return emit.vocabulary()
        raise KeyError(f"no page input named {name!r}")

    def row_digests(self) -> list[bytes]:
        """The SHA-256 of each provider row's exact bytes."""
        if self._rows is None:
            self._rows = self.row_digests_of(self.snapshot)
        return self._rows

    @staticmethod
    def row_digests_of(snapshot: dict[str, Any]) -> list[bytes]:
        return [hashlib.sha256(exact(row)).digest() for row in snapshot["providers"]]

    def _digest(self, name: str) -> bytes:
        found = self._digests.get(name)
        if found is not None:
            return found
        if name in _CODE:
            found = b""
        elif name in _DERIVED:
            found = self._digest(_DERIVED[name])
        elif name == "snapshot.providers":
            found = hashlib.sha256(b"".join(self.row_digests())).digest()
        elif name == "protocols":
            users = [(protocol.name, names) for protocol, names in self.value(name)]
            found = hashlib.sha256(exact({"protocols": users})).digest()
        else:
            found = hashlib.sha256(exact({name: self.value(name)})).digest()
        self._digests[name] = found
        return found

    def digest(self, reads: tuple[str, ...]) -> bytes:
        """The exact bytes of the inputs ``reads`` names, as one key part."""
        return b"".join(name.encode() + b"\0" + self._digest(name) for name in reads)

    def context(self, reads: tuple[str, ...]) -> dict[str, Any]:
        """The template context of a file reading ``reads``: those inputs alone."""
        context: dict[str, Any] = {}
        members = {}
        for name in reads:
            if name.startswith("snapshot."):
                member, _ = _member(name)
                if member in self.snapshot:
                    members[member] = self.value(name)
            else:
                context[name] = self.value(name)
        if any(name.startswith("snapshot.") for name in reads):
            context["snapshot"] = members
        return context
