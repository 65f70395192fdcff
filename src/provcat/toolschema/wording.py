"""Rule wording filled per record: each template read once for the placeholders it names.

A rule's message, compile text or transformation detail is a ``str.format`` template over the
record's values and ``{tool}``, ``{target}`` and ``{path}``; a placeholder nobody supplies stays
as written. Filling is what building a record costs most, so each template is parsed once: when
every placeholder it names is a plain name the record's values hold, it is filled straight from
them (the same text the general fill gives, without building the merged mapping).
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter
from typing import Any, Final

__all__ = [
    "KEYABLE",
    "SINGLE",
    "fill",
    "format_template",
    "single_field",
    "template_fields",
    "values_key",
]

_MEMO_MAX: Final = 4096
_UNSEEN: Any = object()
_PARSE = Formatter().parse

# template -> the plain names it holds, or None when it needs the general fill (a format spec,
# a conversion, an index or attribute, a positional field, or braces ``str.format`` rejects)
_FIELDS: dict[str, frozenset[str] | None] = {}
# (template, values_key) -> the filled text, for templates filled from the values alone
_TEXTS: dict[tuple[str, tuple[tuple[str, Any], ...]], str] = {}
# Value classes whose equal values always print alike and never equal a value of another class
# here (unlike ``True == 1 == 1.0`` or ``0.0 == -0.0``), so equal keys mean equal text.
KEYABLE: Final = frozenset({str, int, type(None)})
# template -> (its one placeholder, the text before it, the text after it, braces unescaped) for
# a template naming one plain name once (most rules' wording); None for any other template
SINGLE: dict[str, tuple[str, str, str] | None] = {}
_SINGLE = SINGLE


class _Values(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def format_template(template: str, values: Mapping[str, Any]) -> str:
    """``template`` with ``{name}`` placeholders filled from ``values`` (unknown ones kept)."""
    return template.format_map(_Values(values))


def values_key(values: Mapping[str, Any]) -> tuple[tuple[str, Any], ...] | None:
    """``values`` as a memo key that decides the text filled from them; None when a value is of
    a class that could make equal keys print differently."""
    if not values:
        return ()
    for v in values.values():
        if v.__class__ not in KEYABLE:
            return None
    return tuple(values.items())


def template_fields(template: str) -> frozenset[str] | None:
    """The placeholder names of ``template`` when all are plain names (read once per template);
    None when it needs the general fill."""
    known = _FIELDS.get(template, _UNSEEN)
    if known is not _UNSEEN:
        return known  # type: ignore[no-any-return]
    names: set[str] = set()
    found: frozenset[str] | None
    try:
        for _, name, spec, conversion in _PARSE(template):
            if name is None:
                continue
            if not name.isidentifier() or spec or conversion:
                names.clear()
                raise ValueError(name)
            names.add(name)
        found = frozenset(names)
    except ValueError:
        found = None
    if len(_FIELDS) < _MEMO_MAX:
        _FIELDS[template] = found
    return found


def _single(template: str) -> tuple[str, str, str] | None:
    """``SINGLE``'s entry for ``template``, made on first use."""
    fields = template_fields(template)
    single: tuple[str, str, str] | None = None
    if fields is not None and len(fields) == 1:
        parts = list(_PARSE(template))
        named = [i for i, part in enumerate(parts) if part[1] is not None]
        if len(named) == 1:
            at = named[0]
            single = (
                parts[at][1] or "",
                "".join(part[0] for part in parts[: at + 1]),
                "".join(part[0] for part in parts[at + 1 :]),
            )
    if len(SINGLE) < _MEMO_MAX:
        SINGLE[template] = single
    return single


def single_field(template: str) -> tuple[str, str, str] | None:
    """The one plain placeholder ``template`` names, once, with the texts around it: the
    template filled with any value ``v`` is ``f"{before}{v}{after}"`` (``str.format`` writes
    ``format(v, "")``, as the f-string does), without parsing the template again; None for any
    other template."""
    single = SINGLE.get(template, _UNSEEN)
    if single is _UNSEEN:
        single = _single(template)
    return single  # type: ignore[no-any-return]


def fill(template: str, provider_id: str, tool_name: str, path: str, values: Any) -> str:
    """A rule template filled for one record; a template without braces is returned as is.

    The record's ``values`` win over ``tool``, ``target`` and ``path``; a placeholder none of
    them names is kept as written."""
    if "{" not in template:
        return template
    single = SINGLE.get(template, _UNSEEN)
    if single is _UNSEEN:
        single = _single(template)
    if single is not None:
        value = values.get(single[0], _UNSEEN)
        if value is not _UNSEEN:  # ``str.format`` writes it as ``format(value, "")`` does
            return f"{single[1]}{value}{single[2]}"
    fields = _FIELDS.get(template, _UNSEEN)
    if fields is _UNSEEN:
        fields = template_fields(template)
    if fields is not None and fields <= values.keys():
        if not KEYABLE.issuperset(map(type, values.values())):  # ``values_key`` is None
            return template.format_map(values)
        key = (template, tuple(values.items()))
        text = _TEXTS.get(key)
        if text is None:
            text = template.format_map(values)
            if len(_TEXTS) >= _MEMO_MAX:
                _TEXTS.clear()  # bounded: start over rather than keep stale entries
            _TEXTS[key] = text
        return text
    return template.format_map(
        _Values({"tool": tool_name, "target": provider_id, "path": path, **values})
    )
