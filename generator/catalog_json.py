"""catalog.json: the whole snapshot as one JSON file, for programs that cannot import Python.

The same content as the snapshot package (schemas/catalog.schema.json documents every field):
each provider with its endpoints, policy and its models' full records (the inventory) nested
in it, the lookup indexes (so another language resolves a spelling exactly as the runtime
does, without reimplementing ``str.casefold``), and the tool-schema targets. Nothing is
computed here that the snapshot does not hold, except the counts and the fingerprint, which
the package's ``__init__`` carries too. Keys keep the snapshot's order (sorted by code point),
so the same catalog always gives the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from generator import GENERATOR_VERSION
from provcat.catalog.format import SUPPORTED_FORMAT

# the layout of catalog.json itself; raise it when a field changes meaning or goes away
CATALOG_JSON_FORMAT = 1
FILE = "provcat_catalog/catalog.json"


# the depth at which a provider's models and model index are written (document, providers,
# provider, its members)
PART_DEPTH = 3


class Written(str):
    """JSON text already written for its place in the document (a provider's models and model
    index, written with the provider file's inventory part, which the build cache keeps)."""


def written(value: Any, depth: int = PART_DEPTH) -> Written:
    """``value`` as ``_write`` writes it at ``depth``."""
    out: list[str] = []
    _write(value, depth, out)
    return Written("".join(out))


def _provider(row: Mapping[str, Any], models: Any, index: Any) -> Any:
    """A provider row with its inventory in place of the policy's short model list (which
    holds a subset of the same records' fields)."""
    out = {k: v for k, v in row.items() if k != "models"}
    out["models"] = models
    out["model_index"] = index
    return out


def document(
    snapshot: Mapping[str, Any],
    fingerprint: str,
    source: str,
    texts: Mapping[str, tuple[Written, Written]] | None = None,
) -> dict[str, Any]:
    """catalog.json's content as plain data; ``texts`` holds providers' models and model index
    already written (by canonical key), in place of their records."""
    inventory = snapshot.get("inventory", {})
    inventory_index = snapshot.get("inventory_index", {})
    texts = texts or {}
    providers = [
        _provider(row, *texts[row["provider"]])
        if row["provider"] in texts
        else _provider(
            row, inventory.get(row["provider"], ()), inventory_index.get(row["provider"], {})
        )
        for row in snapshot["providers"]
    ]
    return {
        "catalog_json_format": CATALOG_JSON_FORMAT,
        "snapshot_format": SUPPORTED_FORMAT,
        "generator_version": GENERATOR_VERSION,
        "fingerprint": fingerprint,
        "source": source,
        "providers": providers,
        "provider_index": snapshot["provider_index"],
        "model_alias_index": snapshot["model_alias_index"],
        "provider_targets": snapshot.get("provider_targets", {}),
        "endpoint_targets": snapshot.get("endpoint_targets", {}),
        "schema_targets": snapshot.get("targets", ()),
    }


# values this deep or deeper are written on one line each: one model, endpoint or rule a line
_ONE_LINE_DEPTH = 4
# one encoder for every value (json.dumps with options would make one per call)
_encode = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


def _write(value: Any, depth: int, out: list[str]) -> None:
    """JSON text of ``value`` into ``out``: objects and arrays above ``_ONE_LINE_DEPTH`` one
    member a line (indented by depth), deeper ones by the C encoder on one line."""
    if type(value) is Written:
        out.append(value)
        return
    if depth >= _ONE_LINE_DEPTH or not isinstance(value, dict | list | tuple) or not value:
        out.append(_encode(value))
        return
    pad = "\n" + " " * (depth + 1)
    if isinstance(value, dict):
        out.append("{")
        for i, (key, item) in enumerate(value.items()):
            out.append(("," if i else "") + pad + _encode(key) + ": ")
            _write(item, depth + 1, out)
        out.append("\n" + " " * depth + "}")
    else:
        out.append("[")
        for i, item in enumerate(value):
            out.append(("," if i else "") + pad)
            _write(item, depth + 1, out)
        out.append("\n" + " " * depth + "]")


def render_json(
    snapshot: Mapping[str, Any],
    fingerprint: str,
    source: str,
    texts: Mapping[str, tuple[Written, Written]] | None = None,
) -> str:
    """The text of catalog.json: UTF-8, LF, a final newline; one model (endpoint, rule) a line,
    so a change to the catalog is a readable diff. ``texts``: as :func:`document`."""
    out: list[str] = []
    _write(document(snapshot, fingerprint, source, texts), 0, out)
    return "".join(out) + "\n"
