"""A target's rules arranged for the walk: worked out once per target, read per node."""

from __future__ import annotations

import re
from collections.abc import Mapping
from operator import attrgetter
from typing import Any, Final

from provcat.patterns import compile_pattern
from provcat.toolschema.core import (
    LIST_SLOTS,
    MAP_SLOTS,
    SINGLE_SLOTS,
    join_path,
    new_segment,
)
from provcat.toolschema.targets import Rule, Target
from provcat.toolschema.types import Transformation, fast_build
from provcat.toolschema.vocabulary import TRIGGERS

# Trigger kinds checked once per tool (``tool_rules``), not per subschema: the vocabulary says.
_TOOL_KINDS: Final = frozenset(k for k, spec in TRIGGERS.items() if spec.scope == "tool")

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

_RANK = {"error": 0, "warning": 1, "info": 2}

# What one keyword of a subschema is to the rewrite walk (``_Plan.fate``).
_COPY, _SPECIAL_KEY, _DROP, _UNKNOWN = 0, 1, 2, 3

_CACHE_MAX = 4096

# Keywords that make a subschema more than a leaf to the rewrite walk whatever their fate: an
# object it closes, a union it merges or whose ``type`` it moves.
_NOT_LEAF = frozenset({"properties", "additionalProperties", "required", "oneOf"})
# The keywords the walk handles itself that a leaf program may hold: checked per subschema
# (``type``, ``enum``, ``format``) or walked as a single subschema (``items``, ``not``).
_LEAF_SPECIAL = frozenset(
    {"type", "enum", "format", "items", "not", "anyOf", "allOf", "prefixItems"}
)
_WALKED = ("items", "not")
_LISTED = ("anyOf", "allOf", "prefixItems")
# what a leaf program meets in the input's order: a keyword dropped, a subschema walked, a list
# of subschemas walked
_DROPPED, _ONE, _LIST = 0, 1, 2

_UNSEEN: Any = object()
# the ``_Tally`` count each limit measure reads (any other measure: characters)
_TALLIED = {"property-count": "properties", "depth": "depth", "enum-value-count": "values"}


def _regex(pattern: Any) -> re.Pattern[str] | None:
    """A trigger's ``pattern`` compiled as the vendor reads it (None when the trigger has none)."""
    return compile_pattern(str(pattern)) if pattern else None


# What ``join_path`` appends for a key (the walks call it when the memo has no entry, so the
# key is not looked up there again): ``new_segment`` writes any key as ``join_path`` does.
_segment = new_segment


# An output envelope as the walk fills it: its keys in order with every scalar literal in place
# (a key filled per tool holds None until then), and the keys filled per tool: (key, "$name" |
# "$description" | "$schema" | "nested" | "value", the nested recipe or JSON data to copy).
_Recipe = tuple[dict[str, Any], tuple[tuple[str, str, Any], ...]]


def _recipe(template: Mapping[str, Any]) -> _Recipe:
    """A target's envelope template as a recipe (placeholders recognised once)."""
    placed: dict[str, Any] = {}
    filled: list[tuple[str, str, Any]] = []
    for key, value in template.items():
        placed[key] = None
        if isinstance(value, str) and value in ("$name", "$description", "$schema"):
            filled.append((key, value, None))
        elif isinstance(value, Mapping):
            filled.append((key, "nested", _recipe(value)))
        elif value is None or value.__class__ in (str, int, float, bool):
            placed[key] = value  # a scalar: the same in every tool's envelope
        else:
            filled.append((key, "value", value))
    return placed, tuple(filled)


class _Plan:
    """One target's rules arranged for the walk: worked out once per target, read per node.

    Nothing here decides anything the rules do not: it is the rules grouped by what the walk asks
    of each subschema, so the per-node work is a few dict and set lookups.
    """

    # whether the one walk runs a shape's program as a function written for it (``shape_code``)
    # rather than interpreting it (the programs are the reference the functions are tested on);
    # from which tool the plan walks on (``warm_walks``: until then it only interprets, so a
    # process that compiles a few tools never pays for writing code), and after how many
    # subschemas of a shape (``code_after``). Writing and compiling one function costs about
    # what it saves over 250 subschemas: with 64, a process's first 100 tools of recurring
    # shapes cost about a fifth more than interpreted (about 1 ms once per target), 300 tools a
    # tenth less and 1,000 a third less (openai, bench corpus); 256 moved that cost to 300 tools
    # and kept less of the gain, 8 cost more at 100 tools and gained little more
    writes_code = True
    warm_walks = 64
    code_after = 64

    def __init__(self, target: Target) -> None:
        fires = target.fires
        output = target.output
        self.target = target
        self.rewrites = target.rewrites
        self.upper = output.get("type_case") == "upper"
        self.keyword_style = output.get("nullable_style") == "keyword"
        self.key_order: tuple[str, ...] = tuple(output.get("key_order") or ())
        self.int64: tuple[str, ...] = tuple(output.get("int64_keywords") or ())
        self.int64_set = frozenset(self.int64)
        # each int64 keyword with its name as code (`k`), in the target's order
        self.int64_shown = tuple((k, f"`{k}`") for k in self.int64)
        # the records of the steps taken at the root without values, built once: a step's
        # record is (code, path, lossy, the built transformation) when its detail is constant
        self.root_steps = {
            name: (
                spec["code"],
                "inputSchema",
                False,
                fast_build(
                    Transformation,
                    code=spec["code"],
                    path="inputSchema",
                    detail=spec["detail"],
                    lossy=False,
                ),
            )
            for name, spec in target.steps.items()
            if "{" not in spec["detail"]
        }
        # each step's code and detail template (what ``RunState.step`` records), read once
        self.step_heads = {
            name: (spec["code"], spec["detail"]) for name, spec in target.steps.items()
        }
        self.collapse = "collapse-nullable-any-of" in target.steps
        self.enum_format = "add-enum-format" in target.steps
        self.drop_open = "drop-open-additional-properties" in target.steps
        keyword_rules: dict[str, list[tuple[Rule, Mapping[str, Any]]]] = {}
        for rule, trig in fires("keyword"):
            for kw in trig["keywords"]:
                keyword_rules.setdefault(kw, []).append((rule, trig))
        self.keyword_rules = keyword_rules
        reported = {
            k: tuple(r for r, _ in pairs if r.action in ("keep", "unsupported"))
            for k, pairs in keyword_rules.items()
        }
        self.reported = {k: v for k, v in reported.items() if v}
        # per reported keyword, the values its records are worded with (read-only, shared) and
        # what ``RunState.fire`` appends for each of its rules, worked out once
        self.reported_heads = {
            k: (
                {"keyword": k},
                tuple((_RANK[r.severity], r.code, r.action != "unsupported", r) for r in rules),
            )
            for k, rules in self.reported.items()
        }
        self.reported_keys = frozenset(self.reported)
        # (rule, its keywords each with its name as code, the keywords as a set)
        self.constraints = tuple(
            (rule, tuple((k, f"`{k}`") for k in trig["keywords"]), frozenset(trig["keywords"]))
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
        # the formats no ``drop-keyword`` format rule drops (None: every format)
        kept_formats: frozenset[str] | None = None
        for _, allowed in self.format_drop:
            given = frozenset(allowed or ())
            kept_formats = given if kept_formats is None else kept_formats & given
        self.kept_formats = kept_formats
        self.min_items = fires("min-items-not-in")
        # whether the per-subschema reports can fire anything at all for this target
        self.reports = bool(self.reported or self.constraints or self.format_keep or self.min_items)
        # every keyword the reports look for: a subschema holding none of them reports nothing
        report_keys = set(self.reported_keys)
        for _, _, keyword_set in self.constraints:
            report_keys |= keyword_set
        if self.format_keep:
            report_keys.add("format")
        if self.min_items:
            report_keys.add("minItems")
        self.report_keys = frozenset(report_keys)
        self.unknown = fires("unknown-keyword")
        self.enum_values = fires("enum-values")
        plain: frozenset[str] | None = None
        for _, trig in fires("type"):
            if trig["case"] == "unknown":
                allowed = frozenset(trig.get("allowed") or ())
                plain = allowed if plain is None else plain & allowed
        # a single type name no "unknown type" rule fires on (None: every name)
        self.plain_types = plain
        self.ap_rules = fires("additional-properties")
        self.ap_by_state = {
            state: tuple(rule for rule, trig in self.ap_rules if state in trig["values"])
            for state in ("true", "false", "schema", "missing")
        }
        # per state, what ``fire`` and ``record`` append for each rule (the rewrite walk's):
        # (rule, severity rank, code, compile.supported, action, the transformation's code,
        # lossiness and detail template or None, whether the diagnostic is an error the compile
        # resolves)
        self.ap_heads_by_state = {
            state: tuple(
                (
                    rule,
                    _RANK[rule.severity],
                    rule.code,
                    rule.action != "unsupported",
                    rule.action,
                    None
                    if rule.action == "keep" or rule.transformation is None
                    else (rule.transformation["code"], rule.lossy, rule.transformation["detail"]),
                    rule.severity == "error" and rule.action != "unsupported",
                )
                for rule in rules
            )
            for state, rules in self.ap_by_state.items()
        }
        # the values those records are worded with, shared read-only
        self.ap_values = {
            state: ({"value": state, "keyword": "additionalProperties"}, {"value": state})
            for state in self.ap_by_state
        }
        # the rules that only report an ``additionalProperties`` state (the verbatim walk's)
        self.ap_keep_by_state = {
            state: tuple(rule for rule in rules if rule.action == "keep")
            for state, rules in self.ap_by_state.items()
        }
        # whether a rule only reports a state of the keyword where it is written, or its absence
        self.ap_keep_present = any(self.ap_keep_by_state[k] for k in ("true", "false", "schema"))
        self.ap_keep_missing = bool(self.ap_keep_by_state["missing"])
        # (rule, which ``nullable`` values it fires on: any, true or other), read once
        self.nullable_rules = tuple(
            (rule, str(trig.get("value", "any"))) for rule, trig in fires("nullable")
        )
        self.empty_rules = fires("empty-schema")
        self.optional = fires("optional-property")
        self.closing = any(rule.action == "required-nullable" for rule, _ in self.optional)
        self.optional_records = tuple(
            (
                _RANK[rule.severity],
                rule.code,
                rule.action != "unsupported",
                rule,
                rule.transformation if rule.action == "required-nullable" else None,
                rule.severity == "error" and rule.action != "unsupported",
            )
            for rule, _ in self.optional
        )
        self.optional_codes = frozenset(code for _, code, _, _, _, _ in self.optional_records)
        # what closing appends per optional property, split once: the diagnostics (rank, code,
        # compile.supported, rule; those of errors the compile resolves only when it keeps
        # them) and the transformations (code, lossiness, detail template), in rule order
        self.optional_diagnostics = tuple(
            (rank, code, supported, rule)
            for rank, code, supported, rule, _, _ in self.optional_records
        )
        self.optional_unsettled = tuple(
            (rank, code, supported, rule)
            for rank, code, supported, rule, _, settled in self.optional_records
            if not settled
        )
        self.optional_changes = tuple(
            (spec["code"], rule.lossy, spec["detail"])
            for _, _, _, rule, spec, _ in self.optional_records
            if spec is not None
        )
        self.replaces_map = any(
            "schema" in trig["values"] and rule.action in ("close-object", "drop-keyword")
            for rule, trig in self.ap_rules
        )
        walk_kinds = {kind for kind in target.by_kind if kind not in _TOOL_KINDS}
        tool_codes = {r.code for kind in _TOOL_KINDS for r, _ in fires(kind)}
        walk_codes = {r.code for kind in walk_kinds for r, _ in fires(kind)}
        # One walk does everything for a rewrite target when no rule is fired both by the
        # tool-level checks and by the walk (their relative order would then matter) and the
        # limits count the input as written (a collapsed union would hide a level). A target
        # that inlines references takes it only for input with nothing to inline.
        self.inlines = output.get("refs") == "inline"
        # a target that keeps references checks them where they stand (inlining checks its own)
        self.kept_ref_rules = () if self.inlines else fires("ref")
        self.recursive_ref_rules = any(t["case"] == "recursive" for _, t in self.kept_ref_rules)
        # every keyword the verbatim walk's per-subschema checks look for (``verbatim_checks``):
        # a subschema holding none of them is not reported on
        watched = set(self.report_keys)
        if self.enum_values:
            watched.add("enum")
        if self.kept_ref_rules:
            watched.add("$ref")
        if self.nullable_rules:
            watched.add("nullable")
        if any(self.ap_keep_by_state[state] for state in ("true", "false", "schema")):
            watched.add("additionalProperties")
        if self.ap_keep_by_state["missing"]:  # an object without the keyword
            watched.update(("type", "properties", "required", "additionalProperties"))
        self.verbatim_keys = frozenset(watched)
        # a subschema holding none of these (no check looks at it, no subschema below it) is a
        # leaf the verbatim walk copies without walking it
        self.quiet_leaf_stops = self.verbatim_keys.union(MAP_SLOTS, LIST_SLOTS, SINGLE_SLOTS)
        self.recipe = _recipe(output["envelope"])
        self.describe_empty = output.get("description") == "when-defined"
        self.single_pass = not (tool_codes & walk_codes) and (
            not target.rewrites
            or (not fires("header-keyword") and not (self.collapse and fires("limit")))
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
        self.description_rules = tuple(
            (rule, bool(trig.get("blank_counts"))) for rule, trig in fires("missing-description")
        )
        self.root_type_rules = tuple((rule, str(trig["case"])) for rule, trig in fires("root-type"))
        self.root_keyword_rules = tuple(
            (rule, trig["keyword"], join_path("inputSchema", trig["keyword"]))
            for rule, trig in fires("root-keyword")
        )
        self.root_constrained_rules = tuple(rule for rule, _ in fires("root-constrained"))
        self.limit_rules = fires("limit")
        # whether the one walk measures the schema as it goes (only what limit rules read)
        self.measures = bool(self.limit_rules)
        # (rule, measure, maximum, threshold as given, threshold or 0, the tally's count of the
        # measure or None for one counted per enum) per limit rule, read once
        self.limits = tuple(
            (
                rule,
                trig["measure"],
                trig["max"],
                trig.get("threshold"),
                trig.get("threshold", 0),
                None
                if trig["measure"] == "large-enum-chars"
                else attrgetter(_TALLIED.get(trig["measure"], "chars")),
            )
            for rule, trig in self.limit_rules
        )
        self.dialect_rules = tuple(
            (rule, tuple(trig["allowed"])) for rule, trig in fires("dialect")
        )
        # (rule, pattern, maximum length, the verdicts so far: property name -> whether it fails)
        self.property_name_rules = tuple(
            (rule, _regex(trig.get("pattern")), trig.get("max_length"), dict[str, bool]())
            for rule, trig in fires("top-level-property-name")
        )
        self.header_rules = fires("header-keyword")
        # whether a check reads the list of subschemas after the walk (limits, header keywords)
        self.reads_nodes = bool(self.limit_rules or self.header_rules)
        self.fates: dict[str, int] = {}
        self.drops: dict[str, tuple[Rule, ...]] = {}
        self.orders: dict[tuple[str, ...], tuple[str, ...] | None] = {}
        # per key shape (a subschema's keys in their order): what it reports (``_Reports``)
        self.report_shapes: dict[tuple[str, ...], _Reports] = {}
        # per key shape: what the verbatim walk does with a subschema of it (``_Verbatim``)
        self.verbatim_shapes: dict[tuple[str, ...], _Verbatim] = {}
        # per key shape (a subschema's keys in their order): its leaf or object program, or None
        self.leaves: dict[tuple[str, ...], _Leaf | _Object | None] = {}
        # per key shape with a program: the program written as one function (``shape_code``),
        # which the one walk calls instead of interpreting the program
        self.codes: dict[tuple[str, ...], Any] = {}
        # per key shape with a program but no function yet: how many subschemas met it
        self.sightings: dict[tuple[str, ...], int] = {}
        # the tools the one walk has walked so far (counted up to ``warm_walks``), and whether
        # it now writes shape functions
        self.walks = 0
        self.writing = False

    def fate(self, key: str) -> int:
        """Whether the walk copies ``key``, handles it specially, drops it, or asks the
        unknown-keyword rules (the same order of questions as the rules table implies)."""
        pairs = self.keyword_rules.get(key, ())
        drops = tuple(r for r, _ in pairs if r.action in ("drop-keyword", "drop-annotation"))
        if drops:
            self.drops[key] = drops
            fate = _DROP
        elif key in _SPECIAL:
            fate = _SPECIAL_KEY
        elif key not in self.target.known_keywords and key not in self.keyword_rules:
            fate = _UNKNOWN if self.unknown else _COPY
        else:
            fate = _COPY
        if len(self.fates) < _CACHE_MAX:
            self.fates[key] = fate
        return fate

    def leaf(self, keys: tuple[str, ...]) -> _Leaf | _Object | None:
        """The program of subschemas with exactly ``keys`` (in that order): a leaf's, an
        object's, or None when such a subschema needs the general walk. Worked out once per
        shape and target."""
        leaf: _Leaf | _Object | None = None
        if self._is_leaf(keys):
            leaf = _Leaf(self, keys)
        elif self._is_object(keys):
            leaf = _Object(self, keys)
        if len(self.leaves) < _CACHE_MAX:
            self.leaves[keys] = leaf
        return leaf

    def _is_object(self, keys: tuple[str, ...]) -> bool:
        """Whether the general walk does nothing to an object of this shape that the object
        program does not do (``_Object``): ``type`` (checked to be "object" per subschema),
        ``properties`` (a map, walked), ``required`` and copied keywords; nothing dropped,
        nothing to finish."""
        if "type" not in keys or "properties" not in keys or "additionalProperties" in keys:
            return False
        if self.plain_types is not None and "object" not in self.plain_types:
            return False
        if "enum" in keys or not self.int64_set.isdisjoint(keys):
            return False
        for key in keys:
            if key.__class__ is not str:
                return False
            fate = self.fates.get(key)
            if fate is None:
                fate = self.fate(key)
            if fate == _COPY or (
                fate == _SPECIAL_KEY and key in ("type", "properties", "required")
            ):
                continue
            return False
        return True

    def _is_leaf(self, keys: tuple[str, ...]) -> bool:
        """Whether the general walk does nothing to a subschema of this shape that the leaf
        program does not do (``_Leaf``): every keyword is copied or dropped, or is ``type``,
        ``enum`` or ``format``. Such a subschema has no subschema to walk and no object to
        close; what depends on the values is checked per subschema."""
        for key in keys:
            if key.__class__ is not str or key in _NOT_LEAF:
                return False
            if key == "anyOf" and (self.collapse or "type" in keys):
                return False  # a union the walk may merge, or whose type it moves
            fate = self.fates.get(key)
            if fate is None:
                fate = self.fate(key)
            if fate == _DROP:
                if key == "type":  # an object's type, dropped, still has it closed
                    return False
                continue
            if key not in self.key_order:  # written, then left out by ``order``
                return False
            if fate == _COPY or (fate == _SPECIAL_KEY and key in _LEAF_SPECIAL):
                continue
            if key == "nullable" and not self.nullable_rules:  # written as it is
                continue
            return False
        return True

    def reports_for(self, keys: tuple[str, ...]) -> _Reports:
        """The reports of subschemas with exactly ``keys`` (in that order), worked out once per
        shape."""
        found = self.report_shapes.get(keys)
        if found is None:
            found = _Reports(self, keys)
            if len(self.report_shapes) < _CACHE_MAX:
                self.report_shapes[keys] = found
        return found

    def verbatim_shape(self, keys: tuple[str, ...]) -> _Verbatim:
        """What the verbatim walk does with subschemas of exactly ``keys`` (in that order),
        worked out once per shape."""
        found = _Verbatim(self, keys)
        if len(self.verbatim_shapes) < _CACHE_MAX:
            self.verbatim_shapes[keys] = found
        return found

    def order(self, out: dict[str, Any]) -> dict[str, Any]:
        """``out`` with its keys in the target's key order (keys outside that order left out)."""
        keys = tuple(out)
        ordered = self.orders.get(keys, _UNSEEN)
        if ordered is _UNSEEN:
            ordered = tuple(k for k in self.key_order if k in out)
            if ordered == keys:
                ordered = None
            if len(self.orders) < _CACHE_MAX:
                self.orders[keys] = ordered
        if ordered is None:
            return out
        return {k: out[k] for k in ordered}


class _Reports:
    """What ``NodeReports.report_shape`` finds in a subschema's keys alone, worked out once per
    key shape and target: per reported keyword in the shape's order, its path segment, record
    values and rule heads; per constraints rule that fires, its head and record values (each
    shared, read-only); and whether a report reads a value (a format, ``minItems``)."""

    __slots__ = ("constraints", "keywords", "values")

    def __init__(self, plan: _Plan, keys: tuple[str, ...]) -> None:
        self.keywords = tuple(
            (_segment(k), *plan.reported_heads[k]) for k in keys if k in plan.reported_heads
        )
        self.constraints = tuple(
            (
                _RANK[rule.severity],
                rule.code,
                rule.action != "unsupported",
                rule,
                {"keywords": ", ".join([quoted for k, quoted in keywords if k in keys])},
            )
            for rule, keywords, keyword_set in plan.constraints
            if not keyword_set.isdisjoint(keys)
        )
        self.values = bool(
            ("format" in keys and plan.format_keep) or ("minItems" in keys and plan.min_items)
        )


# the slots the verbatim walk walks, each with its rank in ``schema_nodes`` order: the tens say
# the kind (0 a map of subschemas, 1 a list of them, 2 a single one)
_SLOT_RANK = {
    slot: 10 * kind + i
    for kind, slots in enumerate((MAP_SLOTS, LIST_SLOTS, SINGLE_SLOTS))
    for i, slot in enumerate(slots)
}
# what the verbatim walk checks in a subschema of a shape (``_Verbatim.checks``): nothing; the
# keys' reports or a value (the path is needed); only the keyword reports (appended in the
# walk's loop, without a call); or only whether its ``enum`` holds anything but strings (the
# path is needed only then)
_QUIET, _CHECKED, _KEYWORDS_ONLY, _ENUM_ONLY = 0, 1, 2, 3
_SLOT_KEYS = frozenset(_SLOT_RANK)
_SLOT_SEGMENTS = {slot: join_path("", slot) for slot in _SLOT_RANK}
_NO_CODES: frozenset[str] = frozenset()


class _Verbatim:
    """What the verbatim walk does with a subschema of one key shape, worked out once per shape
    and target (``VerbatimWalk.verbatim_walk`` does it): the diagnostics its keys alone decide
    as they are appended (per reported keyword in the shape's order: its path segment, severity
    rank, code, compile.supported and the shared payload; then per constraints rule, the same
    without a segment, and whether it is appended when the run drops resolved errors), the codes
    they fire; which checks read a value (a format or ``minItems``, ``enum``, ``$ref``, the
    ``additionalProperties`` state, ``nullable``); the slots it walks in ``schema_nodes`` order
    (slot, kind, path segment) and its other keys."""

    __slots__ = (
        "ap",
        "checks",
        "codes",
        "constraints",
        "enum",
        "keywords",
        "nullable",
        "others",
        "ref",
        "shallow",
        "slots",
        "values",
    )

    def __init__(self, plan: _Plan, keys: tuple[str, ...]) -> None:
        # a subschema holding no keyword a check looks for is not checked (most shapes met
        # once, in a set of tools of many shapes, are of this kind: made without further work)
        self.keywords: tuple[tuple[str, int, str, bool, tuple[Rule, dict[str, Any]]], ...] = ()
        self.constraints: tuple[tuple[int, str, bool, tuple[Rule, dict[str, Any]], bool], ...] = ()
        self.codes = _NO_CODES
        self.values = self.enum = self.ref = self.ap = self.nullable = False
        self.checks = _QUIET
        if not plan.verbatim_keys.isdisjoint(keys):
            self._checks(plan, keys)
        if _SLOT_KEYS.isdisjoint(keys):
            self.slots: tuple[tuple[str, int, str], ...] = ()
            self.others = keys
            self.shallow = False
            return
        slots: list[tuple[int, str, int, str]] = []
        others: list[str] = []
        for k in keys:
            rank = _SLOT_RANK.get(k)
            if rank is None:
                others.append(k)
            else:
                slots.append((rank, k, rank // 10, _SLOT_SEGMENTS[k]))
        slots.sort()  # in ``schema_nodes`` order (ranks differ)
        self.slots = tuple([(k, kind, segment) for _, k, kind, segment in slots])
        self.others = tuple(others)
        # whose slots hold lists of subschemas or one subschema (an ``anyOf`` of a type and null,
        # an array's ``items``): copied without a walk when those are leaves nothing reads (and
        # without a path when nothing checks the subschema itself)
        self.shallow = slots[0][0] >= 10

    def _checks(self, plan: _Plan, keys: tuple[str, ...]) -> None:
        """The checks of a shape holding a keyword some check looks for."""
        found = (
            plan.reports_for(keys)
            if plan.reports and not plan.report_keys.isdisjoint(keys)
            else None
        )
        if found is not None:
            keywords: list[tuple[str, int, str, bool, tuple[Rule, dict[str, Any]]]] = []
            constraints: list[tuple[int, str, bool, tuple[Rule, dict[str, Any]], bool]] = []
            codes: set[str] = set()
            for segment, values, heads in found.keywords:
                for rank, code, supported, rule in heads:
                    keywords.append((segment, rank, code, supported, (rule, values)))
                    codes.add(code)
            for rank, code, supported, rule, values in found.constraints:
                constraints.append(
                    (rank, code, supported, (rule, values), bool(rank) or not supported)
                )
                codes.add(code)
            self.keywords = tuple(keywords)
            self.constraints = tuple(constraints)
            self.codes = frozenset(codes)
            self.values = found.values
        self.enum = bool(plan.enum_values) and "enum" in keys
        self.ref = bool(plan.kept_ref_rules) and "$ref" in keys
        self.ap = plan.ap_keep_missing or (plan.ap_keep_present and "additionalProperties" in keys)
        self.nullable = bool(plan.nullable_rules) and "nullable" in keys
        read = self.values or self.ref or self.ap or self.nullable  # a value read, not an enum's
        if self.constraints or read or (self.keywords and self.enum):
            self.checks = _CHECKED
        elif self.keywords:
            self.checks = _KEYWORDS_ONLY
        else:
            self.checks = _ENUM_ONLY if self.enum else _QUIET


class _Leaf:
    """What the rewrite walk does to a subschema of one key shape that is not an object or a
    union the walk may merge (``_Plan._is_leaf``), decided once per shape and target: the
    keywords dropped (with the rules that drop each, fired and recorded as the general walk
    does), the single subschemas walked (``items``, ``not``) and the lists of subschemas walked
    (``anyOf``, ``allOf``, ``prefixItems``), in the input's order; the output's keys in the
    target's order; and which per-subschema steps can apply. The walk checks per subschema only
    what depends on the values (``RewriteWalk.node``): a plain ``type`` name other than
    "object", an ``enum`` of strings (no enum-values rule fires on one) and a string
    ``format`` no rule drops; any other subschema takes the general walk."""

    __slots__ = (
        "enum",
        "events",
        "finish",
        "format",
        "keys",
        "plain",
        "refit",
        "report",
        "reports",
        "same",
        "typed",
        "upper",
        "walked",
    )

    def __init__(self, plan: _Plan, keys: tuple[str, ...]) -> None:
        fates = {k: plan.fates.get(k, plan.fate(k)) for k in keys}
        dropped = [k for k in keys if fates[k] == _DROP]
        walked = [k for k in keys if fates[k] == _SPECIAL_KEY and k in _WALKED + _LISTED]
        # what the loop meets in the input's order: a keyword dropped (with its rules), a
        # subschema or a list of subschemas walked
        self.events = tuple(
            (
                k,
                _segment(k),
                _DROPPED if k in dropped else _ONE if k in _WALKED else _LIST,
                plan.drops[k] if k in dropped else (),
            )
            for k in keys
            if k in dropped or k in walked
        )
        self.walked = frozenset(walked)
        # the output's keys, in the target's order (every one is in it)
        self.keys = tuple(k for k in plan.key_order if k in keys and k not in dropped)
        self.typed = "type" in self.keys
        self.enum = "enum" in self.keys
        self.format = "format" in self.keys
        self.reports = plan.reports and not plan.report_keys.isdisjoint(keys)
        # what the reports find in the keys alone, worked out with the shape
        self.report = plan.reports_for(keys) if self.reports else None
        # ``finish_node`` can change the output (int64 strings, an enum's format) ...
        self.finish = (plan.int64 and not plan.int64_set.isdisjoint(self.keys)) or (
            plan.enum_format and self.enum
        )
        # ... and add a keyword, which is then put in its place
        self.refit = plan.enum_format and self.enum and not self.format
        # the type name is written in upper case (and counted)
        self.upper = self.typed and plan.upper
        # nothing to do but copy the keywords (when their values are scalars) in this order ...
        self.plain = not (self.events or self.enum or self.format or self.reports or self.finish)
        # ... which is the input's own
        self.same = self.keys == keys


class _Object:
    """What the rewrite walk does to an object of one key shape (``_Plan._is_object``), decided
    once per shape and target: the keywords copied as they are (a value that is not a scalar
    is copied whole), what the subschema reports (``_Reports``), and whether its type name is
    written in upper case. The walk checks per subschema that ``type`` is "object" and
    ``properties`` a map (``RewriteWalk.object``); the object is then closed, and its keys put
    in the target's order, as the general walk does."""

    __slots__ = ("copies", "report", "upper")

    def __init__(self, plan: _Plan, keys: tuple[str, ...]) -> None:
        self.copies = tuple(k for k in keys if k not in ("type", "properties", "required"))
        reports = plan.reports and not plan.report_keys.isdisjoint(keys)
        self.report = plan.reports_for(keys) if reports else None
        self.upper = plan.upper


_PLANS: dict[int, tuple[Target, _Plan]] = {}


def plan_for(target: Target) -> _Plan:
    """The walk plan of ``target`` (built on first use, kept while the target lives)."""
    entry = _PLANS.get(id(target))
    if entry is None or entry[0] is not target:
        entry = (target, _Plan(target))
        _PLANS[id(target)] = entry
    return entry[1]
