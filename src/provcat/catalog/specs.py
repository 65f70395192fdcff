"""The catalog's records (ADR-0028 D1, D5): named, immutable, read straight from the snapshot.

An endpoint exists at run time as its :class:`ProviderEndpointSpec` (this frozen record) and the
instances built from it. The record names its Python parts by reference (``"module:Name"``); they
are imported the first time the endpoint is used. Nothing here imports pydantic.

The other ADR records are re-exported here and defined in modules of their own, made only where
they are used (so never on the cold path, ``import provcat`` + the first ``match_endpoint``):
:class:`ProviderModelPolicy` (:mod:`provcat.catalog.policy`), :class:`ProviderModuleSpec`
(:mod:`provcat.catalog.module_spec`) and :class:`ProviderDiagnostic` (:mod:`provcat.catalog.diagnostic`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import FrozenInstanceError, dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from provcat.lazy_names import lazy_names

if TYPE_CHECKING:
    from pydantic import BaseModel

    from provcat.catalog.diagnostic import CatalogDiagnosticCode, ProviderDiagnostic
    from provcat.catalog.module_spec import ProviderModuleSpec
    from provcat.catalog.policy import EffortMode, ProviderModelPolicy

__all__ = [
    "CatalogDiagnosticCode",
    "EffortMode",
    "EndpointType",
    "ProviderDiagnostic",
    "ProviderEndpointSpec",
    "ProviderModelPolicy",
    "ProviderModuleSpec",
    "RequestOptionsFactory",
    "frozen_mapping",
]

RequestOptionsFactory = Callable[[], "type[BaseModel]"]

_ELSEWHERE = {
    "CatalogDiagnosticCode": "provcat.catalog.diagnostic",
    "ProviderDiagnostic": "provcat.catalog.diagnostic",
    "EffortMode": "provcat.catalog.policy",
    "ProviderModelPolicy": "provcat.catalog.policy",
    "ProviderModuleSpec": "provcat.catalog.module_spec",
}


__getattr__ = lazy_names(__name__, _ELSEWHERE)


class EndpointType(StrEnum):
    """How an endpoint reaches its vendor: over HTTP or by driving an agent/CLI."""

    API = "api"
    AGENTIC = "agentic"


def frozen_mapping(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """A read-only copy: caller mappings are never retained by reference."""
    return MappingProxyType(dict(value or {}))


# init, repr and eq are written out in the class (the dataclass's fields and replace() stay):
# generating them for 24 fields cost more than anything else in this module on a cold start
# (about 1 ms, ~7M instructions under callgrind). So are the frozen methods (__setattr__,
# __delattr__, and __getstate__/__setstate__ for copy and pickle): ``frozen=True`` compiles two
# functions from source on every cold start (~1.7M instructions). The record is as frozen as
# that made it; ``frozen=False`` here only stops the decorator from generating them.
@dataclass(frozen=False, slots=True, kw_only=True, init=False, repr=False, eq=False)
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
    path: str | None
    method: str
    base_url: str | None
    auth_type: str
    api_key_env: str | None
    content_type: str
    timeout: float
    default_headers: Mapping[str, str]
    requires_tokens: bool
    idempotent_retries: bool
    serialize_by_alias: bool
    allow_local_network: bool
    description: str | None = None
    docs_url: str | None = None
    # status, deprecation_date, shutdown_date, successor, source: once the vendor deprecates it
    lifecycle: Mapping[str, Any] | None = None

    def __init__(
        self,
        *,
        provider: str,
        endpoint: str,
        key: str,
        endpoint_type: EndpointType,
        endpoint_class: str | None,
        protocol: str | None,
        request_options: str | None,
        provider_aliases: tuple[str, ...] = (),
        endpoint_aliases: tuple[str, ...] = (),
        request_defaults: Mapping[str, Any] | None = None,
        path: str | None,
        method: str,
        base_url: str | None,
        auth_type: str,
        api_key_env: str | None,
        content_type: str,
        timeout: float,
        default_headers: Mapping[str, str],
        requires_tokens: bool,
        idempotent_retries: bool,
        serialize_by_alias: bool,
        allow_local_network: bool,
        description: str | None = None,
        docs_url: str | None = None,
        lifecycle: Mapping[str, Any] | None = None,
    ) -> None:
        init = object.__setattr__  # frozen: __setattr__ refuses every assignment
        init(self, "provider", provider)
        init(self, "endpoint", endpoint)
        init(self, "key", key)
        init(self, "endpoint_type", endpoint_type)
        init(self, "endpoint_class", endpoint_class)
        init(self, "protocol", protocol)
        init(self, "request_options", request_options)
        init(self, "provider_aliases", provider_aliases)
        init(self, "endpoint_aliases", endpoint_aliases)
        init(self, "request_defaults", frozen_mapping(request_defaults))
        init(self, "path", path)
        init(self, "method", method)
        init(self, "base_url", base_url)
        init(self, "auth_type", auth_type)
        init(self, "api_key_env", api_key_env)
        init(self, "content_type", content_type)
        init(self, "timeout", timeout)
        init(self, "default_headers", frozen_mapping(default_headers))
        init(self, "requires_tokens", requires_tokens)
        init(self, "idempotent_retries", idempotent_retries)
        init(self, "serialize_by_alias", serialize_by_alias)
        init(self, "allow_local_network", allow_local_network)
        init(self, "description", description)
        init(self, "docs_url", docs_url)
        init(self, "lifecycle", None if lifecycle is None else frozen_mapping(lifecycle))

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)  # the fields, in order

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> list[Any]:
        return list(self._values())

    def __setstate__(self, state: list[Any]) -> None:
        for name, value in zip(self.__slots__, state, strict=True):
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__qualname__}({values})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, ProviderEndpointSpec)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

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
            path=ep["path"],
            method=ep["method"],
            base_url=ep["base_url"],
            auth_type=ep["auth_type"],
            api_key_env=ep["api_key_env"],
            content_type=ep["content_type"],
            timeout=ep["timeout"],
            default_headers=ep["default_headers"],
            requires_tokens=ep["requires_tokens"],
            idempotent_retries=ep["idempotent_retries"],
            serialize_by_alias=ep["serialize_by_alias"],
            allow_local_network=ep["allow_local_network"],
            description=ep["description"],
            docs_url=ep["docs_url"],
            lifecycle=ep["lifecycle"],
        )

    @property
    def name(self) -> str:
        """The instance name of endpoints built from this record."""
        return f"{self.provider}_{self.endpoint}"

    def config_values(self) -> dict[str, Any]:
        """The EndpointConfig fields this record sets (the request model is added on load)."""
        return {
            "name": self.name,
            "provider": self.provider,
            "endpoint": self.endpoint,
            "base_url": self.base_url,
            "path": self.path,
            "method": self.method,
            "auth_type": self.auth_type,
            "api_key_env": self.api_key_env,
            "content_type": self.content_type,
            "timeout": self.timeout,
            "default_headers": dict(self.default_headers),
            "requires_tokens": self.requires_tokens,
            "idempotent_retries": self.idempotent_retries,
            "serialize_by_alias": self.serialize_by_alias,
            "allow_local_network": self.allow_local_network,
            "openai_compatible": False,
        }
