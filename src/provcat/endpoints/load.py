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

For a catalog source the generator did not write, the same steps also collect what the generator
would have refused (a class that is not an endpoint class, a request model that is not a model,
a request default its model rejects) as validation problems.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeAlias

from provcat.catalog.snapshot import Binding, CatalogSnapshot
from provcat.catalog.specs import EndpointType, ProviderEndpointSpec
from provcat.endpoints.config import DeferredModel
from provcat.endpoints.protocols import PROTOCOLS
from provcat.errors import ProviderUnavailable

if TYPE_CHECKING:
    from pydantic import BaseModel

    from provcat.catalog.diagnostic import CatalogDiagnosticCode, ProviderDiagnostic
    from provcat.endpoints.endpoint import Endpoint

__all__ = ["DeferredRequestModel", "Importer", "Problems", "load_endpoint"]

Importer = Callable[[str], ModuleType]
# a string: provcat.catalog.diagnostic is imported when a problem is found, not on the cold path
Problems: TypeAlias = "list[ProviderDiagnostic]"


class _Invalid(Exception):
    """A record names something that is not what it must be (a validation problem)."""

    def __init__(self, code: CatalogDiagnosticCode, message: str) -> None:
        super().__init__(message)
        self.code = code


def _diag(
    code: CatalogDiagnosticCode,
    spec: ProviderEndpointSpec,
    message: str,
    *,
    module: str | None = None,
    key: str | None = None,
    cause: BaseException | None = None,
    endpoint: bool = True,
) -> ProviderDiagnostic:
    from provcat.catalog.diagnostic import ProviderDiagnostic

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
    snapshot: CatalogSnapshot, spec: ProviderEndpointSpec, name: str, importer: Importer
) -> ModuleType:
    """Import ``name`` for ``spec``'s provider; a failure makes the provider unavailable."""
    try:
        return importer(name)
    except Exception as exc:  # BaseException (KeyboardInterrupt, SystemExit) propagates
        from provcat.redact import sanitize  # only for a failure: not on the cold path

        diagnostic = _diag(
            "import_error",
            spec,
            f"module '{name}' failed to import: {type(exc).__name__}: {sanitize(str(exc))}",
            module=name,
            cause=exc,
            endpoint=False,
        )
        _fail(snapshot, diagnostic)
        raise ProviderUnavailable(spec.provider, diagnostic) from None


def _fail(snapshot: CatalogSnapshot, diagnostic: ProviderDiagnostic) -> None:
    """Mark the provider unavailable for the snapshot's life; forget what it had bound and the
    spellings remembered for it, so that every later lookup meets the failure."""
    provider = diagnostic.provider
    snapshot.unavailable[provider] = diagnostic
    snapshot.bindings.pop(provider, None)
    for spellings in list(snapshot.memo.values()):
        for spelling, spec in list(spellings.items()):
            if spec.provider == provider:
                spellings.pop(spelling, None)


def _attribute(
    snapshot: CatalogSnapshot,
    spec: ProviderEndpointSpec,
    ref: str,
    importer: Importer,
    code: CatalogDiagnosticCode,
) -> Any:
    module_name, _, attr = ref.partition(":")
    module = _import(snapshot, spec, module_name, importer)
    try:
        return getattr(module, attr)
    except AttributeError:
        raise _Invalid(code, f"module '{module_name}' has no attribute '{attr}'") from None


_WORD = re.compile(r"[A-Za-z0-9]+")


def _derived_name(spec: ProviderEndpointSpec) -> str:
    words = _WORD.findall(f"{spec.provider} {spec.endpoint}")
    return "".join(w[:1].upper() + w[1:] for w in words) + "Endpoint"


def _endpoint_class(
    snapshot: CatalogSnapshot, spec: ProviderEndpointSpec, importer: Importer
) -> type[Endpoint]:
    from provcat.endpoints.endpoint import Endpoint

    if spec.protocol is not None:
        protocol = PROTOCOLS.get(spec.protocol)
        if protocol is None:
            raise _Invalid("invalid_endpoint_class", f"unknown protocol '{spec.protocol}'")
        if spec.endpoint_type is not EndpointType.API:
            raise _Invalid(
                "invalid_endpoint_class",
                f"protocol '{spec.protocol}' serves api endpoints, not agentic ones",
            )
        base = _attribute(
            snapshot, spec, protocol.implementation, importer, "invalid_endpoint_class"
        )
        name = _derived_name(spec)
        # a dedicated class per endpoint (ADR D2): its class-bound metadata is its own record
        derived: type[Endpoint] = type(
            name,
            (base,),
            {
                "__module__": "provcat.endpoints.protocols",
                "__qualname__": name,
                "__doc__": f"{spec.provider}/{spec.endpoint}: the '{spec.protocol}' protocol.",
                "_ENDPOINT_META": spec,
            },
        )
        return derived
    if spec.endpoint_class is None:
        raise _Invalid("invalid_endpoint_class", "the record names neither a class nor a protocol")
    cls = _attribute(snapshot, spec, spec.endpoint_class, importer, "invalid_endpoint_class")
    if isinstance(cls, type) and issubclass(cls, Endpoint):
        cls._ENDPOINT_META = spec  # ADR D2: the class-bound projection, derived from the record
    return cls  # type: ignore[no-any-return]


def _request_model(
    snapshot: CatalogSnapshot, spec: ProviderEndpointSpec, importer: Importer
) -> type[BaseModel] | None:
    from pydantic import BaseModel

    if spec.request_options is None:
        return None
    found = _attribute(snapshot, spec, spec.request_options, importer, "invalid_request_options")
    if isinstance(found, type):
        if issubclass(found, BaseModel):
            return found
        raise _Invalid("invalid_request_options", f"{found.__name__} is not a pydantic BaseModel")
    if not callable(found):
        raise _Invalid(
            "invalid_request_options", f"a {type(found).__name__} is not a model or a factory"
        )
    if id(found) not in snapshot.factories:  # a factory is called once per snapshot
        try:
            made = found()
        except Exception as exc:
            from provcat.redact import sanitize

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
        snapshot.factories[id(found)] = made
    result = snapshot.factories[id(found)]
    if isinstance(result, _Invalid):
        raise result
    return result  # type: ignore[no-any-return]


def _loaded_model(
    snapshot: CatalogSnapshot, spec: ProviderEndpointSpec, importer: Importer
) -> type[BaseModel] | None:
    """``spec``'s request model; a record that names the wrong thing makes the provider
    unavailable (a generated snapshot that no longer matches the installed code)."""
    try:
        return _request_model(snapshot, spec, importer)
    except _Invalid as exc:
        where = f"{spec.provider}/{spec.endpoint}"
        diagnostic = _diag("import_error", spec, f"{where}: {exc}", endpoint=False)
        _fail(snapshot, diagnostic)
        raise ProviderUnavailable(spec.provider, diagnostic) from None


class DeferredRequestModel(DeferredModel):
    """The request model of a trusted record, imported the first time it is read.

    Once per snapshot and endpoint, under the registry's lock (``lock``), whatever the thread
    count. A failure is the provider's ``import_error`` as it would have been at first use
    (:class:`ProviderUnavailable`, the provider unavailable on ``snapshot``), raised again on
    every later read without importing anything. A provider already unavailable when the model
    is first read imports nothing either: it raises that provider's diagnostic.
    """

    __slots__ = ("_failure", "_importer", "_lock", "_model", "_snapshot", "_spec")

    def __init__(
        self,
        snapshot: CatalogSnapshot,
        spec: ProviderEndpointSpec,
        importer: Importer,
        lock: AbstractContextManager[Any],
    ) -> None:
        assert spec.request_options is not None
        super().__init__(spec.request_options)
        self._snapshot = snapshot
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
                snapshot, spec = self._snapshot, self._spec
                failed = snapshot.unavailable.get(spec.provider)
                try:
                    if failed is not None:
                        raise ProviderUnavailable(spec.provider, failed)
                    self._model = _loaded_model(snapshot, spec, self._importer)
                except ProviderUnavailable as exc:
                    self._failure = exc.diagnostic
        if self._failure is not None:
            raise ProviderUnavailable(self._spec.provider, self._failure)
        assert self._model is not None  # a record with request_options always has a model
        return self._model


def load_endpoint(
    snapshot: CatalogSnapshot,
    spec: ProviderEndpointSpec,
    importer: Importer = importlib.import_module,
    problems: Problems | None = None,
    lock: AbstractContextManager[Any] | None = None,
) -> Binding | None:
    """Bind ``spec`` on ``snapshot`` (the caller holds the registry's lock).

    Raises :class:`ProviderUnavailable` when its provider's Python fails to import. A record that
    names the wrong thing is a validation problem: appended to ``problems`` when given (a source
    being checked; the result is then None), otherwise the provider's import_error (a generated
    snapshot that no longer matches the installed code).

    With ``lock`` (the registry's), a trusted snapshot's request model is deferred: imported
    under ``lock`` when first read (:class:`DeferredRequestModel`).
    """
    failed = snapshot.unavailable.get(spec.provider)
    if failed is not None:
        raise ProviderUnavailable(spec.provider, failed)
    bound = snapshot.bindings.get(spec.provider, {}).get(spec.key)
    if bound is not None:
        return bound
    entry = snapshot.providers[spec.provider]
    if spec.provider not in snapshot.loaded_modules:
        if entry.module is not None:
            _import(snapshot, spec, entry.module, importer)
        snapshot.loaded_modules.add(spec.provider)
    where = f"{spec.provider}/{spec.endpoint}"
    defer = lock is not None and snapshot.trusted and problems is None
    model: type[BaseModel] | DeferredModel | None
    try:
        cls = _endpoint_class(snapshot, spec, importer)
        if defer and spec.request_options is not None:
            model = DeferredRequestModel(snapshot, spec, importer, lock)  # type: ignore[arg-type]
        else:
            model = _request_model(snapshot, spec, importer)
    except _Invalid as exc:
        if problems is None:
            diagnostic = _diag("import_error", spec, f"{where}: {exc}", endpoint=False)
            _fail(snapshot, diagnostic)
            raise ProviderUnavailable(spec.provider, diagnostic) from None
        problems.append(_diag(exc.code, spec, f"{where}: {exc}"))
        return None
    if problems is not None and isinstance(model, type):
        from provcat.endpoints.request import field_problem

        for key, value in spec.request_defaults.items():
            problem = field_problem(model, key, value)
            if problem is not None:
                problems.append(
                    _diag("invalid_request_default", spec, f"{where}: {problem}", key=key)
                )
    from provcat.endpoints.config import EndpointConfig

    values = {**spec.config_values(), "request_options": model}
    config = EndpointConfig._from_catalog(values) if snapshot.trusted else EndpointConfig(**values)
    binding = Binding(cls, config)
    snapshot.bindings.setdefault(spec.provider, {})[spec.key] = binding
    return binding
