"""What a schema violation's hint says to do: the value to write, converted where it plainly
can be (``"true"`` is true, ``64,000`` is 64000, ``"$0.10"`` is "0.10"), a field's form in words
(its ``x-form`` and ``examples``, its value rewritten by its ``x-fix`` kind), and where a field
written in the wrong mapping goes. generator.schema_check finds and places the violations; this
words what to do about them.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from generator.loader import Document, NodePath, path_text
from generator.scalars import reads_back
from provcat.catalog.keys import closest
from provcat.patterns import compile_pattern, ecma_validator
from provcat.redact import secret_shapes_hidden

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError


def _field(schema: Any, name: str) -> dict[str, Any] | None:
    """The schema of field ``name`` of a mapping of ``schema``, in any of its forms (its
    ``properties``, its ``allOf`` members', its ``if``/``then``/``else`` branches': a model's
    ``prices`` is one block or a schedule); None when it has no such field."""
    if not isinstance(schema, dict):
        return None
    found = schema.get("properties", {}).get(name)
    if isinstance(found, dict):
        return found
    for member in [*schema.get("allOf", []), schema.get("then"), schema.get("else")]:
        found = _field(member, name)
        if found is not None:
            return found
    return None


def where_it_goes(schema: dict[str, Any], name: str, value: Any) -> list[str]:
    """Where a field ``name`` unknown to the mapping of ``schema`` belongs, when it is a field of
    a mapping nested in it: "under `defaults:`" (a field's own mapping), "into an endpoint under
    `endpoints:`" (a mapping of named entries); those that take ``value`` as written first. A
    field in the wrong place is no misspelling: the spelling difflib finds nearest would lead to
    another error."""
    found: list[tuple[bool, str]] = []
    members = [schema, *(m for m in schema.get("allOf", []) if isinstance(m, dict))]
    for member in members:
        for field, sub in member.get("properties", {}).items():
            if not isinstance(sub, dict):
                continue
            there = _field(sub, name)
            if there is not None:
                found.append((not _takes(there, value), f"under `{field}:`"))
                continue
            there = _field(sub.get("additionalProperties"), name)
            if there is not None:
                found.append((not _takes(there, value), _into_an_entry(field)))
    return [where for _, where in sorted(found, key=lambda f: f[0])]


def _into_an_entry(field: str) -> str:
    """Where an entry of the mapping ``field`` names is: "into an endpoint under `endpoints:`"."""
    entry = field[:-1] if field.endswith("s") else field
    article = "an" if entry[:1] in tuple("aeiou") else "a"
    return f"into {article} {entry} under `{field}:`"


def where_else(root: dict[str, Any], path: NodePath, name: str, value: Any) -> list[str]:
    """Where a field ``name`` unknown to the mapping at ``path`` (below the top level) belongs
    elsewhere in a document of schema ``root``: "up to the top level", "up to models/m" (the
    entry holding ``path``), "under `defaults:`", "into a model under `models:`". A mapping
    nested deeper in an entry (a model's ``prices``) is only sent up to its entry: a field
    there is likelier misspelt than written in another entry's kind."""
    found: list[tuple[bool, str]] = []
    top = _field(root, name)
    if top is not None:
        found.append((not _takes(top, value), "up to the top level"))
    members = [root, *(m for m in root.get("allOf", []) if isinstance(m, dict))]
    for member in members:
        for field, sub in member.get("properties", {}).items():
            if not isinstance(sub, dict):
                continue
            entry = _field(sub.get("additionalProperties"), name)
            if entry is not None and path[:1] == (field,) and len(path) > 2:
                found.append((not _takes(entry, value), f"up to {path_text(path[:2])}"))
            elif len(path) > 2 or path[:1] == (field,):
                continue  # deeper: only up to its entry; and never into its own kind
            elif (there := _field(sub, name)) is not None:
                found.append((not _takes(there, value), f"under `{field}:`"))
            elif entry is not None:
                found.append((not _takes(entry, value), _into_an_entry(field)))
    return [where for _, where in sorted(found, key=lambda f: f[0])]


def _takes(schema: dict[str, Any], value: Any) -> bool:
    """Whether a field of ``schema`` takes ``value`` (one whose schema cannot be read takes
    nothing)."""
    # deferred: jsonschema (and referencing) are imported only for a refused document
    from referencing.exceptions import Unresolvable

    try:
        return bool(ecma_validator()(schema).is_valid(value))
    except Unresolvable:  # a recursive definition's $ref, out of its schema
        return False


def describe(subschema: Any, fallback: str) -> str:
    if isinstance(subschema, dict) and isinstance(subschema.get("description"), str):
        return str(subschema["description"])
    return fallback


def enum_values(error: ValidationError) -> list[Any]:
    value = error.validator_value
    return list(value) if isinstance(value, (list, tuple)) else []


def wanted_types(error: ValidationError) -> set[str]:
    wanted = error.validator_value
    return set(wanted) if isinstance(wanted, list) else {str(wanted)}


_NUMERAL = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def _number(text: str) -> int | float | None:
    """The number ``text`` writes in digits (Python's own reading would take ``1_000`` and
    ``infinity`` too, which a catalog file may not write as numbers)."""
    if not _NUMERAL.fullmatch(text):
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return None
    return number if number == number and abs(number) != float("inf") else None


# an integer with thousands separators: 64,000 / 64_000 / 64 000 / 64'000
_GROUPED = re.compile(r"[-+]?[0-9]{1,3}(?:[,_' ][0-9]{3})+")
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def _boolean_hint(value: Any) -> str:
    """What to write for a boolean field given ``value``: the boolean it stands for, when it
    plainly stands for one (``"true"``, ``"yes"``, ``1``)."""
    if isinstance(value, str):
        word = value.strip().casefold()
        if word in _TRUE | _FALSE:
            return f"write {'true' if word in _TRUE else 'false'} without quotes"
    if isinstance(value, int) and value in (0, 1):
        return f"write {'true' if value else 'false'} (a boolean, not a number)"
    return "write true or false"


def _number_hint(value: Any, wanted: set[str]) -> str:
    """What to write for a number field (``wanted``: its types) given ``value``."""
    whole = "number" not in wanted  # integer only: JSON Schema's 2.0 is no integer here
    if isinstance(value, str):
        number = _number(value.strip())
        if isinstance(number, int) or (number is not None and not whole):
            return f"write the number without quotes: {value.strip()}"
        if number is not None and number.is_integer():
            return f"write {int(number)}"
        if _GROUPED.fullmatch(value.strip()):
            return f"write {int(re.sub(r'[^0-9+-]', '', value))}"
    if isinstance(value, float) and whole and value.is_integer():
        return f"write {int(value)}"
    return "write a whole number (digits only)" if whole else "write a number (digits only)"


def plain_decimal(value: float) -> str:
    """``value`` as a decimal without an exponent (``1e-05`` is ``0.00001``)."""
    return format(Decimal(repr(value)), "f")


def _float_hint(value: float, wanted: set[str]) -> str:
    """What to write instead of a float where a field takes text (a price: an exact decimal,
    quoted, or an integer). The reason names what is true of ``value``: 0.1 is read as a binary
    fraction near it; 2.0 and 1.5 are exact, and refused all the same."""
    if "integer" not in wanted:  # a text field: the number was meant as text
        return f'quote it: "{plain_decimal(value)}"'
    if Decimal(value) == Decimal(repr(value)):  # 2.0, 1.5: exact, and refused all the same
        reason = (
            f"floats are refused, even exact ones such as {value!r}: most decimals, such as "
            "0.1, are no exact binary fraction"
        )
    else:
        reason = f"floats are refused: YAML reads {value!r} as a binary fraction"
    return f'quote it: "{plain_decimal(value)}" ({reason})'


def _type_hint(error: ValidationError) -> str | None:
    """What to write instead of a value of the wrong type: the value converted when it plainly
    can be (``"true"`` is true, ``64,000`` is 64000, ``42`` is the text "42")."""
    value, wanted = error.instance, wanted_types(error)
    if value is None and wanted & {"string", "boolean", "number", "integer"}:
        return "write the value after the colon, or remove the field"
    if isinstance(value, str) and "array" in wanted:
        return f"write it as a list: [{value}]"
    if "boolean" in wanted and not isinstance(value, bool):
        return _boolean_hint(value)
    if wanted & {"number", "integer"} and not wanted & {"string", "array", "object"}:
        return _number_hint(value, wanted)
    if isinstance(value, float) and "string" in wanted and "number" not in wanted:
        return _float_hint(value, wanted)
    if isinstance(value, bool) and "string" in wanted:
        return f'quote it ("{str(value).lower()}") if it is text'
    if isinstance(value, int) and "string" in wanted:
        return f'quote it: "{value}"'
    return None


def _yaml(text: str) -> str:
    """``text`` as a catalog file writes it: plain when it reads back as that text, else
    quoted."""
    return text if reads_back(text) and text.strip() == text else json.dumps(text)


def _decimal(text: str, percent: bool) -> str | None:
    """A price or fraction written another way (``$0.10``, ``1e-3``, ``1,000``, with
    ``percent`` also ``50%``) as the plain decimal it means, or None."""
    written = re.sub(r"^(?:US\$|USD|\$)\s*|\s*(?:USD|US\$|\$)$", "", text.strip(), flags=re.I)
    written = re.sub(r"(?<=[0-9])[,_' ](?=[0-9]{3}(?![0-9]))", "", written)
    share = written.endswith("%")
    if share and not percent:
        return None
    try:
        number = Decimal(written.removesuffix("%").strip())
    except InvalidOperation:
        return None
    if not number.is_finite():
        return None
    return format(number / 100 if share else number, "f")


def _date(text: str) -> str | None:
    """A day or month written another way (``2026/1/5``, ``2026.01``, ``2026-01-05T10:00Z``)
    as ``YYYY-MM-DD`` or ``YYYY-MM``, or None."""
    found = re.fullmatch(
        r"\s*([0-9]{4})[-/.]([0-9]{1,2})(?:[-/.]([0-9]{1,2}))?(?:[T ].*)?\s*", text
    )
    if found is None:
        return None
    year, month, day = found.groups()
    return f"{year}-{int(month):02d}" + (f"-{int(day):02d}" if day else "")


def _fixed(value: str, schema: dict[str, Any], doc: Document) -> str | None:
    """``value`` rewritten as the schema's ``x-fix`` says (the kind of value the field holds),
    when the result has the field's form; else None."""
    fix = schema.get("x-fix")
    made: str | None = None
    if fix in ("decimal", "fraction"):
        made = _decimal(value, percent=fix == "fraction")
    elif fix == "date":
        made = _date(value)
    elif fix == "provider/model":
        provider = doc.data.get("provider") if isinstance(doc.data, dict) else None
        if isinstance(provider, str) and "/" not in value and value.strip():
            made = f"{provider.strip()}/{value.strip()}"
    elif fix == "env-name":
        made = re.sub(r"[^A-Za-z0-9]+", "_", value.strip()).strip("_").upper()
    elif fix == "id":
        made = re.sub(r"[^a-z0-9]+", "-", value.strip().casefold()).strip("-")
    pattern = schema.get("pattern")
    if made is None or made == value or not isinstance(pattern, str):
        return None
    return made if compile_pattern(pattern).search(made) else None


# a key's random body: 32 letters and digits or more in a row, or 20 or more that mix capitals,
# small letters and at least four digits spread among them (a name in the wrong case, as
# AzureOpenAIApiKey2024, keeps its digits together); the schemas' pattern refuses a run of 32
_KEY_BODY = re.compile(r"[A-Za-z0-9]{32,}")
_MIXED = re.compile(r"[A-Za-z0-9]{20,}")


def _random(run: str) -> bool:
    """Whether a run of 20 to 31 letters and digits reads as random: both cases, and four
    digits or more in at least two places."""
    digits = re.findall(r"[0-9]+", run)
    return (
        any(c.islower() for c in run)
        and any(c.isupper() for c in run)
        and sum(map(len, digits)) >= 4
        and len(digits) >= 2
    )


def pasted_key(value: Any, schema: dict[str, Any]) -> bool:
    """Whether ``value``, in a field that holds an environment variable's name (``x-fix:
    env-name``), is shaped like the API key itself: a vendor's prefixed key (the runtime's
    shapes, provcat.redact) or a key's random body. Such a value is never shown, nor a name
    made from it."""
    return (
        schema.get("x-fix") == "env-name"
        and isinstance(value, str)
        and (
            secret_shapes_hidden(value) != value
            or _KEY_BODY.search(value) is not None
            or any(_random(run) for run in _MIXED.findall(value))
        )
    )


def key_hint(doc: Document) -> str:
    """What to do about an API key written where its variable's name goes: the name offered is
    made from the provider's key."""
    provider = doc.data.get("provider") if isinstance(doc.data, dict) else None
    stem = re.sub(r"[^A-Za-z0-9]+", "_", provider).strip("_").upper() if provider else ""
    name = f"{stem}_API_KEY" if re.fullmatch(r"[A-Z][A-Z0-9_]*", stem) else "ACME_API_KEY"
    return (
        "this looks like an API key: remove it (and revoke it if it was committed), and name "
        f"the environment variable instead, e.g. {name}"
    )


def _pattern_hint(error: ValidationError, schema: dict[str, Any], doc: Document) -> str:
    """What to write for a value without the field's form: the value rewritten when it plainly
    can be, and the form in words (the schema's ``x-form``, with an ``examples`` value)."""
    value = error.instance
    if isinstance(value, str) and not value.strip():
        return "write a value: a blank one says nothing"
    form = schema.get("x-form")
    words = f" ({form})" if isinstance(form, str) else ""
    fixed = _fixed(value, schema, doc) if isinstance(value, str) else None
    if fixed is not None:
        return f"write {_yaml(fixed)}{words}"
    examples = schema.get("examples")
    if words and isinstance(examples, list) and examples and isinstance(examples[0], str):
        return f"write it like {_yaml(examples[0])}{words}"
    if words:
        return f"write {form}"
    return describe(schema, f"expected a value matching {error.validator_value}")


def hint_for(error: ValidationError, schema: dict[str, Any], doc: Document) -> str:
    if error.validator == "type" and (hint := _type_hint(error)) is not None:
        return hint
    if error.validator == "enum":
        values = enum_values(error)
        guess = (
            closest(error.instance, map(str, values)) if isinstance(error.instance, str) else None
        )
        if guess:
            return f"did you mean '{guess}'?"
        if values and all(isinstance(v, str) for v in values):
            return f"write one of {', '.join(_yaml(v) for v in values)}"
    if error.validator == "pattern":
        return _pattern_hint(error, schema, doc)
    return describe(schema, "see the field's description in the schema")
