"""Rule wording filled per record: each template read once into its texts and placeholders.

A rule's message, compile text or transformation detail is a ``str.format`` template over the
record's values and ``{tool}``, ``{target}`` and ``{path}``; a placeholder nobody supplies stays
as written. Filling is what building a record costs most, so each template is parsed once into
its literal texts and plain placeholder names (:func:`parts`); a record whose values hold every
name it needs is filled by joining them (the text ``str.format`` gives, without parsing the
template or building the merged mapping again).
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter
from typing import Any, Final

__all__ = [
    "PARTS",
    "fill",
    "fill_parts",
    "format_template",
    "parts",
    "template_fields",
]

_MEMO_MAX: Final = 4096
_UNSEEN: Any = object()
_PARSE = Formatter().parse

# template -> the plain names it holds, or None when it needs the general fill (a format spec,
# a conversion, an index or attribute, a positional field, or braces ``str.format`` rejects)
_FIELDS: dict[str, frozenset[str] | None] = {}
# template -> its literal texts and placeholder names alternating, ``(text, name, text, ...,
# text)`` with escaped braces unescaped, for a template whose placeholders are all plain names
# (a template without any is one text); None for any other template
PARTS: dict[str, tuple[str, ...] | None] = {}


class _Values(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def format_template(template: str, values: Mapping[str, Any]) -> str:
    """``template`` with ``{name}`` placeholders filled from ``values`` (unknown ones kept)."""
    return template.format_map(_Values(values))


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


def parts(template: str) -> tuple[str, ...] | None:
    """``PARTS``'s entry for ``template``, made on first use: ``(text, name, text, ...)``, so
    the template filled from values holding every name is each text followed by the value of the
    name after it, written as ``str.format`` writes it (``format(value, "")``, as an f-string
    does); None when it needs the general fill."""
    known = PARTS.get(template, _UNSEEN)
    if known is not _UNSEEN:
        return known  # type: ignore[no-any-return]
    found: tuple[str, ...] | None = None
    if template_fields(template) is not None:
        out: list[str] = []
        text = ""
        for literal, name, _, _ in _PARSE(template):
            text += literal
            if name is not None:
                out += (text, name)
                text = ""
        out.append(text)
        found = tuple(out)
    if len(PARTS) < _MEMO_MAX:
        PARTS[template] = found
    return found


def fill_parts(found: tuple[str, ...], values: Mapping[str, Any]) -> str:
    """A template's :func:`parts` filled from ``values``; KeyError when a name has no value.

    The common shapes (no placeholder, one, two) are one f-string each."""
    n = len(found)
    if n == 3:
        return f"{found[0]}{values[found[1]]}{found[2]}"
    if n == 1:
        return found[0]
    if n == 5:
        return f"{found[0]}{values[found[1]]}{found[2]}{values[found[3]]}{found[4]}"
    texts = [found[0]]
    for i in range(1, n, 2):
        texts.append(f"{values[found[i]]}{found[i + 1]}")
    return "".join(texts)


def fill(template: str, provider_id: str, tool_name: str, path: str, values: Any) -> str:
    """A rule template filled for one record; a template without braces is returned as is.

    The record's ``values`` win over ``tool``, ``target`` and ``path``; a placeholder none of
    them names is kept as written."""
    if "{" not in template:
        return template
    found = PARTS.get(template, _UNSEEN)
    if found is _UNSEEN:
        found = parts(template)
    if found is not None:
        try:
            return fill_parts(found, values)
        except KeyError:  # a name the values lack: ``tool``, ``target``, ``path`` or none
            pass
    return template.format_map(
        _Values({"tool": tool_name, "target": provider_id, "path": path, **values})
    )
