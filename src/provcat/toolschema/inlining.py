"""``$ref`` inlining for targets whose schema object has no references (``refs: inline``)."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import (
    LIST_SLOTS,
    MAP_SLOTS,
    SINGLE_SLOTS,
    join_path,
)
from provcat.toolschema.refs import resolve_ref
from provcat.toolschema.run_state import RunState
from provcat.toolschema.values import (
    _code,
)

_INLINE_CHAIN = 32


class RefInlining(RunState):
    """Replaces every resolvable, non-recursive reference with what it points at."""

    def inline(self, s: Any, path: str, chain: tuple[str, ...]) -> Any:
        if isinstance(s, dict):
            if "$ref" in s:
                ref = s["$ref"]
                status, found = resolve_ref(self.root, ref)
                case: str | None = None
                if status == "external":
                    case = "external"
                elif status != "ok":
                    case = "unresolvable"
                elif ref in chain:
                    case = "recursive"
                elif len(chain) >= _INLINE_CHAIN or self.inline_budget <= 0:
                    case = "unresolvable"
                where = join_path(path, "$ref")
                if case is not None:
                    self.unresolved = True
                    for rule, trig in self.target.fires("ref"):
                        if trig["case"] == case:
                            self.fire(rule, where, ref=_code(ref))
                    return s
                self.inline_budget -= 1
                for rule, trig in self.target.fires("ref"):
                    if trig["case"] == "resolvable":
                        self.fire(rule, where, ref=_code(ref))
                        if rule.action == "inline-ref":
                            self.record(rule, path, into=self.pre, ref=_code(ref))
                siblings = {k: v for k, v in s.items() if k != "$ref"}
                if isinstance(found, dict):
                    merged: Any = {**found, **siblings}
                elif found is True:
                    merged = siblings if siblings else True
                else:
                    merged = False
                return self.inline(merged, path, (*chain, str(ref)))
            out: dict[str, Any] = {}
            for key, value in s.items():
                if key in ("$defs", "definitions"):
                    self.drops.append(join_path(path, key))
                    continue
                if key in MAP_SLOTS and isinstance(value, dict):
                    out[key] = {
                        k: self.inline(v, join_path(path, key, k), chain) for k, v in value.items()
                    }
                elif key in LIST_SLOTS and isinstance(value, list):
                    out[key] = [
                        self.inline(v, join_path(path, key, i), chain) for i, v in enumerate(value)
                    ]
                elif key in SINGLE_SLOTS and isinstance(value, dict):
                    out[key] = self.inline(value, join_path(path, key), chain)
                else:
                    out[key] = value
            return out
        return s
