"""Who owns what in an imported provider file: the fields the source owns and those that are
the maintainers', and whether a value, a model or a whole file holds a maintainer's work, so a
re-import (generator.importers.merge) keeps it, or keeps a model or file the source dropped."""

from __future__ import annotations

from typing import Any

from generator.importers.model_facts import MODEL_FIELDS
from generator.importers.models_dev import OPENAI_CHAT_TARGET

SHARED_MODEL_FIELDS = ("status",)
SOURCE_MODEL_FIELDS = tuple(f for f in MODEL_FIELDS if f not in SHARED_MODEL_FIELDS)
# what the source says when it says nothing, per shared field
SHARED_FIELD_DEFAULTS = {"status": "active"}
SOURCE_PROVIDER_FIELDS = ("display_name", "docs_url", "inventory_only")
SOURCE_DEFAULTS = ("base_url", "auth_type", "api_key_env")
# the order a merged model's fields are written in: the source's, then the maintainers'
MAINTAINER_MODEL_FIELDS = (
    "aliases",
    "points_to",
    "deprecation_date",
    "shutdown_date",
    "successor",
    "default_effort",
    "reviewed_at",
    "note",
)
PROVIDER_ORDER = (
    "provider",
    "display_name",
    "description",
    "docs_url",
    "aliases",
    "module",
    "tool_schema_target",
    "inventory_only",
    "defaults",
    "endpoints",
    "policy",
    "models",
)


def has_maintainer_fields(model: dict[str, Any]) -> bool:
    return any(k not in MODEL_FIELDS and k != "imported" for k in model)


def referenced_models(key: str, doc: dict[str, Any]) -> dict[str, str]:
    """Model ids the file names outside a model's own facts, each with where: request defaults,
    policy aliases, successors and ``points_to``. Such a model is kept when the source drops it,
    so the catalog keeps building; the change says which name keeps it."""
    names: dict[str, str] = {}
    for endpoint_key, endpoint in (doc.get("endpoints") or {}).items():
        model = ((endpoint or {}).get("request_defaults") or {}).get("model")
        if isinstance(model, str):
            names.setdefault(model, f"the request default of endpoint {endpoint_key!r}")
    for alias, target in ((doc.get("policy") or {}).get("model_aliases") or {}).items():
        if isinstance(target, str):
            for name in (target, target.removeprefix(f"{key}/")):
                names.setdefault(name, f"the policy alias {alias!r}")
    for model_id, facts in (doc.get("models") or {}).items():
        for field in ("successor", "points_to"):
            if isinstance((facts or {}).get(field), str):
                names.setdefault(facts[field], f"the {field} of model {model_id!r}")
    return names


NO_RECORD: Any = object()  # no record of what the last import wrote


def edited_fields(old: dict[str, Any], recorded: Any) -> list[str]:
    """The source fields of file model ``old`` whose values differ from what the last import
    wrote (``recorded``: that model's record, or ``NO_RECORD``), the status included."""
    found = []
    if recorded is not NO_RECORD:
        for name in SOURCE_MODEL_FIELDS:
            if old.get(name) is not None and old.get(name) != recorded.get(name):
                found.append(name)
    record = old.get("imported") or {}
    for name in SHARED_MODEL_FIELDS:
        current = old.get(name)
        shown = current if current is not None else SHARED_FIELD_DEFAULTS[name]
        if (shown != record[name]) if name in record else current is not None:
            found.append(name)
    return found


# what the importer writes for an OpenAI-compatible provider: anything else was edited
IMPORTED_ENDPOINTS = {
    "chat/completions": {"aliases": ["chat"], "type": "api", "protocol": "openai-chat"}
}


def maintained(doc: dict[str, Any], record: dict[str, Any] | None) -> str | None:
    """Why an imported file the source no longer lists holds a maintainer's work (then it is
    kept), or None. ``record``: the provider as the last import wrote it."""
    extra = [k for k in doc if k in PROVIDER_ORDER and k not in _IMPORTED_PROVIDER_KEYS]
    if extra:
        return f"it holds maintainer edits ({', '.join(extra)})"
    if record is not None:
        edited = [
            k
            for k in _RECORDED_PROVIDER_FIELDS
            if doc.get(k) is not None and doc.get(k) != record.get(k)
        ]
    else:
        edited = [k for k in ("defaults",) if set(doc.get(k) or {}) - set(SOURCE_DEFAULTS)]
        if doc.get("tool_schema_target") not in (None, OPENAI_CHAT_TARGET):
            edited.append("tool_schema_target")
        if doc.get("endpoints") not in (None, IMPORTED_ENDPOINTS):
            edited.append("endpoints")
    if edited:
        return f"its {', '.join(edited)} were edited"
    recorded_models = (record or {}).get("models") or {}
    for model_id, facts in sorted((doc.get("models") or {}).items()):
        facts = facts or {}
        if has_maintainer_fields(facts):
            return f"model {model_id!r} holds maintainer edits"
        if (model_id not in recorded_models) if record is not None else "imported" not in facts:
            return f"model {model_id!r} was added by hand"
        fields = edited_fields(facts, recorded_models.get(model_id, NO_RECORD))
        if fields:
            return f"the {', '.join(fields)} of model {model_id!r} were edited"
    return None


# the provider fields an import writes and records (a file's other fields are a maintainer's)
_RECORDED_PROVIDER_FIELDS = (
    "display_name",
    "docs_url",
    "tool_schema_target",
    "inventory_only",
    "defaults",
    "endpoints",
)
_IMPORTED_PROVIDER_KEYS = frozenset({"provider", "models", *_RECORDED_PROVIDER_FIELDS})


def kept_reason(
    model_id: str,
    facts: dict[str, Any],
    referenced: dict[str, str],
    recorded_models: dict[str, Any] | None,
) -> str | None:
    """Why a model the source no longer lists stays in the file, or None (it is removed)."""
    if recorded_models is not None:
        if model_id not in recorded_models:
            return "added by hand: no import wrote it"
    elif "imported" not in facts:
        return "added by hand: no import wrote it"
    own = [k for k in facts if k not in MODEL_FIELDS and k != "imported"]
    if own:
        return f"gone from the source; it holds maintainer edits ({', '.join(own)})"
    fields = edited_fields(
        facts, NO_RECORD if recorded_models is None else recorded_models[model_id]
    )
    if fields:
        return f"gone from the source; its {', '.join(fields)} were edited by hand"
    if model_id in referenced:
        return f"gone from the source; {referenced[model_id]} names it"
    return None
