"""Typed, positioned records of a schema-valid provider file.

The records keep every value as written plus where it was written, so the whole-set validator can
point at the exact node. Effective endpoint settings (provider defaults merged in, type defaults
filled) are computed here once.
"""

from __future__ import annotations

import marshal
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from generator.diagnostics import Loc
from generator.frozen import Frozen, set_field
from generator.loader import Document, NodePath

# Settings an endpoint inherits from its provider's `defaults` when it does not set them, and the
# values it gets when neither sets them: EndpointConfig's own defaults (the one place they are
# written), except where the endpoint type differs (lionagi's EndpointMeta.create_config: a 600 s
# timeout for APIs; agents need no key and run longer). Read from provcat.endpoints.config on first use
# (it imports pydantic), or given by ``use_endpoint_defaults`` (the build cache keeps them).
EndpointDefaults = tuple[tuple[str, ...], dict[str, dict[str, Any]]]
ENDPOINT_TYPES = ("api", "agentic")
_DEFAULTS: EndpointDefaults | None = None


def config_endpoint_defaults() -> EndpointDefaults:
    """The inherited setting names and each endpoint type's defaults, read from the runtime."""
    from provcat.endpoints.config import INHERITED_SETTINGS, EndpointConfig

    config = {
        name: EndpointConfig.model_fields[name].get_default(call_default_factory=True)
        for name in INHERITED_SETTINGS
    }
    types = {
        "api": {**config, "timeout": 600},
        "agentic": {**config, "auth_type": "none", "timeout": 3600},
    }
    assert sorted(types) == sorted(ENDPOINT_TYPES)
    return tuple(INHERITED_SETTINGS), types


def use_endpoint_defaults(data: Any) -> bool:
    """Use ``data`` (``[names, {type: {name: default}}]``, as ``config_endpoint_defaults``
    returned them with this runtime, kept as JSON) when it has that shape; False otherwise."""
    global _DEFAULTS
    if not (isinstance(data, list) and len(data) == 2):
        return False
    names, types = data
    if not (
        isinstance(names, list)
        and all(isinstance(n, str) for n in names)
        and isinstance(types, dict)
        and sorted(types) == sorted(ENDPOINT_TYPES)
        and all(isinstance(t, dict) and sorted(t) == sorted(names) for t in types.values())
    ):
        return False
    _DEFAULTS = (tuple(names), types)
    return True


def endpoint_defaults() -> EndpointDefaults:
    global _DEFAULTS
    if _DEFAULTS is None:
        _DEFAULTS = config_endpoint_defaults()
    return _DEFAULTS


class Key(Frozen):
    """A declared key or alias, as written, with its position."""

    _fields: ClassVar[tuple[str, ...]] = ("value", "loc")
    __slots__ = _fields
    value: str
    loc: Loc

    def __init__(self, value: str, loc: Loc) -> None:
        set_field(self, "value", value)
        set_field(self, "loc", loc)

    def __reduce__(self) -> tuple[type[Key], tuple[str, Loc]]:
        # a cached catalog holds one per model and alias
        return (Key, (self.value, self.loc))


class Valued(Frozen):
    """A declared value with its position."""

    _fields: ClassVar[tuple[str, ...]] = ("value", "loc")
    __slots__ = _fields
    value: Any
    loc: Loc

    def __init__(self, value: Any, loc: Loc) -> None:
        set_field(self, "value", value)
        set_field(self, "loc", loc)


class EndpointDecl(Frozen):
    """One endpoint's declaration, with its effective settings and positions."""

    _fields: ClassVar[tuple[str, ...]] = (
        "key",
        "aliases",
        "type",
        "class_ref",
        "protocol",
        "request_options",
        "request_defaults",
        "settings",
        "base_url_loc",
        "header_loc",
        "method",
        "path",
        "description",
        "docs_url",
        "tool_schema_target",
        "lifecycle",
    )
    __slots__ = _fields
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
    tool_schema_target: Valued | None  # its own, when it differs from the provider's
    lifecycle: dict[str, Valued] | None  # status, dates, successor, source: as written

    def __init__(
        self,
        key: Key,
        aliases: tuple[Key, ...],
        type: Valued,
        class_ref: Valued | None,
        protocol: Valued | None,
        request_options: Valued,
        request_defaults: dict[str, Valued],
        settings: dict[str, Any],
        base_url_loc: Loc,
        header_loc: Loc,
        method: str,
        path: str,
        description: str | None,
        docs_url: str | None,
        tool_schema_target: Valued | None = None,
        lifecycle: dict[str, Valued] | None = None,
    ) -> None:
        set_field(self, "key", key)
        set_field(self, "aliases", aliases)
        set_field(self, "type", type)
        set_field(self, "class_ref", class_ref)
        set_field(self, "protocol", protocol)
        set_field(self, "request_options", request_options)
        set_field(self, "request_defaults", request_defaults)
        set_field(self, "settings", settings)
        set_field(self, "base_url_loc", base_url_loc)
        set_field(self, "header_loc", header_loc)
        set_field(self, "method", method)
        set_field(self, "path", path)
        set_field(self, "description", description)
        set_field(self, "docs_url", docs_url)
        set_field(self, "tool_schema_target", tool_schema_target)
        set_field(self, "lifecycle", lifecycle)


class PolicyDecl(Frozen):
    """A provider's model policy (aliases, effort, prefixes, kwargs) as declared."""

    _fields: ClassVar[tuple[str, ...]] = (
        "model_aliases",
        "effort_mode",
        "effort_kwarg",
        "effort_levels",
        "effort_loc",
        "effort_translate",
        "effort_model_rules",
        "effort_name_format",
        "model_prefix",
        "yolo_kwargs",
        "bypass_kwargs",
        "fast_kwargs",
    )
    __slots__ = _fields
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

    def __init__(
        self,
        model_aliases: tuple[tuple[Key, Valued], ...],
        effort_mode: Valued | None,
        effort_kwarg: Valued | None,
        effort_levels: tuple[Key, ...],
        effort_loc: Loc,
        effort_translate: dict[str, Valued],
        effort_model_rules: tuple[tuple[tuple[Key, ...], dict[str, Valued]], ...],
        effort_name_format: Valued | None,
        model_prefix: Valued | None,
        yolo_kwargs: dict[str, Valued],
        bypass_kwargs: dict[str, Valued],
        fast_kwargs: dict[str, Valued],
    ) -> None:
        set_field(self, "model_aliases", model_aliases)
        set_field(self, "effort_mode", effort_mode)
        set_field(self, "effort_kwarg", effort_kwarg)
        set_field(self, "effort_levels", effort_levels)
        set_field(self, "effort_loc", effort_loc)
        set_field(self, "effort_translate", effort_translate)
        set_field(self, "effort_model_rules", effort_model_rules)
        set_field(self, "effort_name_format", effort_name_format)
        set_field(self, "model_prefix", model_prefix)
        set_field(self, "yolo_kwargs", yolo_kwargs)
        set_field(self, "bypass_kwargs", bypass_kwargs)
        set_field(self, "fast_kwargs", fast_kwargs)


FactPath = tuple[str | int, ...]


class PackedPlaces(Mapping[FactPath, Loc]):
    """A model's fact positions as one marshal blob, decoded on the first look-up.

    Positions are read only to word a diagnostic, yet they are most of a model's objects: a
    cached provider file's records come back without building them (a third of the load of a
    10,000-model catalog's unchanged files)."""

    __slots__ = ("_blob", "_places")

    def __init__(self, blob: bytes) -> None:
        self._blob = blob
        self._places: dict[FactPath, Loc] | None = None

    def _open(self) -> dict[FactPath, Loc]:
        if self._places is None:
            self._places = marshal.loads(self._blob)
        return self._places

    def __getitem__(self, path: FactPath) -> Loc:
        return self._open()[path]

    def __iter__(self) -> Iterator[FactPath]:
        return iter(self._open())

    def __len__(self) -> int:
        return len(self._open())

    def __reduce__(self) -> tuple[type[PackedPlaces], tuple[bytes]]:
        return (PackedPlaces, (self._blob,))


class ModelDecl(Frozen):
    """One listed model: its id, aliases, facts and where each fact was written."""

    _fields: ClassVar[tuple[str, ...]] = ("key", "aliases", "facts", "places")
    __slots__ = _fields
    key: Key
    aliases: tuple[Key, ...]
    facts: dict[str, Any]
    # position of every fact's value, by its path below the model (("prices", "tiers", 0), ...)
    places: Mapping[FactPath, Loc]

    def __init__(
        self,
        key: Key,
        aliases: tuple[Key, ...],
        facts: dict[str, Any],
        places: Mapping[FactPath, Loc] | None = None,
    ) -> None:
        set_field(self, "key", key)
        set_field(self, "aliases", aliases)
        set_field(self, "facts", facts)
        set_field(self, "places", {} if places is None else places)

    def at(self, *path: str | int) -> Loc:
        """Where the fact at ``path`` was written, or the model's id when it was not."""
        return self.places.get(path, self.key.loc)

    def __reduce__(self) -> tuple[type[ModelDecl], tuple[Any, ...]]:
        places = self.places
        if not isinstance(places, PackedPlaces):
            places = PackedPlaces(marshal.dumps(dict(places)))
        return (ModelDecl, (self.key, self.aliases, self.facts, places))


class ProviderDecl(Frozen):
    """One provider file's typed records."""

    _fields: ClassVar[tuple[str, ...]] = (
        "file",
        "stem",
        "key",
        "display_name",
        "description",
        "docs_url",
        "aliases",
        "module",
        "endpoints",
        "policy",
        "models",
        "tool_schema_target",
        "reviewed_at",
        "inventory_only",
    )
    __slots__ = _fields
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
    tool_schema_target: Valued | None
    reviewed_at: str | None  # last field-by-field check against the vendor (YYYY-MM-DD)
    inventory_only: str | None  # why the provider has no endpoints (models only)

    def __init__(
        self,
        file: str,
        stem: str,
        key: Key,
        display_name: str,
        description: str | None,
        docs_url: str | None,
        aliases: tuple[Key, ...],
        module: Valued | None,
        endpoints: tuple[EndpointDecl, ...],
        policy: PolicyDecl | None,
        models: tuple[ModelDecl, ...],
        tool_schema_target: Valued | None = None,
        reviewed_at: str | None = None,
        inventory_only: str | None = None,
    ) -> None:
        set_field(self, "file", file)
        set_field(self, "stem", stem)
        set_field(self, "key", key)
        set_field(self, "display_name", display_name)
        set_field(self, "description", description)
        set_field(self, "docs_url", docs_url)
        set_field(self, "aliases", aliases)
        set_field(self, "module", module)
        set_field(self, "endpoints", endpoints)
        set_field(self, "policy", policy)
        set_field(self, "models", models)
        set_field(self, "tool_schema_target", tool_schema_target)
        set_field(self, "reviewed_at", reviewed_at)
        set_field(self, "inventory_only", inventory_only)


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
