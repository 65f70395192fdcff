"""A quick first verdict on a schema check: "certainly valid", so the full validator can be skipped.

jsonschema walks a 10,000-model file keyword by keyword with a new validator object per node: a
quarter of a large build. Most files are valid, and proving that needs no error messages, so
each schema node is compiled once into a plain function answering True (valid), False (invalid)
or None (cannot tell: a keyword or a value this module does not handle). Only a file whose whole
answer is True skips jsonschema; every other answer runs jsonschema as before, so each
diagnostic still comes from it, and a keyword this module does not know costs speed, never a
missed error. The keyword meanings follow draft 2020-12 as jsonschema implements them
(``tests/test_schema_fast.py`` holds both to the same verdicts).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from provcat.patterns import compile_pattern

Verdict = bool | None
Check = Callable[[Any], Verdict]

# annotations: they never change a verdict (the validator is built without a format checker,
# but "format" is still left to jsonschema: it answers None)
_ANNOTATIONS = frozenset(
    {"$schema", "$id", "$comment", "$defs", "title", "description", "default", "examples"}
)


def _all(checks: list[Check]) -> Check:
    if len(checks) == 1:
        return checks[0]

    def run(value: Any) -> Verdict:
        unsure = False
        for check in checks:
            verdict = check(value)
            if verdict is False:
                return False
            if verdict is None:
                unsure = True
        return None if unsure else True

    return run


_PLAIN = (str, dict, list, bool, type(None), int, float)


_EXACT: dict[str, type] = {
    "string": str,
    "object": dict,
    "array": list,
    "boolean": bool,
    "null": type(None),
}


def _type_check(name: str) -> Check:
    """One type name as a check made for it (a value the loader does not make answers None;
    a boolean is never an integer or a number)."""
    exact = _EXACT.get(name)
    if exact is not None:

        def check(value: Any) -> Verdict:
            kind = type(value)
            if kind is exact:
                return True
            return False if kind in _PLAIN else None

        return check
    if name == "integer":

        def integer(value: Any) -> Verdict:
            kind = type(value)
            if kind is int:
                return True
            if kind is float or kind not in _PLAIN:
                return None  # 1.0 counts as an integer in draft 2020-12: let jsonschema say
            return False

        return integer
    if name == "number":

        def number(value: Any) -> Verdict:
            kind = type(value)
            if kind is int or kind is float:
                return True
            return False if kind in _PLAIN else None

        return number
    return lambda value: False if type(value) is bool else None


def _type(names: Any) -> Check:
    if isinstance(names, str):
        return _type_check(names)
    if not isinstance(names, list) or not names:
        return lambda value: None
    checks = [_type_check(n) if isinstance(n, str) else (lambda value: None) for n in names]

    def check(value: Any) -> Verdict:
        verdicts = [c(value) for c in checks]
        if True in verdicts:
            return True
        return None if None in verdicts else False

    return check


def _enum(options: Any) -> Check:
    if not isinstance(options, list):
        return lambda value: None
    strings = frozenset(o for o in options if isinstance(o, str))

    def check(value: Any) -> Verdict:
        if isinstance(value, str):
            return value in strings  # jsonschema compares a string only with strings
        if any(type(o) is type(value) and o == value for o in options):
            return True
        return None

    return check


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _keyword(
    word: str, arg: Any, schema: dict[str, Any], compile_: Callable[[Any], Check]
) -> Check:
    """One keyword of one schema node; an unknown keyword answers None."""
    if word == "type":
        return _type(arg)
    if word == "enum":
        return _enum(arg)
    if word == "const":
        return _enum([arg])
    if word == "pattern" and isinstance(arg, str):
        regex = compile_pattern(arg)  # ``$`` is the end of the text, as JSON Schema means it
        return lambda v: (regex.search(v) is not None) if isinstance(v, str) else True
    if word == "minLength" and isinstance(arg, int):
        return lambda v: len(v) >= arg if isinstance(v, str) else True
    if word == "maxLength" and isinstance(arg, int):
        return lambda v: len(v) <= arg if isinstance(v, str) else True
    if word in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") and _is_number(arg):
        compare: Callable[[Any], bool] = {
            "minimum": lambda v: v >= arg,
            "maximum": lambda v: v <= arg,
            "exclusiveMinimum": lambda v: v > arg,
            "exclusiveMaximum": lambda v: v < arg,
        }[word]
        return lambda v: compare(v) if _is_number(v) else True
    if word == "minItems" and isinstance(arg, int):
        return lambda v: len(v) >= arg if isinstance(v, list) else True
    if word == "maxItems" and isinstance(arg, int):
        return lambda v: len(v) <= arg if isinstance(v, list) else True
    if word == "minProperties" and isinstance(arg, int):
        return lambda v: len(v) >= arg if isinstance(v, dict) else True
    if word == "uniqueItems":
        if arg is not True:
            return (lambda v: True) if arg is False else (lambda v: None)

        def unique(v: Any) -> Verdict:
            if not isinstance(v, list):
                return True
            if all(isinstance(x, str) for x in v):
                return len(set(v)) == len(v)
            return None

        return unique
    if word == "required" and isinstance(arg, list):
        names = tuple(arg)
        return lambda v: all(n in v for n in names) if isinstance(v, dict) else True
    if word == "items":
        if "prefixItems" in schema:
            return lambda v: None
        item = compile_(arg)

        def items(v: Any) -> Verdict:
            if not isinstance(v, list):
                return True
            return _every(item, v)

        return items
    if word == "properties" and isinstance(arg, dict):
        props = {name: compile_(sub) for name, sub in arg.items()}

        def properties(v: Any) -> Verdict:
            if not isinstance(v, dict):
                return True
            unsure = False
            for name, check in props.items():
                if name in v:
                    verdict = check(v[name])
                    if verdict is False:
                        return False
                    unsure = unsure or verdict is None
            return None if unsure else True

        return properties
    if word == "additionalProperties":
        if "patternProperties" in schema:
            return lambda v: None
        known = frozenset(schema.get("properties", {}))
        extra = compile_(arg)

        def additional(v: Any) -> Verdict:
            if not isinstance(v, dict):
                return True
            return _every(extra, [v[k] for k in v if k not in known])

        return additional
    if word == "unevaluatedProperties":
        evaluated = _evaluated_names(schema)
        if evaluated is None:
            return lambda v: None
        rest = compile_(arg)

        def unevaluated(v: Any) -> Verdict:
            if not isinstance(v, dict):
                return True
            return _every(rest, [v[k] for k in v if k not in evaluated])

        return unevaluated
    if word == "propertyNames":
        name_check = compile_(arg)
        return lambda v: _every(name_check, list(v)) if isinstance(v, dict) else True
    if word in ("allOf", "anyOf", "oneOf") and isinstance(arg, list) and arg:
        return _combine(word, [compile_(sub) for sub in arg])
    if word == "not":
        inner = compile_(arg)

        def negate(v: Any) -> Verdict:
            verdict = inner(v)
            return None if verdict is None else not verdict

        return negate
    if word == "if":
        condition = compile_(arg)
        then = compile_(schema.get("then", True))
        otherwise = compile_(schema.get("else", True))

        def conditional(v: Any) -> Verdict:
            verdict = condition(v)
            if verdict is None:
                return None
            return then(v) if verdict else otherwise(v)

        return conditional
    if word in ("then", "else"):
        return lambda v: True  # read by "if" (and ignored without one)
    return lambda v: None


# keywords that may evaluate a property in ways _evaluated_names does not follow
_OTHER_EVALUATORS = frozenset(
    {
        "patternProperties",
        "additionalProperties",
        "unevaluatedProperties",
        "anyOf",
        "oneOf",
        "if",
        "dependentSchemas",
        "$ref",
        "$dynamicRef",
    }
)


def _evaluated_names(schema: dict[str, Any]) -> frozenset[str] | None:
    """The property names ``schema``'s own ``properties`` and its ``allOf`` members' evaluate
    (what ``unevaluatedProperties`` beside them leaves alone), or None when something else might
    evaluate one. An allOf member that fails drops its names, but then the node fails anyway."""
    names = set(schema.get("properties", {}))
    for member in schema.get("allOf", []):
        if member is True:
            continue
        if not isinstance(member, dict) or _OTHER_EVALUATORS & set(member):
            return None
        found = _evaluated_names(member)
        if found is None:
            return None
        names |= found
    return frozenset(names)


def _every(check: Check, values: list[Any]) -> Verdict:
    unsure = False
    for value in values:
        verdict = check(value)
        if verdict is False:
            return False
        unsure = unsure or verdict is None
    return None if unsure else True


def _combine(word: str, checks: list[Check]) -> Check:
    if word == "allOf":
        return _all(checks)
    if word == "anyOf":

        def any_of(v: Any) -> Verdict:
            verdicts = [c(v) for c in checks]
            if True in verdicts:
                return True
            return None if None in verdicts else False

        return any_of

    def one_of(v: Any) -> Verdict:
        verdicts = [c(v) for c in checks]
        if None in verdicts:
            return None
        return verdicts.count(True) == 1

    return one_of


def compile_schema(schema: Any) -> Check:
    """``schema`` (refs already written out in place) as one function: True, False or None."""
    if schema is True:
        return lambda v: True
    if schema is False:
        return lambda v: False
    if not isinstance(schema, dict):
        return lambda v: None
    checks = [
        _keyword(word, arg, schema, compile_schema)
        for word, arg in schema.items()
        if word not in _ANNOTATIONS
    ]
    if not checks:
        return lambda v: True
    return _all(checks)
