"""Reading arguments produced under a compiled schema back in the canonical schema's terms.

Where a target turns an optional property into a required, nullable one (``required-nullable``),
a null for a property the canonical schema does not require, and whose schema rejects null, means
"omitted": it is removed before the arguments are validated against the canonical schema.
"""

from __future__ import annotations

from typing import Any

from provcat.toolschema.refs import resolve_ref
from provcat.toolschema.targets import Target
from provcat.toolschema.validate import validate_value

__all__ = ["decode_arguments", "null_means_omitted"]


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


_MAX_DEPTH = 256


def null_means_omitted(target: Target) -> bool:
    """Whether ``target`` sends null for an omitted optional property."""
    return any(r.action == "required-nullable" for r, _ in target.fires("optional-property"))


def decode_arguments(schema: Any, value: Any, root: Any = None) -> Any:
    """``value`` with each null that stands for an omitted optional property removed."""
    return _decode(schema, value, schema if root is None else root, 0)


def _decode(schema: Any, value: Any, root: Any, depth: int) -> Any:
    if depth > _MAX_DEPTH or not isinstance(schema, dict):
        return value
    if "$ref" in schema:
        status, target = resolve_ref(root, schema["$ref"])
        if status == "ok":
            value = _decode(target, value, root, depth + 1)
    for slot in ("anyOf", "oneOf"):
        branches = schema.get(slot)
        if isinstance(branches, list):
            for branch in branches:
                decoded = _decode(branch, value, root, depth + 1)
                if not validate_value(branch, decoded, root=root):
                    value = decoded
                    break
    if isinstance(value, dict):
        props = _as_dict(schema.get("properties"))
        required = _as_list(schema.get("required"))
        out: dict[str, Any] = {}
        for key, item in value.items():
            sub = props.get(key)
            if (
                item is None
                and key in props
                and key not in required
                and validate_value(sub, None, root=root)
            ):
                continue
            out[key] = _decode(sub, item, root, depth + 1) if sub is not None else item
        return out
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_decode(schema["items"], item, root, depth + 1) for item in value]
    return value
