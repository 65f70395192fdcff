"""Small subschemas remembered per target: an equal subschema met again is not rewritten.

Below the root, what the rewrite walk does to a subschema depends only on its content, the
target's plan and the run's mode (one walk or full; resolved errors recorded or not), unless it
holds a reference (whose verdict depends on the document) or definitions. So the first rewrite of
a small subschema is kept with everything it did: diagnostics, transformations, fired codes,
counters and limit measures. An equal subschema met later, at any path or depth, gets a fresh
copy of the output and the same records re-rooted at its own path. Every record is still made,
in the same order, so the outcome is byte-identical to rewriting it again.

Subschemas are compared by their ``marshal`` form (version 2, which writes no back-references):
one C call that tells apart every two values not written alike (``True``, ``1`` and ``1.0``;
``0.0`` and ``-0.0``; a list and a tuple) and refuses anything that is not plain JSON data (a
dict or str subclass), which is then rewritten as usual. Only small subschemas are kept (at most
``_SMALL`` bytes of that form), and no object with properties: the leaves, enums, arrays and
unions that tool schemas repeat. Objects with properties are what differs from tool to tool, and
a large subschema seldom repeats and costs more to compare. The verbatim walk has no memo: a
copy with a few reports costs about what a replay does (measured with ``make bench``).
"""

from __future__ import annotations

import marshal
from typing import Any

from provcat.toolschema.core import MAX_NESTING, json_nesting
from provcat.toolschema.rewrite import RewriteWalk
from provcat.toolschema.tally import _Tally
from provcat.toolschema.values import _ATOMS, _Bail

_MEMO_MAX = 4096
_SMALL = 192
_dumps, _loads = marshal.dumps, marshal.loads
_rewrite = RewriteWalk.node  # what ``super().node`` reaches, without building a super object

# (depth below the subschema, and its other measures (properties, enum values, characters,
# largest enum) or None when all are zero)
_Measured = tuple[int, tuple[int, int, int, int] | None]
# (diagnostic records and transformation records, each with its path below the subschema's
# own; codes fired; type names; int64 values; int64 keywords seen)
_Replay = tuple[list[Any], list[Any], frozenset[str], int, int, frozenset[str]]
# What a remembered rewrite did, replayed at each equal subschema: (its output, a dict of
# scalars to copy or its marshal form; how deep its JSON nests; the limit measures or None
# outside the one walk; the records and counts to replay or None when it made none). Most
# subschemas make no record and measure only their depth, so a replay reads little.
_Kept = tuple[Any, int, _Measured | None, _Replay | None]


# the memo's entry for a subschema that is rewritten every time (it holds a reference or
# definitions), so the written form is searched for them once
_REWRITTEN: Any = ("rewritten every time",)


class SubschemaMemo(RewriteWalk):
    """The rewrite walk with small subschemas remembered per target (see the module docstring)."""

    def node(self, s: Any, path: str, depth: int = 1, level: int = 1) -> Any:
        if s.__class__ is not dict or depth == 1 or "properties" in s:
            return _rewrite(self, s, path, depth, level)
        try:
            written = _dumps(s, 2)
        except ValueError:  # not plain JSON data
            return _rewrite(self, s, path, depth, level)
        if len(written) > _SMALL:
            return _rewrite(self, s, path, depth, level)
        memo = self.memo
        if memo is None:  # the plan's memo for this run's mode, looked up once per run
            memo = self.memo = self.plan.memo_for(self.tally is not None, self.keep_resolved)
        kept: _Kept | None = memo.get(written)
        if kept is None:
            if (b"$" in written and (b"$ref" in written or b"$defs" in written)) or (
                b"definitions" in written
            ):
                # a reference or definitions somewhere in it: never replayed (the bytes may
                # only hold the word in a string; then the subschema is rewritten all the same)
                if len(memo) < _MEMO_MAX:
                    memo[written] = _REWRITTEN
                return _rewrite(self, s, path, depth, level)
            return self.remember(memo, written, s, path, depth, level)
        if kept is _REWRITTEN:
            return _rewrite(self, s, path, depth, level)
        out, nests, measured, replay = kept
        tally = self.tally
        if tally is not None:
            if level + nests - 1 > MAX_NESTING:
                raise _Bail
            assert measured is not None
            below, counts = measured
            if depth + below > tally.depth:
                tally.depth = depth + below
            if counts is not None:
                properties, values, chars, largest = counts
                tally.properties += properties
                tally.values += values
                tally.chars += chars
                if largest > tally.largest_enum:
                    tally.largest_enum = largest
        if replay is not None:
            self.replay(replay, path)
        return dict(out) if out.__class__ is dict else _loads(out)

    def replay(self, replay: _Replay, path: str) -> None:
        """Make a remembered subschema's records again, re-rooted at ``path``."""
        diagnostics, transformations, fired, names, int64, seen = replay
        if diagnostics:
            append = self.diagnostics.append
            for d in diagnostics:
                append((d[0], path + d[1], d[2], d[3], d[4]))
        if transformations:
            dfs = self.dfs.append
            for t in transformations:
                dfs((t[0], path + t[1], t[2], t[3]))
        if fired:
            self.fired.update(fired)
        if names:
            self.type_names += names
        if int64:
            self.int64_values += int64
            self.int64_seen.update(seen)

    def remember(
        self,
        memo: dict[bytes, Any],
        written: bytes,
        s: dict[str, Any],
        path: str,
        depth: int,
        level: int,
    ) -> Any:
        """Rewrite ``s`` and keep the result with everything the rewrite did."""
        nd, nt = len(self.diagnostics), len(self.dfs)
        names, int64 = self.type_names, self.int64_values
        # what this subschema fires, converts and measures, whatever came before it
        outer_fired, self.fired = self.fired, set()
        outer_seen, self.int64_seen = self.int64_seen, set()
        outer_tally = self.tally
        if outer_tally is not None:
            self.tally = _Tally()
        try:
            out = _rewrite(self, s, path, depth, level)
        finally:
            fired, seen, inner = self.fired, self.int64_seen, self.tally
            outer_fired.update(fired)
            outer_seen.update(seen)
            self.fired, self.int64_seen, self.tally = outer_fired, outer_seen, outer_tally
        measured: _Measured | None = None
        if outer_tally is not None:
            assert inner is not None
            outer_tally.properties += inner.properties
            outer_tally.values += inner.values
            outer_tally.chars += inner.chars
            if inner.largest_enum > outer_tally.largest_enum:
                outer_tally.largest_enum = inner.largest_enum
            if inner.depth > outer_tally.depth:
                outer_tally.depth = inner.depth
            counts = (inner.properties, inner.values, inner.chars, inner.largest_enum)
            measured = (max(inner.depth - depth, 0), counts if any(counts) else None)
        if len(memo) >= _MEMO_MAX or out.__class__ is not dict:
            return out
        copy: Any
        if _ATOMS.issuperset(map(type, out.values())):
            copy = dict(out)
        else:
            try:
                copy = _dumps(out, 2)
            except ValueError:
                return out
        cut = len(path)  # records keep their paths below the subschema's own
        made: _Replay = (
            [(d[0], d[1][cut:], d[2], d[3], d[4]) for d in self.diagnostics[nd:]],
            [(t[0], t[1][cut:], t[2], t[3]) for t in self.dfs[nt:]],
            frozenset(fired),
            self.type_names - names,
            self.int64_values - int64,
            frozenset(seen),
        )
        replay = made if made[0] or made[1] or made[2] or made[3] or made[4] else None
        memo[written] = (copy, json_nesting(s), measured, replay)
        return out
