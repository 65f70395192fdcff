"""The generated files of one build, by relative path, some of them not yet made.

A file the last build wrote from the same text-cache entry, and that is untouched on disk since
(generator.written), needs neither rendering nor reading: its text is made (or read from the
cache) only if something asks for it, which an unchanged build does not. Each file's SHA-256 is
taken once, or known without its text (the record's, or the text cache's check of it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping


class _Deferred:
    __slots__ = ("load",)

    def __init__(self, load: Callable[[], str]) -> None:
        self.load = load


class Outputs(Mapping[str, str]):
    """Relative path -> text, in the order the files were added."""

    def __init__(self, known: Mapping[str, bytes] | None = None) -> None:
        self._items: dict[str, str | _Deferred] = {}
        self._keys: dict[str, str] = {}
        self._digests: dict[str, bytes] = {}
        self._known = known  # text -> SHA-256 of its UTF-8, where already taken

    def put(self, name: str, text: str, key: str | None = None) -> None:
        """``text`` for ``name``; ``key``: the text-cache entry it is kept under."""
        self._items[name] = text
        if key is not None:
            self._keys[name] = key

    def defer(self, name: str, key: str, digest: bytes, load: Callable[[], str]) -> None:
        """``name`` holds the text kept under ``key`` (SHA-256 ``digest``), made by ``load``
        when first read."""
        self._items[name] = _Deferred(load)
        self._keys[name] = key
        self._digests[name] = digest

    def deferred(self, name: str) -> bool:
        """Whether ``name``'s text was not made (nor read) yet."""
        return isinstance(self._items.get(name), _Deferred)

    def key(self, name: str) -> str | None:
        return self._keys.get(name)

    def digest(self, name: str) -> bytes:
        """The SHA-256 of ``name`` written as UTF-8."""
        found = self._digests.get(name)
        if found is None:
            text = self[name]
            found = self._known.get(text) if self._known is not None else None
            if found is None:
                found = hashlib.sha256(text.encode("utf-8")).digest()
            self._digests[name] = found
        return found

    def __getitem__(self, name: str) -> str:
        value = self._items[name]
        if isinstance(value, _Deferred):
            text = value.load()
            self._items[name] = text
            return text
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items
