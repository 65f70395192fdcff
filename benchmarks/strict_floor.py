"""A lower bound for any pure-Python compile that reports its findings, timed beside the baselines.

``strict_walk`` is the least an OpenAI strict-mode compile with findings can do, written by hand
for the benchmark corpus only: copy each subschema in the target's key order, drop the keywords
strict mode rejects, close every object, make optional properties required and nullable, and
append one plain tuple per finding and per transformation. It has no rule tables, no other target,
no reference handling, no limits, no result objects; it is not correct for general input and
nothing but ``bench_toolschema`` uses it. Its time shows how close a general compiler written in
Python can come to a baseline that only edits a dict in place.
"""

from __future__ import annotations

from typing import Any

_ORDER = [
    "$ref",
    "type",
    "description",
    "enum",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "items",
    "properties",
    "required",
    "additionalProperties",
    "anyOf",
    "$defs",
]
_DROPPED = frozenset({"minLength", "maxLength"})
_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
_ORDERS: dict[tuple[str, ...], tuple[str, ...]] = {}

Finding = tuple[int, str, str, dict[str, Any]]
Change = tuple[str, str, bool, dict[str, Any]]


def _node(s: dict[str, Any], path: str, found: list[Finding], done: list[Change]) -> Any:
    out: dict[str, Any] = {}
    for key, value in s.items():
        if key in _DROPPED or (key == "format" and value not in _FORMATS):
            found.append((0, f"{path}.{key}", "dropped-keyword", {"keyword": key}))
            done.append(("dropped-keyword", f"{path}.{key}", True, {"keyword": key}))
            continue
        if key == "properties":
            value = {k: _node(v, f"{path}.properties.{k}", found, done) for k, v in value.items()}
        elif key == "items":
            value = _node(value, f"{path}.items", found, done)
        elif key == "anyOf":
            value = [_node(v, f"{path}.anyOf[{i}]", found, done) for i, v in enumerate(value)]
        elif key in ("enum", "required"):
            value = list(value)
        out[key] = value
    if out.get("type") == "object":
        found.append((0, f"{path}.additionalProperties", "closed-object", {"value": "missing"}))
        done.append(("closed-object", f"{path}.additionalProperties", False, {}))
        out["additionalProperties"] = False
        props: dict[str, Any] = out.get("properties", {})
        required = s.get("required", ())
        for name in props:
            if name not in required:
                where = f"{path}.properties.{name}"
                found.append((0, where, "optional-property", {"property": name}))
                found.append((1, where, "null-means-omitted", {"property": name}))
                done.append(("required-nullable", where, False, {"property": name}))
                child = dict(props[name])
                if isinstance(child.get("type"), str):
                    child["type"] = [child["type"], "null"]
                props[name] = child
        out["required"] = list(props)
    keys = tuple(out)
    order = _ORDERS.get(keys)
    if order is None:
        order = _ORDERS[keys] = tuple(k for k in _ORDER if k in out)
    return {k: out[k] for k in order}


def strict_walk(tool: dict[str, Any]) -> tuple[dict[str, Any], list[Finding], list[Change]]:
    """The strict function tool, its findings (sorted) and its transformations."""
    found: list[Finding] = []
    done: list[Change] = []
    schema = _node(tool["inputSchema"], "inputSchema", found, done)
    found.sort(key=lambda f: (f[0], f[1], f[2]))
    envelope = {"type": "function", "name": tool["name"], "parameters": schema, "strict": True}
    if "description" in tool:
        envelope["description"] = tool["description"]
    return envelope, found, done
