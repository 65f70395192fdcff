"""Schema targets: validate every rule of the loaded target files (generator.target_files) against
the shared vocabulary (generator.target_records freezes the valid ones into snapshot records).

The rule files are data for one engine (``provcat.toolschema``); this module makes sure the
engine can run them: every trigger, action and step exists, each parameter is one the trigger
takes, each regular expression compiles, each template uses only the placeholders its trigger
fills, and each rule's ``lossy`` flag agrees with what its action does.
"""

from __future__ import annotations

import re
import string
from collections.abc import Set
from typing import Any

from generator.diagnostics import Diagnostic, diag, errors
from generator.loader import path_text
from generator.target_files import TargetDecl
from provcat.catalog.keys import suggest
from provcat.patterns import compile_pattern
from provcat.toolschema.vocabulary import (
    ACTIONS,
    ANNOTATION_KEYWORDS,
    COMMON_PLACEHOLDERS,
    STEPS,
    STRUCTURAL_KEYWORDS,
    TRIGGERS,
    action_lossy,
)


def _fields(template: str) -> list[str] | None:
    try:
        return [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
    except ValueError:
        return None


def rule_triggers(rule: dict[str, Any]) -> list[dict[str, Any]]:
    """A rule's triggers as a list (a rule may name one trigger or several)."""
    trig = rule["trigger"]
    return list(trig) if isinstance(trig, list) else [trig]


def _template_problems(
    decl: TargetDecl, path: tuple[str | int, ...], template: str, allowed: set[str]
) -> list[Diagnostic]:
    names = _fields(template)
    loc = decl.doc.loc(path)
    if names is None:
        return [diag("invalid_message_template", loc, f"{path_text(path)}: unbalanced braces")]
    bad = sorted({n for n in names if n not in allowed})
    if bad:
        return [
            diag(
                "invalid_message_template",
                loc,
                f"{path_text(path)}: placeholder(s) {', '.join('{' + b + '}' for b in bad)} "
                f"are not filled here; available: {', '.join(sorted(allowed)) or 'none'}",
            )
        ]
    return []


def _check_trigger(
    decl: TargetDecl, at: tuple[str | int, ...], trig: dict[str, Any], codes: set[str]
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    kind = trig["kind"]
    spec = TRIGGERS.get(kind)
    loc = decl.doc.loc((*at, "kind"))
    if spec is None:
        out.append(
            diag(
                "unknown_rule_trigger",
                loc,
                f"unknown trigger kind '{kind}'; known: {', '.join(sorted(TRIGGERS))}",
                suggest(kind, TRIGGERS),
            )
        )
        return out
    for param in sorted(set(trig) - spec.params):
        out.append(
            diag(
                "invalid_rule_trigger",
                decl.doc.loc((*at, param), key=True),
                f"trigger '{kind}' takes no parameter '{param}'; it takes "
                f"{', '.join(sorted(spec.params - {'kind'})) or 'none'}",
            )
        )
    for param in sorted(spec.required - set(trig)):
        out.append(
            diag("invalid_rule_trigger", decl.doc.loc(at), f"trigger '{kind}' needs '{param}'")
        )
    for param, allowed in spec.cases.items():
        if param not in trig:
            continue
        values = trig[param] if isinstance(trig[param], list) else [trig[param]]
        for value in values:
            if value not in allowed:
                out.append(
                    diag(
                        "invalid_rule_trigger",
                        decl.doc.loc((*at, param)),
                        f"trigger '{kind}': {param} {value!r} is not one of "
                        f"{', '.join(repr(a) for a in allowed)}",
                    )
                )
    for param in ("pattern", "token_pattern"):
        if isinstance(trig.get(param), str):
            try:
                compile_pattern(trig[param])
            except re.error as exc:
                out.append(
                    diag(
                        "invalid_rule_regex",
                        decl.doc.loc((*at, param)),
                        f"{param} {trig[param]!r} does not compile: {exc}",
                    )
                )
    for code in trig.get("skip_if") or ():
        if code not in codes:
            out.append(
                diag(
                    "invalid_rule_trigger",
                    decl.doc.loc((*at, "skip_if")),
                    f"skip_if names '{code}', which is not a rule of this target",
                )
            )
    return out


def _check_rule(
    decl: TargetDecl, index: int, rule: dict[str, Any], codes: set[str], style: str
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    at: tuple[str | int, ...] = ("rules", index)
    tid = decl.id
    code = rule["code"]
    if not code.startswith(f"{tid}/"):
        out.append(
            diag(
                "rule_code_prefix",
                decl.doc.loc((*at, "code")),
                f"rule code '{code}' does not start with '{tid}/'",
                f"rename it to '{tid}/{code.split('/', 1)[-1]}'",
            )
        )
    if not rule.get("docs_url"):
        out.append(diag("missing_docs_url", decl.doc.loc(at), f"rule '{code}' has no docs_url"))
    triggers = rule_triggers(rule)
    trigger_paths: list[tuple[str | int, ...]] = (
        [(*at, "trigger", i) for i in range(len(triggers))]
        if isinstance(rule["trigger"], list)
        else [(*at, "trigger")]
    )
    placeholders = set(COMMON_PLACEHOLDERS)
    known = True
    for trig, tpath in zip(triggers, trigger_paths, strict=True):
        found = _check_trigger(decl, tpath, trig, codes)
        out.extend(found)
        spec = TRIGGERS.get(trig["kind"])
        if spec is None:
            known = False
            continue
        placeholders |= set(spec.placeholders)
        if spec.scope == "node":
            placeholders.add("keyword")
    action = rule["action"]
    action_loc = decl.doc.loc((*at, "action"))
    if action not in ACTIONS:
        out.append(
            diag(
                "unknown_rule_action",
                action_loc,
                f"unknown action '{action}'; known: {', '.join(sorted(ACTIONS))}",
                suggest(action, ACTIONS),
            )
        )
        return out
    if not known:
        return out
    for trig in triggers:
        spec = TRIGGERS[trig["kind"]]
        if action not in spec.actions:
            out.append(
                diag(
                    "unknown_rule_action",
                    action_loc,
                    f"trigger '{trig['kind']}' cannot take action '{action}'; it takes "
                    f"{', '.join(sorted(spec.actions))}",
                )
            )
        elif (
            style == "verbatim"
            and spec.scope == "node"
            and (not spec.verbatim or action not in ("keep", "unsupported"))
        ):
            out.append(
                diag(
                    "unknown_rule_action",
                    action_loc,
                    f"a verbatim target sends subschemas as written; '{trig['kind']}' with "
                    f"'{action}' needs schema_style: rewrite",
                )
            )
        if action == "drop-annotation" and trig["kind"] == "keyword":
            bad = sorted(set(trig.get("keywords") or ()) - ANNOTATION_KEYWORDS)
            if bad:
                out.append(
                    diag(
                        "lossy_action_marked_safe",
                        action_loc,
                        f"drop-annotation drops {', '.join(bad)}, which constrain values; "
                        "use drop-keyword with lossy: true",
                    )
                )
        nature = action_lossy(action, trig)
        if nature is True and rule["lossy"] is False:
            out.append(
                diag(
                    "lossy_action_marked_safe",
                    decl.doc.loc((*at, "lossy")),
                    f"'{action}' under trigger '{trig['kind']}' lets more values through; "
                    "the rule must say lossy: true",
                )
            )
        elif nature is False and rule["lossy"] is True:
            out.append(
                diag(
                    "safe_action_marked_lossy",
                    decl.doc.loc((*at, "lossy")),
                    f"'{action}' under trigger '{trig['kind']}' never lets more values through; "
                    "the rule must say lossy: false",
                )
            )
        elif nature is None:
            out.append(
                diag(
                    "invalid_rule_trigger",
                    decl.doc.loc((*at, "lossy")),
                    f"'{action}' is lossy for some of the trigger's values and safe for others; "
                    "split the rule",
                )
            )
    transforms = ACTIONS[action].transforms
    has_record = "transformation" in rule
    if transforms and not has_record:
        out.append(
            diag(
                "invalid_rule_record",
                decl.doc.loc(at),
                f"action '{action}' changes the output; rule '{code}' needs a transformation",
            )
        )
    if not transforms and (has_record or rule.get("extra")):
        out.append(
            diag(
                "invalid_rule_record",
                decl.doc.loc((*at, "transformation" if has_record else "extra")),
                f"action '{action}' changes nothing; rule '{code}' may not record a transformation",
            )
        )
    extra = rule.get("extra") or {}
    wanted: set[str] = set()
    if action == "rename-definitions":
        wanted = {"reference"}
    elif action == "one-of-to-any-of":
        wanted = {"disjoint"}  # the safe record of a `oneOf` whose branches exclude each other
    elif action == "const-to-enum":
        wanted = {"conflict"}
        if any(t.get("convertible", "any") != "any" for t in triggers):
            wanted.add("unconvertible")
    elif action == "inline-ref" and any(t.get("case") == "with-siblings" for t in triggers):
        wanted = {"conflict"}  # a sibling that replaces a referenced constraint
    for name in sorted(wanted - set(extra)):
        out.append(
            diag(
                "invalid_rule_record",
                decl.doc.loc(at),
                f"action '{action}' needs an extra record '{name}'",
            )
        )
    for name in sorted(set(extra) - wanted):
        out.append(
            diag(
                "invalid_rule_record",
                decl.doc.loc((*at, "extra", name), key=True),
                f"action '{action}' makes no '{name}' record",
            )
        )
    templates: list[tuple[tuple[str | int, ...], str]] = [
        ((*at, "message"), rule["message"]),
        ((*at, "compile"), rule["compile"]),
    ]
    if has_record:
        templates.append(((*at, "transformation", "detail"), rule["transformation"]["detail"]))
    for name, record in extra.items():
        templates.append(((*at, "extra", name, "detail"), record["detail"]))
    for path, template in templates:
        out.extend(_template_problems(decl, path, template, placeholders))
    return out


def _envelope_counts(value: Any, counts: dict[str, int]) -> None:
    if isinstance(value, dict):
        for v in value.values():
            _envelope_counts(v, counts)
    elif isinstance(value, str) and value in counts:
        counts[value] += 1


def _coverage(
    decl: TargetDecl, data: dict[str, Any], rules: list[dict[str, Any]]
) -> list[Diagnostic]:
    """A rewrite target must say what happens to every keyword it does not emit."""
    output = data["output"]
    out: list[Diagnostic] = []
    kinds = {t["kind"]: (r, t) for r in rules for t in rule_triggers(r)}
    order = set(output.get("key_order") or ())
    handled: set[str] = set()
    for rule in rules:
        for trig in rule_triggers(rule):
            if trig["kind"] == "keyword" and rule["action"] in ("drop-keyword", "drop-annotation"):
                handled |= set(trig["keywords"])
            elif (handles := TRIGGERS[trig["kind"]].handles) is not None:
                handled.add(handles)
    classes = data.get("keywords") or {}
    known = {k for values in classes.values() for k in values}
    inline = output.get("refs") == "inline"
    for keyword in sorted(known - order - handled):
        if keyword in STRUCTURAL_KEYWORDS and (inline or keyword in order):
            continue
        if keyword in ("$defs", "$ref") and not inline:
            continue
        out.append(
            diag(
                "keyword_dropped_silently",
                decl.doc.loc(("keywords",), key=True),
                f"{decl.id}: keyword '{keyword}' is neither in output.key_order nor dropped or "
                "rewritten by a rule",
            )
        )
    for kind, what in (
        ("unknown-keyword", "an unknown keyword"),
        ("non-schema-subschema", "a non-schema subschema"),
    ):
        if kind not in kinds:
            out.append(
                diag(
                    "keyword_dropped_silently",
                    decl.doc.loc(("rules",), key=True),
                    f"{decl.id}: nothing says what happens to {what}; add a '{kind}' rule",
                )
            )
    return out


def _unknown_extends(
    decl: TargetDecl,
    parent: TargetDecl | None,
    by_id: dict[str, TargetDecl],
) -> Diagnostic:
    """``decl`` extends ``parent``, which is no target with its own rules (none, one that
    extends another, or ``decl`` itself): the message lists those there are, the hint names the
    one meant (a parent that extends another: the target that one extends)."""
    named = decl.data["extends"]
    own = sorted(i for i, d in by_id.items() if "extends" not in d.data and i != decl.id)
    known = ", ".join(own) or "none"
    hint: str | None = None
    if parent is not None and parent.id != decl.id and parent.data["extends"] in own:
        hint = f"extend '{parent.data['extends']}', which '{parent.id}' extends"
    elif parent is None:
        hint = suggest(named, own)
    return diag(
        "unknown_target_extends",
        decl.doc.loc(("extends",)),
        f"'{named}' is not a target with its own rules (targets with their own rules: {known})",
        hint,
    )


def validate(decls: list[TargetDecl], broken: Set[str] = frozenset()) -> list[Diagnostic]:
    """Every problem of the target files, all at once. ``broken`` are the ids of target files
    with errors of their own: a target extending one is checked no further (its parent's rules
    are not known, or wrong), as such a file itself is not. Parents are checked first."""
    out: list[Diagnostic] = []
    by_id = {d.id: d for d in decls}
    failed = set(broken)
    for decl in sorted(decls, key=lambda d: ("extends" in d.data, d.doc.file)):
        data = decl.data
        start = len(out)
        if decl.id != decl.stem:
            out.append(
                diag(
                    "target_file_name_mismatch",
                    decl.doc.loc(("id",)),
                    f"target id '{decl.id}' is declared in {decl.stem}.yaml",
                    f"rename the file to {decl.id}.yaml or set id: {decl.stem}",
                )
            )
        base_rules: list[dict[str, Any]] = []
        if data.get("extends") in failed:
            continue  # checked against its parent's rules once the parent's own errors are fixed
        if "extends" in data:
            parent = by_id.get(data["extends"])
            if parent is None or "extends" in parent.data or parent.id == decl.id:
                out.append(_unknown_extends(decl, parent, by_id))
            else:
                base_rules = [
                    inherited_rule(r, parent.id, decl.id) for r in parent.data.get("rules") or []
                ]
        rules = data.get("rules") or []
        codes: dict[str, int] = {}
        all_codes = {r["code"] for r in rules} | {r["code"] for r in base_rules}
        style = data["output"]["schema_style"]
        for i, rule in enumerate(rules):
            if rule["code"] in codes or any(r["code"] == rule["code"] for r in base_rules):
                first = codes.get(rule["code"])
                where = f"rules/{first}" if first is not None else f"extends {data.get('extends')}"
                out.append(
                    diag(
                        "duplicate_rule_code",
                        decl.doc.loc(("rules", i, "code")),
                        f"rule code '{rule['code']}' is already used ({where})",
                    )
                )
            codes.setdefault(rule["code"], i)
            out.extend(_check_rule(decl, i, rule, all_codes, style))
        for name in data.get("steps") or {}:
            if name not in STEPS:
                out.append(
                    diag(
                        "unknown_target_step",
                        decl.doc.loc(("steps", name), key=True),
                        f"unknown step '{name}'; known: {', '.join(sorted(STEPS))}",
                        suggest(name, STEPS),
                    )
                )
            else:
                allowed = set(COMMON_PLACEHOLDERS) | set(STEPS[name].placeholders)
                out.extend(
                    _template_problems(
                        decl, ("steps", name, "detail"), data["steps"][name]["detail"], allowed
                    )
                )
        counts = {"$name": 0, "$schema": 0}
        _envelope_counts(data["output"]["envelope"], counts)
        for key, n in counts.items():
            if n != 1:
                out.append(
                    diag(
                        "invalid_target_envelope",
                        decl.doc.loc(("output", "envelope")),
                        f"the envelope holds {key} {n} times",
                    )
                )
        if style == "rewrite" and not errors(out[start:]):
            merged = dict(data)
            if "keywords" not in data and base_rules:
                merged["keywords"] = by_id[data["extends"]].data.get("keywords") or {}
            out.extend(_coverage(decl, merged, [*base_rules, *rules]))
        if errors(out[start:]):
            failed.add(decl.id)
    return out


def inherited_rule(rule: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """A parent's rule as target ``new`` inherits it: codes under ``old/`` renamed to ``new/``."""
    copy = dict(rule)
    copy["code"] = (
        new + rule["code"][len(old) :] if rule["code"].startswith(old + "/") else rule["code"]
    )
    trig = rule["trigger"]
    triggers = trig if isinstance(trig, list) else [trig]
    fixed = []
    for t in triggers:
        t2 = dict(t)
        if "skip_if" in t2:
            t2["skip_if"] = [
                new + c[len(old) :] if c.startswith(old + "/") else c for c in t2["skip_if"]
            ]
        fixed.append(t2)
    copy["trigger"] = fixed if isinstance(trig, list) else fixed[0]
    return copy
