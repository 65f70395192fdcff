"""The rules checked once per tool: name, description, root type and keywords, limits, dialect,
property names, header keywords."""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from provcat.patterns import compile_pattern
from provcat.toolschema.core import (
    join_path,
    schema_types,
)
from provcat.toolschema.limits import LimitChecks
from provcat.toolschema.values import (
    _code,
    _js,
)

_VERDICTS_MAX = 4096
_schema = itemgetter(0)  # a walked node's subschema


def _root_type_hit(case: str, root: dict[str, Any], raw: Any, types: list[str]) -> bool:
    """Whether the root's ``type`` is a ``root-type`` trigger's case. No case hits a root whose
    ``type`` is the string "object" (``tool_rules`` skips the question for it)."""
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


class ToolChecks(LimitChecks):
    """Fires every rule whose trigger looks at the tool as a whole."""

    def tool_rules(self) -> None:
        """Fire the tool-level rules, group by group in a fixed order; a group whose quick test
        (``ToolProgram``) the tool passes fires nothing and is skipped."""
        plan = self.plan
        program = self.program
        tool = self.tool
        if program.named:
            name = tool.name
            if not program.name_lo <= len(name) <= program.name_hi:
                self.name_rules(name)
            else:
                for pattern in program.name_regexes:
                    if pattern.search(name) is None:
                        self.name_rules(name)
                        break
        if program.described:
            desc = tool.description
            if not desc or (program.blank_counts and not desc.strip()):
                for rule, blank_counts in plan.description_rules:
                    if desc is None or desc == "" or (blank_counts and not desc.strip()):
                        self.fire(rule, "description", name=tool.name)
        root = self.root
        # a root typed exactly "object" is no case of any root-type trigger (the usual root)
        if plan.root_type_rules:
            raw = root.get("type")
            if raw != "object" or raw.__class__ is not str:
                types = schema_types(root)
                for rule, case in plan.root_type_rules:
                    if _root_type_hit(case, root, raw, types):
                        shown = _js(raw) if "type" in root else "`undefined`"
                        self.fire(rule, "inputSchema.type", type=shown)
        if program.root_keywords and not program.root_keywords.isdisjoint(root):
            for rule, keyword, where in plan.root_keyword_rules:
                if keyword in root:
                    self.fire(rule, where, keyword=keyword)
        if plan.root_constrained_rules:
            props, req = root.get("properties"), root.get("required")
            if (isinstance(props, dict) and props) or (isinstance(req, list) and req):
                for rule in plan.root_constrained_rules:
                    self.fire(rule, "inputSchema")
        if plan.limit_rules:
            tally = self.tally
            # every count within the bound its rules fire past (the usual schema): none fires
            if (
                tally is None
                or tally.properties > program.most_properties
                or tally.depth > program.most_depth
                or tally.values > program.most_values
                or tally.largest_enum > program.most_largest_enum
                or tally.chars > program.most_chars
            ):
                self.limits()
        if plan.dialect_rules and "$schema" in root:
            for rule, allowed in plan.dialect_rules:
                if root["$schema"] not in allowed:
                    self.fire(rule, "inputSchema.$schema", dialect=_code(root["$schema"]))
        if plan.property_name_rules:
            props = root.get("properties")
            # names repeat from tool to tool: a tool whose every name passed every rule before
            # fires nothing
            if isinstance(props, dict) and not program.passing_names.issuperset(props):
                self.property_name_rules(props)
        if plan.header_rules:
            self.header_rules()

    def property_name_rules(self, props: dict[str, Any]) -> None:
        """Fire the top-level-property-name rules each of ``props`` breaks; remember the names
        when none does (``ToolProgram.passing_names``)."""
        passed = True
        for rule, regex, hi, verdicts in self.plan.property_name_rules:
            # every name matching the pattern within the length (the usual tool): asked in C,
            # each name read once, none remembered (names new to this process are the norm)
            if (regex is None or None not in map(regex.search, props)) and (
                hi is None or not props or max(map(len, props)) <= hi
            ):
                continue
            for prop in props:
                fails = verdicts.get(prop)
                if fails is None:  # names repeat from tool to tool: each is read once
                    fails = (regex is not None and regex.search(prop) is None) or (
                        hi is not None and len(prop) > hi
                    )
                    if len(verdicts) < _VERDICTS_MAX:
                        verdicts[prop] = fails
                if fails:
                    passed = False
                    path = join_path("inputSchema", "properties", prop)
                    self.fire(rule, path, property=prop)
        passing = self.program.passing_names
        if passed and len(passing) + len(props) <= _VERDICTS_MAX:
            passing.update(props)

    def name_rules(self, name: str) -> None:
        """Fire the tool-name rules the name breaks (one at least, its quick test says)."""
        for rule, pattern, regex, lo, hi, skip_if in self.plan.name_rules:
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

    def header_rules(self) -> None:
        pairs = self.plan.header_rules
        if not pairs:
            return
        walked = self.pathed_nodes() if not self.plan.rewrites else self.lean_nodes()
        # a schema without the keywords anywhere (the usual one) fires nothing
        if all(map(self.program.header_keywords.isdisjoint, map(_schema, walked))):
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
                    if not isinstance(value, str) or not compile_pattern(pattern).search(value):
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
