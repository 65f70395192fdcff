"""First use of an endpoint: import what its record names and build its class and base config.

The runtime never imports a provider's Python before the provider is used. The first use of an
endpoint (under the registry's lock, once per snapshot) imports its provider's module, then the
endpoint's own class, or derives a dedicated class from its protocol's implementation. Its
request model (calling a factory once per snapshot) is imported then too, except for the trusted
bundled snapshot: there the generator already checked the record's request defaults against the
model, so resolving and building the endpoint do not need it, and the config keeps a
:class:`DeferredRequestModel` that imports it, under the same lock, when ``request_options`` is
first read (a payload built, a caller's request defaults checked). An ``Exception`` while
importing, now or then, becomes the provider's ``import_error`` diagnostic: the provider is
unavailable for the rest of the snapshot's life and nothing is imported again until
``refresh()``. ``BaseException`` control signals (KeyboardInterrupt, SystemExit) propagate.

What a process learns this way is the snapshot's :class:`~provcat.endpoints.state.LoadState`.
For a catalog source the generator did not write, the same steps also collect what the generator
would have refused (a request model that is not a model, a request default its model rejects) as
validation problems (:mod:`provcat.endpoints.checked`).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from provcat.catalog.diagnostic import CatalogDiagnosticCode, ProviderDiagnostic
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.catalog.specs import EndpointType, ProviderEndpointSpec
from provcat.endpoints.config import DeferredModel, EndpointConfig
from provcat.endpoints.protocols import PROTOCOLS
from provcat.endpoints.request import field_problem
from provcat.endpoints.state import LoadState
from provcat.errors import ProviderUnavailable
from provcat.redact import sanitize

if TYPE_CHECKING:
    from provcat.endpoints.endpoint import Endpoint

__all__ = [
    "Binding",
    "DeferredRequestModel",
    "Importer",
    "LoadState",
    "Problems",
    "load_endpoint",
]

Importer = Callable[[str], ModuleType]
Problems = list[ProviderDiagnostic]


@dataclass(frozen=True, slots=True)
class Binding:
    """What an endpoint record's references resolved to: its class and its base config (which
    carries the request model). Derived from the record on first use; no facts of its own."""

    endpoint_class: type[Endpoint]
    config: EndpointConfig


class _Invalid(Exception):
    """A record names something that is not what it must be (a validation problem)."""

    def __init__(self, code: CatalogDiagnosticCode, message: str) -> None:
        super().__init__(message)
        self.code = code


def diagnostic(
    code: CatalogDiagnosticCode,
    spec: ProviderEndpointSpec,
    message: str,
    *,
    module: str | None = None,
    key: str | None = None,
    cause: BaseException | None = None,
    endpoint: bool = True,
) -> ProviderDiagnostic:
    """A diagnostic about ``spec`` (about its provider when ``endpoint`` is false)."""
    return ProviderDiagnostic(
        code,
        spec.provider,
        spec.key if endpoint else None,
        module,
        key,
        message,
        type(cause).__name__ if cause else None,
    )


def _import(
    state: LoadState, spec: ProviderEndpointSpec, name: str, importer: Importer
) -> ModuleType:
    """Import ``name`` for ``spec``'s provider; a failure makes the provider unavailable."""
    try:
        return importer(name)
    except Exception as exc:  # BaseException (KeyboardInterrupt, SystemExit) propagates
        failure = diagnostic(
            "import_error",
            spec,
            f"module '{name}' failed to import: {type(exc).__name__}: {sanitize(str(exc))}",
            module=name,
            cause=exc,
            endpoint=False,
        )
        _fail(state, failure)
        raise ProviderUnavailable(spec.provider, failure) from None


def _fail(state: LoadState, failure: ProviderDiagnostic) -> None:
    """Mark the provider unavailable for the snapshot's life and forget what it had bound, so
    that every later lookup meets the failure."""
    state.unavailable[failure.provider] = failure
    state.bindings.pop(failure.provider, None)


def _attribute(
    state: LoadState,
    spec: ProviderEndpointSpec,
    ref: str,
    importer: Importer,
    code: CatalogDiagnosticCode,
) -> Any:
    module_name, _, attr = ref.partition(":")
    module = _import(state, spec, module_name, importer)
    try:
        return getattr(module, attr)
    except AttributeError:
        raise _Invalid(code, f"module '{module_name}' has no attribute '{attr}'") from None


_WORD = re.compile(r"[A-Za-z0-9]+")


def _derived_name(spec: ProviderEndpointSpec) -> str:
    words = _WORD.findall(f"{spec.provider} {spec.endpoint}")
    return "".join(w[:1].upper() + w[1:] for w in words) + "Endpoint"


def _endpoint_class(state: LoadState, spec: ProviderEndpointSpec, importer: Importer) -> Any:
    """The class ``spec`` names, or the one derived from its protocol. Whether a named class is
    an endpoint class of the right type is the generator's check (and, for a source it did not
    write, :func:`provcat.endpoints.checked.check_classes`)."""
    if spec.protocol is not None:
        protocol = PROTOCOLS.get(spec.protocol)
        if protocol is None:
            raise _Invalid("invalid_endpoint_class", f"unknown protocol '{spec.protocol}'")
        if spec.endpoint_type is not EndpointType.API:
            raise _Invalid(
                "invalid_endpoint_class",
                f"protocol '{spec.protocol}' serves api endpoints, not agentic ones",
            )
        base = _attribute(state, spec, protocol.implementation, importer, "invalid_endpoint_class")
        name = _derived_name(spec)
        # a dedicated class per endpoint (ADR D2): its class-bound metadata is its own record
        return type(
            name,
            (base,),
            {
                "__module__": "provcat.endpoints.protocols",
                "__qualname__": name,
                "__doc__": f"{spec.provider}/{spec.endpoint}: the '{spec.protocol}' protocol.",
                "_ENDPOINT_META": spec,
            },
        )
    if spec.endpoint_class is None:
        raise _Invalid("invalid_endpoint_class", "the record names neither a class nor a protocol")
    cls = _attribute(state, spec, spec.endpoint_class, importer, "invalid_endpoint_class")
    if isinstance(cls, type) and hasattr(cls, "_ENDPOINT_META"):
        cls._ENDPOINT_META = spec  # ADR D2: the class-bound projection, derived from the record
    return cls


def _request_model(
    state: LoadState, spec: ProviderEndpointSpec, importer: Importer
) -> type[BaseModel] | None:
    if spec.request_options is None:
        return None
    found = _attribute(state, spec, spec.request_options, importer, "invalid_request_options")
    if isinstance(found, type):
        if issubclass(found, BaseModel):
            return found
        raise _Invalid("invalid_request_options", f"{found.__name__} is not a pydantic BaseModel")
    if not callable(found):
        raise _Invalid(
            "invalid_request_options", f"a {type(found).__name__} is not a model or a factory"
        )
    if id(found) not in state.factories:  # a factory is called once per snapshot
        try:
            made = found()
        except Exception as exc:
            made = _Invalid(
                "invalid_request_options",
                f"the request-options factory raised {type(exc).__name__}: {sanitize(str(exc))}",
            )
        if not isinstance(made, _Invalid) and not (
            isinstance(made, type) and issubclass(made, BaseModel)
        ):
            made = _Invalid(
                "invalid_request_options",
                f"the factory returned {type(made).__name__}, not a BaseModel class",
            )
        state.factories[id(found)] = made
    result = state.factories[id(found)]
    if isinstance(result, _Invalid):
        raise result
    return result  # type: ignore[no-any-return]


def _loaded_model(
    state: LoadState, spec: ProviderEndpointSpec, importer: Importer
) -> type[BaseModel] | None:
    """``spec``'s request model; a record that names the wrong thing makes the provider
    unavailable (a generated snapshot that no longer matches the installed code)."""
    try:
        return _request_model(state, spec, importer)
    except _Invalid as exc:
        where = f"{spec.provider}/{spec.endpoint}"
        failure = diagnostic("import_error", spec, f"{where}: {exc}", endpoint=False)
        _fail(state, failure)
        raise ProviderUnavailable(spec.provider, failure) from None


class DeferredRequestModel(DeferredModel):
    """The request model of a trusted record, imported the first time it is read.

    Once per snapshot and endpoint, under the registry's lock (``lock``), whatever the thread
    count. A failure is the provider's ``import_error`` as it would have been at first use
    (:class:`ProviderUnavailable`, the provider unavailable in ``state``), raised again on every
    later read without importing anything. A provider already unavailable when the model is first
    read imports nothing either: it raises that provider's diagnostic.
    """

    __slots__ = ("_failure", "_importer", "_lock", "_model", "_spec", "_state")

    def __init__(
        self,
        state: LoadState,
        spec: ProviderEndpointSpec,
        importer: Importer,
        lock: AbstractContextManager[Any],
    ) -> None:
        assert spec.request_options is not None
        super().__init__(spec.request_options)
        self._state = state
        self._spec = spec
        self._importer = importer
        self._lock = lock
        self._model: type[BaseModel] | None = None
        # the diagnostic of a failure, not the exception (whose traceback would keep its frames)
        self._failure: ProviderDiagnostic | None = None

    def resolve(self) -> type[BaseModel]:
        model = self._model
        if model is not None:
            return model
        with self._lock:
            if self._model is None and self._failure is None:
                state, spec = self._state, self._spec
                failed = state.unavailable.get(spec.provider)
                try:
                    if failed is not None:
                        raise ProviderUnavailable(spec.provider, failed)
                    self._model = _loaded_model(state, spec, self._importer)
                except ProviderUnavailable as exc:
                    self._failure = exc.diagnostic
        if self._failure is not None:
            raise ProviderUnavailable(self._spec.provider, self._failure)
        assert self._model is not None  # a record with request_options always has a model
        return self._model


def load_endpoint(
    snapshot: CatalogSnapshot,
    state: LoadState,
    spec: ProviderEndpointSpec,
    importer: Importer = importlib.import_module,
    problems: Problems | None = None,
    lock: AbstractContextManager[Any] | None = None,
) -> Binding | None:
    """Bind ``spec`` of ``snapshot``, recording what was learned in ``state`` (the caller holds
    the registry's lock).

    Raises :class:`ProviderUnavailable` when its provider's Python fails to import. A record that
    names the wrong thing is a validation problem: appended to ``problems`` when given (a source
    being checked; the result is then None), otherwise the provider's import_error (a generated
    snapshot that no longer matches the installed code).

    With ``lock`` (the registry's), a trusted snapshot's request model is deferred: imported
    under ``lock`` when first read (:class:`DeferredRequestModel`).
    """
    failed = state.unavailable.get(spec.provider)
    if failed is not None:
        raise ProviderUnavailable(spec.provider, failed)
    bound = state.bindings.get(spec.provider, {}).get(spec.key)
    if bound is not None:
        return bound
    entry = snapshot.providers[spec.provider]
    if spec.provider not in state.loaded_modules:
        if entry.module is not None:
            _import(state, spec, entry.module, importer)
        state.loaded_modules.add(spec.provider)
    where = f"{spec.provider}/{spec.endpoint}"
    defer = lock is not None and snapshot.trusted and problems is None
    model: type[BaseModel] | DeferredModel | None
    try:
        cls = _endpoint_class(state, spec, importer)
        if lock is not None and defer and spec.request_options is not None:
            model = DeferredRequestModel(state, spec, importer, lock)
        else:
            model = _request_model(state, spec, importer)
    except _Invalid as exc:
        if problems is None:
            failure = diagnostic("import_error", spec, f"{where}: {exc}", endpoint=False)
            _fail(state, failure)
            raise ProviderUnavailable(spec.provider, failure) from None
        problems.append(diagnostic(exc.code, spec, f"{where}: {exc}"))
        return None
    if problems is not None and isinstance(model, type):
        for key, value in spec.request_defaults.items():
            problem = field_problem(model, key, value)
            if problem is not None:
                problems.append(
                    diagnostic("invalid_request_default", spec, f"{where}: {problem}", key=key)
                )
    values = {**spec.config_values(), "request_options": model}
    config = EndpointConfig._from_catalog(values) if snapshot.trusted else EndpointConfig(**values)
    binding = Binding(cls, config)
    state.bindings.setdefault(spec.provider, {})[spec.key] = binding
    return binding
