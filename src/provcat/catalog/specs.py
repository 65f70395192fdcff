"""The catalog's records (ADR-0028 D1, D2, D5): named, immutable, validated as a whole set."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel

from provcat.endpoint import Endpoint, EndpointType

__all__ = [
    "CatalogDiagnosticCode",
    "EffortMode",
    "ProviderDiagnostic",
    "ProviderEndpointSpec",
    "ProviderModelPolicy",
    "ProviderModuleSpec",
    "RequestOptionsFactory",
    "frozen_mapping",
]

RequestOptionsFactory = Callable[[], type[BaseModel]]
EffortMode = Literal["none", "kwarg", "model_name"]
CatalogDiagnosticCode = Literal[
    "empty_key",
    "self_alias",
    "duplicate_provider_key",
    "duplicate_endpoint_key",
    "inconsistent_provider_aliases",
    "invalid_endpoint_class",
    "invalid_request_options",
    "invalid_request_default",
    "import_error",
]


def frozen_mapping(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """A read-only copy: caller mappings are never retained by reference."""
    return MappingProxyType(dict(value or {}))


@dataclass(frozen=True, slots=True)
class ProviderEndpointSpec:
    """One endpoint of one provider, every value named (D1) plus provcat's endpoint settings."""

    provider: str
    endpoint: str
    endpoint_type: EndpointType
    endpoint_class: type[Endpoint]
    provider_aliases: tuple[str, ...] = ()
    endpoint_aliases: tuple[str, ...] = ()
    request_options: type[BaseModel] | RequestOptionsFactory | None = None
    base_url: str | None = None
    auth_type: str | None = None
    content_type: str = "application/json"
    api_key_env: str | None = None
    request_defaults: Mapping[str, Any] = field(default_factory=dict)
    path: str | None = None
    method: str = "POST"
    timeout: float | None = None
    default_headers: Mapping[str, str] = field(default_factory=dict)
    requires_tokens: bool = False
    idempotent_retries: bool = False
    serialize_by_alias: bool = False
    allow_local_network: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "request_defaults", frozen_mapping(self.request_defaults))
        object.__setattr__(self, "default_headers", frozen_mapping(self.default_headers))


@dataclass(frozen=True, slots=True)
class ProviderModuleSpec:
    """One import unit: the module expected to provide ``provider``'s endpoints (D3)."""

    provider: str
    module: str


@dataclass(frozen=True, slots=True)
class ProviderModelPolicy:
    """How model specs for a provider are read and applied (D5)."""

    provider: str
    provider_aliases: tuple[str, ...] = ()
    model_aliases: Mapping[str, str] = field(default_factory=dict)
    effort_mode: EffortMode = "none"
    effort_kwarg: str | None = None
    effort_levels: tuple[str, ...] = ()
    yolo_kwargs: Mapping[str, Any] = field(default_factory=dict)
    bypass_kwargs: Mapping[str, Any] = field(default_factory=dict)
    fast_kwargs: Mapping[str, Any] = field(default_factory=dict)
    # provcat additions: the model-name prefix rule, and how effort maps to vendor values
    model_prefix: str | None = None
    model_prefix_for: tuple[str, ...] = ()
    effort_translate: Mapping[str, str] = field(default_factory=dict)
    # ((canonical model names, or "*"), vendor level -> vendor level), first match wins
    effort_model_rules: tuple[tuple[frozenset[str], Mapping[str, str]], ...] = ()
    effort_name_format: str | None = None
    # the provider's model inventory: canonical id or alias -> model id, and default efforts
    model_index: Mapping[str, str] = field(default_factory=dict)
    model_default_effort: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in (
            "model_aliases",
            "yolo_kwargs",
            "bypass_kwargs",
            "fast_kwargs",
            "effort_translate",
            "model_index",
            "model_default_effort",
        ):
            object.__setattr__(self, name, frozen_mapping(getattr(self, name)))


@dataclass(frozen=True, slots=True)
class ProviderDiagnostic:
    """One catalog problem, stable code first. Messages are sanitized: no secrets."""

    code: CatalogDiagnosticCode
    provider: str
    endpoint: str | None
    module: str | None
    key: str | None
    message: str
    cause_type: str | None = None

    def sort_key(self) -> tuple[str, str, str, str]:
        return (self.provider, self.endpoint or "", self.code, self.key or "")

    def as_dict(self) -> dict[str, str | None]:
        return {
            "code": self.code,
            "provider": self.provider,
            "endpoint": self.endpoint,
            "module": self.module,
            "key": self.key,
            "message": self.message,
            "cause_type": self.cause_type,
        }
