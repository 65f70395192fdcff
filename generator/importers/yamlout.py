"""Deterministic YAML for imported provider files: the same document gives the same bytes.

Keys keep the order the importer built them in (which is sorted where it is not a fixed field
order); leaf mappings and lists are written in flow style, one per line, so a model stays short
enough to review in a diff.
"""

from __future__ import annotations

from typing import Any

import yaml

from generator.scalars import reads_back

_Base: type[yaml.SafeDumper] = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_QUOTE = "tag:provcat,2026:quote"  # no plain scalar resolves to it: the string is quoted


class _Dumper(_Base):  # type: ignore[valid-type,misc]
    """pyyaml's safe dumper, but a string is written plain only when the catalog loader (YAML
    1.2) and YAML 1.1 tools both read it back as that same string (``reads_back``, the loader's
    own check); any other (``1e3``, ``08``, ``0o17``, ``yes``, ``2026-01-01``) is quoted."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        tag = super().resolve(kind, value, implicit)
        if (
            kind is yaml.ScalarNode
            and implicit[0]
            and tag == "tag:yaml.org,2002:str"
            and not reads_back(value)
        ):
            return _QUOTE
        return tag


def dump(header: str, document: dict[str, Any]) -> str:
    body = yaml.dump(
        document,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=None,
        width=100_000,
        indent=2,
    )
    return header + body


def splice_models(text: str, models: dict[str, Any]) -> str:
    """``text`` with its top-level ``models:`` block replaced (or appended): every line outside
    that block, comments included, stays as it was. The block ends at the next top-level key; the
    column-0 comments just before that key (or the end of the file) are outside it."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if _top_key(line) == "models"), None)
    block = dump("", {"models": models}) if models else ""
    if start is None:
        if not block:
            return text
        return text + ("" if text.endswith("\n") else "\n") + block
    end = start + 1
    while end < len(lines) and (_top_key(lines[end]) is None):
        end += 1
    # column-0 comments (and the blank lines around them) between the block and the next key or
    # the end of the file belong to the file, not to the block: they stay
    keep = end
    while keep > start + 1 and (lines[keep - 1].startswith("#") or not lines[keep - 1].strip()):
        keep -= 1
    if any(line.startswith("#") for line in lines[keep:end]):
        end = keep
    return "".join(lines[:start]) + block + "".join(lines[end:])


def _top_key(line: str) -> str | None:
    """The key of a top-level mapping line (``models:``), None for anything indented or blank."""
    if not line or line[0] in " \t\n#":
        return None
    key, colon, _ = line.partition(":")
    return key.strip() if colon else None
