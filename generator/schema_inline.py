"""A schema with its local ``$ref``s written out in place, for jsonschema to word violations.

A violation found inside a referenced definition then names the fields of the definition where
it is used (an unknown price field lists the price fields), and each is reported once, at its
node. Writing each ``#/$defs/...`` reference out gives the same verdicts: a reference without
siblings becomes the definition itself, one with siblings becomes ``allOf: [definition]`` beside
them (what ``$ref`` means in draft 2020-12). A definition that refers to itself keeps its
``$ref`` (``$defs`` stays in place).
"""

from __future__ import annotations

from typing import Any

_PREFIX = "#/$defs/"


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    defs: dict[str, Any] = schema.get("$defs", {})

    def walk(node: Any, expanding: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [walk(item, expanding) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_PREFIX):
            name = ref[len(_PREFIX) :]
            if name in defs and "/" not in name and name not in expanding:
                target = walk(defs[name], (*expanding, name))
                rest = {k: walk(v, expanding) for k, v in node.items() if k != "$ref"}
                # an allOf beside the $ref keeps its members after the inlined definition
                together = [target, *rest.pop("allOf", [])]
                return {**rest, "allOf": together} if rest or len(together) > 1 else target
        return {k: (v if k == "$defs" else walk(v, expanding)) for k, v in node.items()}

    inlined: dict[str, Any] = walk(schema, ())
    return inlined
