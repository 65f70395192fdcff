""" "Did you mean": the adapters closest to a reference that names none.

A mistyped name is looked for among the names of its namespace; a namespace that holds no
adapter, among the namespaces (with the name looked for in each close one). Closeness is
``difflib``'s ratio, the standard library's.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence

__all__ = ["closest_adapters"]

CUTOFF = 0.6
MAX_SUGGESTIONS = 3


def closest_adapters(
    namespace: str,
    name: str,
    namespaces: Sequence[str],
    names_in: Callable[[str], Sequence[str]],
) -> list[tuple[str, str]]:
    """Up to three ``(namespace, name)`` closest to ``namespace/name``, best first: close names
    in the namespace itself, else in the namespaces closest to it.

    ``namespaces`` are the namespaces the reader may see that hold an adapter; ``names_in``
    lists the adapter names of one of them.
    """
    if namespace in namespaces:
        spaces = [namespace]
    else:
        spaces = difflib.get_close_matches(namespace, namespaces, n=MAX_SUGGESTIONS, cutoff=CUTOFF)
    found: list[tuple[str, str]] = []
    for space in spaces:  # closest namespace first
        close = difflib.get_close_matches(name, names_in(space), n=MAX_SUGGESTIONS, cutoff=CUTOFF)
        found.extend((space, n) for n in close)
    return found[:MAX_SUGGESTIONS]
