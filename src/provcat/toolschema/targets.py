"""Targets as the generated snapshot holds them (``provcat_catalog.targets``), never the YAML."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from provcat.catalog.keys import canonical_key, closest, suggest
from provcat.errors import ProviderCatalogError, UnknownTargetError
from provcat.toolschema.types import DocReference

__all__ = [
    "Rule",
    "Target",
    "UnknownTargetError",
    "get_target",
    "list_targets",
    "no_targets_message",
    "target_for_provider",
    "target_ids",
]


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of a target, as frozen from its YAML."""

    code: str
    severity: str
    triggers: tuple[Mapping[str, Any], ...]
    action: str
    lossy: bool
    message: str
    compile: str
    transformation: Mapping[str, str] | None
    extra: Mapping[str, Mapping[str, str]]
    docs_url: str
    source: str


@dataclass(frozen=True, slots=True)
class Target:
    """One compile target: identity, output shape, keyword classes, steps and rules."""

    id: str
    display_name: str
    description: str | None
    rules_reviewed_at: str
    api_key_env: str | None
    docs: tuple[DocReference, ...]
    probe: Mapping[str, Any] | None
    output: Mapping[str, Any]
    keywords: Mapping[str, tuple[str, ...]]
    steps: Mapping[str, Mapping[str, str]]
    rules: tuple[Rule, ...]
    source: str
    known_keywords: frozenset[str] = field(default=frozenset())
    by_kind: Mapping[str, tuple[tuple[Rule, Mapping[str, Any]], ...]] = field(default_factory=dict)

    @property
    def rewrites(self) -> bool:
        return bool(self.output.get("schema_style") == "rewrite")

    def fires(self, kind: str) -> tuple[tuple[Rule, Mapping[str, Any]], ...]:
        """The (rule, trigger) pairs of one trigger kind, in YAML order."""
        return self.by_kind.get(kind, ())

    def rule(self, code: str) -> Rule:
        for r in self.rules:
            if r.code == code:
                return r
        raise KeyError(code)


def _target(record: Mapping[str, Any]) -> Target:
    rules = tuple(
        Rule(
            code=r["code"],
            severity=r["severity"],
            triggers=tuple(r["triggers"]),
            action=r["action"],
            lossy=r["lossy"],
            message=r["message"],
            compile=r["compile"],
            transformation=r.get("transformation"),
            extra=r.get("extra") or {},
            docs_url=r["docs_url"],
            source=r["source"],
        )
        for r in record["rules"]
    )
    by_kind: dict[str, list[tuple[Rule, Mapping[str, Any]]]] = {}
    for rule in rules:
        for trigger in rule.triggers:
            by_kind.setdefault(trigger["kind"], []).append((rule, trigger))
    keywords = {k: tuple(v) for k, v in record["keywords"].items()}
    return Target(
        id=record["id"],
        display_name=record["display_name"],
        description=record.get("description"),
        rules_reviewed_at=record["rules_reviewed_at"],
        api_key_env=record.get("api_key_env"),
        docs=tuple(DocReference(title=d["title"], url=d["url"]) for d in record["docs"]),
        probe=record.get("probe"),
        output=record["output"],
        keywords=keywords,
        steps=record["steps"],
        rules=rules,
        source=record["source"],
        known_keywords=frozenset(k for values in keywords.values() for k in values),
        by_kind={k: tuple(v) for k, v in by_kind.items()},
    )


@cache
def _registry() -> dict[str, Target]:
    from provcat_catalog.targets import TARGETS  # the snapshot is read on first use

    return {record["id"]: _target(record) for record in TARGETS}


@cache
def _provider_targets() -> dict[str, str]:
    from provcat_catalog.targets import PROVIDER_TARGETS  # the snapshot is read on first use

    return dict(PROVIDER_TARGETS)


@cache
def _endpoint_targets() -> dict[str, str]:
    from provcat_catalog.targets import ENDPOINT_TARGETS  # the snapshot is read on first use

    return dict(ENDPOINT_TARGETS)


def no_targets_message() -> str:
    """What to do about a snapshot that holds no schema targets at all (a catalog built from a
    folder without ``schema-targets/``): where that snapshot is, and how to give it the targets."""
    import provcat_catalog

    where = os.path.dirname(os.path.abspath(provcat_catalog.__file__ or "provcat_catalog"))
    source = getattr(provcat_catalog, "SOURCE", None)
    built = f" ({source})" if isinstance(source, str) and source else ""
    return (
        f"the catalog at {where} has no schema targets: copy catalog/schema-targets/ into the "
        f"catalog it was built from{built} and build again"
    )


def target_ids() -> list[str]:
    """Every target id, sorted by code point."""
    return sorted(_registry())


def list_targets() -> list[Target]:
    """Every target, sorted by id."""
    registry = _registry()
    return [registry[k] for k in sorted(registry)]


def get_target(target: str | Target) -> Target:
    """The target with id ``target`` (a :class:`Target` is returned as is)."""
    if not isinstance(target, (str, Target)):
        kind = type(target).__name__
        raise TypeError(
            f"a target is one target id or a Target, not a {kind}; for several targets, "
            "compile for each in turn"
        )
    registry = _registry()
    if target.__class__ is str:  # an id, looked up by exact id first
        found = registry.get(target)
        if found is not None:
            return found
    if isinstance(target, Target):
        return target
    if target not in registry:
        if not registry:
            raise UnknownTargetError(
                f"unknown tool-schema target {target!r}: {no_targets_message()}"
            )
        hint = suggest(str(target).strip().casefold(), registry)  # ids are lower case
        raise UnknownTargetError(
            f"unknown tool-schema target {target!r}"
            + (f" ({hint})" if hint else "")
            + f"; known: {', '.join(sorted(registry))}"
        )
    return registry[target]


def target_for_provider(provider: str, endpoint: str | None = None) -> Target:
    """The target the catalog maps ``provider`` (any declared spelling) to; with ``endpoint``
    (any declared spelling), that endpoint's own target where it has one."""
    from provcat_catalog import PROVIDER_INDEX  # the snapshot is read on first use

    key = PROVIDER_INDEX.get(canonical_key(provider))
    mapping = _provider_targets()
    if key is None:
        close = closest(canonical_key(provider), PROVIDER_INDEX)
        hint = f"; did you mean {close!r}?" if close else ""
        raise UnknownTargetError(f"unknown provider {provider!r}{hint}")
    if endpoint is not None:
        own = _endpoint_targets().get(f"{key}/{_endpoint_key(key, endpoint)}")
        if own is not None:
            return get_target(own)
    if key not in mapping:
        why = f": {no_targets_message()}" if not _registry() else ""
        raise UnknownTargetError(
            f"provider {provider!r} has no tool_schema_target in the catalog{why}"
        )
    return get_target(mapping[key])


def _endpoint_key(provider: str, endpoint: str) -> str:
    """The canonical key of ``provider``'s endpoint ``endpoint`` (any declared spelling)."""
    # the endpoint registry only when an endpoint is named: validating a tool schema against a
    # target never loads the endpoint records
    from provcat.endpoints.registry import EndpointRegistry
    from provcat.endpoints.resolution import Unlisted, lookup

    try:  # an unknown endpoint, or a provider whose Python failed to load: a clear message
        found = lookup(EndpointRegistry.snapshot(), provider, endpoint, compatible=False)
    except ProviderCatalogError as exc:
        raise UnknownTargetError(str(exc)) from None
    assert not isinstance(found, Unlisted)  # only a compatible lookup answers Unlisted
    return found.key
