"""What a plain YAML scalar is: YAML 1.2's core schema against YAML 1.1.

Editors and most tools read a catalog file as YAML 1.2 (core schema); pyyaml and other YAML 1.1
tools read some plain scalars otherwise (``yes`` is a boolean, ``010`` is 8, ``1:30`` is 90). The
loader takes each plain scalar's tag from :func:`tag_of` and refuses the ones tagged
:data:`AMBIGUOUS`, with :func:`ambiguous`'s message and hint (a hint naming both readings; given
the file's schema, ``generator.schema_check.load_bytes`` words it by what the field takes
instead, with ``ambiguous_hints``); the importer's writer quotes what would not read back
as written (:func:`reads_back`).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

import yaml

STR = "tag:yaml.org,2002:str"
TIMESTAMP = "tag:yaml.org,2002:timestamp"
MERGE = "tag:yaml.org,2002:merge"
NULL = "tag:yaml.org,2002:null"
# a plain scalar that YAML 1.1 (pyyaml's default) and YAML 1.2 read differently: refused
AMBIGUOUS = "tag:provcat,2026:yaml-1.1-only"
# how a diagnostic names the type a tag stands for
TYPE_NAMES = {
    "tag:yaml.org,2002:bool": "a boolean",
    "tag:yaml.org,2002:int": "an integer",
    "tag:yaml.org,2002:float": "a number",
    "tag:yaml.org,2002:null": "null",
}


class _CoreResolver(yaml.resolver.BaseResolver):
    """Plain scalars read as YAML 1.2's core schema reads them (what editors, the YAML language
    server and most other tools do): ``true``/``false`` are the booleans, ``null``/``~`` the null,
    integers (decimal, ``0o`` octal, unsigned ``0x`` hex) and floats the numbers, everything else
    a string (dates stay the text).

    A plain scalar YAML 1.1 (pyyaml's default) reads as another value or type is tagged
    ``AMBIGUOUS`` and refused by the loader: yes/no/on/off (booleans in 1.1), integers with a
    leading zero (octal in 1.1: ``010`` is 8, but ``08`` a string), base-60 numbers (``1:30`` is
    90), binary, ``0o`` octal, signed hex, numbers with ``_`` separators, exponents without a dot
    or a sign (``1e3`` and ``1e-3`` are strings in 1.1), a signed float without a digit before
    its dot (``-.5``, ``+.5``). Forms both read alike (``00``, ``007.5``, ``0x1F``)
    are accepted. Dates, which 1.1 reads as timestamps, stay the text; a plain ``=`` (1.1's value
    key, which pyyaml cannot build) is text. The merge key ``<<`` keeps its tag so the loader can
    refuse it by name."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        tag = super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]
        if kind is yaml.ScalarNode and implicit[0] and tag != MERGE and _differs(value, tag):
            return AMBIGUOUS
        return tag


for _tag, _regexp, _first in (
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    (
        "tag:yaml.org,2002:int",
        r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$",
        "-+0123456789",
    ),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+.0123456789",
    ),
    ("tag:yaml.org,2002:merge", r"^(?:<<)$", "<"),
):
    _CoreResolver.add_implicit_resolver(_tag, re.compile(_regexp), list(_first))

_RESOLVER_11: Any = yaml.resolver.Resolver()
_constructor = yaml.constructor.SafeConstructor()
_TIMESTAMP_11 = "tag:yaml.org,2002:timestamp"
_VALUE_11 = "tag:yaml.org,2002:value"  # a plain '=': no safe loader builds it; text here


def _core_value(text: str, tag: str) -> Any:
    """What YAML 1.2's core schema reads plain scalar ``text`` (tagged ``tag``) as."""
    if tag == "tag:yaml.org,2002:int":
        if text.startswith("0o"):
            return int(text[2:], 8)
        if text.startswith("0x"):
            return int(text[2:], 16)
        return int(text, 10)
    if tag == "tag:yaml.org,2002:float":
        lowered = text.lower()
        if lowered.endswith(".inf"):
            return float("-inf") if lowered.startswith("-") else float("inf")
        if lowered == ".nan":
            return float("nan")
        return float(text)
    if tag == "tag:yaml.org,2002:bool":
        return text.lower() == "true"
    if tag == NULL:
        return None
    return text


def _value_11(text: str) -> Any:
    """What YAML 1.1 (pyyaml's default) reads plain scalar ``text`` as; a date and a plain '='
    count as the text."""
    tag = _RESOLVER_11.resolve(yaml.ScalarNode, text, (True, False))
    if tag in (STR, _TIMESTAMP_11, _VALUE_11, MERGE):
        return text
    return _constructor.construct_object(yaml.ScalarNode(tag, text), deep=True)


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def _differs(text: str, tag: str) -> bool:
    """Whether YAML 1.1 reads plain scalar ``text`` as another value or type than 1.2 (``tag``)."""
    return not _same(_value_11(text), _core_value(text, tag))


def reads_back(text: str) -> bool:
    """Whether ``text``, written as a plain scalar, is read back by the loader as that string
    (and by YAML 1.1 tools as the same string): the importer's writer quotes it otherwise."""
    if _resolver.resolve(yaml.ScalarNode, text, (True, False)) != STR:
        return False
    return bool(_RESOLVER_11.resolve(yaml.ScalarNode, text, (True, False)) == STR)


_resolver: Any = _CoreResolver()


def reading(value: Any) -> str:
    """How a message names a value one YAML version reads."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return "a string"


def readings(text: str) -> tuple[Any, Any]:
    """What YAML 1.1 and YAML 1.2 (core schema) read plain scalar ``text`` as."""
    tag = yaml.resolver.BaseResolver.resolve(  # type: ignore[no-untyped-call]
        _resolver, yaml.ScalarNode, text, (True, False)
    )
    return _value_11(text), _core_value(text, tag)


def ambiguous(text: str) -> tuple[str, str]:
    """The message and hint of plain scalar ``text``, which YAML 1.1 reads otherwise than 1.2."""
    old, new = readings(text)
    quoted = f'"{text}"'
    message = (
        f"'{text}' is {reading(old)} in YAML 1.1 but {reading(new)} in YAML 1.2: "
        "tools would read it differently"
    )
    if isinstance(old, bool):
        return message, f"quote it ({quoted}) for the text, or write {str(old).lower()}"
    meant = new if isinstance(new, (int, float)) else old
    if isinstance(meant, (int, float)) and not isinstance(meant, bool):
        return message, f"quote it ({quoted}) for the text, or write the number as {meant}"
    return message, f"quote it ({quoted})"


# the first characters the resolver's implicit types (bool, int, null, ...) can start with; the
# shortcut holds while no implicit type matches any start and no path resolvers are registered
# (YAML 1.1's too: a scalar only 1.1 reads as a non-string is refused as ambiguous)
_RESOLVED_FIRST = frozenset(_resolver.yaml_implicit_resolvers) | frozenset(
    _RESOLVER_11.yaml_implicit_resolvers
)
_SHORTCUT = (
    None not in _RESOLVED_FIRST
    and not _resolver.yaml_path_resolvers
    and not _RESOLVER_11.yaml_path_resolvers
)
_PLAIN_SCALARS = {
    tag: _constructor.yaml_constructors[tag]
    for tag in (
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:float",
        NULL,
    )
}


def tag_of(text: str, implicit: tuple[bool, bool]) -> str:
    """The tag of a scalar without an explicit one: ``text`` as written, ``implicit`` the
    parser's (whether it is plain)."""
    if not implicit[0] or (_SHORTCUT and text and text[0] not in _RESOLVED_FIRST):
        return STR  # quoted, or no implicit type starts this way
    if _SHORTCUT:
        return _plain_tag(text)
    return str(_resolver.resolve(yaml.ScalarNode, text, implicit))


# the tag of a plain scalar depends on its text alone (no path resolvers), and the value of a
# plain boolean, number or null is immutable: both are kept by text, as catalogs repeat them
@lru_cache(maxsize=1 << 16)
def _plain_tag(text: str) -> str:
    return str(_resolver.resolve(yaml.ScalarNode, text, (True, False)))


@lru_cache(maxsize=1 << 16)
def _plain_value(tag: str, text: str) -> Any:
    return _PLAIN_SCALARS[tag](_constructor, yaml.ScalarNode(tag, text))


def value_of(tag: str, event: Any) -> Any:
    """The value of the scalar ``event`` tagged ``tag``; a date stays the text the author wrote."""
    if tag in (STR, TIMESTAMP):
        return event.value
    if tag in _PLAIN_SCALARS:
        return _plain_value(tag, event.value)
    return _constructor.construct_object(_node(tag, event), deep=True)


def _node(tag: str, event: Any) -> Any:
    return yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
