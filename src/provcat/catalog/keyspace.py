"""The key-space and class checks of a whole catalog: one implementation for both sides.

The generator runs it over the YAML (each spelling's ``at`` is its file position) before it writes
a snapshot; the runtime runs it over the records of a catalog source that the generator did not
write (each ``at`` is None). It imports no YAML, JSON Schema or template library, and no pydantic.

Keys are compared after :func:`provcat.catalog.keys.canonical_key`. Provider keys and provider aliases
share one global space; endpoint keys and endpoint aliases share one space per provider.
Keys are claimed before aliases, so an alias that spells another provider's (or endpoint's)
key is the one reported: a key is fixed (a provider's is its file's name), an alias is a
choice. Otherwise "first" is the caller's (file, position) order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from provcat.catalog.keys import canonical_key

__all__ = [
    "ClassUse",
    "EndpointKeys",
    "KeyProblem",
    "KeySpace",
    "ProviderKeys",
    "Spelling",
    "check_keys",
    "indexes",
]

At = TypeVar("At")

KeyCode = Literal[
    "empty_key",
    "self_alias",
    "duplicate_provider_key",
    "duplicate_endpoint_key",
    "not_an_endpoint_class",
    "endpoint_type_mismatch",
    "duplicate_endpoint_class",
]


@dataclass(frozen=True, slots=True)
class Spelling(Generic[At]):
    """A declared key or alias, as written, and where (for the caller's messages)."""

    value: str
    at: At


@dataclass(frozen=True, slots=True)
class EndpointKeys(Generic[At]):
    key: Spelling[At]
    aliases: tuple[Spelling[At], ...] = ()


@dataclass(frozen=True, slots=True)
class ProviderKeys(Generic[At]):
    key: Spelling[At]
    aliases: tuple[Spelling[At], ...] = ()
    endpoints: tuple[EndpointKeys[At], ...] = ()


@dataclass(frozen=True, slots=True)
class KeyProblem(Generic[At]):
    """One problem: ``at`` is the offending spelling's, ``earlier`` the claim it conflicts with.

    ``variant`` is true when the two spellings differ as written and meet only after folding
    (the generator reports those as ``case_variant_collision``).
    """

    code: str  # a KeyCode, or a caller's own duplicate code (see KeySpace)
    message: str
    at: At
    provider: str
    endpoint: str | None = None
    key: str | None = None
    earlier: At | None = None
    variant: bool = False
    hint: str | None = None  # None: the code's own


@dataclass
class KeySpace(Generic[At]):
    """One key space: the first claim of each canonical spelling wins; a later one is a problem
    with ``code``. The generator also uses it for its own spaces (model ids, model aliases)."""

    code: str
    provider: str
    endpoint: str | None = None
    claims: dict[str, tuple[Spelling[At], str, bool]] = field(default_factory=dict)

    def claim(
        self, spelling: Spelling[At], owner: str, named: str, *, alias: bool = False
    ) -> KeyProblem[At] | None:
        """Claim ``spelling`` (``alias``: it is an alias, not a key) for ``owner``."""
        canon = canonical_key(spelling.value)
        if canon not in self.claims:
            self.claims[canon] = (spelling, owner, alias)
            return None
        first, first_owner, first_alias = self.claims[canon]
        variant = first.value != spelling.value
        # keys are claimed first: an alias meeting a key is the spelling to change
        hint = (
            f"remove or rename the alias '{spelling.value}': '{first.value}' is a key"
            if alias and not first_alias
            else None
        )
        detail = (
            f"is a case or whitespace variant of '{first.value}', already {first_owner}"
            if variant
            else f"is already {first_owner}"
        )
        return KeyProblem(
            self.code,
            f"{named} {detail}",
            spelling.at,
            self.provider,
            self.endpoint,
            spelling.value,
            first.at,
            variant,
            hint,
        )


def check_keys(providers: Iterable[ProviderKeys[At]]) -> list[KeyProblem[At]]:
    """Every empty key, self-alias and collision of ``providers``: keys first, then aliases."""
    found: list[KeyProblem[At]] = []
    space: KeySpace[At] = KeySpace("duplicate_provider_key", "")
    named: list[ProviderKeys[At]] = []
    for p in providers:
        name = p.key.value
        own = canonical_key(name)
        if not own:
            found.append(KeyProblem("empty_key", "the provider key is empty", p.key.at, own))
            continue
        space.provider = own
        problem = space.claim(p.key, f"the key of provider '{name}'", f"provider key '{name}'")
        if problem is not None:
            found.append(problem)
        named.append(p)
    for p in named:
        name = p.key.value
        own = space.provider = canonical_key(name)
        for alias in p.aliases:
            canon = canonical_key(alias.value)
            if not canon:
                found.append(
                    KeyProblem(
                        "empty_key", f"an alias of provider '{name}' is empty", alias.at, own
                    )
                )
            elif canon == own:
                found.append(
                    KeyProblem(
                        "self_alias",
                        f"alias '{alias.value}' of provider '{name}' is its own key",
                        alias.at,
                        own,
                        key=alias.value,
                    )
                )
            else:
                problem = space.claim(
                    alias,
                    f"an alias of provider '{name}'",
                    f"alias '{alias.value}' of provider '{name}'",
                    alias=True,
                )
                if problem is not None:
                    found.append(problem)
        found.extend(_endpoint_keys(name, own, p.endpoints))
    return found


def _endpoint_keys(
    name: str, own: str, endpoints: Sequence[EndpointKeys[At]]
) -> list[KeyProblem[At]]:
    found: list[KeyProblem[At]] = []
    space: KeySpace[At] = KeySpace("duplicate_endpoint_key", own)
    named: list[EndpointKeys[At]] = []
    for ep in endpoints:
        key = ep.key.value
        ekey = canonical_key(key)
        if not ekey:
            found.append(
                KeyProblem("empty_key", f"an endpoint key of {name} is empty", ep.key.at, own)
            )
            continue
        space.endpoint = ekey
        problem = space.claim(ep.key, f"the key of endpoint {name}/{key}", f"endpoint key '{key}'")
        if problem is not None:
            found.append(problem)
        named.append(ep)
    for ep in named:
        key = ep.key.value
        ekey = space.endpoint = canonical_key(key)
        for alias in ep.aliases:
            canon = canonical_key(alias.value)
            where = f"{name}/{key}"
            if not canon:
                found.append(
                    KeyProblem("empty_key", f"an alias of {where} is empty", alias.at, own, ekey)
                )
            elif canon == ekey:
                found.append(
                    KeyProblem(
                        "self_alias",
                        f"alias '{alias.value}' of {where} is its own key",
                        alias.at,
                        own,
                        ekey,
                        alias.value,
                    )
                )
            else:
                problem = space.claim(
                    alias, f"an alias of {where}", f"alias '{alias.value}' of {where}", alias=True
                )
                if problem is not None:
                    found.append(problem)
    return found


@dataclass(frozen=True, slots=True)
class ClassUse(Generic[At]):
    """One endpoint's own Python class (protocol endpoints have none), as the caller resolved it
    (checked by :func:`provcat.endpoints.checked.check_classes`)."""

    cls: object
    agentic: bool  # the endpoint's declared type is 'agentic'
    provider: str
    endpoint: str
    at: At


def indexes(
    providers: Iterable[ProviderKeys[At]],
) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """The lookup indexes of a catalog that passed :func:`check_keys`, sorted by code point:
    every provider spelling -> canonical provider key, and per provider every endpoint spelling
    -> canonical endpoint key."""
    provider_index: dict[str, str] = {}
    endpoint_indexes: dict[str, dict[str, str]] = {}
    for p in providers:
        own = canonical_key(p.key.value)
        for spelling in (p.key, *p.aliases):
            provider_index[canonical_key(spelling.value)] = own
        index: dict[str, str] = {}
        for ep in p.endpoints:
            for spelling in (ep.key, *ep.aliases):
                index[canonical_key(spelling.value)] = canonical_key(ep.key.value)
        endpoint_indexes[own] = dict(sorted(index.items()))
    return dict(sorted(provider_index.items())), endpoint_indexes


def record_keys(record: Mapping[str, object]) -> ProviderKeys[None]:
    """The keys of one snapshot provider record (for a catalog source the generator did not write)."""
    endpoints = record.get("endpoints", ())
    assert isinstance(endpoints, (list, tuple))
    aliases = record.get("aliases", ())
    assert isinstance(aliases, (list, tuple))
    return ProviderKeys(
        Spelling(str(record["provider"]), None),
        tuple(Spelling(str(a), None) for a in aliases),
        tuple(
            EndpointKeys(
                Spelling(str(ep["endpoint"]), None),
                tuple(Spelling(str(a), None) for a in ep.get("aliases", ())),
            )
            for ep in endpoints
        ),
    )
