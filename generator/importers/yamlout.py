"""Deterministic YAML for imported provider files: the same document gives the same bytes.

Keys keep the order the importer built them in (which is sorted where it is not a fixed field
order); leaf mappings and lists are written in flow style, one per line, so a model stays short
enough to review in a diff.
"""

from __future__ import annotations

from typing import Any

import yaml

_Dumper: type[yaml.SafeDumper] = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


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
