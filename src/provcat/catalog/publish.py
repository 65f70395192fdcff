"""Publishing the snapshot this process reads (ADR-0028 D2): made from records, published whole.

The bundled snapshot was written by the generator, which imported every provider module, called
every request-options factory, validated the whole set and wrote the indexes (ADR-0028 D2/D3's
"build" is the generator run). It is published as it is: no check, no index rebuilt, no import;
each provider's entry and policy are made from its record (a plain read: 24 providers take
about 0.3 ms, 200 about 1.5 ms).

One snapshot is published at a time: the first :func:`current` publishes it under a lock, later
reads take it without one, and :func:`publish` swaps a new one in with a single assignment. What
is published comes from a source, a function that makes a snapshot: the bundled one unless a caller
named another (a checked source, :class:`provcat.endpoints.checked.CatalogSource`). A source that
raises leaves the prior snapshot published.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from provcat.catalog.keys import canonical_key
from provcat.catalog.snapshot import CatalogSnapshot, ProviderEntry
from provcat.catalog.specs import ProviderEndpointSpec, ProviderModelPolicy
from provcat.errors import SnapshotFormatError

__all__ = [
    "LOCK",
    "Source",
    "bundled_snapshot",
    "current",
    "entry",
    "policy",
    "publish",
    "reset",
    "trusted_snapshot",
]

Record = Mapping[str, Any]
Source = Callable[[], CatalogSnapshot]

# publication, and the first use of an endpoint (provcat.endpoints.registry), hold this lock
LOCK = threading.RLock()
_snapshot: CatalogSnapshot | None = None
_source: Source | None = None  # None: the bundled snapshot


def policy(record: Record) -> ProviderModelPolicy | None:
    """The model policy of one provider record (None: the catalog gives it none)."""
    raw = record.get("policy")
    if raw is None:
        return None
    return ProviderModelPolicy(
        provider=record["provider"],
        provider_aliases=tuple(record["aliases"]),
        model_aliases=raw["model_aliases"],
        effort_mode=raw["effort_mode"] or "none",
        effort_kwarg=raw["effort_kwarg"],
        effort_levels=tuple(raw["effort_levels"]),
        yolo_kwargs=raw["yolo_kwargs"],
        bypass_kwargs=raw["bypass_kwargs"],
        fast_kwargs=raw["fast_kwargs"],
        model_prefix=raw["model_prefix"],
        model_prefix_for=tuple(raw["model_prefix_for"]),
        effort_translate=raw["effort_translate"],
        effort_model_rules=tuple(
            (
                frozenset(canonical_key(m) for m in rule["models"]),
                MappingProxyType(rule["translate"]),
            )
            for rule in raw["effort_model_rules"]
        ),
        effort_name_format=raw["effort_name_format"],
        model_index={
            canonical_key(spelling): m["model"]
            for m in record.get("models", ())
            for spelling in (m["model"], *m["aliases"])
        },
        model_default_effort={
            m["model"]: m["default_effort"]
            for m in record.get("models", ())
            if m.get("default_effort")
        },
    )


def entry(record: Record, endpoint_index: Mapping[str, str] | None = None) -> ProviderEntry:
    """The entry of one provider record; ``endpoint_index`` defaults to the record's own."""
    key = record["provider"]
    aliases = tuple(sorted(record["aliases"]))
    specs = sorted(
        (ProviderEndpointSpec.from_record(key, aliases, ep) for ep in record["endpoints"]),
        key=lambda s: s.key,
    )
    index = record["endpoint_index"] if endpoint_index is None else endpoint_index
    return ProviderEntry(
        provider=key,
        display_name=record.get("display_name", key),
        aliases=aliases,
        module=record["module"],
        endpoints=MappingProxyType({s.key: s for s in specs}),
        endpoint_index=MappingProxyType(dict(index)),
    )


def trusted_snapshot(
    records: Sequence[Record],
    provider_index: Mapping[str, str],
    model_aliases: Mapping[str, str],
    fingerprint: str,
) -> CatalogSnapshot:
    """The generator's records and indexes, published as written: each provider's entry and
    policy made from its record, with no check (the generator already checked them all). A
    record this runtime cannot read (a hand-made snapshot, or one another generator wrote under
    the same format) is :class:`SnapshotFormatError` naming its provider: nothing is published."""
    providers, policies = {}, {}
    for r in records:
        try:
            providers[r["provider"]] = entry(r)
            policies[r["provider"]] = policy(r)
        except (KeyError, TypeError, ValueError) as exc:
            name = r.get("provider", "?") if isinstance(r, Mapping) else "?"
            raise SnapshotFormatError(
                f"the snapshot's record of provider '{name}' is not one this runtime reads "
                f"({type(exc).__name__}: {exc}); regenerate it with `make generate`"
            ) from None
    return CatalogSnapshot(
        providers=MappingProxyType(providers),
        provider_index=MappingProxyType(provider_index),
        policies=MappingProxyType(policies),
        model_aliases=MappingProxyType(model_aliases),
        fingerprint=fingerprint,
        trusted=True,
    )


def bundled_snapshot() -> CatalogSnapshot:
    """The snapshot bundled with this installation, as the generator wrote it."""
    import provcat_catalog  # the data, read when first published: not at ``import provcat``

    return trusted_snapshot(
        provcat_catalog.PROVIDERS,
        provcat_catalog.PROVIDER_INDEX,
        provcat_catalog.MODEL_ALIAS_INDEX,
        provcat_catalog.FINGERPRINT,
    )


def current() -> CatalogSnapshot:
    """The published snapshot; the first call publishes it (once, whatever the thread count)."""
    published = _snapshot
    if published is not None:
        return published
    with LOCK:
        if _snapshot is None:
            publish()
        assert _snapshot is not None
        return _snapshot


def publish(source: Source | None = None) -> CatalogSnapshot:
    """Make a snapshot from ``source`` (default: the last source given, else the bundled
    snapshot) and publish it; when the source raises, the prior snapshot stays published."""
    global _snapshot, _source
    with LOCK:
        chosen = source or _source or bundled_snapshot
        snapshot = chosen()  # raises CatalogValidationError before anything is published
        _source = chosen if chosen is not bundled_snapshot else None
        _snapshot = snapshot  # the single assignment that publishes
        return snapshot


def reset(source: Source | None = None) -> None:
    """Forget the published snapshot (tests): the next use publishes from ``source``."""
    global _snapshot, _source
    with LOCK:
        _snapshot = None
        _source = source
