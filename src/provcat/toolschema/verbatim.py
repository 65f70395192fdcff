"""The verbatim walk: a copy of the schema as written, with every subschema reported on the way."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import (
    MAX_NESTING,
    PATH_SEGMENTS,
)
from provcat.toolschema.node_reports import NodeReports
from provcat.toolschema.plan import (
    _ENUM_ONLY,
    _KEYWORDS_ONLY,
    _QUIET,
    _segment,
    _Verbatim,
)
from provcat.toolschema.values import (
    _ATOMS,
    _STRINGS,
    _Bail,
    _clone_within,
)


class VerbatimWalk(NodeReports):
    """Copies the schema for ``schema_style: verbatim`` targets and reports each subschema."""

    def verbatim_walk(
        self, s: dict[str, Any], path: str, depth: int, level: int, shape: _Verbatim | None = None
    ) -> Any:
        """A deep copy of subschema ``s``; reports it and its subschemas in ``schema_nodes``
        order (slots in their fixed order, pre-order) and records them in ``pathed`` when the run
        keeps that list (``pathed_nodes`` makes the same list itself when it is not kept). What
        the keys alone decide is worked out once per key shape (``shape``, when the caller
        looked it up already)."""
        if level > MAX_NESTING:
            raise _Bail
        plan = self.plan
        if shape is None:
            keys = tuple(s)
            shape = plan.verbatim_shapes.get(keys) or plan.verbatim_shape(keys)
        pathed = self.pathed
        if pathed is not None:
            pathed.append((s, path, depth))
        if shape.checks:
            self.verbatim_checks(s, path, shape)
        room = MAX_NESTING - level  # what ``copied`` at ``level`` has
        if not shape.slots:
            if _ATOMS.issuperset(map(type, s.values())):
                return dict(s)  # a leaf of scalars: its copy is its items
            return {k: v if v.__class__ in _ATOMS else _clone_within(v, room) for k, v in s.items()}
        out = dict(s)  # the keys in their order: walked slots and containers replaced below
        for slot, kind, segment in shape.slots:
            entries = s[slot]
            if kind == 2:  # a single subschema
                if isinstance(entries, dict):
                    if (
                        pathed is None
                        and entries.__class__ is dict
                        and level < MAX_NESTING
                        and plan.quiet_leaf_stops.isdisjoint(entries)
                        and _ATOMS.issuperset(map(type, entries.values()))
                    ):
                        # a leaf of scalars nothing reads (an array's ``{"type": "string"}``):
                        # the walk would report nothing and copy its items
                        out[slot] = dict(entries)
                    else:
                        out[slot] = self.verbatim_walk(
                            entries, path + segment, depth + 1, level + 1
                        )
                    continue
            elif isinstance(entries, dict) if kind == 0 else isinstance(entries, list):
                out[slot] = self.verbatim_entries(entries, path + segment, depth, level)
                continue
            if entries.__class__ not in _ATOMS:  # not a subschema's slot: copied as it is
                out[slot] = _clone_within(entries, room)
        for key in shape.others:
            value = s[key]
            if value.__class__ not in _ATOMS:
                out[key] = _clone_within(value, room)
        return out

    def verbatim_entries(
        self, entries: dict[str, Any] | list[Any], base: str, depth: int, level: int
    ) -> Any:
        """The copied entries of a map or list slot of a subschema at ``level``: subschemas
        walked, anything else copied."""
        if level + 1 > MAX_NESTING:
            raise _Bail

        walk, copied = self.verbatim_walk, self.copied
        plan = self.plan
        pathed = self.pathed
        stops = plan.quiet_leaf_stops
        if isinstance(entries, dict):
            out: dict[str, Any] = {}
            near = level + 2 > MAX_NESTING
            room = MAX_NESTING - level - 2  # what ``copied`` at ``level + 2`` has
            shapes, segment = plan.verbatim_shapes, PATH_SEGMENTS.get
            append, fired = self.diagnostics.append, self.fired
            for k, v in entries.items():
                if v.__class__ is not dict or near:
                    if isinstance(v, dict):
                        out[k] = walk(v, base + (segment(k) or _segment(k)), depth + 1, level + 2)
                    else:
                        out[k] = copied(v, level + 1)
                    continue
                if pathed is None and stops.isdisjoint(v):
                    # a leaf no check reads (and no slot): its copy is all the walk makes of it
                    if _ATOMS.issuperset(map(type, v.values())):
                        out[k] = dict(v)
                    else:
                        out[k] = _leaf_copy(v, room)
                    continue
                keys = tuple(v)
                shape = shapes.get(keys) or plan.verbatim_shape(keys)
                atoms = _ATOMS.issuperset(map(type, v.values()))
                copy = None
                if not atoms and shape.slots:
                    if pathed is None and shape.shallow:
                        # its subschemas leaves nothing reads: copied here, checked below
                        copy = self.quiet_copy(v, shape, level + 2)
                    if copy is None:
                        where = base + (segment(k) or _segment(k))
                        out[k] = walk(v, where, depth + 1, level + 2, shape)
                        continue
                # a leaf (of scalars, where no slot holds a scalar subschema, or holding no
                # slot), or one whose subschemas report nothing: what ``walk`` does for it,
                # without the call; its path is made only when a check or the kept list of
                # subschemas reads it
                checks = shape.checks
                if checks == _ENUM_ONLY and pathed is None:
                    listed = v["enum"]
                    if not isinstance(listed, list) or _STRINGS.issuperset(map(type, listed)):
                        checks = _QUIET  # no enum-values rule fires on plain strings
                if checks or pathed is not None:
                    where = base + (segment(k) or _segment(k))
                    if pathed is not None:
                        pathed.append((v, where, depth + 1))
                    if checks == _KEYWORDS_ONLY:  # ``verbatim_checks`` for such a shape
                        for after, rank, code, supported, payload in shape.keywords:
                            append((rank, where + after, code, supported, payload))
                        fired.update(shape.codes)
                    elif checks:
                        self.verbatim_checks(v, where, shape)
                if copy is not None:
                    out[k] = copy
                elif atoms:
                    out[k] = dict(v)
                else:
                    out[k] = _leaf_copy(v, room)
            return out
        # A leaf of scalars no check looks at is copied here, not walked, unless the walked
        # subschemas are kept or the nesting limit is near (then the walk sees to both).
        stops = plan.quiet_leaf_stops
        quiet = pathed is None and level + 2 <= MAX_NESTING
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

    def verbatim_checks(self, s: dict[str, Any], path: str, shape: _Verbatim) -> None:
        """Fire the rules that report subschema ``s`` at ``path`` as it is written: the reports
        its keys alone decide (appended as ``report_shape`` appends them), then the ones that
        read a value (a format or ``minItems``, ``enum``, ``$ref``, the ``additionalProperties``
        state, ``nullable``), each only where the shape holds its keyword."""
        if shape.codes:
            append = self.diagnostics.append
            for segment, rank, code, supported, payload in shape.keywords:
                append((rank, path + segment, code, supported, payload))
            keep = self.keep_resolved
            for rank, code, supported, payload, always in shape.constraints:
                if always or keep:  # what ``fire`` appends
                    append((rank, path, code, supported, payload))
            self.fired.update(shape.codes)
        if shape.values:
            self.report_values(s, path)
        if shape.enum:
            listed = s["enum"]
            if isinstance(listed, list):
                self.enum_rules(listed, path, drop_allowed=False)
        if shape.ref:
            self.ref_rules(s["$ref"], path)
        if shape.ap:
            # the keyword's state, when a rule only reports it (an object without the keyword
            # is in state "missing": looked at only when a rule reports that state)
            state = self.ap_state(s)
            if state is not None:
                for rule in self.plan.ap_keep_by_state[state]:
                    self.fire(
                        rule,
                        path + ".additionalProperties",
                        value=state,
                        keyword="additionalProperties",
                    )
        if shape.nullable:
            self.nullable_rules(s, path, None)

    def quiet_copy(self, s: dict[str, Any], shape: _Verbatim, level: int) -> Any:
        """The copy of subschema ``s`` at ``level`` (of a ``_Verbatim.shallow`` shape) when every
        subschema in its slots is a leaf of scalars nothing reads, as the walk would make it,
        without walking them; None when one is not (then the walk makes the copy)."""
        if level + 2 > MAX_NESTING:
            return None  # the walk sees to the nesting limit
        stops = self.plan.quiet_leaf_stops
        out = dict(s)
        for slot, kind, _ in shape.slots:
            entries = s[slot]
            if kind == 1:
                if entries.__class__ is not list:
                    if isinstance(entries, list):
                        return None
                    if entries.__class__ not in _ATOMS:
                        out[slot] = _clone_within(entries, MAX_NESTING - level)
                    continue
                copies = []
                for v in entries:
                    if v.__class__ is dict:
                        if not stops.isdisjoint(v) or not _ATOMS.issuperset(map(type, v.values())):
                            return None
                        copies.append(dict(v))
                    elif isinstance(v, dict):
                        return None
                    else:
                        copies.append(self.copied(v, level + 1))
                out[slot] = copies
            elif isinstance(entries, dict):
                if (
                    entries.__class__ is not dict
                    or not stops.isdisjoint(entries)
                    or not _ATOMS.issuperset(map(type, entries.values()))
                ):
                    return None
                out[slot] = dict(entries)
            elif entries.__class__ not in _ATOMS:
                out[slot] = _clone_within(entries, MAX_NESTING - level)
        room = MAX_NESTING - level
        for key in shape.others:
            value = s[key]
            if value.__class__ not in _ATOMS:
                out[key] = _clone_within(value, room)
        return out

    def copied(self, value: Any, level: int) -> Any:
        """A deep copy of ``value``, held at nesting ``level`` (bails out past the limit)."""
        if value.__class__ in _ATOMS:
            return value
        return _clone_within(value, MAX_NESTING - level)


def _leaf_copy(v: dict[str, Any], room: int) -> dict[str, Any]:
    """A copy of leaf ``v`` whose values may nest ``room`` levels at most (a container past
    that raises ``_Bail``), each container copied as ``copied`` copies it."""
    leaf = dict(v)
    for key, x in v.items():
        if x.__class__ not in _ATOMS:
            leaf[key] = _clone_within(x, room)
    return leaf
