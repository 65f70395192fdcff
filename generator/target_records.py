"""Valid schema targets as snapshot records: sorted by id, ``extends`` resolved (the parent's
rules first, their codes renamed for the child), lists frozen as tuples."""

from __future__ import annotations

from typing import Any

from generator.target_files import TargetDecl
from generator.targets import inherited_rule, rule_triggers


def _tuples(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def records(decls: list[TargetDecl]) -> tuple[dict[str, Any], ...]:
    """The snapshot records of valid targets, sorted by id, with `extends` resolved."""
    by_id = {d.id: d for d in decls}
    out = []
    for decl in sorted(decls, key=lambda d: d.id):
        data = decl.data
        parent = by_id[data["extends"]].data if "extends" in data else None
        rules = (
            [*(inherited_rule(r, parent["id"], decl.id) for r in parent.get("rules") or [])]
            if parent
            else []
        )
        rules += list(data.get("rules") or [])
        keywords = data.get("keywords")
        if keywords is None:
            keywords = (parent or {}).get("keywords") or {}
        output = data["output"]
        out.append(
            {
                "id": decl.id,
                "display_name": data["display_name"],
                "description": data.get("description"),
                "api_surface": data["api_surface"],
                "rules_reviewed_at": data["rules_reviewed_at"],
                "review": tuple(
                    {"source": r["source"], "checked": r["checked"], "change": r["change"]}
                    for r in data["review"]
                ),
                "api_key_env": data.get("api_key_env"),
                "extends": data.get("extends"),
                "source": decl.doc.file,
                "docs": tuple({"title": d["title"], "url": d["url"]} for d in data["docs"]),
                "probe": _tuples(data["probe"]) if "probe" in data else None,
                "output": {
                    "envelope": _tuples(output["envelope"]),
                    "description": output["description"],
                    "schema_style": output["schema_style"],
                    "refs": output.get("refs", "keep"),
                    "nullable_style": output.get("nullable_style", "type-union"),
                    "type_case": output.get("type_case", "lower"),
                    "int64_keywords": tuple(output.get("int64_keywords") or ()),
                    "key_order": tuple(output.get("key_order") or ()),
                },
                "keywords": {k: tuple(v) for k, v in keywords.items()},
                "steps": {
                    k: {"code": v["code"], "detail": v["detail"]}
                    for k, v in (data.get("steps") or {}).items()
                },
                "rules": tuple(
                    {
                        "code": r["code"],
                        "severity": r["severity"],
                        "triggers": tuple(_tuples(t) for t in rule_triggers(r)),
                        "action": r["action"],
                        "lossy": r["lossy"],
                        "message": r["message"],
                        "compile": r["compile"],
                        "transformation": dict(r["transformation"])
                        if "transformation" in r
                        else None,
                        "extra": {k: dict(v) for k, v in (r.get("extra") or {}).items()},
                        "docs_url": r["docs_url"],
                        "source": r["source"],
                    }
                    for r in rules
                ),
            }
        )
    return tuple(out)
