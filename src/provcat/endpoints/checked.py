"""A catalog source the generator did not write, checked as the generator checks a catalog.

Its records go through the same key-space validator (:mod:`provcat.catalog.keyspace`), every
provider is loaded, and every class, request model and request default is checked. Any problem
raises :class:`CatalogValidationError` before anything is published; a provider whose module fails
to import is unavailable, the others are published. The class check (:func:`check_classes`) is
also the generator's.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, TypeVar

from provcat.catalog.diagnostic import CatalogDiagnosticCode, ProviderDiagnostic
from provcat.catalog.keys import canonical_key
from provcat.catalog.keyspace import ClassUse, KeyProblem, check_keys, indexes, record_keys
from provcat.catalog.publish import entry, policy
from provcat.catalog.snapshot import CatalogSnapshot
from provcat.endpoints.agentic import AgenticEndpoint
from provcat.endpoints.endpoint import Endpoint
from provcat.endpoints.load import Importer, Problems, load_endpoint
from provcat.endpoints.registry import EndpointRegistry
from provcat.errors import CatalogValidationError, ProviderUnavailable

__all__ = ["CatalogSource", "check_classes", "checked_snapshot"]

At = TypeVar("At")
Record = Mapping[str, Any]


def check_classes(uses: Iterable[ClassUse[At]]) -> list[KeyProblem[At]]:
    """Each class is an Endpoint subclass agreeing with its endpoint's type, used only once."""
    found: list[KeyProblem[At]] = []
    owners: dict[int, ClassUse[At]] = {}
    for use in uses:
        where = f"{use.provider}/{use.endpoint}"
        ekey = canonical_key(use.endpoint)
        pkey = canonical_key(use.provider)
        cls = use.cls
        if not (isinstance(cls, type) and issubclass(cls, Endpoint)):
            found.append(
                KeyProblem(
                    "not_an_endpoint_class",
                    f"{where}: {cls!r} is not a subclass of provcat.endpoints.endpoint.Endpoint",
                    use.at,
                    pkey,
                    ekey,
                )
            )
            continue
        is_agentic = issubclass(cls, AgenticEndpoint)
        if is_agentic != use.agentic:
            kind = "an AgenticEndpoint" if is_agentic else "not an AgenticEndpoint"
            declared = "agentic" if use.agentic else "api"
            found.append(
                KeyProblem(
                    "endpoint_type_mismatch",
                    f"{where} has type '{declared}' but class '{cls.__name__}' is {kind}",
                    use.at,
                    pkey,
                    ekey,
                )
            )
        first = owners.get(id(cls))
        if first is not None:
            found.append(
                KeyProblem(
                    "duplicate_endpoint_class",
                    f"class '{cls.__name__}' of {where} already serves "
                    f"{first.provider}/{first.endpoint}; give each endpoint its own subclass",
                    use.at,
                    pkey,
                    ekey,
                    earlier=first.at,
                )
            )
        else:
            owners[id(cls)] = use
    return found


_RUNTIME_CODE: dict[str, CatalogDiagnosticCode] = {
    "not_an_endpoint_class": "invalid_endpoint_class",
    "endpoint_type_mismatch": "invalid_endpoint_class",
    "duplicate_endpoint_class": "invalid_endpoint_class",
}


def _diagnostic(problem: KeyProblem[Any]) -> ProviderDiagnostic:
    code: Any = _RUNTIME_CODE.get(problem.code, problem.code)
    return ProviderDiagnostic(
        code, problem.provider, problem.endpoint, None, problem.key, problem.message
    )


def checked_snapshot(
    records: Sequence[Record],
    *,
    fingerprint: str = "",
    model_aliases: Mapping[str, str] | None = None,
    importer: Importer = importlib.import_module,
) -> CatalogSnapshot:
    """Validate ``records`` as a whole and load every provider; raise CatalogValidationError.

    What loading taught (an unavailable provider, the bound endpoints) is the new snapshot's
    load state in the registry."""
    ordered = sorted(records, key=lambda r: canonical_key(r["provider"]))
    keys = [record_keys(r) for r in ordered]
    problems: Problems = [_diagnostic(p) for p in check_keys(keys)]
    # with key problems the indexes are never published, but every record is still loaded and
    # checked, so that one run reports everything
    provider_index, endpoint_indexes = indexes(keys)
    canonical = [
        {**r, "provider": canonical_key(r["provider"]), "module": r.get("module")} for r in ordered
    ]
    snapshot = CatalogSnapshot(
        providers=MappingProxyType(
            {r["provider"]: entry(r, endpoint_indexes[r["provider"]]) for r in canonical}
        ),
        provider_index=MappingProxyType(provider_index),
        policies=MappingProxyType({r["provider"]: policy(r) for r in canonical}),
        model_aliases=MappingProxyType(dict(model_aliases or {})),
        fingerprint=fingerprint,
        trusted=False,
    )
    state = EndpointRegistry.state(snapshot)
    uses: list[ClassUse[None]] = []
    for provider in snapshot.providers.values():
        for spec in provider.endpoints.values():
            try:
                bound = load_endpoint(snapshot, state, spec, importer, problems)
            except ProviderUnavailable:
                break  # recorded in the state; its other endpoints stay unloaded
            if bound is not None and spec.endpoint_class is not None:
                uses.append(
                    ClassUse(
                        bound.endpoint_class,
                        spec.endpoint_type.value == "agentic",
                        spec.provider,
                        spec.endpoint,
                        None,
                    )
                )
    problems.extend(_diagnostic(p) for p in check_classes(uses))
    if problems:
        raise CatalogValidationError(sorted(set(problems), key=lambda d: d.sort_key()))
    return snapshot


class CatalogSource:
    """Snapshot records from somewhere other than the generated package: checked when built.

    ``records`` returns provider records in the generated snapshot's shape
    (``provcat_catalog.PROVIDERS``); :meth:`build` checks them (:func:`checked_snapshot`). Give
    one to :meth:`provcat.EndpointRegistry.refresh`.
    """

    def __init__(
        self,
        records: Callable[[], Sequence[Mapping[str, Any]]],
        *,
        fingerprint: Callable[[], str] = lambda: "",
        model_aliases: Callable[[], Mapping[str, str]] = dict,
    ) -> None:
        self.records = records
        self.fingerprint = fingerprint
        self.model_aliases = model_aliases

    def build(self, importer: Importer) -> CatalogSnapshot:
        return checked_snapshot(
            self.records(),
            fingerprint=self.fingerprint(),
            model_aliases=self.model_aliases(),
            importer=importer,
        )
