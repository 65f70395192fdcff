"""Typed, positioned records of a schema-valid provider file.

The records keep every value as written plus where it was written, so the whole-set validator can
point at the exact node. Effective endpoint settings (provider defaults merged in, type defaults
filled) are computed here once.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.diagnostics import Loc
from generator.loader import Document, NodePath
from provcat.endpoints.config import INHERITED_SETTINGS, EndpointConfig

# Settings an endpoint inherits from its provider's `defaults` when it does not set them, and the
# values it gets when neither sets them: EndpointConfig's own defaults (the one place they are
# written), except where the endpoint type differs (lionagi's EndpointMeta.create_config: a 600 s
# timeout for APIs; agents need no key and run longer).
EndpointDefaults = tuple[tuple[str, ...], dict[str, dict[str, Any]]]
ENDPOINT_TYPES = ("api", "agentic")


@functools.cache
def endpoint_defaults() -> EndpointDefaults:
    """The inherited setting names and each endpoint type's defaults, read from the runtime."""
    # each field's default, or a fresh one from its factory (FieldInfo.get_default's arguments
    # differ between pydantic versions: 2.10.0 refuses call_default_factory=True alone)
    fields = EndpointConfig.model_fields
    config = {
        name: fields[name].default_factory()  # type: ignore[call-arg,misc]
        if fields[name].default_factory is not None
        else fields[name].default
        for name in INHERITED_SETTINGS
    }
    types = {
        "api": {**config, "timeout": 600},
        # an agent's answer is no API body: there is no token usage to read
        "agentic": {**config, "auth_type": "none", "timeout": 3600, "requires_tokens": False},
    }
    assert sorted(types) == sorted(ENDPOINT_TYPES)
    return tuple(INHERITED_SETTINGS), types


@dataclass(frozen=True, slots=True)
class Key:
    """A declared key or alias, as written, with its position."""

    value: str
    loc: Loc


@dataclass(frozen=True, slots=True)
class Valued:
    """A declared value with its position."""

    value: Any
    loc: Loc


@dataclass(frozen=True, slots=True)
class EndpointDecl:
    """One endpoint's declaration, with its effective settings and positions."""

    key: Key
    aliases: tuple[Key, ...]
    type: Valued
    class_ref: Valued | None  # its own class, or None
    protocol: Valued | None  # a runtime protocol, or None (exactly one of the two is valid)
    request_options: Valued  # as written (None when absent)
    request_defaults: dict[str, Valued]
    settings: dict[str, Any]  # effective: endpoint, then provider defaults, then type defaults
    base_url_loc: Loc
    header_loc: Loc  # where its effective default_headers were written
    method: str
    path: str
    description: str | None
    docs_url: str | None
    tool_schema_target: Valued | None = None  # its own, when it differs from the provider's
    lifecycle: dict[str, Valued] | None = None  # status, dates, successor, source: as written


@dataclass(frozen=True, slots=True)
class PolicyDecl:
    """A provider's model policy (aliases, effort, prefixes, kwargs) as declared."""

    model_aliases: tuple[tuple[Key, Valued], ...]
    effort_mode: Valued | None
    effort_kwarg: Valued | None
    effort_levels: tuple[Key, ...]
    effort_loc: Loc
    effort_translate: dict[str, Valued]
    effort_model_rules: tuple[tuple[tuple[Key, ...], dict[str, Valued]], ...]
    effort_name_format: Valued | None
    model_prefix: Valued | None  # {"prefix": ..., "for": [...]}
    yolo_kwargs: dict[str, Valued]
    bypass_kwargs: dict[str, Valued]
    fast_kwargs: dict[str, Valued]


FactPath = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class ModelDecl:
    """One listed model: its id, aliases, facts and where each fact was written."""

    key: Key
    aliases: tuple[Key, ...]
    facts: dict[str, Any]
    # position of every fact's value, by its path below the model (("prices", "tiers", 0), ...)
    places: Mapping[FactPath, Loc] = field(default_factory=dict)

    def at(self, *path: str | int) -> Loc:
        """Where the fact at ``path`` was written, or the model's id when it was not."""
        return self.places.get(path, self.key.loc)


@dataclass(frozen=True, slots=True)
class ProviderDecl:
    """One provider file's typed records."""

    file: str
    stem: str
    key: Key
    display_name: str
    description: str | None
    docs_url: str | None
    aliases: tuple[Key, ...]
    module: Valued | None  # None: declared in YAML alone
    endpoints: tuple[EndpointDecl, ...]
    policy: PolicyDecl | None
    models: tuple[ModelDecl, ...]
    tool_schema_target: Valued | None = None
    reviewed_at: str | None = None  # last field-by-field check against the vendor (YYYY-MM-DD)
    reviewed_at_loc: Loc | None = None  # where its value was written
    inventory_only: str | None = None  # why the provider has no endpoints (models only)


def _keys(doc: Document, path: tuple[str | int, ...], values: list[str]) -> tuple[Key, ...]:
    return tuple(Key(v, doc.loc((*path, i))) for i, v in enumerate(values))


def _kwargs(doc: Document, path: NodePath, data: dict[str, Any]) -> dict[str, Valued]:
    return {k: Valued(v, doc.loc((*path, k), key=True)) for k, v in data.items()}


def _places(doc: Document) -> dict[str | int, dict[FactPath, Loc]]:
    """The position of every node under each model's facts, by model id and path below it.

    One pass over the document's positions, which hold every node of the (schema-valid) data in
    document order, so each model's table comes out as a walk of its facts would give it.
    """
    found: dict[str | int, dict[FactPath, Loc]] = {}
    file = doc.file
    current: Any = None
    table: dict[FactPath, Loc] = {}
    for path, (line, column) in doc.positions.items():
        if len(path) > 2 and path[0] == "models":
            model_id = path[1]
            if model_id != current:
                table = found.setdefault(model_id, {})
                current = model_id
            table[path[2:]] = (file, line, column)
    return found


def build(doc: Document, stem: str) -> ProviderDecl:
    """Turn a schema-valid document into records. Call only after the schema check passed."""
    data: dict[str, Any] = doc.data
    defaults: dict[str, Any] = data.get("defaults", {})
    endpoints = []
    inherited, type_defaults = endpoint_defaults()
    for name, raw in data.get("endpoints", {}).items():
        path = ("endpoints", name)
        kind = raw["type"]
        settings = {
            field: raw.get(field, defaults.get(field, type_defaults[kind][field]))
            for field in inherited
        }
        if "base_url" in raw:
            base_url_loc = doc.loc((*path, "base_url"))
        elif "base_url" in defaults:
            base_url_loc = doc.loc(("defaults", "base_url"))
        else:
            base_url_loc = doc.loc(path, key=True)
        if "default_headers" in raw:
            header_loc = doc.loc((*path, "default_headers"), key=True)
        elif "default_headers" in defaults:
            header_loc = doc.loc(("defaults", "default_headers"), key=True)
        else:
            header_loc = doc.loc(path, key=True)
        endpoints.append(
            EndpointDecl(
                key=Key(name, doc.loc(path, key=True)),
                aliases=_keys(doc, (*path, "aliases"), raw.get("aliases", [])),
                type=Valued(kind, doc.loc((*path, "type"))),
                class_ref=(
                    Valued(raw["class"], doc.loc((*path, "class"))) if "class" in raw else None
                ),
                protocol=(
                    Valued(raw["protocol"], doc.loc((*path, "protocol")))
                    if "protocol" in raw
                    else None
                ),
                request_options=Valued(
                    raw.get("request_options"), doc.loc((*path, "request_options"))
                ),
                request_defaults=_kwargs(
                    doc, (*path, "request_defaults"), raw.get("request_defaults", {})
                ),
                settings=settings,
                base_url_loc=base_url_loc,
                header_loc=header_loc,
                method=raw.get("method", "POST"),
                path=raw.get("path", name),
                description=raw.get("description"),
                docs_url=raw.get("docs_url"),
                tool_schema_target=(
                    Valued(raw["tool_schema_target"], doc.loc((*path, "tool_schema_target")))
                    if "tool_schema_target" in raw
                    else None
                ),
                lifecycle=(
                    {
                        k: Valued(v, doc.loc((*path, "lifecycle", k)))
                        for k, v in raw["lifecycle"].items()
                    }
                    if isinstance(raw.get("lifecycle"), dict)
                    else None
                ),
            )
        )
    policy = None
    if "policy" in data:
        raw_policy: dict[str, Any] = data["policy"]
        effort: dict[str, Any] = raw_policy.get("effort", {})
        policy = PolicyDecl(
            model_aliases=tuple(
                (
                    Key(alias, doc.loc(("policy", "model_aliases", alias), key=True)),
                    Valued(target, doc.loc(("policy", "model_aliases", alias))),
                )
                for alias, target in raw_policy.get("model_aliases", {}).items()
            ),
            effort_mode=(
                Valued(effort["mode"], doc.loc(("policy", "effort", "mode"))) if effort else None
            ),
            effort_kwarg=(
                Valued(effort["kwarg"], doc.loc(("policy", "effort", "kwarg")))
                if "kwarg" in effort
                else None
            ),
            effort_levels=_keys(doc, ("policy", "effort", "levels"), effort.get("levels", [])),
            effort_loc=doc.loc(("policy", "effort"), key=True),
            effort_translate=_kwargs(
                doc, ("policy", "effort", "translate"), effort.get("translate", {})
            ),
            effort_model_rules=tuple(
                (
                    _keys(doc, ("policy", "effort", "model_rules", i, "models"), rule["models"]),
                    _kwargs(
                        doc, ("policy", "effort", "model_rules", i, "translate"), rule["translate"]
                    ),
                )
                for i, rule in enumerate(effort.get("model_rules", []))
            ),
            effort_name_format=(
                Valued(
                    effort["model_name_format"], doc.loc(("policy", "effort", "model_name_format"))
                )
                if "model_name_format" in effort
                else None
            ),
            model_prefix=(
                Valued(raw_policy["model_prefix"], doc.loc(("policy", "model_prefix")))
                if "model_prefix" in raw_policy
                else None
            ),
            yolo_kwargs=_kwargs(doc, ("policy", "yolo_kwargs"), raw_policy.get("yolo_kwargs", {})),
            bypass_kwargs=_kwargs(
                doc, ("policy", "bypass_kwargs"), raw_policy.get("bypass_kwargs", {})
            ),
            fast_kwargs=_kwargs(doc, ("policy", "fast_kwargs"), raw_policy.get("fast_kwargs", {})),
        )
    places = _places(doc) if "models" in data else {}
    models = tuple(
        ModelDecl(
            key=Key(model_id, doc.loc(("models", model_id), key=True)),
            aliases=_keys(doc, ("models", model_id, "aliases"), facts.get("aliases", [])),
            facts={k: v for k, v in facts.items() if k != "aliases"},
            places=places.get(model_id, {}),
        )
        for model_id, facts in data.get("models", {}).items()
    )
    return ProviderDecl(
        file=doc.file,
        stem=stem,
        key=Key(data["provider"], doc.loc(("provider",))),
        display_name=data["display_name"],
        description=data.get("description"),
        docs_url=data.get("docs_url"),
        reviewed_at=data.get("reviewed_at"),
        reviewed_at_loc=doc.loc(("reviewed_at",)) if "reviewed_at" in data else None,
        aliases=_keys(doc, ("aliases",), data.get("aliases", [])),
        module=Valued(data["module"], doc.loc(("module",))) if "module" in data else None,
        endpoints=tuple(endpoints),
        policy=policy,
        models=models,
        tool_schema_target=(
            Valued(data["tool_schema_target"], doc.loc(("tool_schema_target",)))
            if "tool_schema_target" in data
            else None
        ),
        inventory_only=data.get("inventory_only"),
    )
