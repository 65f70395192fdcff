"""Whole-set validation of endpoint specs at run time (ADR-0028 D1, D2).

The generator already refuses a bad bundled catalog with file positions; this is the same closed
world check over the spec records a snapshot is built from, so a refresh from any source (a
regenerated snapshot, a test catalog) cannot publish ambiguous keys or wrong classes.
"""

from __future__ import annotations

from collections.abc import Sequence

from provcat.catalog.specs import CatalogDiagnosticCode, ProviderDiagnostic, ProviderEndpointSpec
from provcat.endpoint import AgenticEndpoint, Endpoint, EndpointType
from provcat.keys import canonical_key

__all__ = ["validate_specs"]


def _diag(
    code: CatalogDiagnosticCode,
    provider: str,
    message: str,
    *,
    endpoint: str | None = None,
    key: str | None = None,
) -> ProviderDiagnostic:
    return ProviderDiagnostic(code, provider, endpoint, None, key, message)


def validate_specs(specs: Sequence[ProviderEndpointSpec]) -> list[ProviderDiagnostic]:
    """Every key-space and class problem of ``specs``, in a stable order."""
    found: list[ProviderDiagnostic] = []
    groups: dict[str, list[ProviderEndpointSpec]] = {}
    for spec in specs:
        groups.setdefault(canonical_key(spec.provider), []).append(spec)
    owners: dict[str, str] = {}  # canonical spelling -> canonical provider that claimed it
    classes: dict[type, str] = {}
    for provider in sorted(groups):
        group = groups[provider]
        if not provider:
            found.append(_diag("empty_key", provider, "a provider key is empty"))
            continue
        alias_sets = sorted(
            {tuple(sorted({canonical_key(a) for a in s.provider_aliases})) for s in group}
        )
        if len(alias_sets) > 1:
            found.append(
                _diag(
                    "inconsistent_provider_aliases",
                    provider,
                    f"specs of provider '{provider}' declare different alias sets: "
                    + " vs ".join(str(list(a)) for a in alias_sets),
                )
            )
        found.extend(_claim_provider(provider, group[0].provider_aliases, owners))
        found.extend(_endpoint_keys(provider, group))
        for spec in group:
            found.extend(_endpoint_class(provider, spec, classes))
    return sorted(found, key=ProviderDiagnostic.sort_key)


def _claim_provider(
    provider: str, aliases: Sequence[str], owners: dict[str, str]
) -> list[ProviderDiagnostic]:
    found = []
    for index, spelling in enumerate((provider, *aliases)):
        is_alias = index > 0
        canon = canonical_key(spelling)
        if not canon:
            found.append(
                _diag("empty_key", provider, f"an alias of provider '{provider}' is empty")
            )
        elif is_alias and canon == provider:
            found.append(
                _diag(
                    "self_alias",
                    provider,
                    f"alias '{spelling}' of '{provider}' is its own key",
                    key=spelling,
                )
            )
        elif canon in owners and owners[canon] != provider:
            found.append(
                _diag(
                    "duplicate_provider_key",
                    provider,
                    f"'{spelling}' of provider '{provider}' already names provider '{owners[canon]}'",
                    key=spelling,
                )
            )
        elif canon in owners and is_alias:
            found.append(
                _diag(
                    "duplicate_provider_key",
                    provider,
                    f"alias '{spelling}' of provider '{provider}' is declared twice",
                    key=spelling,
                )
            )
        else:
            owners[canon] = provider
    return found


def _endpoint_keys(
    provider: str, group: Sequence[ProviderEndpointSpec]
) -> list[ProviderDiagnostic]:
    found = []
    claims: dict[str, str] = {}
    for spec in group:
        own = canonical_key(spec.endpoint)
        if not own:
            found.append(_diag("empty_key", provider, f"an endpoint key of {provider} is empty"))
            continue
        for index, spelling in enumerate((spec.endpoint, *spec.endpoint_aliases)):
            canon = canonical_key(spelling)
            is_alias = index > 0
            if not canon:
                found.append(
                    _diag(
                        "empty_key",
                        provider,
                        f"an alias of {provider}/{spec.endpoint} is empty",
                        endpoint=own,
                    )
                )
            elif is_alias and canon == own:
                found.append(
                    _diag(
                        "self_alias",
                        provider,
                        f"alias '{spelling}' of {provider}/{spec.endpoint} is its own key",
                        endpoint=own,
                        key=spelling,
                    )
                )
            elif canon in claims:
                found.append(
                    _diag(
                        "duplicate_endpoint_key",
                        provider,
                        f"'{spelling}' of {provider}/{spec.endpoint} already names "
                        f"{provider}/{claims[canon]}",
                        endpoint=own,
                        key=spelling,
                    )
                )
            else:
                claims[canon] = spec.endpoint
    return found


def _endpoint_class(
    provider: str, spec: ProviderEndpointSpec, classes: dict[type, str]
) -> list[ProviderDiagnostic]:
    cls = spec.endpoint_class
    where = f"{provider}/{spec.endpoint}"
    endpoint = canonical_key(spec.endpoint)
    if not (isinstance(cls, type) and issubclass(cls, Endpoint)):
        return [
            _diag(
                "invalid_endpoint_class",
                provider,
                f"{where}: {cls!r} is not an Endpoint subclass",
                endpoint=endpoint,
            )
        ]
    agentic = issubclass(cls, AgenticEndpoint)
    if agentic != (spec.endpoint_type == EndpointType.AGENTIC):
        return [
            _diag(
                "invalid_endpoint_class",
                provider,
                f"{where} is '{spec.endpoint_type.value}' but {cls.__name__} "
                + ("is an AgenticEndpoint" if agentic else "is not an AgenticEndpoint"),
                endpoint=endpoint,
            )
        ]
    if cls in classes:
        return [
            _diag(
                "invalid_endpoint_class",
                provider,
                f"{where}: class {cls.__name__} already serves {classes[cls]}; give each endpoint "
                "its own subclass",
                endpoint=endpoint,
            )
        ]
    classes[cls] = where
    return []
