"""Make a CatalogSnapshot from snapshot records: trusted as written, or checked first.

The bundled snapshot was written by the generator, which imported every provider module, called
every request-options factory, validated the whole set and wrote the indexes (ADR-0028 D2/D3's
"build" is the generator run). It is published as it is: no check, no index rebuilt, no import.

Records from any other source are checked as the generator checks a catalog: the same key-space
validator (:mod:`provcat.catalog.keyspace`), every provider loaded, every class, request model and
request default checked. Any problem raises :class:`CatalogValidationError` before anything is
published; a provider whose module fails to import is unavailable, the others are published.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from provcat.catalog.keys import canonical_key
from provcat.catalog.lazy import LazyMapping
from provcat.catalog.snapshot import CatalogSnapshot, ProviderEntry
from provcat.catalog.specs import ProviderEndpointSpec
from provcat.errors import CatalogValidationError, ProviderUnavailable

if TYPE_CHECKING:
    from provcat.catalog.diagnostic import CatalogDiagnosticCode, ProviderDiagnostic
    from provcat.catalog.keyspace import ClassUse, KeyProblem
    from provcat.catalog.policy import ProviderModelPolicy
    from provcat.endpoints.load import Importer, Problems

__all__ = ["checked_snapshot", "trusted_snapshot"]

Record = Mapping[str, Any]


def _policy(record: Record) -> ProviderModelPolicy | None:
    raw = record.get("policy")
    if raw is None:
        return None
    from provcat.catalog.policy import ProviderModelPolicy

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


def _entry(record: Record) -> ProviderEntry:
    return _entry_with(record, record["endpoint_index"])


def _entry_with(record: Record, endpoint_index: Mapping[str, str]) -> ProviderEntry:
    key = record["provider"]
    aliases = tuple(sorted(record["aliases"]))
    specs = sorted(
        (ProviderEndpointSpec.from_record(key, aliases, ep) for ep in record["endpoints"]),
        key=lambda s: s.key,
    )
    return ProviderEntry(
        provider=key,
        display_name=record.get("display_name", key),
        aliases=aliases,
        module=record["module"],
        endpoints=MappingProxyType({s.key: s for s in specs}),
        endpoint_index=MappingProxyType(dict(endpoint_index)),
    )


def trusted_snapshot(
    records: Sequence[Record],
    provider_index: Mapping[str, str],
    model_aliases: Mapping[str, str],
    fingerprint: str,
) -> CatalogSnapshot:
    """The generator's records and indexes, published as written: each provider's entry and
    policy are made from its record on first use (the generator already checked them all)."""
    by_key = MappingProxyType({r["provider"]: r for r in records})
    return CatalogSnapshot(
        providers=LazyMapping(by_key, _entry),
        provider_index=MappingProxyType(provider_index),
        policies=LazyMapping(by_key, _policy),
        model_aliases=MappingProxyType(model_aliases),
        fingerprint=fingerprint,
        trusted=True,
    )


_RUNTIME_CODE: dict[str, CatalogDiagnosticCode] = {
    "not_an_endpoint_class": "invalid_endpoint_class",
    "endpoint_type_mismatch": "invalid_endpoint_class",
    "duplicate_endpoint_class": "invalid_endpoint_class",
}


def _diagnostic(problem: KeyProblem[Any]) -> ProviderDiagnostic:
    from provcat.catalog.diagnostic import ProviderDiagnostic

    code: Any = _RUNTIME_CODE.get(problem.code, problem.code)
    return ProviderDiagnostic(
        code, problem.provider, problem.endpoint, None, problem.key, problem.message
    )


def checked_snapshot(
    records: Sequence[Record],
    *,
    fingerprint: str = "",
    model_aliases: Mapping[str, str] | None = None,
    importer: Importer = importlib.import_module,
) -> CatalogSnapshot:
    """Validate ``records`` as a whole and load every provider; raise CatalogValidationError."""
    from provcat.catalog.keyspace import ClassUse, check_classes, check_keys, indexes, record_keys
    from provcat.endpoints.load import load_endpoint

    ordered = sorted(records, key=lambda r: canonical_key(r["provider"]))
    keys = [record_keys(r) for r in ordered]
    problems: Problems = [_diagnostic(p) for p in check_keys(keys)]
    # with key problems the indexes are never published, but every record is still loaded and
    # checked, so that one run reports everything
    provider_index, endpoint_indexes = indexes(keys)
    canonical = [
        {**r, "provider": canonical_key(r["provider"]), "module": r.get("module")} for r in ordered
    ]
    snapshot = CatalogSnapshot(
        providers=MappingProxyType(
            {r["provider"]: _entry_with(r, endpoint_indexes[r["provider"]]) for r in canonical}
        ),
        provider_index=MappingProxyType(provider_index),
        policies=MappingProxyType({r["provider"]: _policy(r) for r in canonical}),
        model_aliases=MappingProxyType(dict(model_aliases or {})),
        fingerprint=fingerprint,
        trusted=False,
    )
    uses: list[ClassUse[None]] = []
    for entry in snapshot.providers.values():
        for spec in entry.endpoints.values():
            try:
                bound = load_endpoint(snapshot, spec, importer, problems)
            except ProviderUnavailable:
                break  # recorded in snapshot.unavailable; its other endpoints stay unloaded
            if bound is not None and spec.endpoint_class is not None:
                uses.append(
                    ClassUse(
                        bound.endpoint_class,
                        spec.endpoint_type.value == "agentic",
                        spec.provider,
                        spec.endpoint,
                        None,
                    )
                )
    problems.extend(_diagnostic(p) for p in check_classes(uses))
    if problems:
        raise CatalogValidationError(sorted(set(problems), key=lambda d: d.sort_key()))
    return snapshot
