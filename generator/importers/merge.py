"""Re-import: lay a fresh import over the catalog's file, keeping what maintainers added.

Ownership is by field. The source owns the facts it states (``SOURCE_MODEL_FIELDS`` per model;
display name, docs URL, base URL, auth and key variable, ``inventory_only`` per provider) and
they are rewritten on every import. Everything else in the file is the maintainers' and is kept
as it is: model aliases, lifecycle dates, successors, ``points_to``, notes, ``reviewed_at``;
provider aliases, description, policy, endpoints they edited, tool-schema target.

``status`` is shared (``SHARED_MODEL_FIELDS``): the importer writes the source's value and records
what it wrote under the model's ``imported:``. A re-import replaces a value that still equals
that record (nobody edited it) and keeps one a maintainer changed; a status with no record (a
file written before the record, or by hand) is the maintainer's, and an empty one is filled. The
change list names every status change the source made, replaced (``changed``) or not (``kept``). A model the source no longer lists
is removed unless a maintainer field is set on it or the file names it elsewhere (a request
default, a policy alias, a successor, ``points_to``); then it stays and the summary says so.
A model the source brings whose id is already an id or alias of a model the file keeps (a
maintainer listed ``mistral-medium-latest`` as an alias of ``mistral-medium-3-5``, and the source
lists ``mistral-medium-latest`` as a model of its own) is not added, which would break the build
(``model_alias_is_model_id``); the change list names it as ``skipped``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.importers.model_facts import MODEL_FIELDS
from provcat.catalog.keys import canonical_key

SHARED_MODEL_FIELDS = ("status",)
SOURCE_MODEL_FIELDS = tuple(f for f in MODEL_FIELDS if f not in SHARED_MODEL_FIELDS)
# what the source says when it says nothing, per shared field
_SOURCE_DEFAULT = {"status": "active"}
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


@dataclass(frozen=True, slots=True)
class Change:
    """One difference a re-import made: ``kind`` is added, removed, changed, kept or skipped
    (a model the source lists that was not added; ``reason`` says why)."""

    provider: str
    model: str | None
    field: str | None
    kind: str
    old: Any = None
    new: Any = None
    reason: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "model": self.model,
            "field": self.field,
            "kind": self.kind,
            "old": self.old,
            "new": self.new,
            "reason": self.reason,
        }


def _ordered(doc: dict[str, Any], order: tuple[str, ...]) -> dict[str, Any]:
    first = {k: doc[k] for k in order if k in doc}
    rest = {k: doc[k] for k in sorted(doc) if k not in first}
    return {**first, **rest}


def _model_order(model: dict[str, Any]) -> dict[str, Any]:
    return _ordered(model, (*MODEL_FIELDS, *MAINTAINER_MODEL_FIELDS, "imported"))


def _fresh(model: dict[str, Any]) -> dict[str, Any]:
    """A model the source brings for the first time, with the record of what it wrote."""
    written = {f: model.get(f, _SOURCE_DEFAULT[f]) for f in SHARED_MODEL_FIELDS}
    return _model_order({**model, "imported": written})


def has_maintainer_fields(model: dict[str, Any]) -> bool:
    return any(k not in MODEL_FIELDS and k != "imported" for k in model)


def _merge_shared(
    provider: str,
    model_id: str,
    old: dict[str, Any],
    new: dict[str, Any],
    merged: dict[str, Any],
    changes: list[Change],
) -> None:
    """Each shared field: the source's value replaces the importer's own earlier one, never a
    maintainer's; every change the source made is listed."""
    record = dict(old.get("imported") or {})
    for name in SHARED_MODEL_FIELDS:
        default = _SOURCE_DEFAULT[name]
        source = new.get(name, default)
        current = old.get(name)  # as written; None where the file says nothing
        shown = current if current is not None else default
        edited = shown != record[name] if name in record else current is not None
        if edited:  # the maintainer's value stands; a source change is still listed
            if source != shown and source != record.get(name):
                changes.append(Change(provider, model_id, name, "kept", shown, source))
        else:
            if source == default:
                merged.pop(name, None)
            else:
                merged[name] = source
            if source != shown:
                kind = "changed" if current is not None else "added"
                changes.append(Change(provider, model_id, name, kind, current, source))
        record[name] = source
    merged["imported"] = record


def _referenced(key: str, doc: dict[str, Any]) -> set[str]:
    """Model ids the file names outside a model's own facts: request defaults, policy aliases,
    successors and ``points_to``. Such a model is kept when the source drops it, so the catalog
    keeps building; the summary says it was kept."""
    names: set[str] = set()
    for endpoint in (doc.get("endpoints") or {}).values():
        model = (endpoint.get("request_defaults") or {}).get("model")
        if isinstance(model, str):
            names.add(model)
    for target in ((doc.get("policy") or {}).get("model_aliases") or {}).values():
        if isinstance(target, str):
            names.add(target)
            names.add(target.removeprefix(f"{key}/"))
    for facts in (doc.get("models") or {}).values():
        for field in ("successor", "points_to"):
            if isinstance(facts.get(field), str):
                names.add(facts[field])
    return names


def _claimed(old_models: dict[str, Any], kept: set[str]) -> dict[str, tuple[str, str, bool]]:
    """The ids and aliases of the models the file keeps: canonical name -> (name as written,
    its model's id, whether it is the id)."""
    claimed: dict[str, tuple[str, str, bool]] = {}
    for model_id in sorted(kept):
        claimed.setdefault(canonical_key(model_id), (model_id, model_id, True))
    for model_id in sorted(kept):
        aliases = old_models[model_id].get("aliases") or []
        for alias in aliases if isinstance(aliases, list) else []:
            if isinstance(alias, str):
                claimed.setdefault(canonical_key(alias), (alias, model_id, False))
    return claimed


def _clash(
    model_id: str, facts: dict[str, Any], claimed: dict[str, tuple[str, str, bool]]
) -> str | None:
    """Why a model new to the file cannot be added (its id or an alias is already a name of a
    model the file keeps), or None."""
    aliases = facts.get("aliases") or []
    names = [model_id, *(a for a in aliases if isinstance(a, str))]
    for name in names:
        hit = claimed.get(canonical_key(name))
        if hit is None:
            continue
        written, owner, is_id = hit
        what = "id" if name == model_id else f"alias {name!r}"
        spelled = "" if written == name else f" (as {written!r}, differing only in case or spaces)"
        if is_id:
            return f"its {what} is already the id of model {owner!r}{spelled}"
        return (
            f"its {what} is already an alias of model {owner!r}{spelled}; to list it as a "
            "model of its own, drop that alias and import again"
        )
    return None


def merge_model(
    provider: str, model_id: str, old: dict[str, Any], new: dict[str, Any], changes: list[Change]
) -> dict[str, Any]:
    merged = {k: v for k, v in old.items() if k not in SOURCE_MODEL_FIELDS}
    for key in SOURCE_MODEL_FIELDS:
        before, after = old.get(key), new.get(key)
        if after is not None:
            merged[key] = after
        if before == after:
            continue
        kind = "added" if before is None else "removed" if after is None else "changed"
        changes.append(Change(provider, model_id, key, kind, before, after))
    _merge_shared(provider, model_id, old, new, merged, changes)
    return _model_order(merged)


def merge_provider(
    old: dict[str, Any] | None, new: dict[str, Any]
) -> tuple[dict[str, Any], list[Change]]:
    """The file's document after the import, and every change it made."""
    key = str(new["provider"])
    changes: list[Change] = []
    if old is None:
        changes.append(Change(key, None, None, "added"))
        fresh = {m: _fresh(f) for m, f in new.get("models", {}).items()}
        doc = {**new, "models": fresh} if fresh else dict(new)
        return _ordered(doc, PROVIDER_ORDER), changes
    merged = dict(old)
    for field in SOURCE_PROVIDER_FIELDS:
        before, after = old.get(field), new.get(field)
        if field == "inventory_only" and old.get("endpoints"):
            after = None  # the maintainers gave it endpoints: it is no longer inventory only
        if after is None:
            merged.pop(field, None)
        else:
            merged[field] = after
        if before != after:
            kind = "added" if before is None else "removed" if after is None else "changed"
            changes.append(Change(key, None, field, kind, before, after))
    if "endpoints" not in old and "endpoints" in new:
        merged["endpoints"] = new["endpoints"]
        changes.append(Change(key, None, "endpoints", "added", None, new["endpoints"]))
    if "endpoints" in merged:
        defaults = dict(old.get("defaults", {}))
        for field in SOURCE_DEFAULTS:
            before = defaults.get(field)
            after = new.get("defaults", {}).get(field)
            if after is not None:
                defaults[field] = after
            if after is not None and before != after:
                kind = "added" if before is None else "changed"
                changes.append(Change(key, None, f"defaults.{field}", kind, before, after))
        if defaults:
            merged["defaults"] = defaults
    old_models: dict[str, Any] = old.get("models", {})
    new_models: dict[str, Any] = new.get("models", {})
    referenced = _referenced(key, old)
    kept = {
        m
        for m, facts in old_models.items()
        if m in new_models or has_maintainer_fields(facts) or m in referenced
    }
    claimed = _claimed(old_models, kept)
    models: dict[str, Any] = {}
    for model_id in sorted(set(old_models) | set(new_models)):
        if model_id not in old_models:
            clash = _clash(model_id, new_models[model_id], claimed)
            if clash is not None:
                changes.append(Change(key, model_id, None, "skipped", reason=clash))
                continue
            models[model_id] = _fresh(new_models[model_id])
            changes.append(Change(key, model_id, None, "added"))
        elif model_id not in new_models:
            if model_id in kept:
                models[model_id] = old_models[model_id]
                changes.append(Change(key, model_id, None, "kept"))
            else:
                changes.append(Change(key, model_id, None, "removed"))
        else:
            models[model_id] = merge_model(
                key, model_id, old_models[model_id], new_models[model_id], changes
            )
    if models:
        merged["models"] = models
    else:
        merged.pop("models", None)
    return _ordered(merged, PROVIDER_ORDER), changes
