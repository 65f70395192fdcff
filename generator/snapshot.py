"""The snapshot: the validated catalog as plain, sorted, literal data, and its fingerprint.

Everything the runtime needs is resolved here, once: canonical keys, provider defaults merged into
each endpoint, fully qualified class and request-model references, and the lookup indexes.
Sorting is by code point everywhere so the same catalog always gives the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, NamedTuple

from generator.catalog_json import Written, written
from generator.endpoint_lifecycle import successor_key
from generator.model import EndpointDecl, ModelDecl, ProviderDecl
from generator.validate import request_options_ref
from provcat.catalog.keys import canonical_key
from provcat.catalog.keyspace import EndpointKeys, ProviderKeys, Spelling, indexes
from provcat.catalog.specs import INHERITED_SETTINGS


def _ref(ref: str | None, module: str | None) -> str | None:
    if ref is None:
        return None
    return ref if ":" in ref else f"{module}:{ref}"


def _lifecycle(p: ProviderDecl, ep: EndpointDecl) -> dict[str, Any] | None:
    if ep.lifecycle is None:
        return None
    life = {k: v.value for k, v in ep.lifecycle.items()}
    source = life["source"]
    return {
        "status": life["status"],
        "deprecation_date": life.get("deprecation_date"),
        "shutdown_date": life.get("shutdown_date"),
        "successor": successor_key(p, ep),  # canonical, though written as a key or an alias
        "source": tuple(source) if isinstance(source, list) else (source,),
    }


def _endpoint(p: ProviderDecl, ep: EndpointDecl, module: str | None) -> dict[str, Any]:
    # the inherited settings, in their declaration's order (ProviderEndpointSpec's fields)
    settings = {name: ep.settings[name] for name in INHERITED_SETTINGS}
    settings["default_headers"] = dict(sorted(settings["default_headers"].items()))
    return {
        "endpoint": ep.key.value,
        "key": canonical_key(ep.key.value),
        "aliases": tuple(sorted(a.value for a in ep.aliases)),
        "type": ep.type.value,
        "class": _ref(ep.class_ref.value, module) if ep.class_ref is not None else None,
        "protocol": ep.protocol.value if ep.protocol is not None else None,
        # the protocol's model unless the endpoint names its own: the runtime reads it as is
        "request_options": _ref(request_options_ref(ep).value, module),
        "request_defaults": {k: v.value for k, v in sorted(ep.request_defaults.items())},
        "method": ep.method,
        "path": ep.path,
        **settings,
        "description": ep.description,
        "docs_url": ep.docs_url,
        "lifecycle": _lifecycle(p, ep),
    }


def _policy(p: ProviderDecl) -> dict[str, Any] | None:
    if p.policy is None:
        return None
    policy = p.policy
    return {
        "model_aliases": {
            alias.value: target.value
            for alias, target in sorted(policy.model_aliases, key=lambda kv: kv[0].value)
        },
        "effort_mode": policy.effort_mode.value if policy.effort_mode else None,
        "effort_kwarg": policy.effort_kwarg.value if policy.effort_kwarg else None,
        "effort_levels": tuple(level.value for level in policy.effort_levels),
        "yolo_kwargs": {k: v.value for k, v in sorted(policy.yolo_kwargs.items())},
        "bypass_kwargs": {k: v.value for k, v in sorted(policy.bypass_kwargs.items())},
        "fast_kwargs": {k: v.value for k, v in sorted(policy.fast_kwargs.items())},
        "model_prefix": policy.model_prefix.value["prefix"] if policy.model_prefix else None,
        "model_prefix_for": tuple(policy.model_prefix.value["for"]) if policy.model_prefix else (),
        "effort_translate": {k: v.value for k, v in sorted(policy.effort_translate.items())},
        "effort_model_rules": tuple(
            {
                "models": tuple(m.value for m in models),
                "translate": {k: v.value for k, v in sorted(table.items())},
            }
            for models, table in policy.effort_model_rules
        ),
        "effort_name_format": policy.effort_name_format.value
        if policy.effort_name_format
        else None,
    }


# facts the policy tables read (model_kwargs); the rest of a model lives in the inventory module
_POLICY_FACTS = ("default_effort",)


def _prices(prices: dict[str, Any] | list[dict[str, Any]]) -> Any:
    """Every price as its exact decimal string; tiers and batch the same way. A schedule stays a
    tuple of periods, each with its days (``from``, ``until``) and notes as written."""
    if isinstance(prices, list):
        return tuple(_prices(period) for period in prices)
    out: dict[str, Any] = {}
    for name, value in sorted(prices.items()):
        if name in ("from", "until", "gap_before", "note"):
            out[name] = value
        elif name == "source":
            out[name] = (value,) if isinstance(value, str) else tuple(value)
        elif name == "fees":
            out[name] = tuple(
                {k: (str(v) if k == "price" else v) for k, v in sorted(fee.items())}
                for fee in value
            )
        elif name == "tiers":
            out[name] = tuple(
                {k: (v if k == "above_input_tokens" else str(v)) for k, v in sorted(tier.items())}
                for tier in value
            )
        elif name == "batch":
            out[name] = _prices(value)
        else:
            out[name] = str(value)
    return out


def model_record(m: ModelDecl) -> dict[str, Any]:
    """One inventory record: the facts as written, prices as strings, source as a tuple."""
    record: dict[str, Any] = {
        "model": m.key.value,
        "aliases": tuple(sorted(a.value for a in m.aliases)),
    }
    for name, value in sorted(m.facts.items()):
        if name == "imported":  # the importer's bookkeeping, not a fact of the model
            continue
        if name == "prices":
            value = _prices(value)
        elif name == "source":
            value = (value,) if isinstance(value, str) else tuple(value)
        elif isinstance(value, list):
            value = tuple(value)
        elif isinstance(value, dict):
            value = {k: tuple(v) if isinstance(v, list) else v for k, v in sorted(value.items())}
        record[name] = value
    return record


def model_index(models: tuple[ModelDecl, ...]) -> dict[str, str]:
    """Canonical spelling of every id and alias -> the model id (ids are claimed first)."""
    index: dict[str, str] = {}
    for m in models:
        index.setdefault(canonical_key(m.key.value), m.key.value)
    for m in models:
        for a in m.aliases:
            index.setdefault(canonical_key(a.value), m.key.value)
    return dict(sorted(index.items()))


# a provider's inventory records (by model id) and its id/alias index
Part = tuple[tuple[dict[str, Any], ...], dict[str, str]]


def inventory_part(p: ProviderDecl) -> Part | None:
    """The provider's part of the inventory: from its own file alone, so the build cache keeps
    it beside the file's records (None: no models)."""
    if not p.models:
        return None
    records = tuple(model_record(m) for m in sorted(p.models, key=lambda m: m.key.value))
    return records, model_index(p.models)


class PartText(NamedTuple):
    """A provider's inventory part as text, made with the part from its file alone (the build
    cache keeps both), so a build that changes one file encodes only that file's models: the
    canonical JSON of its records and index (for :func:`fingerprint`), and the same as
    catalog.json writes them."""

    canonical_records: str
    canonical_index: str
    json_models: Written
    json_index: Written


def _canonical(value: Any) -> str:
    # tuples are JSON arrays as they stand: no converted copy of a 10,000-model snapshot
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def part_text(part: Part) -> PartText:
    records, index = part
    return PartText(_canonical(records), _canonical(index), written(records), written(index))


def build(
    providers: list[ProviderDecl],
    targets: tuple[dict[str, Any], ...] = (),
    provider_targets: dict[str, str] | None = None,
    parts: Mapping[str, Part | None] | None = None,
    endpoint_targets: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The whole snapshot as one plain-data mapping (input: a valid catalog). ``parts`` holds
    ``inventory_part`` of providers by file, made earlier (the build cache keeps it); the others'
    are made here. ``endpoint_targets`` maps "provider/endpoint" to an endpoint's own tool-schema target."""
    rows = []
    inventory: dict[str, tuple[dict[str, Any], ...]] = {}
    inventory_index: dict[str, dict[str, str]] = {}
    model_alias_index: dict[str, str] = {}
    ordered = sorted(providers, key=lambda d: canonical_key(d.key.value))
    provider_index, endpoint_indexes = indexes(
        ProviderKeys(
            Spelling(p.key.value, None),
            tuple(Spelling(a.value, None) for a in p.aliases),
            tuple(
                EndpointKeys(
                    Spelling(ep.key.value, None), tuple(Spelling(a.value, None) for a in ep.aliases)
                )
                for ep in p.endpoints
            ),
        )
        for p in ordered
    )
    for p in ordered:
        key = canonical_key(p.key.value)
        module = p.module.value if p.module is not None else None
        endpoints = sorted((_endpoint(p, ep, module) for ep in p.endpoints), key=lambda e: e["key"])
        endpoint_index = endpoint_indexes[key]
        policy = _policy(p)
        if p.policy is not None:
            for alias, target in p.policy.model_aliases:
                model_alias_index[canonical_key(alias.value)] = target.value
        rows.append(
            {
                "provider": key,
                "declared": p.key.value,
                "display_name": p.display_name,
                "description": p.description,
                "docs_url": p.docs_url,
                "reviewed_at": p.reviewed_at,
                "aliases": tuple(sorted(a.value for a in p.aliases)),
                "module": module,
                "source": p.file,
                "endpoints": tuple(endpoints),
                "inventory_only": p.inventory_only,
                "endpoint_index": endpoint_index,
                "policy": policy,
                "tool_schema_target": (
                    p.tool_schema_target.value if p.tool_schema_target is not None else None
                ),
                # what the model policy reads (ids, aliases, default effort); a provider without
                # a policy needs none of it here: its models are in the inventory alone, so
                # `import provcat_catalog` stays small however many models a catalog lists
                "models": tuple(
                    {
                        "model": m.key.value,
                        "aliases": tuple(sorted(a.value for a in m.aliases)),
                        **{k: m.facts[k] for k in _POLICY_FACTS if k in m.facts},
                    }
                    for m in sorted(p.models, key=lambda m: m.key.value)
                    if p.policy is not None
                ),
            }
        )
        part = parts[p.file] if parts is not None and p.file in parts else inventory_part(p)
        if part is not None:
            inventory[key], inventory_index[key] = part
    return {
        "providers": tuple(rows),
        "provider_index": provider_index,
        "model_alias_index": dict(sorted(model_alias_index.items())),
        "targets": targets,
        "provider_targets": dict(sorted((provider_targets or {}).items())),
        "endpoint_targets": dict(sorted((endpoint_targets or {}).items())),
        "inventory": inventory,
        "inventory_index": inventory_index,
    }


_PART_FIELDS = {"inventory": 0, "inventory_index": 1}  # snapshot key -> its PartText field


def fingerprint(snapshot: dict[str, Any], texts: Mapping[str, PartText] | None = None) -> str:
    """sha256 of the snapshot's canonical JSON (sorted keys, no spaces, UTF-8): changes exactly
    when the catalog's content does. A provider's part in ``texts`` (by canonical key) is taken
    as written there instead of encoded again: the same text, so the same digest."""
    texts = texts or {}

    def member(key: str) -> str:
        value = snapshot[key]
        field = _PART_FIELDS.get(key)
        if field is None or not texts:
            return _canonical(value)
        return (
            "{"
            + ",".join(
                _canonical(p) + ":" + (texts[p][field] if p in texts else _canonical(value[p]))
                for p in sorted(value)
            )
            + "}"
        )

    text = "{" + ",".join(_canonical(k) + ":" + member(k) for k in sorted(snapshot)) + "}"
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
