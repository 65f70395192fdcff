"""The endpoint checks' verdicts kept between builds, one per provider.

Checking a provider's endpoints resolves its protocols' request models and so imports pydantic
and the runtime's request code: some 30-50 ms of a one-file rebuild, which needs nothing else
from them. The verdict (its diagnostics, and the request-default acceptances it relied on)
depends on the provider's key and endpoint records alone, positions included, on the runtime's
and the generator's code (in every key of the build cache) and on pydantic's release. It is kept
under the digest of exactly those, so any change to them checks again. Providers whose checks import
their own code (a ``module`` or an endpoint ``class``), name a request model outside the runtime,
or have a policy (whose checks read the request models of every provider under its key; the
whole-set validation also checks those providers) are always checked.

All verdicts live in one file, read once per build and written only when it changed, with the
verdict key of each provider file the build cache read (so an unchanged file's records are not
walked to find it); an unreadable or unexpected file is ignored (every provider is then checked).
"""

from __future__ import annotations

import marshal
from typing import Any, Protocol

from generator.diagnostics import Diagnostic
from generator.model import EndpointDecl, Key, ProviderDecl, Valued

_NAME = "endpoint-checks"


class Store(Protocol):
    """Where the verdicts are kept (generator.incremental.FileCache)."""

    def digest(self, *parts: bytes) -> str: ...
    def kept(self, name: str) -> Any | None: ...
    def keep(self, name: str, value: Any) -> None: ...


Verdict = tuple[tuple[Diagnostic, ...], tuple[bytes, ...]]


def _plain(value: Any) -> Any:
    """``value`` as marshal-able data (records as their type name and fields)."""
    if isinstance(value, (Key, Valued, EndpointDecl)):
        return (type(value).__name__, *(_plain(getattr(value, s)) for s in value.__slots__))
    if isinstance(value, dict):
        return ("dict", tuple((_plain(k), _plain(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_plain(v) for v in value))
    return value


def _runtime_only(ep: EndpointDecl) -> bool:
    ref = ep.request_options.value
    return ep.class_ref is None and (ref is None or str(ref).startswith("provcat."))


class EndpointMemo:
    """Verdicts of earlier builds by key; ``save`` keeps those this build used or made."""

    def __init__(self, store: Store, release: str) -> None:
        self._store = store
        self._release = release.encode()
        found = store.kept(_NAME)
        verdicts, keys = found if isinstance(found, tuple) and len(found) == 2 else (found, {})
        self._old: dict[str, Verdict] = verdicts if isinstance(verdicts, dict) else {}
        self._now: dict[str, Verdict] = {}
        # the build cache's key of a provider's file (its bytes, name and the code) -> the key of
        # its verdict: a file read from the cache needs no walk over its records to find it
        self._old_keys: dict[str, str | None] = keys if isinstance(keys, dict) else {}
        self._now_keys: dict[str, str | None] = {}

    def key(self, p: ProviderDecl, source: str | None = None) -> str | None:
        """The key of ``p``'s verdict; None when it is always checked. ``source``: the build
        cache's key of the file ``p`` was read from, which determines it."""
        if source is None:
            return self._key(p)
        known = f"{source}:{self._release.decode()}"
        if known in self._old_keys:
            found = self._old_keys[known]
            if found is None or isinstance(found, str):
                self._now_keys[known] = found
                return found
        made = self._key(p)
        self._now_keys[known] = made
        return made

    def _key(self, p: ProviderDecl) -> str | None:
        if p.module is not None or p.policy is not None:
            return None
        if not all(_runtime_only(ep) for ep in p.endpoints):
            return None
        try:
            data = marshal.dumps((_plain(p.key), _plain(p.endpoints)), 2)  # 2: no refs, whose
            # placement follows which objects happen to be shared
        except ValueError:  # a value marshal cannot write (a date): check it
            return None
        return self._store.digest(b"endpoint check", self._release, data)

    def get(self, key: str) -> Verdict | None:
        found = self._old.get(key)
        if not (
            isinstance(found, tuple)
            and len(found) == 2
            and isinstance(found[0], tuple)
            and isinstance(found[1], tuple)
            and all(isinstance(d, Diagnostic) for d in found[0])
            and all(isinstance(f, bytes) for f in found[1])
        ):
            return None
        self._now[key] = found
        return found

    def put(self, key: str, diagnostics: list[Diagnostic], facts: list[bytes]) -> None:
        self._now[key] = (tuple(diagnostics), tuple(facts))

    def save(self) -> None:
        if self._now != self._old or self._now_keys != self._old_keys:
            self._store.keep(_NAME, (self._now, self._now_keys))
