"""Keywords a target reports, drops or does not know, formats it drops or does not enforce, and
enum values it refuses."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.paths import path_segment
from provcat.toolschema.run_state import Run
from provcat.toolschema.values import clone, shown


def report(run: Run, s: dict[str, Any], path: str) -> None:
    """Fire the rules that report subschema ``s`` as it is written: each reported keyword (in
    the subschema's order), each constraints rule whose keywords it holds, formats outside a
    rule's list and ``minItems`` outside a rule's values."""
    rules = run.rules
    if rules.report_keys.isdisjoint(s):
        return
    for key in s:
        for rule in rules.reported.get(key, ()):
            run.fire(rule, path + path_segment(key), keyword=key)
    for rule, keywords, keyword_set in rules.constraints:
        if not keyword_set.isdisjoint(s):
            run.fire(rule, path, keywords=", ".join(f"`{k}`" for k in keywords if k in s))
    value = s.get("format")
    if isinstance(value, str):
        for rule, allowed in rules.format_keep:
            if value not in allowed:
                run.fire(rule, path + ".format", format=value, keyword="format")
    if "minItems" in s:
        for rule, trig in rules.fires("min-items-not-in"):
            if s["minItems"] not in trig["values"]:
                run.fire(rule, path + ".minItems", value=shown(s["minItems"]), keyword="minItems")


def drop(run: Run, key: str, where: str) -> None:
    """``key`` at ``where`` is dropped: each rule that drops it fires and records."""
    for rule in run.rules.drops[key]:
        run.fire(rule, where, keyword=key)
        run.record(rule, where, keyword=key)


def unknown(run: Run, key: str, value: Any, where: str, out: dict[str, Any]) -> None:
    """A keyword the target does not know: the unknown-keyword rules fire; copied unless one
    drops it."""
    dropped = False
    for rule, _ in run.rules.fires("unknown-keyword"):
        run.fire(rule, where, keyword=key)
        if rule.action == "drop-keyword":
            run.record(rule, where, keyword=key)
            dropped = True
    if not dropped:
        out[key] = clone(value)


def enum_values(run: Run, values: list[Any], path: str, *, drop_allowed: bool) -> bool:
    """Fire the enum-values rules ``values`` break; True when one of them drops the enum."""
    dropped = False
    for rule, trig in run.rules.fires("enum-values"):
        if trig["case"] == "non-primitive":
            hit = any(isinstance(v, (dict, list)) for v in values)
        elif trig["case"] == "case-collision":
            strings = {v for v in values if isinstance(v, str)}
            hit = len({v.casefold() for v in strings}) < len(strings)
        else:
            hit = any(not isinstance(v, str) for v in values)
        if hit:
            run.fire(rule, path + ".enum", keyword="enum")
            if drop_allowed and rule.action == "drop-keyword":
                run.record(rule, path + ".enum", keyword="enum")
                dropped = True
    return dropped


def format_dropped(run: Run, value: str, where: str) -> bool:
    """Fire the rules that drop format ``value``; True when one does."""
    dropped = False
    for rule, allowed in run.rules.format_drop:
        if allowed is not None and value in allowed:
            continue
        run.fire(rule, where, format=value, keyword="format")
        run.record(rule, where, format=value)
        dropped = True
    return dropped
