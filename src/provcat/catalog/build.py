"""Build a CatalogSnapshot from the generated snapshot's records (ADR-0028 D2, D3).

Every provider module is imported once; an ``Exception`` while importing becomes an
``import_error`` diagnostic and marks that provider unavailable, while ``BaseException`` control
signals propagate. Then every spec is validated as a whole set, each request-options factory is
called exactly once, and every request default is checked against its model. Any validation error
raises :class:`CatalogValidationError` and nothing is published.

``trusted=True`` is for records the generator wrote (the bundled ``provcat_catalog``): it already
checked them against the JSON Schema and checked every request-default value with the request
model's own validator, and ``generator check`` fails when they are stale. For those records the
build still imports every module, calls every factory, validates the whole spec set and checks
every request-default key, but does not run pydantic validators a second time: that would build
validators (and load pydantic's plugin entry points) that a process resolving an endpoint never
needs. Caller input (``config_overrides``, ``request_defaults``) is always validated.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType, ModuleType
from typing import Any

from pydantic import BaseModel

from provcat.catalog.snapshot import CatalogSnapshot, EndpointEntry, ProviderEntry
from provcat.catalog.specs import (
    CatalogDiagnosticCode,
    ProviderDiagnostic,
    ProviderEndpointSpec,
    ProviderModelPolicy,
    ProviderModuleSpec,
)
from provcat.catalog.validate import validate_specs
from provcat.config import INHERITED_SETTINGS, EndpointConfig
from provcat.endpoint import EndpointMeta, EndpointType
from provcat.errors import CatalogValidationError
from provcat.keys import canonical_key
from provcat.redact import sanitize
from provcat.request import field_names, field_problem

__all__ = ["build_snapshot"]

Record = Mapping[str, Any]
Importer = Callable[[str], ModuleType]


def _diag(
    code: CatalogDiagnosticCode,
    provider: str,
    message: str,
    *,
    endpoint: str | None = None,
    module: str | None = None,
    key: str | None = None,
    cause: BaseException | None = None,
) -> ProviderDiagnostic:
    return ProviderDiagnostic(
        code, provider, endpoint, module, key, message, type(cause).__name__ if cause else None
    )


def _resolve(ref: str, importer: Importer) -> Any:
    module_name, _, attr = ref.partition(":")
    module = importer(module_name)
    try:
        return getattr(module, attr)
    except AttributeError:
        raise LookupError(f"module '{module_name}' has no attribute '{attr}'") from None


def _policy(record: Record) -> ProviderModelPolicy | None:
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


_CONFIG_FIELDS = ("path", "method", *INHERITED_SETTINGS)


def _config(spec: ProviderEndpointSpec, model: type[BaseModel] | None) -> Mapping[str, Any]:
    agentic = spec.endpoint_type == EndpointType.AGENTIC
    values: dict[str, Any] = {
        "name": f"{canonical_key(spec.provider)}_{spec.endpoint}",
        "provider": canonical_key(spec.provider),
        "endpoint": spec.endpoint,
        "request_options": model,
        "openai_compatible": False,
    }
    for name in _CONFIG_FIELDS:
        values[name] = getattr(spec, name)
    values["default_headers"] = dict(spec.default_headers)
    values["auth_type"] = spec.auth_type or ("none" if agentic else "bearer")
    values["timeout"] = spec.timeout or (3600 if agentic else 600)
    return MappingProxyType(values)


def _specs_of(
    record: Record, module: ModuleType, importer: Importer
) -> tuple[list[ProviderEndpointSpec], list[ProviderDiagnostic]]:
    provider = record["provider"]
    specs: list[ProviderEndpointSpec] = []
    problems: list[ProviderDiagnostic] = []
    for ep in record["endpoints"]:
        try:
            cls = _resolve(ep["class"], importer)
        except LookupError as exc:
            problems.append(
                _diag(
                    "invalid_endpoint_class",
                    provider,
                    str(exc),
                    endpoint=ep["key"],
                    module=module.__name__,
                )
            )
            continue
        options: Any = None
        if ep["request_options"] is not None:
            try:
                options = _resolve(ep["request_options"], importer)
            except LookupError as exc:
                problems.append(
                    _diag("invalid_request_options", provider, str(exc), endpoint=ep["key"])
                )
                continue
        specs.append(
            ProviderEndpointSpec(
                provider=provider,
                endpoint=ep["endpoint"],
                endpoint_type=EndpointType(ep["type"]),
                endpoint_class=cls,
                provider_aliases=tuple(record["aliases"]),
                endpoint_aliases=tuple(ep["aliases"]),
                request_options=options,
                base_url=ep["base_url"],
                auth_type=ep["auth_type"],
                content_type=ep["content_type"],
                api_key_env=ep["api_key_env"],
                request_defaults=ep["request_defaults"],
                path=ep["path"],
                method=ep["method"],
                timeout=ep["timeout"],
                default_headers=ep["default_headers"],
                requires_tokens=ep["requires_tokens"],
                idempotent_retries=ep["idempotent_retries"],
                serialize_by_alias=ep["serialize_by_alias"],
                allow_local_network=ep["allow_local_network"],
            )
        )
    return specs, problems


def _request_model(
    spec: ProviderEndpointSpec, made: dict[int, type[BaseModel] | ProviderDiagnostic]
) -> type[BaseModel] | ProviderDiagnostic | None:
    """The request model, calling a factory exactly once per build."""
    options = spec.request_options
    if options is None:
        return None
    if isinstance(options, type):
        if issubclass(options, BaseModel):
            return options
        return _diag(
            "invalid_request_options",
            spec.provider,
            f"{spec.provider}/{spec.endpoint}: {options.__name__} is not a pydantic BaseModel",
            endpoint=canonical_key(spec.endpoint),
        )
    if id(options) not in made:
        try:
            result = options()
        except Exception as exc:
            made[id(options)] = _diag(
                "invalid_request_options",
                spec.provider,
                f"{spec.provider}/{spec.endpoint}: the request-options factory raised "
                f"{type(exc).__name__}: {sanitize(str(exc))}",
                endpoint=canonical_key(spec.endpoint),
                cause=exc,
            )
        else:
            if isinstance(result, type) and issubclass(result, BaseModel):
                made[id(options)] = result
            else:
                made[id(options)] = _diag(
                    "invalid_request_options",
                    spec.provider,
                    f"{spec.provider}/{spec.endpoint}: the factory returned "
                    f"{type(result).__name__}, not a BaseModel class",
                    endpoint=canonical_key(spec.endpoint),
                )
    return made[id(options)]


def build_snapshot(
    records: Sequence[Record],
    *,
    fingerprint: str = "",
    model_aliases: Mapping[str, str] | None = None,
    importer: Importer = importlib.import_module,
    trusted: bool = False,
) -> CatalogSnapshot:
    """Import, validate and index ``records``; raise CatalogValidationError when invalid."""
    modules = tuple(ProviderModuleSpec(r["provider"], r["module"]) for r in records)
    unavailable: dict[str, ProviderDiagnostic] = {}
    unavailable_aliases: dict[str, tuple[str, ...]] = {}
    problems: list[ProviderDiagnostic] = []
    specs: list[ProviderEndpointSpec] = []
    loaded: list[Record] = []
    for record in records:
        provider = record["provider"]
        try:
            module = importer(record["module"])
        except Exception as exc:  # BaseException (KeyboardInterrupt, SystemExit) propagates
            unavailable[canonical_key(provider)] = _diag(
                "import_error",
                canonical_key(provider),
                f"module '{record['module']}' failed to import: {type(exc).__name__}: "
                f"{sanitize(str(exc))}",
                module=record["module"],
                cause=exc,
            )
            unavailable_aliases[canonical_key(provider)] = tuple(record["aliases"])
            continue
        found, bad = _specs_of(record, module, importer)
        specs.extend(found)
        problems.extend(bad)
        loaded.append(record)
    problems.extend(validate_specs(specs))
    made: dict[int, type[BaseModel] | ProviderDiagnostic] = {}
    models: dict[int, type[BaseModel] | None] = {}
    for spec in specs:
        result = _request_model(spec, made)
        if isinstance(result, ProviderDiagnostic):
            problems.append(result)
            continue
        models[id(spec)] = result
        if result is not None:
            for key, value in spec.request_defaults.items():
                if trusted and key in field_names(result):
                    continue  # the generator checked the value with this model's validator
                problem = field_problem(result, key, value)
                if problem is not None:
                    problems.append(
                        _diag(
                            "invalid_request_default",
                            canonical_key(spec.provider),
                            f"{spec.provider}/{spec.endpoint}: {problem}",
                            endpoint=canonical_key(spec.endpoint),
                            key=key,
                        )
                    )
    if problems:
        raise CatalogValidationError(sorted(set(problems), key=ProviderDiagnostic.sort_key))
    return _index(
        loaded,
        specs,
        models,
        unavailable,
        unavailable_aliases,
        modules,
        fingerprint,
        model_aliases,
        trusted,
    )


def _index(
    records: Sequence[Record],
    specs: Sequence[ProviderEndpointSpec],
    models: Mapping[int, type[BaseModel] | None],
    unavailable: Mapping[str, ProviderDiagnostic],
    unavailable_aliases: Mapping[str, tuple[str, ...]],
    modules: tuple[ProviderModuleSpec, ...],
    fingerprint: str,
    model_aliases: Mapping[str, str] | None,
    trusted: bool,
) -> CatalogSnapshot:
    make_config = EndpointConfig._from_catalog if trusted else lambda v: EndpointConfig(**v)
    by_provider: dict[str, list[ProviderEndpointSpec]] = {}
    for spec in specs:
        by_provider.setdefault(canonical_key(spec.provider), []).append(spec)
    providers: dict[str, ProviderEntry] = {}
    index: dict[str, str] = {}
    for record in sorted(records, key=lambda r: canonical_key(r["provider"])):
        key = canonical_key(record["provider"])
        entries: dict[str, EndpointEntry] = {}
        endpoint_index: dict[str, str] = {}
        for spec in sorted(by_provider.get(key, []), key=lambda s: canonical_key(s.endpoint)):
            ekey = canonical_key(spec.endpoint)
            model = models[id(spec)]
            meta = EndpointMeta(
                provider=key,
                endpoint=spec.endpoint,
                endpoint_type=spec.endpoint_type,
                aliases=spec.endpoint_aliases,
                provider_aliases=spec.provider_aliases,
                request_options=model,
                config=_config(spec, model),
                request_defaults=spec.request_defaults,
            )
            entries[ekey] = EndpointEntry(ekey, spec, model, meta, make_config(meta.config))
            for spelling in (spec.endpoint, *spec.endpoint_aliases):
                endpoint_index[canonical_key(spelling)] = ekey
        providers[key] = ProviderEntry(
            provider=key,
            display_name=record.get("display_name", key),
            aliases=tuple(sorted(record["aliases"])),
            module=record["module"],
            endpoints=MappingProxyType(entries),
            endpoint_index=MappingProxyType(dict(sorted(endpoint_index.items()))),
            policy=_policy(record),
        )
        for spelling in (key, *record["aliases"]):
            index[canonical_key(spelling)] = key
    for key, aliases in unavailable_aliases.items():
        for spelling in (key, *aliases):
            index.setdefault(canonical_key(spelling), key)
    return CatalogSnapshot(
        providers=MappingProxyType(providers),
        unavailable=MappingProxyType(dict(sorted(unavailable.items()))),
        unavailable_aliases=MappingProxyType(dict(unavailable_aliases)),
        provider_index=MappingProxyType(dict(sorted(index.items()))),
        modules=modules,
        model_aliases=MappingProxyType(dict(model_aliases or {})),
        fingerprint=fingerprint,
    )
