"""Walking and editing loaded YAML documents (nested dicts and lists) by path, for the tests that
break a valid document one node at a time."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

Path = tuple[Any, ...]


def node_paths(value: Any, path: Path = ()) -> Iterator[Path]:
    """Every node's path, the root's ``()`` first, parents before their children."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from node_paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from node_paths(item, (*path, i))


def replaced(data: Any, path: Path, new: Any) -> Any:
    """A deep copy of ``data`` with the node at ``path`` replaced by ``new`` (``data`` untouched)."""
    if not path:
        return new
    out = copy.deepcopy(data)
    node = out
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = new
    return out
