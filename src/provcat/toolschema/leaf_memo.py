"""Rewritten leaves remembered per target: the same leaf subschema is rewritten once.

A leaf here is a subschema whose values are all JSON scalars (``{"type": "string",
"maxLength": 20}``) and that holds no ``$ref`` (whose verdict depends on the document). What the
rewrite walk does to such a leaf depends only on its content and the target's plan, so the first
rewrite of it is kept with every record it made (diagnostics, transformations, counters); a later
equal leaf gets a copy of the output and the same records re-rooted at its own path. Every record
is still made, in the same order, so the outcome is byte-identical to rewriting it again.
"""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import MAX_NESTING
from provcat.toolschema.rewrite import RewriteWalk
from provcat.toolschema.values import _ATOMS, _Bail, leaf_key

_MEMO_MAX = 4096
_rewrite = RewriteWalk.node  # what ``super().node`` reaches, without building a super object

# (output, path it was made at, diagnostic records, transformation records, type names, int64
# values, int64 keywords seen, limit characters)
_Leaf = tuple[dict[str, Any], str, list[Any], list[Any], int, int, frozenset[str], int]


class LeafMemo(RewriteWalk):
    """The rewrite walk with leaves remembered per target (see the module docstring)."""

    def node(self, s: Any, path: str, depth: int = 1, level: int = 1) -> Any:
        if s.__class__ is not dict or "$ref" in s:
            return _rewrite(self, s, path, depth, level)
        # ``values.leaf_key``, inlined: this runs once per subschema
        classes = tuple(map(type, s.values()))
        if not _ATOMS.issuperset(classes):
            return _rewrite(self, s, path, depth, level)
        tally = self.tally
        # what a replay depends on besides the leaf: the one-walk measures, the resolved errors
        mode = (tally is not None, self.keep_resolved)
        if float in classes:
            key: tuple[Any, ...] = (mode, leaf_key(s))
        else:
            key = (mode, (tuple(s.items()), classes))
        leaf = self.plan.leaves.get(key)
        if leaf is None:
            return self.remember(s, path, depth, level, key)
        if tally is not None:
            if level > MAX_NESTING:
                raise _Bail
            if depth > tally.depth:
                tally.depth = depth
            tally.chars += leaf[7]
        out, made_at, diagnostics, transformations, names, int64, seen, _ = leaf
        if diagnostics or transformations:
            cut = len(made_at)
            fired = self.fired
            append = self.diagnostics.append
            for d in diagnostics:
                append((d[0], path + d[1][cut:], d[2], d[3], d[4]))
                fired.add(d[2])
            dfs = self.dfs.append
            for t in transformations:
                dfs((t[0], path + t[1][cut:], t[2], t[3]))
        if names:
            self.type_names += names
        if int64:
            self.int64_values += int64
            self.int64_seen.update(seen)
        return dict(out)

    def remember(
        self, s: dict[str, Any], path: str, depth: int, level: int, key: tuple[Any, ...]
    ) -> Any:
        """Rewrite leaf ``s`` and keep the result with what the rewrite recorded."""
        tally = self.tally
        nd, nt = len(self.diagnostics), len(self.dfs)
        names, int64 = self.type_names, self.int64_values
        chars = tally.chars if tally is not None else 0
        # the int64 keywords this leaf converts, whatever earlier leaves converted
        outer, self.int64_seen = self.int64_seen, set()
        try:
            out = _rewrite(self, s, path, depth, level)
        finally:
            seen = frozenset(self.int64_seen)
            outer.update(seen)
            self.int64_seen = outer
        memo = self.plan.leaves
        if len(memo) < _MEMO_MAX and all(v.__class__ in _ATOMS for v in out.values()):
            memo[key] = (
                dict(out),
                path,
                self.diagnostics[nd:],
                self.dfs[nt:],
                self.type_names - names,
                self.int64_values - int64,
                seen,
                (tally.chars - chars) if tally is not None else 0,
            )
        return out
