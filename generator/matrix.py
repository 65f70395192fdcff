"""The schema-targets page's matrix: one row per keyword any target names, one cell per target."""

from __future__ import annotations

from typing import Any

# trigger kind -> the keyword it concerns (keyword-list triggers are read from `keywords`)
_KIND_KEYWORD = {
    "format": "format",
    "const": "const",
    "one-of": "oneOf",
    "definitions": "definitions",
    "nullable": "nullable",
    "additional-properties": "additionalProperties",
    "min-items-not-in": "minItems",
    "enum-values": "enum",
    "ref": "$ref",
    "type": "type",
}
_RANK = "RLWTDP"


def _outcome(rule: dict[str, Any]) -> str:
    if rule["action"] == "unsupported":
        return "R" if rule["severity"] == "error" else "W"
    if rule["lossy"]:
        return "L"
    if rule["action"] == "keep":
        return "W"
    if rule["action"] == "drop-annotation":
        return "D"
    return "T"


def matrix(targets: Any) -> list[dict[str, Any]]:
    """One row per keyword any target names, one cell per target: the outcomes of its rules."""
    words: set[str] = set()
    for t in targets:
        for values in t["keywords"].values():
            words.update(values)
        words.update(t["output"]["key_order"])
        for r in t["rules"]:
            for trig in r["triggers"]:
                if trig["kind"] in ("keyword", "constraints-present"):
                    words.update(trig["keywords"])
                elif trig["kind"] in _KIND_KEYWORD:
                    words.add(_KIND_KEYWORD[trig["kind"]])
    rows = []
    for word in sorted(words):
        cells = []
        for t in targets:
            found: set[str] = set()
            known = {k for values in t["keywords"].values() for k in values}
            for r in t["rules"]:
                for trig in r["triggers"]:
                    kind = trig["kind"]
                    hit = (
                        (kind in ("keyword", "constraints-present") and word in trig["keywords"])
                        or _KIND_KEYWORD.get(kind) == word
                        or (kind == "unknown-keyword" and word not in known)
                    )
                    if hit:
                        found.add(_outcome(r))
                        if {"unconvertible", "conflict"} & set(r["extra"]):
                            found.add("L")
            rewrite = t["output"]["schema_style"] == "rewrite"
            if not found:
                if not rewrite or word in t["output"]["key_order"]:
                    found.add("P")
                elif t["output"]["refs"] == "inline" and word in ("$ref", "$defs", "definitions"):
                    found.add("T")
                else:
                    found.add("D")
            elif not rewrite or word in t["output"]["key_order"]:
                found.add("P")
            cells.append(", ".join(sorted(found, key=_RANK.index)))
        rows.append({"keyword": word, "cells": cells})
    return rows
