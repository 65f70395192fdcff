"""Local ``$ref`` resolution: ``#``, JSON pointers (percent-decoded, ``~1``/``~0``, array
indices) and ``#anchor`` via ``$anchor``. External references are never fetched."""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import unquote

from provcat.toolschema.subschemas import walk_schema

__all__ = ["RefStatus", "resolve_ref"]

RefStatus = Literal["ok", "external", "dangling", "malformed"]


def _pointer(root: Any, pointer: str) -> tuple[RefStatus, Any]:
    if pointer == "":
        return "ok", root
    if not pointer.startswith("/"):
        return "malformed", None
    raws = pointer[1:].split("/")
    if any("~" in raw.replace("~0", "").replace("~1", "") for raw in raws):
        return "malformed", None
    node = root
    for raw in raws:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            if part not in node:
                return "dangling", None
            node = node[part]
        elif isinstance(node, list):
            if not part.isdigit() or (len(part) > 1 and part.startswith("0")):
                return "dangling", None
            index = int(part)
            if index >= len(node):
                return "dangling", None
            node = node[index]
        else:
            return "dangling", None
    return "ok", node


def resolve_ref(root: Any, ref: Any) -> tuple[RefStatus, Any]:
    """What ``ref`` points at inside ``root``: ("ok", target) or a status and None.

    A target that is neither an object nor a boolean is not a schema: "dangling".
    """
    if not isinstance(ref, str) or ref == "":
        return "malformed", None
    if not ref.startswith("#"):
        return "external", None
    fragment = unquote(ref[1:])
    if fragment == "" or fragment.startswith("/"):
        status, target = _pointer(root, fragment)
    else:
        status, target = "dangling", None
        for node in walk_schema(root):
            if node.schema.get("$anchor") == fragment:
                status, target = "ok", node.schema
                break
    if status == "ok" and not isinstance(target, (dict, bool)):
        return "dangling", None
    return status, target
