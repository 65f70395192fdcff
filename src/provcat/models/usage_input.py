"""What :func:`provcat.estimate_cost` takes as usage: any value, read strictly into a
:class:`~provcat.models.usage.TokenUsage`. A field that belongs to no shape of the value's kind is
an error naming the field meant (the same count's name in that shape, or the closest spelling),
and a count that is not a non-negative int is refused, where a lenient read would cost it zero.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from provcat.catalog.keys import suggest
from provcat.models.usage import GENAI, SHAPES, USAGE_FIELDS, Shape, TokenUsage, shape_of

__all__ = ["to_usage"]

_ALL_NAMES = sorted({f for s in (*SHAPES, GENAI) for f in s.fields})
_ALL_NAMES_SET = frozenset(_ALL_NAMES)
# what holds the usage in a whole answer (its body, or a vendor SDK's response object)
_WRAPPERS = ("usage", "usageMetadata", "usage_metadata")


def _meaning(key: str) -> str | None:
    """The genai-prices name of the count ``key`` is in some shape (its own name for it)."""
    for other in (GENAI, *SHAPES):
        for genai, own in other.names.items():
            if own.partition(".")[0] == key and "." not in own:
                return genai
    return None


def _holds(mapping: Mapping[str, Any], name: str) -> bool:
    """Whether ``mapping`` holds the (dotted: ``prompt_tokens_details.cached_tokens``) ``name``."""
    head, _, rest = name.partition(".")
    if head not in mapping:
        return False
    inner = mapping[head]
    return not rest or (isinstance(inner, Mapping) and _holds(inner, rest))


def _unknown(
    key: str, shape: Shape, keys: frozenset[str], mapping: Mapping[str, Any]
) -> ValueError:
    """The error for ``key`` in a usage read as ``shape``: the same count's name in that shape
    when ``key`` is another shape's name for it, else the closest spelling."""
    meaning = _meaning(key)
    own = shape.names.get(meaning) if meaning else None
    if own is not None and _holds(mapping, own):  # two vendors' names for one count in one record
        hint = f"; it already has '{own}', the {shape.name} name for {meaning}: drop '{key}'"
    elif own is not None:
        hint = f"; did you mean '{own}' (the {shape.name} name for {meaning})?"
    else:
        close = suggest(key, sorted(shape.fields))
        hint = f"; {close}" if close else "; fields: " + ", ".join(sorted(shape.fields))
    mark = sorted(keys & shape.marks)
    told = f" (read as {shape.name} usage, from '{mark[0]}')" if mark else ""
    return ValueError(f"usage has no field '{key}'{told}{hint}")


def _as_mapping(value: Any) -> Mapping[str, Any] | None:
    """A usage record, or a whole answer holding one (see ``_WRAPPERS``), as plain data: a mapping
    as is; a vendor SDK's object (pydantic) or a dataclass dumped; another object's attributes of
    a known name. None: an object holding no field of any shape, nor a usage."""
    if isinstance(value, Mapping):
        return value or None  # an empty one reports nothing: no cost is better than a zero
    data: Any = None
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        data = dump(exclude_none=True)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {k: v for k, v in dataclasses.asdict(value).items() if v is not None}
    else:
        data = {
            n: getattr(value, n)
            for n in (*_ALL_NAMES, *_WRAPPERS)
            if getattr(value, n, None) is not None
        }
    if not isinstance(data, Mapping) or not any(
        k in _ALL_NAMES_SET or k in _WRAPPERS for k in data
    ):
        return None
    return data


def to_usage(value: Any) -> TokenUsage:
    """``value`` as a TokenUsage: a TokenUsage, anything with a ``usage`` (a call's result, a
    stream), genai-prices' field names, or a vendor's own usage object or dict (a whole answer
    body with ``usage`` or ``usageMetadata`` too). Strict: a field no shape of the value's kind
    holds is an error that names the field meant."""
    if isinstance(value, TokenUsage):
        return value
    if value is None:
        raise TypeError(
            "usage is None: the answer reported no token usage (a stream of OpenAI Chat "
            "Completions reports it only with stream_options.include_usage, which stream() sets)"
        )
    if hasattr(type(value), "usage") or (
        not isinstance(value, Mapping) and hasattr(value, "usage")
    ):
        inner = value.usage  # a call's result, a stream, a vendor SDK's response object
        if inner is None:
            raise TypeError(
                f"this {type(value).__name__} carries no usage: the answer reported none (a "
                "stream's usage is known once it has ended)"
            )
        return to_usage(inner)
    mapping = _as_mapping(value)
    if mapping is None:
        raise TypeError(
            f"usage ({type(value).__name__}) has none of the fields {', '.join(USAGE_FIELDS)}, "
            "nor a vendor's usage fields: pass a TokenUsage, a call's result or a usage dict"
        )
    for wrapper in _WRAPPERS:  # a whole answer's body, or a vendor SDK's response object
        if wrapper in mapping and not isinstance(mapping[wrapper], (int, float)):
            return to_usage(mapping[wrapper])
    keys = frozenset(str(k) for k in mapping)
    shape = shape_of(mapping)
    for key in sorted(keys):
        if key not in shape.fields:
            raise _unknown(key, shape, keys, mapping)
    _check_counts(mapping, "")
    return shape.read(mapping)


# vendor counts whose names do not say so (Perplexity's search queries)
_OTHER_COUNTS = frozenset({"num_search_queries"})


def _check_counts(mapping: Mapping[str, Any], where: str) -> None:
    """Every token count is a non-negative int: a string or a float would silently cost zero."""
    for key, value in mapping.items():
        name = f"{where}{key}"
        if isinstance(value, Mapping):
            _check_counts(value, name + ".")
        elif value is not None and (
            str(key).endswith(("tokens", "Count", "_count")) or key in _OTHER_COUNTS
        ):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"usage {name} must be an int, not {type(value).__name__}")
            if value < 0:
                what = "counts" if key in _OTHER_COUNTS else "token counts"
                raise ValueError(f"usage {name} is {value}: {what} cannot be negative")
