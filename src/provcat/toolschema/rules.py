"""A target's rules grouped by what the walk asks of a subschema, worked out once per target.

Nothing here decides anything the rules do not: it reads the target record (frozen from
``catalog/schema-targets/*.yaml``) into the groups the rule families look up.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from provcat.patterns import compile_pattern
from provcat.toolschema.targets import Rule, Target, get_target

__all__ = ["COPY", "DROP", "SPECIAL", "UNKNOWN", "Rules", "rules_for"]

Pairs = tuple[tuple[Rule, Mapping[str, Any]], ...]

# What one keyword of a subschema is to the rewrite walk (``Rules.fate``).
COPY, SPECIAL, DROP, UNKNOWN = "copy", "special", "drop", "unknown"

# the keywords the rewrite walk handles itself, each by its family's rule
_SPECIAL = frozenset(
    {
        "properties",
        "$defs",
        "definitions",
        "anyOf",
        "oneOf",
        "allOf",
        "prefixItems",
        "items",
        "not",
        "additionalProperties",
        "type",
        "const",
        "enum",
        "format",
        "nullable",
        "$ref",
        "required",
    }
)


def _regex(pattern: Any) -> re.Pattern[str] | None:
    """A trigger's ``pattern`` compiled as the vendor reads it (None when the trigger has none)."""
    return compile_pattern(str(pattern)) if pattern else None


class Rules:
    """One target's rules and output settings, grouped for the walk."""

    def __init__(self, target: Target) -> None:
        fires = target.fires
        output = target.output
        self.target = target
        self.fires = fires
        self.upper = output.get("type_case") == "upper"
        self.keyword_style = output.get("nullable_style") == "keyword"
        self.inlines = output.get("refs") == "inline"
        self.key_order: tuple[str, ...] = tuple(output.get("key_order") or ())
        self.rank = {k: i for i, k in enumerate(self.key_order)}
        self.int64: tuple[str, ...] = tuple(output.get("int64_keywords") or ())
        self.int64_set = frozenset(self.int64)
        self.enum_format = "add-enum-format" in target.steps
        self.merges_all_of = "merge-single-all-of" in target.steps
        keyword_rules: dict[str, list[Rule]] = {}
        for rule, trig in fires("keyword"):
            for kw in trig["keywords"]:
                keyword_rules.setdefault(kw, []).append(rule)
        self.keyword_rules = keyword_rules
        # per keyword, the rules that drop it wherever it is written ...
        self.drops = {
            k: tuple(r for r in rules if r.action in ("drop-keyword", "drop-annotation"))
            for k, rules in keyword_rules.items()
        }
        # ... and the rules that only report it
        self.reported = {
            k: tuple(r for r in rules if r.action in ("keep", "unsupported"))
            for k, rules in keyword_rules.items()
        }
        # (rule, its keywords in order, as a set)
        self.constraints = tuple(
            (rule, tuple(trig["keywords"]), frozenset(trig["keywords"]))
            for rule, trig in fires("constraints-present")
        )
        self.format_keep = tuple(
            (rule, tuple(trig.get("allowed") or ()))
            for rule, trig in fires("format")
            if rule.action == "keep"
        )
        self.format_drop = tuple(
            (rule, trig.get("allowed"))
            for rule, trig in fires("format")
            if rule.action == "drop-keyword"
        )
        ap_rules = fires("additional-properties")
        # per state, (rule, whether it is only for an object below the root declaring no property)
        self.ap_by_state = {
            state: tuple(
                (rule, trig.get("declared") == "none")
                for rule, trig in ap_rules
                if state in trig["values"]
            )
            for state in ("true", "false", "schema", "missing")
        }
        # a typed map is replaced, not walked, when a rule closes or drops it
        self.replaces_map = any(
            "schema" in trig["values"] and rule.action in ("close-object", "drop-keyword")
            for rule, trig in ap_rules
        )
        self.nullable_rules = tuple(
            (rule, str(trig.get("value", "any"))) for rule, trig in fires("nullable")
        )
        self.optional = tuple(rule for rule, _ in fires("optional-property"))
        self.closing = any(rule.action == "required-nullable" for rule in self.optional)
        # a target that keeps references checks them where they stand (inlining checks its own)
        self.kept_ref_rules: Pairs = () if self.inlines else fires("ref")
        # a reference with sibling keywords that the target writes out (kept references only)
        self.sibling_ref_rules = tuple(
            rule
            for rule, trig in self.kept_ref_rules
            if trig["case"] == "with-siblings" and rule.action == "inline-ref"
        )
        self.name_rules = tuple(
            (
                rule,
                trig.get("pattern"),
                _regex(trig.get("pattern")),
                trig.get("min_length"),
                trig.get("max_length"),
                frozenset(trig.get("skip_if") or ()),
            )
            for rule, trig in fires("tool-name")
        )
        self.property_name_rules = tuple(
            (rule, _regex(trig.get("pattern")), trig.get("max_length"))
            for rule, trig in fires("top-level-property-name")
        )

        # every keyword a report looks for: a subschema holding none of them reports nothing
        self.report_keys = frozenset(
            [k for k, rules in self.reported.items() if rules]
            + [k for _, keywords, _ in self.constraints for k in keywords]
            + (["format"] if self.format_keep else [])
            + (["minItems"] if fires("min-items-not-in") else [])
        )
        # the type names no "unknown type" rule fires on (None: every name)
        plain: frozenset[str] | None = None
        for _, trig in fires("type"):
            if trig["case"] == "unknown":
                allowed = frozenset(trig.get("allowed") or ())
                plain = allowed if plain is None else plain & allowed
        self.plain_types = plain
        # the rules on a subschema that says nothing of its values' type (case: missing)
        self.untyped = tuple(rule for rule, trig in fires("type") if trig["case"] == "missing")
        # what the walk does with each keyword a rule or the target names; any other keyword is
        # unknown to the target (``other_fate``)
        self.other_fate = UNKNOWN if fires("unknown-keyword") else COPY
        self.fates = {
            key: self._fate(key)
            for key in (*_SPECIAL, *self.drops, *self.keyword_rules, *target.known_keywords)
        }

    def has_step(self, name: str) -> bool:
        return name in self.target.steps

    def order(self, out: dict[str, Any]) -> dict[str, Any]:
        """``out`` with its keys in the target's key order (keys outside that order left out)."""
        rank = self.rank
        keys = [k for k in out if k in rank]
        keys.sort(key=rank.__getitem__)
        return {k: out[k] for k in keys}

    def fate(self, key: str) -> str:
        """Whether the walk copies ``key``, handles it itself, drops it, or asks the
        unknown-keyword rules."""
        return self.fates.get(key, self.other_fate)

    def _fate(self, key: str) -> str:
        if self.drops.get(key):
            return DROP
        named = key in self.target.known_keywords or key in self.keyword_rules
        if not named and self.other_fate == UNKNOWN:
            # a keyword the target names nowhere is its unknown-keyword rules' to judge, even
            # one the walk could rewrite: only what the target's output holds is written
            return UNKNOWN
        return SPECIAL if key in _SPECIAL else COPY


@lru_cache(maxsize=64)
def _bundled(target_id: str) -> Rules:
    return Rules(get_target(target_id))


def rules_for(target: Target) -> Rules:
    """``target``'s rules grouped for the walk (kept per bundled target)."""
    try:
        bundled = get_target(target.id) is target
    except KeyError:
        bundled = False
    return _bundled(target.id) if bundled else Rules(target)
