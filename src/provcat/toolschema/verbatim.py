"""The verbatim walk: a copy of the schema as written, with every subschema reported on the way."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import (
    LIST_SLOTS,
    MAP_SLOTS,
    MAX_NESTING,
    PATH_SEGMENTS,
    SINGLE_SLOTS,
    join_path,
)
from provcat.toolschema.node_reports import NodeReports
from provcat.toolschema.plan import (
    _segment,
)
from provcat.toolschema.values import (
    _ATOMS,
    _Bail,
    _clone_within,
)

_SLOTS = frozenset(MAP_SLOTS + LIST_SLOTS + SINGLE_SLOTS)
# what ``join_path`` appends for each slot
_SLOT_SEGMENTS = {slot: join_path("", slot) for slot in _SLOTS}
# slot -> its rank in ``schema_nodes`` order; the tens say the kind: 0 map, 1 list, 2 single
_SLOT_RANK = {
    slot: 10 * kind + i
    for kind, slots in enumerate((MAP_SLOTS, LIST_SLOTS, SINGLE_SLOTS))
    for i, slot in enumerate(slots)
}


class VerbatimWalk(NodeReports):
    """Copies the schema for ``schema_style: verbatim`` targets and reports each subschema."""

    def verbatim_walk(self, s: dict[str, Any], path: str, depth: int, level: int) -> Any:
        """A deep copy of subschema ``s``; reports it and its subschemas in ``schema_nodes``
        order (slots in their fixed order, pre-order) and records them in ``pathed`` when the run
        keeps that list (``pathed_nodes`` makes the same list itself when it is not kept)."""
        if level > MAX_NESTING:
            raise _Bail
        pathed = self.pathed
        if pathed is not None:
            pathed.append((s, path, depth))
        self.verbatim_node(s, path)
        if _SLOTS.isdisjoint(s):
            if _ATOMS.issuperset(map(type, s.values())):
                return dict(s)  # a leaf of scalars: its copy is its items
            return {k: v if v.__class__ in _ATOMS else self.copied(v, level) for k, v in s.items()}
        # the slots present, in ``schema_nodes`` order (looked up per key: nodes have few keys)
        slots = [k for k in s if k in _SLOT_RANK]
        if len(slots) > 1:
            slots.sort(key=_SLOT_RANK.__getitem__)
        walked: dict[str, Any] = {}
        for slot in slots:
            entries = s[slot]
            kind = _SLOT_RANK[slot] // 10
            if kind == 0:  # a map slot
                if isinstance(entries, dict):
                    walked[slot] = self.verbatim_entries(
                        entries, path + _SLOT_SEGMENTS[slot], depth, level
                    )
            elif kind == 1:  # a list slot
                if isinstance(entries, list):
                    walked[slot] = self.verbatim_entries(
                        entries, path + _SLOT_SEGMENTS[slot], depth, level
                    )
            elif isinstance(entries, dict):
                if (
                    pathed is None
                    and entries.__class__ is dict
                    and level < MAX_NESTING
                    and self.plan.quiet_leaf_stops.isdisjoint(entries)
                    and _ATOMS.issuperset(map(type, entries.values()))
                ):
                    # a leaf of scalars nothing reads (an array's ``{"type": "string"}``): the
                    # walk would report nothing and copy its items
                    walked[slot] = dict(entries)
                else:
                    walked[slot] = self.verbatim_walk(
                        entries, path + _SLOT_SEGMENTS[slot], depth + 1, level + 1
                    )
        out: dict[str, Any] = {}
        for key, value in s.items():
            if key in walked:
                out[key] = walked[key]
            elif value.__class__ in _ATOMS:
                out[key] = value
            else:
                out[key] = _clone_within(value, MAX_NESTING - level)  # what ``copied`` does
        return out

    def verbatim_entries(
        self, entries: dict[str, Any] | list[Any], base: str, depth: int, level: int
    ) -> Any:
        """The copied entries of a map or list slot of a subschema at ``level``: subschemas
        walked, anything else copied."""
        if level + 1 > MAX_NESTING:
            raise _Bail

        walk, copied, segment = self.verbatim_walk, self.copied, PATH_SEGMENTS.get
        # A leaf of scalars no check looks at is copied here, not walked, unless the walked
        # subschemas are kept or the nesting limit is near (then the walk sees to both).
        stops = self.plan.quiet_leaf_stops
        quiet = self.pathed is None and level + 2 <= MAX_NESTING
        if isinstance(entries, dict):
            out: dict[str, Any] = {}
            near = level + 2 > MAX_NESTING
            pathed = self.pathed
            for k, v in entries.items():
                if v.__class__ is dict and not near:
                    atoms = _ATOMS.issuperset(map(type, v.values()))
                    if atoms or _SLOTS.isdisjoint(v):
                        # a leaf (of scalars, where no slot holds a scalar subschema, or holding
                        # no slot): what ``walk`` does for it, without the call, and nothing but
                        # the copy when nothing reads it
                        if not quiet or not stops.isdisjoint(v):
                            where = base + (segment(k) or _segment(k))
                            if pathed is not None:
                                pathed.append((v, where, depth + 1))
                            self.verbatim_node(v, where)
                        if atoms:
                            out[k] = dict(v)
                        else:
                            out[k] = leaf = {}
                            room = MAX_NESTING - level - 2  # what ``copied`` at ``level + 2`` has
                            for key, x in v.items():
                                leaf[key] = x if x.__class__ in _ATOMS else _clone_within(x, room)
                    else:
                        out[k] = walk(v, base + (segment(k) or _segment(k)), depth + 1, level + 2)
                elif isinstance(v, dict):
                    out[k] = walk(v, base + (segment(k) or _segment(k)), depth + 1, level + 2)
                else:
                    out[k] = copied(v, level + 1)
            return out
        return [
            dict(v)
            if quiet
            and v.__class__ is dict
            and stops.isdisjoint(v)
            and _ATOMS.issuperset(map(type, v.values()))
            else walk(v, f"{base}[{i}]", depth + 1, level + 2)
            if isinstance(v, dict)
            else copied(v, level + 1)
            for i, v in enumerate(entries)
        ]

    def copied(self, value: Any, level: int) -> Any:
        """A deep copy of ``value``, held at nesting ``level`` (bails out past the limit)."""
        if value.__class__ in _ATOMS:
            return value
        return _clone_within(value, MAX_NESTING - level)
