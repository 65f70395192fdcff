"""CatalogSnapshot: the one immutable view that lookup, inspection and model-spec parsing read
(ADR-0028 D2, D5), published in a single assignment and never replaced piecemeal.

Its facts (records and indexes) never change. What a process learns while using it lives here
too, so that lookup state has one home: which providers' Python parts are loaded (their endpoint
classes and request models, imported on first use under the registry's lock), which failed to
import (``unavailable``, kept for the snapshot's life), and the memos of resolved spellings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import FrozenInstanceError
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from provcat.catalog.specs import ProviderEndpointSpec

if TYPE_CHECKING:
    from provcat.catalog.diagnostic import ProviderDiagnostic
    from provcat.catalog.module_spec import ProviderModuleSpec
    from provcat.catalog.policy import ProviderModelPolicy
    from provcat.endpoints.config import EndpointConfig
    from provcat.endpoints.endpoint import Endpoint
    from provcat.models.tables import SpecAlias, SpecProvider

__all__ = ["Binding", "CatalogSnapshot", "ProviderEntry"]


# Binding and ProviderEntry are named tuples written out, as collections.namedtuple would make
# them (fields by position and by name, immutable, compared and hashed as tuples, copied and
# pickled): NamedTuple compiles each class's __new__ from source, ~0.6M instructions a class on
# every cold start under callgrind; this costs a fifth of that.


def _record_repr(record: tuple[Any, ...], fields: tuple[str, ...]) -> str:
    values = ", ".join(f"{name}={value!r}" for name, value in zip(fields, record, strict=True))
    return f"{type(record).__name__}({values})"


class Binding(tuple[Any, ...]):
    """What an endpoint record's references resolved to: its class and its base config (which
    carries the request model). Derived from the record on first use; no facts of its own."""

    __slots__ = ()
    _fields = ("endpoint_class", "config")

    def __new__(cls, endpoint_class: type[Endpoint], config: EndpointConfig) -> Binding:
        return tuple.__new__(cls, (endpoint_class, config))

    if TYPE_CHECKING:

        @property
        def endpoint_class(self) -> type[Endpoint]: ...
        @property
        def config(self) -> EndpointConfig: ...

    else:
        endpoint_class = property(itemgetter(0), doc="The endpoint's class.")
        config = property(itemgetter(1), doc="Its base config.")

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)

    def __repr__(self) -> str:
        return _record_repr(self, self._fields)


class ProviderEntry(tuple[Any, ...]):
    """One provider the catalog lists (an immutable record, written out like Binding)."""

    __slots__ = ()
    _fields = ("provider", "display_name", "aliases", "module", "endpoints", "endpoint_index")

    def __new__(
        cls,
        provider: str,
        display_name: str,
        aliases: tuple[str, ...],
        module: str | None,
        endpoints: Mapping[str, ProviderEndpointSpec],
        endpoint_index: Mapping[str, str],
    ) -> ProviderEntry:
        return tuple.__new__(
            cls, (provider, display_name, aliases, module, endpoints, endpoint_index)
        )

    if TYPE_CHECKING:

        @property
        def provider(self) -> str: ...
        @property
        def display_name(self) -> str: ...
        @property
        def aliases(self) -> tuple[str, ...]: ...
        @property
        def module(self) -> str | None: ...  # None: declared in YAML alone
        @property
        def endpoints(self) -> Mapping[str, ProviderEndpointSpec]: ...
        @property
        def endpoint_index(self) -> Mapping[str, str]: ...

    else:
        provider = property(itemgetter(0), doc="Canonical provider key.")
        display_name = property(itemgetter(1))
        aliases = property(itemgetter(2))
        module = property(itemgetter(3), doc="Its import unit; None: declared in YAML alone.")
        endpoints = property(itemgetter(4), doc="Canonical endpoint key -> record, sorted by key.")
        endpoint_index = property(
            itemgetter(5), doc="Canonical endpoint spelling -> canonical endpoint key."
        )

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)

    def __repr__(self) -> str:
        return _record_repr(self, self._fields)

    def available_endpoints(self) -> tuple[str, ...]:
        """Canonical endpoint keys, sorted (what EndpointNotFound lists)."""
        return tuple(self.endpoints)


_FACTS = ("providers", "provider_index", "policies", "model_aliases", "fingerprint", "trusted")
_STATE = (
    "unavailable",
    "bindings",
    "loaded_modules",
    "factories",
    "memo",
    "parsed_specs",
    "applied_specs",
)
# derived from the facts by provcat.models.tables on first read (a model spec): every
# canonical provider spelling -> what a model spec needs of its provider; every canonical model
# alias -> its target; whether any alias has a "/" (when none has, a spec with one is never an
# alias). Made on first read, not with the snapshot: they read every provider's policy, which
# the bundled snapshot makes only on first use (a cold start never needs them).
_DERIVED = ("spec_providers", "spec_aliases", "slashed_aliases")


class CatalogSnapshot:
    """Every provider the catalog knows. Lookups are plain reads of these mappings.

    A frozen record with slots, written out rather than made by ``@dataclass``: the class is made
    on every cold start, and generating a 13-field frozen dataclass cost more than everything
    else in this module (about 1 ms). It behaves as that dataclass did: its facts (the first six
    attributes) are given when it is made and compared by ``==``; its state (what a process
    learns while using it) starts empty, is left out of ``==``, and is mutated in place; no
    attribute can be assigned or deleted (:class:`dataclasses.FrozenInstanceError`).
    """

    __slots__ = _FACTS + _STATE + _DERIVED
    __match_args__ = (
        "providers",
        "provider_index",
        "policies",
        "model_aliases",
        "fingerprint",
        "trusted",
    )

    # canonical key -> entry; the bundled snapshot makes each entry on first access
    # (provcat.catalog.lazy), a checked source all of them up front
    providers: Mapping[str, ProviderEntry]
    provider_index: Mapping[str, str]  # every canonical provider spelling -> canonical key
    # canonical key -> model policy (None: the catalog gives it none), made like providers
    policies: Mapping[str, ProviderModelPolicy | None]
    model_aliases: Mapping[str, str]  # canonical bare alias -> "provider/model"
    fingerprint: str
    trusted: bool  # written by the generator: configs are built without re-validation
    # provider -> its import_error; filled when a provider's Python fails to load, then final
    unavailable: dict[str, ProviderDiagnostic]
    # provider -> canonical endpoint key -> binding; filled on first use of each endpoint
    bindings: dict[str, dict[str, Binding]]
    # providers whose module imported (or that have none)
    loaded_modules: set[str]
    # id of a request-options factory -> its result: each factory is called once per snapshot
    factories: dict[int, Any]
    # provider -> endpoint, exactly as a caller spelled them -> the record; filled on first
    # resolution of a spelling. Nested: a hit is two dict reads, no tuple to build and hash.
    memo: dict[str, dict[str, ProviderEndpointSpec]]
    # model spec -> its parse, and model_kwargs arguments -> its result (pure functions of the
    # snapshot); filled on first use, bounded like memo
    parsed_specs: dict[Any, Any]
    applied_specs: dict[Any, Any]

    def __init__(
        self,
        providers: Mapping[str, ProviderEntry],
        provider_index: Mapping[str, str],
        policies: Mapping[str, ProviderModelPolicy | None],
        model_aliases: Mapping[str, str],
        fingerprint: str,
        trusted: bool,
    ) -> None:
        for name, value in zip(
            _FACTS,
            (providers, provider_index, policies, model_aliases, fingerprint, trusted),
            strict=True,
        ):
            object.__setattr__(self, name, value)
        for name in _STATE:
            object.__setattr__(self, name, set() if name == "loaded_modules" else {})

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _facts(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _FACTS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, CatalogSnapshot)
        return self._facts() == other._facts()

    def __hash__(self) -> int:
        return hash(self._facts())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in _FACTS + _STATE)
        return f"{type(self).__qualname__}({fields})"

    spec_providers: Mapping[str, SpecProvider]
    spec_aliases: Mapping[str, SpecAlias]
    slashed_aliases: bool

    def __getattr__(self, name: str) -> Any:
        """The derived tables (``_DERIVED``), made on their first read and kept in their slots,
        so every later read is a plain slot read (this runs only for an unset slot)."""
        if name not in _DERIVED:
            raise AttributeError(name)
        from provcat.models.tables import spec_aliases, spec_providers

        providers = spec_providers(self.provider_index, self.policies)
        object.__setattr__(self, "spec_providers", providers)
        object.__setattr__(self, "spec_aliases", spec_aliases(self.model_aliases, providers))
        object.__setattr__(self, "slashed_aliases", any("/" in a for a in self.model_aliases))
        return object.__getattribute__(self, name)

    MEMO_LIMIT = 4096  # model-spec memos; and provider spellings, each with up to MEMO_SPELLINGS
    MEMO_SPELLINGS = 256  # endpoint spellings remembered per provider spelling

    @property
    def modules(self) -> tuple[ProviderModuleSpec, ...]:
        """The import unit of every provider, sorted by provider."""
        from provcat.catalog.module_spec import ProviderModuleSpec

        return tuple(ProviderModuleSpec(k, p.module) for k, p in self.providers.items())

    @property
    def unavailable_aliases(self) -> Mapping[str, tuple[str, ...]]:
        return {k: self.providers[k].aliases for k in self.unavailable}

    def remember(self, provider: str, endpoint: str, spec: ProviderEndpointSpec) -> None:
        if spec.lifecycle is not None:
            return  # never on the fast path: each use is told it is deprecated or retired
        spellings = self.memo.get(provider)
        if spellings is None:
            if len(self.memo) >= self.MEMO_LIMIT:
                return
            spellings = self.memo.setdefault(provider, {})
        if len(spellings) < self.MEMO_SPELLINGS:
            spellings[endpoint] = spec

    def canonical_provider(self, name: str) -> str | None:
        """The canonical provider key ``name`` spells, or None."""
        return self.provider_index.get(name.strip().casefold())

    def policy(self, provider: str) -> ProviderModelPolicy | None:
        return self.policies.get(provider)

    def endpoint(self, provider: str, key: str) -> ProviderEndpointSpec:
        """The record of canonical ``provider``/``key``."""
        return self.providers[provider].endpoints[key]
