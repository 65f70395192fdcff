"""The catalog's records (ADR-0028 D1, D5): named, immutable, read straight from the snapshot.

An endpoint exists at run time as its :class:`ProviderEndpointSpec` and the instances built from
it. The record names its Python parts by reference (``"module:Name"``); they are imported the
first time the endpoint is used (:mod:`provcat.endpoints.load`). Nothing here imports pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Literal

__all__ = [
    "INHERITED_SETTINGS",
    "SETTINGS",
    "EffortMode",
    "EndpointType",
    "ProviderEndpointSpec",
    "ProviderModelPolicy",
    "ProviderModuleSpec",
    "frozen_mapping",
]

EffortMode = Literal["none", "kwarg", "model_name"]


class EndpointType(StrEnum):
    """How an endpoint reaches its vendor: over HTTP or by driving an agent/CLI."""

    API = "api"
    AGENTIC = "agentic"


def frozen_mapping(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """A read-only copy: caller mappings are never retained by reference."""
    return MappingProxyType(dict(value or {}))


# The metadata that marks a field of ProviderEndpointSpec as one of the endpoint's settings: a
# field of EndpointConfig too, of the same name, written by the generator into each endpoint's
# record under that name. _INHERITED: a provider's catalog `defaults:` may set it for all its
# endpoints as well; _ENDPOINT: only an endpoint sets it.
_INHERITED = {"setting": "inherited"}
_ENDPOINT = {"setting": "endpoint"}


@dataclass(frozen=True, slots=True, kw_only=True)
class ProviderEndpointSpec:
    """One endpoint of one provider: every value named (D1), provider defaults already merged."""

    provider: str  # canonical provider key
    endpoint: str  # the endpoint key as declared
    key: str  # canonical endpoint key
    endpoint_type: EndpointType
    endpoint_class: str | None  # "module:Class" of its own class; None for a protocol endpoint
    protocol: str | None  # the protocol it speaks (provcat.endpoints.protocols), or None
    request_options: str | None  # "module:Model" of its request model (or factory), or None
    provider_aliases: tuple[str, ...] = ()
    endpoint_aliases: tuple[str, ...] = ()
    request_defaults: Mapping[str, Any] = field(default_factory=dict)
    # the endpoint's settings, as the generator wrote them (defaults filled in there, from
    # EndpointConfig's and the endpoint type's)
    path: str | None = field(metadata=_ENDPOINT)
    method: str = field(metadata=_ENDPOINT)
    base_url: str | None = field(metadata=_INHERITED)
    auth_type: str = field(metadata=_INHERITED)
    api_key_env: str | None = field(metadata=_INHERITED)
    content_type: str = field(metadata=_INHERITED)
    timeout: float = field(metadata=_INHERITED)
    max_retries: int = field(metadata=_INHERITED)
    default_headers: Mapping[str, str] = field(metadata=_INHERITED)
    requires_tokens: bool = field(metadata=_INHERITED)
    idempotent_retries: bool = field(metadata=_INHERITED)
    serialize_by_alias: bool = field(metadata=_INHERITED)
    allow_local_network: bool = field(metadata=_INHERITED)
    description: str | None = None
    docs_url: str | None = None
    # status, deprecation_date, shutdown_date, successor, source: once the vendor deprecates it
    lifecycle: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "request_defaults", frozen_mapping(self.request_defaults))
        object.__setattr__(self, "default_headers", frozen_mapping(self.default_headers))
        if self.lifecycle is not None:
            object.__setattr__(self, "lifecycle", frozen_mapping(self.lifecycle))

    @classmethod
    def from_record(
        cls, provider: str, provider_aliases: tuple[str, ...], ep: Mapping[str, Any]
    ) -> ProviderEndpointSpec:
        """The record of one endpoint of a snapshot provider record."""
        return cls(
            provider=provider,
            endpoint=ep["endpoint"],
            key=ep["key"],
            endpoint_type=EndpointType(ep["type"]),
            endpoint_class=ep["class"],
            protocol=ep["protocol"],
            request_options=ep["request_options"],
            provider_aliases=provider_aliases,
            endpoint_aliases=tuple(ep["aliases"]),
            request_defaults=ep["request_defaults"],
            description=ep["description"],
            docs_url=ep["docs_url"],
            lifecycle=ep["lifecycle"],
            **{name: ep[name] for name in SETTINGS},
        )

    @property
    def name(self) -> str:
        """The instance name of endpoints built from this record."""
        return f"{self.provider}_{self.endpoint}"

    def config_values(self) -> dict[str, Any]:
        """The EndpointConfig fields this record sets (the request model is added on load)."""
        values = {name: getattr(self, name) for name in SETTINGS}
        values["default_headers"] = dict(self.default_headers)  # a config's own, mutable copy
        return {
            "name": self.name,
            "provider": self.provider,
            "endpoint": self.endpoint,
            **values,
            "openai_compatible": False,
        }


# The endpoint settings in declaration order, computed once: what from_record reads and
# config_values gives, by name; and of them, the ones a provider's `defaults:` may set (the
# generator merges and writes those by this tuple, in this order).
SETTINGS: tuple[str, ...] = tuple(
    f.name for f in fields(ProviderEndpointSpec) if "setting" in f.metadata
)
INHERITED_SETTINGS: tuple[str, ...] = tuple(
    f.name for f in fields(ProviderEndpointSpec) if f.metadata.get("setting") == "inherited"
)


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
class ProviderModuleSpec:
    """One import unit: the module expected to provide ``provider``'s Python parts (D3).

    ``module`` is None for a provider declared in YAML alone."""

    provider: str
    module: str | None
