"""The shared vocabulary of the tool-schema compiler: what a target's YAML may name.

A target (``catalog/schema-targets/<id>.yaml``) is data: each rule names a *trigger* (when the rule
fires) and an *action* (what compiling does about it); the structural *steps* a target enables are
named here too. This module says which triggers, actions and steps exist, which parameters and
message placeholders each trigger has, and how lossy each action is by nature. The generator checks
every target file against it (an unknown action, a lossy action marked safe, a placeholder the
trigger does not provide, ...); the engine implements each name exactly once.

Nothing here names a vendor: vendor facts live in the YAML.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

__all__ = [
    "ACTIONS",
    "ANNOTATION_KEYWORDS",
    "COMMON_PLACEHOLDERS",
    "SAFE_EXTRA_RECORDS",
    "STEPS",
    "STRUCTURAL_KEYWORDS",
    "TRIGGERS",
    "ActionSpec",
    "Lossiness",
    "StepSpec",
    "TriggerSpec",
    "action_lossy",
]

Lossiness = Literal["never", "always", "depends"]

# JSON Schema 2020-12 annotation keywords (meta-data, content and core identifiers), and
# OpenAPI's `discriminator` (pydantic writes one for each discriminated union: a hint for
# readers, the union's own branches decide what is valid): dropping one never lets more argument
# values through.
ANNOTATION_KEYWORDS: Final = frozenset(
    {
        "discriminator",
        "title",
        "description",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "examples",
        "example",
        "$comment",
        "$schema",
        "$id",
        "$anchor",
    }
)

# Placeholders every message template may use.
COMMON_PLACEHOLDERS: Final = frozenset({"tool", "target", "path"})
# the extra records that never weaken a schema (every other one is lossy): a reference repointed
# with its definitions, a `oneOf` whose branches no value can match two of
SAFE_EXTRA_RECORDS: Final = frozenset({"reference", "disjoint"})


@dataclass(frozen=True, slots=True)
class TriggerSpec:
    """One trigger kind: where it fires, its parameters and the placeholders it fills in."""

    scope: Literal["tool", "node"]
    summary: str
    params: frozenset[str]
    required: frozenset[str]
    placeholders: frozenset[str]
    actions: frozenset[str]
    # parameter -> its closed set of values (only where the set is closed)
    cases: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    # whether a verbatim target (which sends subschemas as written) may report with it
    verbatim: bool = False
    # the keyword whose dropping or rewriting the trigger's rules decide, if any
    handles: str | None = None


def _t(
    scope: Literal["tool", "node"],
    summary: str,
    *,
    params: tuple[str, ...] = (),
    required: tuple[str, ...] = (),
    placeholders: tuple[str, ...] = (),
    actions: tuple[str, ...] = ("keep",),
    cases: Mapping[str, tuple[Any, ...]] | None = None,
    verbatim: bool = False,
    handles: str | None = None,
) -> TriggerSpec:
    return TriggerSpec(
        scope,
        summary,
        frozenset(("kind", *params, *required)),
        frozenset(required),
        frozenset(placeholders),
        frozenset(actions),
        dict(cases or {}),
        verbatim,
        handles,
    )


# Keywords a rewrite target may leave out of its key order without a rule: references and
# definitions (inlined, or kept by the walk) and the object-closing keyword (its own rules).
STRUCTURAL_KEYWORDS: Final = frozenset({"$defs", "$ref", "definitions", "additionalProperties"})


TRIGGERS: Final[dict[str, TriggerSpec]] = {
    # ---- the tool as a whole
    "tool-name": _t(
        "tool",
        "the tool name does not match `pattern` (a JavaScript-style regular expression: `$` is "
        "the end of the name), or its length is outside `min_length`..`max_length`",
        params=("pattern", "min_length", "max_length", "skip_if"),
        placeholders=("name", "length", "pattern", "min_length", "max_length"),
        actions=("unsupported", "keep"),
    ),
    "missing-description": _t(
        "tool",
        "the tool has no description (or, with `blank_counts`, only whitespace)",
        params=("blank_counts",),
        placeholders=("name",),
    ),
    "root-type": _t(
        "tool",
        "the root schema's `type` is in the state named by `case`",
        required=("case",),
        placeholders=("type",),
        actions=(
            "unsupported",
            "keep",
            "add-type-object",
            "normalize-type-object",
            "narrow-type-object",
        ),
        cases={
            "case": (
                "not-exactly-object",
                "present-not-object",
                "missing",
                "object-list",
                "object-union",
                "excludes-object",
            )
        },
    ),
    "root-keyword": _t(
        "tool",
        "the root schema has `keyword`",
        required=("keyword",),
        placeholders=("keyword",),
        actions=("unsupported",),
    ),
    "root-constrained": _t(
        "tool", "the root schema declares at least one property or required name"
    ),
    "limit": _t(
        "tool",
        "a size `measure` of the whole schema exceeds `max`: property-count (object properties), "
        "depth (levels, the root is 1), enum-value-count, large-enum-chars (characters of one "
        "enum past `threshold` values), string-chars (names and string values), "
        "optional-property-count (properties their object's `required` does not list) or "
        "union-property-count (subschemas that are unions: `anyOf`, `oneOf`, a `type` list of "
        "two or more names, or `nullable: true`)",
        required=("measure", "max"),
        params=("threshold",),
        placeholders=("count", "max", "threshold"),
        actions=("unsupported",),
        cases={
            "measure": (
                "property-count",
                "depth",
                "enum-value-count",
                "large-enum-chars",
                "string-chars",
                "optional-property-count",
                "union-property-count",
            )
        },
    ),
    "empty-schema": _t(
        "tool",
        "the root schema takes no arguments and says nothing else the target needs",
        actions=("omit-schema",),
    ),
    "dialect": _t(
        "tool",
        "the root `$schema` is present and not one of `allowed`",
        required=("allowed",),
        placeholders=("dialect",),
        actions=("unsupported", "keep"),
    ),
    "top-level-property-name": _t(
        "tool",
        "a root property name does not match `pattern` (`$` is the end of the name) or is longer "
        "than `max_length`",
        params=("pattern", "max_length"),
        placeholders=("property",),
    ),
    "all-of-ref": _t(
        "tool",
        "a branch of an `allOf` is a reference (`$ref` directly in the branch)",
        placeholders=("ref",),
        actions=("unsupported", "keep"),
    ),
    "pattern-syntax": _t(
        "tool",
        "a `pattern` uses one of the regular-expression `features`: backreference (`\\1`, "
        "`\\k<name>`, `(?P=name)`), lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) or word-boundary "
        "(`\\b`, `\\B` outside a character class)",
        required=("features",),
        placeholders=("feature", "value"),
        actions=("unsupported", "keep"),
        cases={"features": ("backreference", "lookaround", "word-boundary")},
    ),
    "header-keyword": _t(
        "tool",
        "the `keyword` annotation on a property breaks the `check`: token, duplicate, type, "
        "reachable (only through `properties` from the root) or integer-range (values within "
        "±(2^53-1))",
        required=("keyword", "check"),
        params=("token_pattern", "types"),
        placeholders=("keyword", "value", "type"),
        actions=("unsupported",),
    ),
    # ---- every subschema the target walks
    "keyword": _t(
        "node",
        "a subschema has one of `keywords` (one diagnostic per keyword)",
        required=("keywords",),
        placeholders=("keyword",),
        actions=("keep", "drop-keyword", "drop-annotation"),
        verbatim=True,
    ),
    "unknown-keyword": _t(
        "node",
        "a subschema has a keyword outside every keyword class of the target",
        placeholders=("keyword",),
        actions=("keep", "drop-keyword"),
    ),
    "constraints-present": _t(
        "node",
        "a subschema has any of `keywords` (one diagnostic per subschema, listing them)",
        required=("keywords",),
        placeholders=("keywords",),
        verbatim=True,
    ),
    "const": _t(
        "node",
        "a subschema has `const`; `convertible` says which values become a one-value enum",
        params=("convertible",),
        placeholders=("value",),
        actions=("const-to-enum", "keep"),
        handles="const",
    ),
    "one-of": _t(
        "node",
        "a subschema has `oneOf`",
        actions=("one-of-to-any-of", "keep"),
        handles="oneOf",
    ),
    "definitions": _t(
        "node",
        "`definitions` beside `$defs` (`case: conflicting`) or alone (`case: legacy`)",
        required=("case",),
        placeholders=("ref",),
        actions=("drop-keyword", "rename-definitions", "keep"),
        cases={"case": ("conflicting", "legacy")},
        handles="definitions",
    ),
    "nullable": _t(
        "node",
        "a subschema has the OpenAPI `nullable` keyword, with `value` true, other or any",
        params=("value",),
        actions=("nullable-to-type-union", "drop-annotation", "keep", "unsupported"),
        cases={"value": ("true", "other", "any")},
        verbatim=True,
        handles="nullable",
    ),
    "format": _t(
        "node",
        "a subschema has a `format` (outside `allowed`, when given)",
        params=("allowed",),
        placeholders=("format",),
        actions=("drop-keyword", "keep"),
        verbatim=True,
    ),
    "additional-properties": _t(
        "node",
        "an object's `additionalProperties` is in one of the states `values`: missing, true, "
        "false, schema; with `declared: none`, only an object below the root that declares no "
        "property",
        required=("values",),
        params=("declared",),
        placeholders=("value",),
        actions=("close-object", "drop-keyword", "keep"),
        cases={"values": ("missing", "true", "false", "schema"), "declared": ("none",)},
        verbatim=True,
        handles="additionalProperties",
    ),
    "optional-property": _t(
        "node",
        "a property is not listed in `required`",
        placeholders=("property",),
        actions=("required-nullable", "keep"),
    ),
    "boolean-subschema": _t(
        "node",
        "a schema slot holds the boolean `value`",
        required=("value",),
        placeholders=("value",),
        actions=("replace-with-empty", "keep"),
        cases={"value": (True, False)},
    ),
    "non-schema-subschema": _t(
        "node",
        "a schema slot holds something that is neither an object nor a boolean",
        placeholders=("value",),
        actions=("replace-with-empty",),
    ),
    "min-items-not-in": _t(
        "node",
        "`minItems` is present and not one of `values`",
        required=("values",),
        placeholders=("value",),
        actions=("keep", "unsupported"),
        verbatim=True,
    ),
    "enum-values": _t(
        "node",
        "an `enum` holds a value of the kind `case` names: non-primitive, non-string, or "
        "case-collision (two strings that differ only in letter case)",
        required=("case",),
        actions=("keep", "drop-keyword"),
        cases={"case": ("non-primitive", "non-string", "case-collision")},
        verbatim=True,
    ),
    "ref": _t(
        "node",
        "a `$ref` in the state `case` names: external, unresolvable, loop (it leads into a cycle "
        "that comes back to the same subschema through `$ref` and in-place applicators, never "
        "descending into a property or an item: `chain` lists the references up to the first "
        "one reached again), recursive, resolvable, or with-siblings (a "
        "resolvable reference beside other keywords, on a target that keeps references: "
        "`inline-ref` writes what it points at in its place, the siblings winning where both "
        "hold a keyword)",
        required=("case",),
        placeholders=("ref", "chain", "cause"),
        actions=("keep", "unsupported", "inline-ref"),
        cases={
            "case": ("external", "unresolvable", "loop", "recursive", "resolvable", "with-siblings")
        },
        verbatim=True,
    ),
    "type": _t(
        "node",
        "`type` in the state `case` names: unknown (outside `allowed`), with-any-of, multi, or "
        "missing (a subschema below the root with no `type`, `anyOf`, `oneOf`, `allOf`, `$ref`, "
        "`enum`, `const` or `not`: it accepts any value; an array's absent `items` is one)",
        required=("case",),
        params=("allowed",),
        placeholders=("type",),
        actions=("drop-type", "type-array-to-any-of", "keep", "unsupported"),
        cases={"case": ("unknown", "with-any-of", "multi", "missing")},
    ),
}


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One compile action: how lossy it is by nature and what it does."""

    lossy: Lossiness
    summary: str
    transforms: bool  # whether it changes the output (and so needs a transformation record)


ACTIONS: Final[dict[str, ActionSpec]] = {
    "keep": ActionSpec("never", "emitted unchanged", False),
    "unsupported": ActionSpec(
        "never", "cannot be compiled: an error refuses, a warning or info is only reported", False
    ),
    "drop-keyword": ActionSpec("always", "the keyword is removed", True),
    "drop-annotation": ActionSpec("never", "an annotation keyword is removed", True),
    "close-object": ActionSpec(
        "depends",
        "`additionalProperties: false` replaces what was there (lossy when that was a schema)",
        True,
    ),
    "required-nullable": ActionSpec(
        "never", "the property becomes required and also accepts null (null means omitted)", True
    ),
    "const-to-enum": ActionSpec(
        "depends",
        "`const: c` becomes `enum: [c]`; a value the target cannot convert is dropped (lossy)",
        True,
    ),
    "one-of-to-any-of": ActionSpec(
        "always",
        "`oneOf` is emitted as `anyOf` (safe, through the rule's `disjoint` record, where no value "
        "can match two branches)",
        True,
    ),
    "rename-definitions": ActionSpec(
        "never", "`definitions` becomes `$defs` and `#/definitions/` references follow", True
    ),
    "nullable-to-type-union": ActionSpec("never", '`nullable: true` adds "null" to `type`', True),
    "replace-with-empty": ActionSpec(
        "depends", "the subschema becomes `{}` (lossy unless it was `true`)", True
    ),
    "inline-ref": ActionSpec("never", "the reference is replaced by what it points at", True),
    "drop-type": ActionSpec("always", "the offending `type` (or type name) is removed", True),
    "type-array-to-any-of": ActionSpec(
        "never", "a list of types becomes `anyOf` branches of one type each", True
    ),
    "add-type-object": ActionSpec("never", '`type: "object"` is added as the first key', True),
    "normalize-type-object": ActionSpec("never", '`type: ["object"]` becomes `"object"`', True),
    "narrow-type-object": ActionSpec(
        "never", 'a type list holding "object" becomes `"object"` (narrowing)', True
    ),
    "omit-schema": ActionSpec("never", "the schema field is left out of the output", True),
}


@dataclass(frozen=True, slots=True)
class StepSpec:
    """A structural transformation a target enables; always safe."""

    summary: str
    placeholders: frozenset[str]


STEPS: Final[dict[str, StepSpec]] = {
    "rename-input-schema": StepSpec(
        "the canonical `inputSchema` is emitted under the target's field name", frozenset()
    ),
    "enable-strict": StepSpec("the output switches on the target's strict mode", frozenset()),
    "uppercase-types": StepSpec(
        "type names are emitted in upper case (one record for the tool)", frozenset({"count"})
    ),
    "int64-as-string": StepSpec(
        "the `int64_keywords` are emitted as decimal strings (one record for the tool)",
        frozenset({"count", "keywords"}),
    ),
    "collapse-nullable-any-of": StepSpec(
        '`anyOf: [X, {"type": "null"}]` becomes X with `nullable: true`', frozenset()
    ),
    "null-type-to-nullable": StepSpec(
        '"null" in a type list becomes `nullable: true`', frozenset()
    ),
    "add-enum-format": StepSpec(
        'a string enum without a format gets `format: "enum"`', frozenset()
    ),
    "true-subschema-to-empty": StepSpec("a `true` subschema becomes `{}`", frozenset()),
    "merge-single-all-of": StepSpec(
        "an `allOf` of one subschema is merged into the subschema holding it, where the two "
        "share no keyword but annotations (the holder's kept)",
        frozenset(),
    ),
    "drop-open-additional-properties": StepSpec(
        "`additionalProperties: true` (the default) is left out", frozenset()
    ),
    "drop-inlined-definitions": StepSpec(
        "`$defs`/`definitions` are removed once every reference is inlined",
        frozenset({"keyword"}),
    ),
}


def action_lossy(action: str, trigger: dict[str, object]) -> bool | None:
    """Whether ``action`` under ``trigger`` is lossy by nature (None: it depends on the value).

    ``close-object`` is lossy exactly when it replaces a schema; ``replace-with-empty`` when it
    replaces anything but ``true``; ``const-to-enum`` is safe (an unconvertible value goes through
    the rule's ``unconvertible`` record, which is lossy).
    """
    spec = ACTIONS[action]
    if spec.lossy == "always":
        return True
    if spec.lossy == "never":
        return False
    kind = trigger.get("kind")
    if action == "close-object":
        values = trigger.get("values")
        states = set(values) if isinstance(values, list) else set()
        if states <= {"missing", "true"}:
            return False
        if states <= {"schema", "false"}:
            return True
        return None
    if action == "replace-with-empty":
        if kind == "boolean-subschema":
            return trigger.get("value") is not True
        return True
    if action == "const-to-enum":
        return False
    return None
