"""What a tool and its parts are called and declared as: the tool's name and description,
top-level property names, header keywords, the JSON Schema dialect."""

from __future__ import annotations

from typing import Any

from provcat.patterns import compile_pattern
from provcat.toolschema.families.headers import HEADER_CHECKS
from provcat.toolschema.families.objects import type_shown
from provcat.toolschema.paths import join_path
from provcat.toolschema.run_state import Run
from provcat.toolschema.subschemas import schema_types
from provcat.toolschema.values import code, shown


def tool_name(run: Run) -> None:
    """Fire the tool-name rules the name breaks (a rule is skipped when a code it names in
    ``skip_if`` fired already)."""
    name = run.tool.name
    for rule, pattern, regex, lo, hi, skip_if in run.rules.name_rules:
        if skip_if and not run.fired.isdisjoint(skip_if):
            continue
        if (
            (regex is not None and regex.search(name) is None)
            or (lo is not None and len(name) < lo)
            or (hi is not None and len(name) > hi)
        ):
            run.fire(
                rule,
                "name",
                name=name,
                length=len(name),
                pattern=pattern,
                min_length=lo,
                max_length=hi,
            )


def description(run: Run) -> None:
    """Fire the missing-description rules (blank counts as missing where a rule says so)."""
    desc = run.tool.description
    for rule, trig in run.rules.fires("missing-description"):
        blank_counts = bool(trig.get("blank_counts"))
        if desc is None or desc == "" or (blank_counts and not desc.strip()):
            run.fire(rule, "description", name=run.tool.name)


def dialect(run: Run) -> None:
    """Fire the dialect rules a root ``$schema`` outside their list breaks."""
    root = run.root
    if "$schema" not in root:
        return
    for rule, trig in run.rules.fires("dialect"):
        if root["$schema"] not in tuple(trig["allowed"]):
            run.fire(rule, "inputSchema.$schema", dialect=code(root["$schema"]))


def property_names(run: Run) -> None:
    """Fire the top-level-property-name rules each root property name breaks."""
    props = run.root.get("properties")
    if not isinstance(props, dict):
        return
    for rule, regex, hi in run.rules.property_name_rules:
        for prop in props:
            if (regex is not None and regex.search(prop) is None) or (
                hi is not None and len(prop) > hi
            ):
                run.fire(rule, join_path("inputSchema", "properties", prop), property=prop)


def header_keywords(run: Run) -> None:
    """Fire the header-keyword rules: a header name that is no token, a header named twice, a
    header on a subschema of a type that cannot carry one; where it sits and the values it may
    carry are checked in families/headers.py."""
    pairs = run.rules.fires("header-keyword")
    if not pairs:
        return
    nodes = run.nodes()
    context: dict[str, Any] = {}  # what a check in families/headers.py computes once per tool
    for rule, trig in pairs:
        keyword, check = trig["keyword"], trig["check"]
        seen: set[str] = set()
        for s, node_path, _ in nodes:
            if keyword not in s:
                continue
            value: Any = s[keyword]
            path = join_path(node_path, keyword)
            if check == "token":
                pattern = str(trig.get("token_pattern") or ".+")
                if not isinstance(value, str) or not compile_pattern(pattern).search(value):
                    run.fire(rule, path, keyword=keyword, value=shown(value))
            elif check in HEADER_CHECKS:
                HEADER_CHECKS[check](run, rule, trig, s, path, value, context)
            elif check == "duplicate":
                if isinstance(value, str):
                    folded = value.casefold()
                    if folded in seen:
                        run.fire(rule, path, keyword=keyword, value=shown(value))
                    seen.add(folded)
            else:
                types = schema_types(s)
                if len(types) != 1 or types[0] not in (trig.get("types") or ()):
                    run.fire(rule, path, keyword=keyword, value=shown(value), type=type_shown(s))
