"""The one implementation of every trigger, action and step a target's YAML may name.

``run(tool, target)`` walks the canonical tool once and produces the diagnostics, the compiled
output and the transformation records together, so ``check`` and ``compile`` can never disagree.
Every vendor fact (which keyword, which limit, which wording) comes from the target record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from provcat.toolschema.core import (
    LIST_SLOTS,
    MAP_SLOTS,
    MAX_NESTING,
    PATH_SEGMENTS,
    SINGLE_SLOTS,
    DiagnosticRecord,
    TransformationRecord,
    diagnostic_record,
    format_template,
    join_path,
    json_nesting,
    not_compilable,
    schema_nodes,
    schema_types,
    schemas_with_depth,
    walk_schema,
)
from provcat.toolschema.refs import resolve_ref
from provcat.toolschema.targets import Rule, Target
from provcat.toolschema.types import CanonicalTool, Diagnostic

__all__ = ["NESTING_CODE", "Outcome", "run"]


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


NESTING_CODE = "core/schema-nesting-too-deep"
_INLINE_BUDGET = 10_000
_INLINE_CHAIN = 32
_OBJECT_HINTS = ("properties", "required", "additionalProperties")
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


_fmt = format_template
_RANK = {"error": 0, "warning": 1, "info": 2}


_REF_KEYS = frozenset({"$ref", "$defs", "definitions"})
# keywords whose value the rewrite walk copies whole (``enum`` may still be dropped after)
_CLONED_WHOLE = frozenset({"required", "enum"})
_SLOTS = frozenset(MAP_SLOTS + LIST_SLOTS + SINGLE_SLOTS)

# Trigger kinds checked once per tool (``_Run.tool_rules``), not per subschema.
_TOOL_KINDS = frozenset(
    {
        "tool-name",
        "missing-description",
        "root-type",
        "root-keyword",
        "root-constrained",
        "limit",
        "dialect",
        "top-level-property-name",
        "header-keyword",
    }
)

# What one keyword of a subschema is to the rewrite walk (``_Plan.fate``).
_COPY, _SPECIAL_KEY, _DROP, _UNKNOWN = 0, 1, 2, 3
_CACHE_MAX = 4096
_UNSEEN: Any = object()


def _root_type_hit(case: str, root: dict[str, Any], raw: Any, types: list[str]) -> bool:
    """Whether the root's ``type`` is a ``root-type`` trigger's case."""
    if case == "not-exactly-object":
        return types != ["object"]
    if case == "present-not-object":
        return bool(types) and types != ["object"]
    if case == "missing":
        return "type" not in root
    if case == "object-list":
        return isinstance(raw, list) and raw == ["object"]
    if case == "object-union":
        return isinstance(raw, list) and "object" in raw and len(set(raw)) > 1
    if case == "excludes-object":
        return "type" in root and "object" not in types
    return False


def _regex(pattern: Any) -> re.Pattern[str] | None:
    """A trigger's ``pattern`` compiled (None when the trigger has none)."""
    return re.compile(str(pattern)) if pattern else None


# An output envelope as the walk fills it: (key, "$name" | "$description" | "$schema" | "nested"
# | "value", the nested recipe or the literal value).
_Recipe = tuple[tuple[str, str, Any], ...]


def _recipe(template: Mapping[str, Any]) -> _Recipe:
    """A target's envelope template as a recipe (placeholders recognised once)."""
    steps: list[tuple[str, str, Any]] = []
    for key, value in template.items():
        if isinstance(value, str) and value in ("$name", "$description", "$schema"):
            steps.append((key, value, None))
        elif isinstance(value, Mapping):
            steps.append((key, "nested", _recipe(value)))
        else:
            steps.append((key, "value", value))
    return tuple(steps)


def _segment(key: str) -> str:
    """What ``join_path`` appends for ``key``, read from its memo when it is there."""
    return PATH_SEGMENTS.get(key) or join_path("", key)


class _Plan:
    """One target's rules arranged for the walk: worked out once per target, read per node.

    Nothing here decides anything the rules do not: it is the rules grouped by what the walk asks
    of each subschema, so the per-node work is a few dict and set lookups.
    """

    def __init__(self, target: Target) -> None:
        fires = target.fires
        output = target.output
        self.target = target
        self.upper = output.get("type_case") == "upper"
        self.keyword_style = output.get("nullable_style") == "keyword"
        self.key_order: tuple[str, ...] = tuple(output.get("key_order") or ())
        self.int64: tuple[str, ...] = tuple(output.get("int64_keywords") or ())
        self.int64_set = frozenset(self.int64)
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
        self.reported_keys = frozenset(self.reported)
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
        self.min_items = fires("min-items-not-in")
        # whether report_node can fire anything at all for this target
        self.reports = bool(self.reported or self.constraints or self.format_keep or self.min_items)
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
            )
            for rule, _ in self.optional
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
        self.dialect_rules = tuple(
            (rule, tuple(trig["allowed"])) for rule, trig in fires("dialect")
        )
        self.property_name_rules = tuple(
            (rule, _regex(trig.get("pattern")), trig.get("max_length"))
            for rule, trig in fires("top-level-property-name")
        )
        self.header_rules = fires("header-keyword")
        self.fates: dict[str, int] = {}
        self.drops: dict[str, tuple[Rule, ...]] = {}
        self.orders: dict[tuple[str, ...], tuple[str, ...] | None] = {}

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


_PLANS: dict[int, tuple[Target, _Plan]] = {}


def plan_for(target: Target) -> _Plan:
    """The walk plan of ``target`` (built on first use, kept while the target lives)."""
    entry = _PLANS.get(id(target))
    if entry is None or entry[0] is not target:
        entry = (target, _Plan(target))
        _PLANS[id(target)] = entry
    return entry[1]


def _js(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > 80:
        text = text[:77] + "..."
    return f"`{text}`"


def _code(value: Any) -> str:
    return f"`{value}`" if isinstance(value, str) else _js(value)


_ATOMS = frozenset({str, int, float, bool, type(None)})


class _Bail(Exception):
    """The single pass met what only the full run handles: input nested past ``MAX_NESTING``,
    or references to inline first."""


def _clone(value: Any) -> Any:
    """A deep copy of JSON data: dicts and lists (tuples become lists) rebuilt, leaves shared."""
    cls = value.__class__
    if cls in _ATOMS:
        return value
    if isinstance(value, dict):
        return {k: v if v.__class__ in _ATOMS else _clone(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [v if v.__class__ in _ATOMS else _clone(v) for v in value]
    return value


def _clone_within(value: Any, room: int) -> Any:
    """:func:`_clone` of a container that may nest ``room`` levels at most (itself included);
    raises ``_Bail`` when it nests deeper."""
    if room < 1:
        raise _Bail
    room -= 1
    if isinstance(value, dict):
        return {k: v if v.__class__ in _ATOMS else _clone_within(v, room) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [v if v.__class__ in _ATOMS else _clone_within(v, room) for v in value]
    return value


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


@dataclass
class Outcome:
    """What one run found: diagnostic records (unsorted), transformation records in order, the
    output. ``core.materialize_diagnostics`` and ``core.finalize_records`` turn them into the
    contract's types."""

    diagnostics: list[DiagnosticRecord]
    transformations: list[TransformationRecord]
    output: dict[str, Any] | None


class _Tally:
    """What the limit rules measure over every subschema of the canonical input: properties,
    depth (the root is 1), enum values, and the characters of property and definition names,
    string enum values and string consts."""

    __slots__ = ("chars", "depth", "largest_enum", "properties", "values")

    def __init__(self) -> None:
        self.properties = self.values = self.chars = self.depth = self.largest_enum = 0

    def node(self, s: dict[str, Any], depth: int) -> None:
        """Count one subschema ``s`` at ``depth`` (its subschemas are counted on their own)."""
        if depth > self.depth:
            self.depth = depth
        for slot in MAP_SLOTS:
            entries = s.get(slot)
            if isinstance(entries, dict):
                self.names(entries, slot)
        enum = s.get("enum")
        if isinstance(enum, list):
            self.enum(enum)
        const = s.get("const")
        if isinstance(const, str):
            self.chars += len(const)

    def names(self, entries: dict[str, Any], slot: str) -> None:
        for k in entries:
            self.chars += len(k)
        if slot == "properties":
            self.properties += len(entries)

    def enum(self, values: list[Any]) -> None:
        self.values += len(values)
        if len(values) > self.largest_enum:
            self.largest_enum = len(values)
        for v in values:
            if isinstance(v, str):
                self.chars += len(v)

    def key(self, key: str, value: Any, depth: int) -> None:
        """Count ``key: value`` of a subschema at ``depth`` that the walk does not descend into,
        with every subschema below it."""
        children: list[Any] = []
        if key in MAP_SLOTS:
            if isinstance(value, dict):
                self.names(value, key)
                children = list(value.values())
        elif key in LIST_SLOTS:
            if isinstance(value, list):
                children = value
        elif key in SINGLE_SLOTS:
            children = [value]
        elif key == "enum":
            if isinstance(value, list):
                self.enum(value)
        elif key == "const" and isinstance(value, str):
            self.chars += len(value)
        for child in children:
            if isinstance(child, dict):
                for s, d in schemas_with_depth(child):
                    self.node(s, depth + d)


@dataclass
class _Run:
    target: Target
    tool: CanonicalTool
    root: dict[str, Any]
    diagnostics: list[DiagnosticRecord] = field(default_factory=list)
    pre: list[TransformationRecord] = field(default_factory=list)
    dfs: list[TransformationRecord] = field(default_factory=list)
    post: list[TransformationRecord] = field(default_factory=list)
    fired: set[str] = field(default_factory=set)
    type_names: int = 0
    int64_values: int = 0
    int64_seen: set[str] = field(default_factory=set)
    renamed_definitions: bool = False
    unresolved: bool = False
    inline_budget: int = _INLINE_BUDGET
    lean: list[tuple[dict[str, Any], int]] | None = None
    pathed: list[tuple[dict[str, Any], str, int]] | None = None
    plan: _Plan = field(init=False)
    tally: _Tally | None = None  # set by the single pass, which measures as it walks

    def __post_init__(self) -> None:
        self.plan = plan_for(self.target)

    # ---- recording
    def fire(self, rule: Rule, path: str, **values: Any) -> None:
        self.diagnostics.append(
            (_RANK[rule.severity], path, rule.code, rule.action != "unsupported", (rule, values))
        )
        self.fired.add(rule.code)

    def record(
        self,
        rule: Rule,
        path: str,
        into: list[TransformationRecord] | None = None,
        which: str = "transformation",
        **values: Any,
    ) -> None:
        if which == "transformation":
            spec = rule.transformation
            lossy = rule.lossy
        else:
            spec = rule.extra.get(which)
            lossy = which != "reference"
        if spec is None:
            return
        (self.dfs if into is None else into).append(
            (spec["code"], path, lossy, (spec["detail"], values))
        )

    def step(self, name: str, path: str, into: list[TransformationRecord], **values: Any) -> bool:
        spec = self.target.steps.get(name)
        if spec is None:
            return False
        into.append((spec["code"], path, False, (spec["detail"], values)))
        return True

    # ---- the tool as a whole
    def tool_rules(self) -> None:
        plan = self.plan
        name = self.tool.name
        for rule, pattern, regex, lo, hi, skip_if in plan.name_rules:
            if skip_if and not self.fired.isdisjoint(skip_if):
                continue
            if (
                (regex is not None and regex.search(name) is None)
                or (lo is not None and len(name) < lo)
                or (hi is not None and len(name) > hi)
            ):
                self.fire(
                    rule,
                    "name",
                    name=name,
                    length=len(name),
                    pattern=pattern,
                    min_length=lo,
                    max_length=hi,
                )
        desc = self.tool.description
        for rule, blank_counts in plan.description_rules:
            if desc is None or desc == "" or (blank_counts and not desc.strip()):
                self.fire(rule, "description", name=name)
        root = self.root
        if plan.root_type_rules:
            raw = root.get("type")
            types = schema_types(root)
            for rule, case in plan.root_type_rules:
                if _root_type_hit(case, root, raw, types):
                    shown = _js(raw) if "type" in root else "`undefined`"
                    self.fire(rule, "inputSchema.type", type=shown)
        for rule, keyword, where in plan.root_keyword_rules:
            if keyword in root:
                self.fire(rule, where, keyword=keyword)
        if plan.root_constrained_rules:
            props, req = root.get("properties"), root.get("required")
            if (isinstance(props, dict) and props) or (isinstance(req, list) and req):
                for rule in plan.root_constrained_rules:
                    self.fire(rule, "inputSchema")
        if plan.limit_rules:
            self.limits()
        if "$schema" in root:
            for rule, allowed in plan.dialect_rules:
                if root["$schema"] not in allowed:
                    self.fire(rule, "inputSchema.$schema", dialect=_code(root["$schema"]))
        props = root.get("properties")
        if isinstance(props, dict):
            for rule, regex, hi in plan.property_name_rules:
                for prop in props:
                    if (regex is not None and regex.search(prop) is None) or (
                        hi is not None and len(prop) > hi
                    ):
                        self.fire(rule, join_path("inputSchema", "properties", prop), property=prop)
        if plan.header_rules:
            self.header_rules()

    def lean_nodes(self) -> list[tuple[dict[str, Any], int]]:
        """The canonical root's subschemas with their depths (computed once per run)."""
        if self.lean is None:
            if self.pathed is not None:
                self.lean = [(s, d) for s, _, d in self.pathed]
            else:
                self.lean = schemas_with_depth(self.root)
        return self.lean

    def pathed_nodes(self) -> list[tuple[dict[str, Any], str, int]]:
        """The canonical root's subschemas with paths and depths (computed once per run)."""
        if self.pathed is None:
            self.pathed = schema_nodes(self.root)
        return self.pathed

    def limits(self) -> None:
        pairs = self.plan.limit_rules
        if not pairs:
            return
        tally = self.tally
        if tally is None:
            tally = _Tally()
            for s, depth in self.lean_nodes():
                tally.node(s, depth)
        for rule, trig in pairs:
            kind, most = trig["measure"], trig["max"]
            if kind == "large-enum-chars":
                threshold = trig.get("threshold", 0)
                if tally.largest_enum <= threshold:
                    continue
                for n in walk_schema(self.root):
                    values = n.schema.get("enum")
                    if isinstance(values, list) and len(values) > threshold:
                        chars = sum(len(v) for v in values if isinstance(v, str))
                        if chars > most:
                            self.fire(
                                rule,
                                join_path(n.path, "enum"),
                                count=chars,
                                max=most,
                                threshold=threshold,
                            )
                continue
            count = (
                tally.properties
                if kind == "property-count"
                else tally.depth
                if kind == "depth"
                else tally.values
                if kind == "enum-value-count"
                else tally.chars
            )
            if count > most:
                self.fire(
                    rule, "inputSchema", count=count, max=most, threshold=trig.get("threshold")
                )

    def header_rules(self) -> None:
        pairs = self.target.fires("header-keyword")
        if not pairs:
            return
        keywords = frozenset(trig["keyword"] for _, trig in pairs)
        walked = self.pathed_nodes() if not self.target.rewrites else self.lean_nodes()
        if all(keywords.isdisjoint(node[0]) for node in walked):
            return
        nodes = self.pathed_nodes()
        for rule, trig in pairs:
            keyword, check = trig["keyword"], trig["check"]
            seen: set[str] = set()
            for s, node_path, _ in nodes:
                if keyword not in s:
                    continue
                value = s[keyword]
                path = join_path(node_path, keyword)
                if check == "token":
                    pattern = str(trig.get("token_pattern") or ".+")
                    if not isinstance(value, str) or not re.search(pattern, value):
                        self.fire(rule, path, keyword=keyword, value=_js(value))
                elif check == "duplicate":
                    if isinstance(value, str):
                        folded = value.casefold()
                        if folded in seen:
                            self.fire(rule, path, keyword=keyword, value=_js(value))
                        seen.add(folded)
                else:
                    types = schema_types(s)
                    if len(types) != 1 or types[0] not in (trig.get("types") or ()):
                        shown = _js(s["type"]) if "type" in s else "`undefined`"
                        self.fire(rule, path, keyword=keyword, value=_js(value), type=shown)

    # ---- subschemas, reported as written (verbatim targets; warnings of rewrite targets too)
    def report_node(self, s: dict[str, Any], path: str) -> None:
        plan = self.plan
        if not plan.reported_keys.isdisjoint(s):
            for key in s:
                rules = plan.reported.get(key)
                if rules:
                    where = path + _segment(key)
                    for rule in rules:
                        self.fire(rule, where, keyword=key)
        for rule, keywords, keyword_set in plan.constraints:
            if not keyword_set.isdisjoint(s):
                present = [k for k in keywords if k in s]
                self.fire(rule, path, keywords=", ".join(f"`{k}`" for k in present))
        if plan.format_keep:
            value = s.get("format")
            if isinstance(value, str):
                for rule, allowed in plan.format_keep:
                    if value not in allowed:
                        self.fire(rule, path + ".format", format=value, keyword="format")
        for rule, trig in plan.min_items:
            if "minItems" in s and s["minItems"] not in trig["values"]:
                self.fire(rule, path + ".minItems", value=_js(s["minItems"]), keyword="minItems")

    def verbatim_node(self, s: dict[str, Any], path: str) -> None:
        self.report_node(s, path)
        plan = self.plan
        if plan.enum_values and isinstance(s.get("enum"), list):
            self.enum_rules(s["enum"], path, drop_allowed=False)
        if "$ref" in s:
            status, _ = resolve_ref(self.root, s["$ref"])
            case = {"external": "external", "ok": None}.get(status, "unresolvable")
            if case:
                for rule, trig in self.target.fires("ref"):
                    if trig["case"] == case:
                        self.fire(rule, join_path(path, "$ref"), ref=_code(s["$ref"]))
        state = self.ap_state(s) if plan.ap_rules else None
        if state is not None:
            for rule, trig in plan.ap_rules:
                if state in trig["values"] and rule.action == "keep":
                    self.fire(
                        rule,
                        join_path(path, "additionalProperties"),
                        value=state,
                        keyword="additionalProperties",
                    )
        if "nullable" in s:
            self.nullable_rules(s, path, None)

    def ap_state(self, s: dict[str, Any]) -> str | None:
        if "additionalProperties" in s:
            ad = s["additionalProperties"]
            if ad is True:
                return "true"
            if ad is False:
                return "false"
            return "schema"
        if "object" in schema_types(s) or any(k in s for k in _OBJECT_HINTS):
            return "missing"
        return None

    def enum_rules(self, values: list[Any], path: str, *, drop_allowed: bool) -> bool:
        """Fire enum-values rules; True when one of them drops the enum."""
        dropped = False
        for rule, trig in self.plan.enum_values:
            case = trig["case"]
            if case == "non-primitive":
                hit = any(isinstance(v, (dict, list)) for v in values)
            else:
                hit = any(not isinstance(v, str) for v in values)
            if hit:
                self.fire(rule, path + ".enum", keyword="enum")
                if drop_allowed and rule.action == "drop-keyword":
                    self.record(rule, path + ".enum", keyword="enum")
                    dropped = True
        return dropped

    def nullable_rules(self, s: dict[str, Any], path: str, out: dict[str, Any] | None) -> bool:
        """Fire nullable rules; True when the keyword is consumed (converted or dropped)."""
        value = s["nullable"]
        consumed = False
        for rule, trig in self.target.fires("nullable"):
            want = str(trig.get("value", "any"))
            hit = (
                want == "any"
                or (want == "true" and value is True)
                or (want == "other" and value is not True)
            )
            if not hit:
                continue
            where = join_path(path, "nullable")
            self.fire(rule, where, keyword="nullable")
            if out is None:
                continue
            if rule.action == "nullable-to-type-union":
                consumed = True
                self.record(rule, where, keyword="nullable")
                current = out.get("type")
                if isinstance(current, str) and current != "null":
                    out["type"] = [current, "null"]
                elif isinstance(current, list) and "null" not in current:
                    out["type"] = [*current, "null"]
                if isinstance(out.get("enum"), list) and None not in out["enum"]:
                    out["enum"] = [*out["enum"], None]
            elif rule.action == "drop-annotation":
                consumed = True
                self.record(rule, where, keyword="nullable")
        return consumed

    # ---- references, inlined (targets with refs: inline)
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

    drops: list[str] = field(default_factory=list)

    # ---- subschemas, rebuilt (targets with schema_style: rewrite)
    def node(self, s: Any, path: str, depth: int = 1, level: int = 1) -> Any:
        """The rewritten subschema ``s`` found at ``path``.

        ``depth`` counts subschemas (the root is 1) and ``level`` JSON nesting; the single pass
        (``tally`` set) measures the limits and the nesting as it goes, bailing out past
        ``MAX_NESTING``. Values the walk copies or drops without descending are measured whole.
        """
        tally = self.tally
        if not isinstance(s, dict):
            if tally is not None:
                self.nesting(s, level - 1)
            return self.non_object(s, path)
        plan = self.plan
        if tally is not None:
            if level > MAX_NESTING:
                raise _Bail
            if depth > tally.depth:
                tally.depth = depth
        if plan.collapse and "anyOf" in s:
            merged = self.collapse_nullable(s, path)
            if merged is not s and tally is not None:
                self.nesting(s["anyOf"], level)
            s = merged
        if plan.reports:
            self.report_node(s, path)
        out: dict[str, Any] = {}
        const_enum: list[Any] | None = None
        one_of: list[Any] | None = None
        nullable_from_type = False
        nullable_key = False
        fates = plan.fates
        node = self.node
        segment = PATH_SEGMENTS.get
        for key, value in s.items():
            fate = fates.get(key)
            if fate is None:
                fate = plan.fate(key)
            if fate == _COPY:
                if value.__class__ in _ATOMS:
                    out[key] = value
                elif tally is not None:
                    out[key] = _clone_within(value, MAX_NESTING - level)
                else:
                    out[key] = _clone(value)
                continue
            if fate == _SPECIAL_KEY:  # the two commonest keywords first, without a path
                if (
                    key == "type"
                    and value.__class__ is str
                    and (plan.plain_types is None or value in plan.plain_types)
                    and "anyOf" not in s
                    and "oneOf" not in s
                ):
                    if plan.upper:
                        self.type_names += 1
                        out["type"] = value.upper()
                    else:
                        out["type"] = value
                    continue
                if key == "properties" and isinstance(value, dict):
                    if tally is not None:
                        self.nesting(value, level, shallow=True)
                        tally.names(value, key)
                    base = path + ".properties"
                    out[key] = {
                        k: node(v, base + (segment(k) or _segment(k)), depth + 1, level + 2)
                        for k, v in value.items()
                    }
                    continue
            if tally is not None:
                if value.__class__ not in _ATOMS and (
                    fate != _SPECIAL_KEY or not self.descends(key, value)
                ):
                    if fate == _SPECIAL_KEY and key in _CLONED_WHOLE:
                        value = _clone_within(value, MAX_NESTING - level)  # bounded copy
                        if key == "required":
                            out[key] = value
                            continue
                    else:
                        self.nesting(value, level)
                if fate == _DROP:
                    self.hidden(key, value, depth)
            where = path + (segment(key) or _segment(key))
            if fate == _DROP:
                for rule in plan.drops[key]:
                    self.fire(rule, where, keyword=key)
                    self.record(rule, where, keyword=key)
                continue
            if fate == _UNKNOWN:
                dropped = False
                for rule, _ in plan.unknown:
                    self.fire(rule, where, keyword=key)
                    if rule.action == "drop-keyword":
                        self.record(rule, where, keyword=key)
                        dropped = True
                if not dropped:
                    out[key] = _clone(value)
                continue
            if key == "type":
                kept = self.type_rules(s, value, where, out)
                if kept is not None:
                    names, nullable_from_type = kept
                    if len(names) == 1:
                        out["type"] = names[0]
                    elif names:
                        out["type"] = names
            elif key in ("properties", "required"):  # properties that are not a map
                out[key] = _clone(value)
            elif key == "items" or key == "not":
                out[key] = node(value, where, depth + 1, level + 1)
            elif key == "enum":
                if tally is not None and isinstance(value, list):
                    tally.enum(value)
                if (
                    isinstance(value, list)
                    and plan.enum_values
                    and self.enum_rules(value, path, drop_allowed=True)
                ):
                    continue
                out[key] = value if tally is not None else _clone(value)  # copied above
            elif key == "format":
                if isinstance(value, str) and plan.format_drop and self.format_drop(value, where):
                    continue
                out[key] = value
            elif key in ("$defs", "definitions"):
                if tally is not None and plan.inlines:
                    raise _Bail  # definitions to drop and references to inline: the full run
                if tally is not None and isinstance(value, dict):
                    self.nesting(value, level, shallow=True)
                    tally.names(value, key)
                children = (
                    {
                        k: node(v, where + _segment(k), depth + 1, level + 2)
                        for k, v in value.items()
                    }
                    if isinstance(value, dict)
                    else _clone(value)
                )
                if key == "definitions":
                    case = "conflicting" if "$defs" in s else "legacy"
                    target_key = "definitions"
                    for rule, trig in self.target.fires("definitions"):
                        if trig["case"] != case:
                            continue
                        self.fire(rule, where, keyword=key)
                        if rule.action == "drop-keyword":
                            self.record(rule, where, keyword=key)
                            target_key = ""
                        elif rule.action == "rename-definitions":
                            self.record(rule, where, keyword=key)
                            target_key = "$defs"
                            if path == "inputSchema":
                                self.renamed_definitions = True
                                self.rename_rule = rule
                    if target_key:
                        out[target_key] = children
                else:
                    out[key] = children
            elif key in ("anyOf", "allOf", "prefixItems"):
                if tally is not None and isinstance(value, list):
                    self.nesting(value, level, shallow=True)
                out[key] = (
                    [node(v, f"{where}[{i}]", depth + 1, level + 2) for i, v in enumerate(value)]
                    if isinstance(value, list)
                    else _clone(value)
                )
            elif key == "oneOf":
                if tally is not None and isinstance(value, list):
                    self.nesting(value, level, shallow=True)
                branches = (
                    [node(v, f"{where}[{i}]", depth + 1, level + 2) for i, v in enumerate(value)]
                    if isinstance(value, list)
                    else _clone(value)
                )
                converted = False
                for rule, _ in self.target.fires("one-of"):
                    self.fire(rule, where, keyword=key)
                    if rule.action == "one-of-to-any-of":
                        self.record(rule, where, keyword=key)
                        converted = True
                if converted:
                    one_of = branches
                else:
                    out[key] = branches
            elif key == "additionalProperties":
                if isinstance(value, dict) and not plan.replaces_map:
                    out[key] = node(value, where, depth + 1, level + 1)
                else:
                    if tally is not None:
                        self.hidden(key, value, depth)
                    out[key] = _clone(value)
            elif key == "const":
                if tally is not None and isinstance(value, str):
                    tally.chars += len(value)
                const_enum = self.const_rules(s, value, where, out)
            elif key == "nullable":
                nullable_key = True
            elif key == "$ref":
                if tally is not None and plan.inlines:
                    raise _Bail
                out[key] = value
        if one_of is not None:
            if "anyOf" in out:
                pass  # `anyOf` beside `oneOf`: the oneOf constraint is dropped (recorded as lossy)
            else:
                out["anyOf"] = one_of
        if const_enum is not None:
            out["enum"] = const_enum
        if nullable_key and not self.nullable_rules(s, path, out):
            out["nullable"] = s["nullable"]
        if nullable_from_type:
            out["nullable"] = True
        if (
            "properties" in s
            or "additionalProperties" in s
            or "required" in s
            or ("type" in s and (s["type"] == "object" or isinstance(s["type"], list)))
        ):
            self.close_object(s, path, out)
        if (plan.enum_format and "enum" in out) or (
            plan.int64 and not plan.int64_set.isdisjoint(out)
        ):
            self.finish_node(out, path)
        return plan.order(out)

    def hidden(self, key: str, value: Any, depth: int) -> None:
        """Account for ``key: value`` of a subschema at ``depth`` that the single pass drops or
        replaces without walking: measure it, and hand the tool to the full run when a reference
        or definitions under it would have been inlined first."""
        assert self.tally is not None
        self.tally.key(key, value, depth)
        if not self.plan.inlines:
            return
        if key in _REF_KEYS:
            raise _Bail
        children: list[Any] = []
        if key in MAP_SLOTS and isinstance(value, dict):
            children = list(value.values())
        elif key in LIST_SLOTS and isinstance(value, list):
            children = value
        elif key in SINGLE_SLOTS:
            children = [value]
        for child in children:
            if isinstance(child, dict):
                for sub, _ in schemas_with_depth(child):
                    if not _REF_KEYS.isdisjoint(sub):
                        raise _Bail

    def descends(self, key: str, value: Any) -> bool:
        """Whether the rewrite walk descends into ``value`` of ``key`` entry by entry (and so
        measures its nesting as it goes)."""
        if key in ("items", "not"):
            return True
        if key in MAP_SLOTS:
            return isinstance(value, dict)
        if key in LIST_SLOTS:
            return isinstance(value, list)
        return (
            key == "additionalProperties"
            and isinstance(value, dict)
            and not (self.plan.replaces_map)
        )

    def nesting(self, value: Any, level: int, *, shallow: bool = False) -> None:
        """Bail out of the single pass when ``value``, found at nesting ``level``, reaches past
        ``MAX_NESTING`` (``shallow``: only its own level, its items are walked one by one)."""
        if shallow:
            if level + 1 > MAX_NESTING:
                raise _Bail
        elif level + json_nesting(value, MAX_NESTING) > MAX_NESTING:
            raise _Bail

    def non_object(self, s: Any, path: str) -> Any:
        """A subschema that is not an object: a boolean schema, or not a schema at all."""
        if s is True or s is False:
            for rule, trig in self.target.fires("boolean-subschema"):
                if trig["value"] is s:
                    self.fire(rule, path, value=_js(s))
                    if rule.action == "replace-with-empty":
                        self.record(rule, path, value=_js(s))
                        return {}
                    return s
            if s is True and self.step("true-subschema-to-empty", path, self.dfs):
                return {}
            return s
        for rule, _ in self.target.fires("non-schema-subschema"):
            self.fire(rule, path, value=_js(s))
            self.record(rule, path, value=_js(s))
            return {}
        return s

    def collapse_nullable(self, s: dict[str, Any], path: str) -> dict[str, Any]:
        branches = s.get("anyOf")
        if "collapse-nullable-any-of" not in self.target.steps or not isinstance(branches, list):
            return s
        if len(branches) != 2:
            return s
        nulls = [b for b in branches if b == {"type": "null"}]
        others = [b for b in branches if b != {"type": "null"}]
        if len(nulls) != 1 or len(others) != 1 or not isinstance(others[0], dict):
            return s
        if "$ref" in others[0]:
            return s
        merged = {k: v for k, v in s.items() if k != "anyOf"}
        for k, v in others[0].items():
            merged.setdefault(k, v)
        merged["nullable"] = True
        self.step("collapse-nullable-any-of", path, self.dfs)
        return merged

    def type_rules(
        self, s: dict[str, Any], value: Any, where: str, out: dict[str, Any]
    ) -> tuple[list[str], bool] | None:
        names = (
            [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []
        )
        if not names:
            return None
        for rule, trig in self.target.fires("type"):
            if trig["case"] != "unknown":
                continue
            allowed = trig.get("allowed") or ()
            for name in list(names):
                if name not in allowed:
                    self.fire(rule, where, type=_js(name), keyword="type")
                    if rule.action == "drop-type":
                        self.record(rule, where, type=_js(name))
                        names.remove(name)
        nullable = False
        keyword_style = self.plan.keyword_style
        if keyword_style and "null" in names and len(names) > 1:
            names = [n for n in names if n != "null"]
            nullable = True
            self.step("null-type-to-nullable", where, self.dfs)
        non_null = [n for n in names if n != "null"]
        if len(non_null) > 1:
            for rule, trig in self.target.fires("type"):
                if trig["case"] != "multi":
                    continue
                self.fire(rule, where, type=_js(names), keyword="type")
                if rule.action == "type-array-to-any-of" and "anyOf" not in s and "oneOf" not in s:
                    self.record(rule, where, type=_js(names))
                    out["anyOf"] = [{"type": self.type_name(n)} for n in names]
                    return [], nullable
        if len(non_null) == 1 and (
            "oneOf" in s or (isinstance(s.get("anyOf"), list) and "anyOf" in s)
        ):
            for rule, trig in self.target.fires("type"):
                if trig["case"] != "with-any-of":
                    continue
                self.fire(rule, where, type=_js(value), keyword="type")
                if rule.action == "drop-type":
                    self.record(rule, where, type=_js(value))
                    return [], nullable
        return [self.type_name(n) for n in names], nullable

    def type_name(self, name: str) -> str:
        if self.target.output.get("type_case") == "upper":
            self.type_names += 1
            return name.upper()
        return name

    def const_rules(
        self, s: dict[str, Any], value: Any, where: str, out: dict[str, Any]
    ) -> list[Any] | None:
        result: list[Any] | None = None
        for rule, trig in self.target.fires("const"):
            shown = _js(value)
            self.fire(rule, where, value=shown, keyword="const")
            if rule.action != "const-to-enum":
                out["const"] = _clone(value)
                continue
            convertible = trig.get("convertible", "any") == "any" or isinstance(value, str)
            if not convertible:
                self.record(rule, where, which="unconvertible", value=shown)
                continue
            enum = s.get("enum")
            if isinstance(enum, list) and not any(_equal(value, e) for e in enum):
                self.record(rule, where, which="conflict", value=shown)
            else:
                self.record(rule, where, value=shown)
            result = [_clone(value)]
        if not self.target.fires("const"):
            out["const"] = _clone(value)
        return result

    def format_drop(self, value: str, where: str) -> bool:
        dropped = False
        for rule, allowed in self.plan.format_drop:
            if allowed is not None and value in allowed:
                continue
            self.fire(rule, where, format=value, keyword="format")
            self.record(rule, where, format=value)
            dropped = True
        return dropped

    def close_object(self, s: dict[str, Any], path: str, out: dict[str, Any]) -> None:
        if "additionalProperties" in s:
            ad = s["additionalProperties"]
            state = "true" if ad is True else "false" if ad is False else "schema"
        else:
            t = s.get("type")
            if (
                t == "object"
                or (isinstance(t, list) and "object" in t)
                or "properties" in s
                or "required" in s
            ):
                state = "missing"
            else:
                return
        plan = self.plan
        where = path + ".additionalProperties"
        matched = False
        for rule in plan.ap_by_state.get(state, ()):
            if rule.action == "keep":
                self.fire(rule, where, value=state, keyword="additionalProperties")
                continue
            matched = True
            self.fire(rule, where, value=state, keyword="additionalProperties")
            self.record(rule, where, value=state)
            if rule.action == "close-object":
                out["additionalProperties"] = False
            elif rule.action == "drop-keyword":
                out.pop("additionalProperties", None)
        if state == "true" and not matched and plan.drop_open:
            self.step("drop-open-additional-properties", where, self.dfs)
            out.pop("additionalProperties", None)
        if not plan.closing:
            return
        canonical = _as_dict(s.get("properties"))
        required = _as_list(s.get("required"))
        props: dict[str, Any] = out.get("properties") or {}
        base = path + ".properties"
        diagnostics, dfs, fired = self.diagnostics, self.dfs, self.fired
        for name in canonical:
            if name in required:
                continue
            where = base + _segment(name)
            values = {"property": name}  # read-only, shared by this property's records
            # what fire() and record() append, per optional-property rule, in rule order
            for rank, code, supported, rule, spec in plan.optional_records:
                diagnostics.append((rank, where, code, supported, (rule, values)))
                fired.add(code)
                if spec is not None:
                    dfs.append((spec["code"], where, rule.lossy, (spec["detail"], values)))
            props[name] = self.with_null(props.get(name, {}))
        out["properties"] = props
        out["required"] = list(canonical)

    def with_null(self, schema: Any) -> Any:
        if not isinstance(schema, dict):
            return schema
        out = dict(schema)
        t = out.get("type")
        if isinstance(t, str):
            if t != "null":
                out["type"] = [t, "null"]
        elif isinstance(t, list):
            if "null" not in t:
                out["type"] = [*t, "null"]
        elif isinstance(out.get("anyOf"), list):
            if not any(isinstance(b, dict) and b.get("type") == "null" for b in out["anyOf"]):
                out["anyOf"] = [*out["anyOf"], {"type": "null"}]
            return out
        elif "$ref" in out:
            branch = {k: v for k, v in out.items() if k != "description"}
            wrapped: dict[str, Any] = {}
            if "description" in out:
                wrapped["description"] = out["description"]
            wrapped["anyOf"] = [branch, {"type": "null"}]
            return self.plan.order(wrapped)
        else:
            return out
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return self.plan.order(out)

    def finish_node(self, out: dict[str, Any], path: str) -> None:
        plan = self.plan
        values = out.get("enum") if plan.enum_format else None
        if (
            isinstance(values, list)
            and values
            and all(isinstance(v, str) for v in values)
            and "format" not in out
            and self.step("add-enum-format", join_path(path, "format"), self.dfs)
        ):
            out["format"] = "enum"
        if plan.int64_set.isdisjoint(out):
            return
        for key in plan.int64:
            v = out.get(key)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                out[key] = str(int(v)) if float(v).is_integer() else str(v)
                self.int64_values += 1
                self.int64_seen.add(key)

    def rewrite_refs(self, schema: Any) -> None:
        rule = getattr(self, "rename_rule", None)
        if not self.renamed_definitions or rule is None:
            return
        for node in walk_schema(schema, "inputSchema"):
            ref = node.schema.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/definitions/"):
                node.schema["$ref"] = "#/$defs/" + ref[len("#/definitions/") :]
                self.record(
                    rule,
                    join_path(node.path, "$ref"),
                    into=self.post,
                    which="reference",
                    ref=_code(ref),
                )

    # ---- the whole run
    def root_type_actions(
        self, schema: dict[str, Any], into: list[TransformationRecord]
    ) -> dict[str, Any]:
        for rule, _case in self.plan.root_type_rules:
            if rule.code not in self.fired:
                continue
            where = "inputSchema.type"
            shown = _js(self.root.get("type")) if "type" in self.root else "`undefined`"
            if rule.action == "add-type-object":
                schema = {"type": "object", **{k: v for k, v in schema.items() if k != "type"}}
                self.record(rule, where, into=into, type=shown)
            elif rule.action in ("normalize-type-object", "narrow-type-object"):
                schema = {k: ("object" if k == "type" else v) for k, v in schema.items()}
                self.record(rule, where, into=into, type=shown)
        return schema

    def empty_schema(self, resolved: dict[str, Any]) -> bool:
        if not self.plan.empty_rules:
            return False
        props, req = resolved.get("properties"), resolved.get("required")
        allowed = {"type", "title", "description", "properties", "required", "propertyOrdering"}
        if (isinstance(props, dict) and props) or (isinstance(req, list) and req):
            return False
        if not set(resolved) <= allowed:
            return False
        for rule, _ in self.target.fires("empty-schema"):
            self.fire(rule, "inputSchema")
        return True

    def envelope(self, recipe: _Recipe, schema: Any, omit_schema: bool) -> dict[str, Any]:
        """The target's output envelope with the tool's name, description and schema in it."""
        out: dict[str, Any] = {}
        desc = self.tool.description
        show = desc is not None and (self.plan.describe_empty or bool(desc))
        for key, kind, value in recipe:
            if kind == "$name":
                out[key] = self.tool.name
            elif kind == "$description":
                if show:
                    out[key] = desc
            elif kind == "$schema":
                if not omit_schema:
                    out[key] = schema
            elif kind == "nested":
                out[key] = self.envelope(value, schema, omit_schema)
            else:
                out[key] = _clone(value)
        return out

    def execute(self) -> Outcome:
        nesting = json_nesting(self.root)
        if nesting > MAX_NESTING:
            self.diagnostics.append(
                diagnostic_record(
                    Diagnostic(
                        provider_id=self.target.id,
                        tool_name=self.tool.name,
                        severity="error",
                        code=NESTING_CODE,
                        message=f"The input schema nests more than {MAX_NESTING} levels deep; "
                        "no target accepts it and provcat does not walk it.",
                        path="inputSchema",
                        compile=not_compilable("Refused: flatten the schema."),
                        docs_url=None,
                    )
                )
            )
            return Outcome(self.diagnostics, [], None)
        self.tool_rules()
        output = self.target.output
        steps: list[TransformationRecord] = []
        if not self.target.rewrites:
            for s, path, _ in self.pathed_nodes():
                self.verbatim_node(s, path)
            self.step("rename-input-schema", "inputSchema", steps)
            self.step("enable-strict", "inputSchema", steps)
            verbatim = self.root_type_actions(_clone(self.root), steps)
            return Outcome(
                self.diagnostics,
                steps,
                self.envelope(self.plan.recipe, verbatim, False),
            )
        resolved: Any = self.root
        if output.get("refs") == "inline":
            resolved = self.inline(self.root, "inputSchema", ())
            for where in self.drops:
                self.step(
                    "drop-inlined-definitions", where, self.pre, keyword=where.rsplit(".", 1)[-1]
                )
            if json_nesting(resolved) > MAX_NESTING:
                self.diagnostics.append(
                    diagnostic_record(
                        Diagnostic(
                            provider_id=self.target.id,
                            tool_name=self.tool.name,
                            severity="error",
                            code=NESTING_CODE,
                            message="With its references inlined the input schema nests more "
                            f"than {MAX_NESTING} levels deep.",
                            path="inputSchema",
                            compile=not_compilable("Refused: flatten the schema."),
                        )
                    )
                )
                return Outcome(self.diagnostics, self.pre, None)
        omit = isinstance(resolved, dict) and self.empty_schema(resolved)
        schema: Any = None
        if not omit:
            schema = self.node(resolved, "inputSchema")
            if isinstance(schema, dict):
                self.rewrite_refs(schema)
        if omit:
            for rule, _ in self.target.fires("empty-schema"):
                self.record(rule, "inputSchema", into=steps)
        else:
            self.step("rename-input-schema", "inputSchema", steps)
        self.step("enable-strict", "inputSchema", steps)
        if isinstance(schema, dict):
            schema = self.root_type_actions(schema, steps)
        tail = self.tail()
        if output.get("refs") == "inline":
            ordered = [*self.pre, *self.dfs, *steps, *self.post, *tail]
        else:
            ordered = [*steps, *self.pre, *self.dfs, *self.post, *tail]
        return Outcome(self.diagnostics, ordered, self.envelope(self.plan.recipe, schema, omit))

    def single_pass(self) -> Outcome:
        """:meth:`execute` for a rewrite target in one walk: the nesting check and the limit
        measures ride along with the rewrite instead of walking the input twice more first.
        Raises ``_Bail`` when the input nests too deep or has references or definitions for a
        target that inlines them (the full run handles both)."""
        self.tally = _Tally()
        root = self.root
        omit = self.empty_schema(root)
        schema: Any = None
        if omit:
            self.nesting(root, 0)  # nothing to inline in an empty schema, so root is resolved
        else:
            schema = self.node(root, "inputSchema")
        self.tool_rules()
        steps: list[TransformationRecord] = []
        if omit:
            for rule, _ in self.target.fires("empty-schema"):
                self.record(rule, "inputSchema", into=steps)
        else:
            if isinstance(schema, dict):
                self.rewrite_refs(schema)
            self.step("rename-input-schema", "inputSchema", steps)
        self.step("enable-strict", "inputSchema", steps)
        if isinstance(schema, dict):
            schema = self.root_type_actions(schema, steps)
        tail = self.tail()
        if self.plan.inlines:  # nothing was inlined, so ``pre`` is empty
            ordered = [*self.dfs, *steps, *self.post, *tail]
        else:
            ordered = [*steps, *self.pre, *self.dfs, *self.post, *tail]
        return Outcome(self.diagnostics, ordered, self.envelope(self.plan.recipe, schema, omit))

    def verbatim_pass(self) -> Outcome:
        """:meth:`execute` for a target that sends the schema as written, in one walk: the copy,
        the per-subschema reports, the nesting check and the subschema list the tool-level
        rules read all come from it. Raises ``_Bail`` when the input nests too deep."""
        self.pathed = []
        copy = self.verbatim_walk(self.root, "inputSchema", 1, 1)
        self.tool_rules()
        steps: list[TransformationRecord] = []
        self.step("rename-input-schema", "inputSchema", steps)
        self.step("enable-strict", "inputSchema", steps)
        schema = self.root_type_actions(copy, steps)
        return Outcome(self.diagnostics, steps, self.envelope(self.plan.recipe, schema, False))

    def verbatim_walk(self, s: dict[str, Any], path: str, depth: int, level: int) -> Any:
        """A deep copy of subschema ``s``; reports it and its subschemas in ``schema_nodes``
        order (slots in their fixed order, pre-order) and records them in ``pathed``."""
        if level > MAX_NESTING:
            raise _Bail
        assert self.pathed is not None
        self.pathed.append((s, path, depth))
        self.verbatim_node(s, path)
        if _SLOTS.isdisjoint(s):
            return {k: v if v.__class__ in _ATOMS else self.copied(v, level) for k, v in s.items()}
        walked: dict[str, Any] = {}
        for slot in MAP_SLOTS:
            entries = s.get(slot)
            if isinstance(entries, dict):
                walked[slot] = self.verbatim_entries(entries, path + _segment(slot), depth, level)
        for slot in LIST_SLOTS:
            entries = s.get(slot)
            if isinstance(entries, list):
                walked[slot] = self.verbatim_entries(entries, path + _segment(slot), depth, level)
        for slot in SINGLE_SLOTS:
            child = s.get(slot)
            if isinstance(child, dict):
                walked[slot] = self.verbatim_walk(
                    child, path + _segment(slot), depth + 1, level + 1
                )
        out: dict[str, Any] = {}
        for key, value in s.items():
            if key in walked:
                out[key] = walked[key]
            else:
                out[key] = self.copied(value, level)
        return out

    def verbatim_entries(
        self, entries: dict[str, Any] | list[Any], base: str, depth: int, level: int
    ) -> Any:
        """The copied entries of a map or list slot of a subschema at ``level``: subschemas
        walked, anything else copied."""
        if level + 1 > MAX_NESTING:
            raise _Bail

        def one(value: Any, where: str) -> Any:
            if isinstance(value, dict):
                return self.verbatim_walk(value, where, depth + 1, level + 2)
            return self.copied(value, level + 1)

        if isinstance(entries, dict):
            return {k: one(v, base + _segment(k)) for k, v in entries.items()}
        return [one(v, f"{base}[{i}]") for i, v in enumerate(entries)]

    def copied(self, value: Any, level: int) -> Any:
        """A deep copy of ``value``, held at nesting ``level`` (bails out past the limit)."""
        if value.__class__ in _ATOMS:
            return value
        return _clone_within(value, MAX_NESTING - level)

    def tail(self) -> list[TransformationRecord]:
        """The steps recorded once per run after the walk (type case, int64 strings)."""
        tail: list[TransformationRecord] = []
        if self.type_names:
            self.step("uppercase-types", "inputSchema", tail, count=self.type_names)
        if self.int64_values:
            keywords = ", ".join(
                f"`{k}`"
                for k in self.target.output.get("int64_keywords") or ()
                if k in self.int64_seen
            )
            self.step(
                "int64-as-string", "inputSchema", tail, count=self.int64_values, keywords=keywords
            )
        return tail

    rename_rule: Rule | None = None


def run(tool: CanonicalTool, target: Target) -> Outcome:
    """Check and compile ``tool`` for ``target`` in one walk."""
    if plan_for(target).single_pass:
        attempt = _Run(target, tool, tool.input_schema)
        try:
            return attempt.single_pass() if target.rewrites else attempt.verbatim_pass()
        except _Bail:
            pass  # nested too deep: the full run reports it
    return _Run(target, tool, tool.input_schema).execute()
