"""Re-import: lay a fresh import over the catalog's file, keeping what maintainers added.

Ownership is by field. The source states facts (``SOURCE_MODEL_FIELDS`` per model; display
name, docs URL, inventory reason per provider; base URL, auth and key variable); a re-import
writes the source's value of each unless the file's value is a maintainer's. What the import last
wrote is recorded (``record``: the provider's document as the last import mapped it, kept by the
command beside the files), so a value that differs from that record, or one the import never
wrote, is a maintainer's: it is kept, and listed as ``kept`` with the source's value beside it
(``reason``). A field a maintainer deletes follows the source again. Without a record (a file
imported before it existed, ``--models-only``), the source's value replaces the file's and a
value the source does not give is kept.

The tool-schema target the import gives a provider with an ``openai-chat`` endpoint is taken the
same way, except that without a record a target in the file is the maintainer's (no import wrote
one before the record existed), so it stays.

Everything else in the file is the maintainers' and is kept as it is: model aliases, lifecycle
dates, successors, ``points_to``, notes, ``reviewed_at``; provider aliases, description, policy,
endpoints they edited.

``status`` is shared (``SHARED_MODEL_FIELDS``): the importer writes the source's value and records
what it wrote under the model's ``imported:``. A re-import replaces a value that still equals
that record (nobody edited it) and keeps one a maintainer changed; a status with no record (a
file written before the record, or by hand) is the maintainer's, and an empty one is filled. The
change list names every status change the source made, replaced (``changed``) or not (``kept``).

A model the source no longer lists is removed unless the import never wrote it (added by hand),
a maintainer field is set on it, a source field of it was edited, or the file names it elsewhere
(a request default, a policy alias, a successor, ``points_to``); then it stays and the change
says why. A model the source brings whose id is already an id or alias of a model the file keeps
(a maintainer listed ``mistral-medium-latest`` as an alias of ``mistral-medium-3-5``, and the
source lists ``mistral-medium-latest`` as a model of its own) is not added, which would break the
build (``model_alias_is_model_id``); the change list names it as ``skipped``.

The field tables, and the judgement of what is a maintainer's, are in
:mod:`generator.importers.ownership`.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from generator.importers.model_facts import MODEL_FIELDS
from generator.importers.ownership import (
    MAINTAINER_MODEL_FIELDS,
    NO_RECORD,
    PROVIDER_ORDER,
    SHARED_FIELD_DEFAULTS,
    SHARED_MODEL_FIELDS,
    SOURCE_DEFAULTS,
    SOURCE_MODEL_FIELDS,
    SOURCE_PROVIDER_FIELDS,
    kept_reason,
    referenced_models,
)
from provcat.catalog.keys import canonical_key

# why a re-import keeps a model, or a provider's file, as it is: the source lists it, but its file
# there cannot be read (a warning names it), so the import cannot tell what it says now
UNREADABLE_MODEL = "its file in the source cannot be read: kept as it was"
UNREADABLE_PROVIDER = "its provider.toml in the source cannot be read: kept as it was"

# why a re-import adds again a model (a provider's file) the last import wrote: it was deleted by
# hand, and deleting does not keep it out (the source still lists it)
RESTORED_MODEL = "deleted from your file, still in the source"
RESTORED_PROVIDER = "its file was deleted from the folder, still in the source"


@dataclass(frozen=True, slots=True)
class Change:
    """One difference a re-import made: ``kind`` is added, restored (a model or provider file
    the last import wrote, deleted by hand since and added again; ``reason`` says so), removed,
    changed, kept (a maintainer's model or value that stays; ``reason`` says why), skipped (a
    model the source lists that was not added; ``reason`` says why) or relinked (a ``source`` link that names
    another commit, the model's file the same)."""

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
    written = {f: model.get(f, SHARED_FIELD_DEFAULTS[f]) for f in SHARED_MODEL_FIELDS}
    return _model_order({**model, "imported": written})


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
        default = SHARED_FIELD_DEFAULTS[name]
        source = new.get(name, default)
        current = old.get(name)  # as written; None where the file says nothing
        shown = current if current is not None else default
        edited = shown != record[name] if name in record else current is not None
        if edited:  # the maintainer's value stands; a source change is still listed
            if source != shown and source != record.get(name):
                changes.append(
                    Change(
                        provider,
                        model_id,
                        name,
                        "kept",
                        shown,
                        source,
                        f"maintainer's; the source says {_show(source)}",
                    )
                )
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


def _show(value: Any) -> str:
    return "none" if value is None else repr(value)


def take(
    provider: str,
    model_id: str | None,
    name: str,
    before: Any,
    after: Any,
    recorded: Any,
    changes: list[Change],
) -> Any:
    """The value a source field gets in the merged file (None: left out). ``before`` is the
    file's, ``after`` the source's, ``recorded`` what the last import wrote (``NO_RECORD``).

    A value the file has that differs from the record (or the import never wrote) is the
    maintainer's: kept, and listed as ``kept`` when the source says otherwise. Without a
    record, the source's value replaces the file's, and a value the source lacks is kept."""
    if before == after:
        return after
    # without a record, only a value the source lacks is known to be the file's own
    edited = after is None if recorded is NO_RECORD else before is not None and before != recorded
    if edited:
        reason = (
            f"maintainer's; the source says {_show(after)}"
            if after is not None
            else "maintainer's; the source gives none"
            if recorded is not NO_RECORD
            else "the file's; the source gives none"
        )
        changes.append(Change(provider, model_id, name, "kept", before, after, reason))
        return before
    kind = "added" if before is None else "removed" if after is None else "changed"
    if kind == "changed" and name == "source" and _relinked(before, after):
        kind = "relinked"
    changes.append(Change(provider, model_id, name, kind, before, after))
    return after


_LINK = re.compile(r"^(.*/blob/)[^/]+(/.*)$")


def _relinked(before: Any, after: Any) -> bool:
    """Whether two ``source`` links name the same file at two commits."""
    old, new = _LINK.match(str(before)), _LINK.match(str(after))
    return old is not None and new is not None and old.groups() == new.groups()


def merge_model(
    provider: str,
    model_id: str,
    old: dict[str, Any],
    new: dict[str, Any],
    changes: list[Change],
    recorded: Any = NO_RECORD,
) -> dict[str, Any]:
    """``recorded``: the model as the last import wrote it (``{}`` for a model no import wrote),
    or ``NO_RECORD``."""
    merged = {k: v for k, v in old.items() if k not in SOURCE_MODEL_FIELDS}
    for key in SOURCE_MODEL_FIELDS:
        value = take(
            provider,
            model_id,
            key,
            old.get(key),
            new.get(key),
            recorded if recorded is NO_RECORD else recorded.get(key),
            changes,
        )
        if value is not None:
            merged[key] = value
    _merge_shared(provider, model_id, old, new, merged, changes)
    return _model_order(merged)


def merge_provider(
    old: dict[str, Any] | None,
    new: dict[str, Any],
    record: dict[str, Any] | None = None,
    unreadable: Collection[str] = (),
) -> tuple[dict[str, Any], list[Change]]:
    """The file's document after the import, and every change it made. ``record``: the
    provider's document as the last import wrote it (None: no record). ``unreadable``: models
    the source lists whose file cannot be read: the file's model stays as it is (the source did
    not drop it), listed as kept with ``UNREADABLE_MODEL``."""
    key = str(new["provider"])
    changes: list[Change] = []
    if old is None:
        if record is not None:  # the last import wrote its file, deleted since
            changes.append(Change(key, None, None, "restored", reason=RESTORED_PROVIDER))
        else:
            changes.append(Change(key, None, None, "added"))
        fresh = {m: _fresh(f) for m, f in new.get("models", {}).items()}
        doc = {**new, "models": fresh} if fresh else dict(new)
        return _ordered(doc, PROVIDER_ORDER), changes
    merged = dict(old)
    # the source now gives an endpoint to a provider the file lists for its models only (an
    # import that judged it inventory only): the endpoint replaces the marker, unless a
    # maintainer wrote the marker's reason (then it stays, and the endpoint is not added)
    gains_endpoints = "endpoints" in new and not old.get("endpoints")
    for field in SOURCE_PROVIDER_FIELDS:
        before, after = old.get(field), new.get(field)
        if field == "inventory_only" and gains_endpoints and before is not None:
            if record is not None and before != record.get(field):
                gains_endpoints = False
                reason = (
                    "maintainer's; the source now gives it an endpoint: delete inventory_only "
                    "to take it"
                )
                changes.append(Change(key, None, field, "kept", before, None, reason))
                continue
            merged.pop(field, None)
            changes.append(Change(key, None, field, "removed", before, None))
            continue
        if field == "inventory_only" and old.get("endpoints"):
            after = None  # the maintainers gave it endpoints: it is no longer inventory only
            if before is None:
                continue
            merged.pop(field, None)
            changes.append(Change(key, None, field, "removed", before, None))
            continue
        value = take(
            key,
            None,
            field,
            before,
            after,
            NO_RECORD if record is None else record.get(field),
            changes,
        )
        if value is None:
            merged.pop(field, None)
        else:
            merged[field] = value
    if gains_endpoints and "endpoints" not in old:
        merged["endpoints"] = new["endpoints"]
        changes.append(Change(key, None, "endpoints", "added", None, new["endpoints"]))
    # the target the import gives its endpoint: none where a maintainer keeps the provider
    # inventory only; without a record, a target in the file is the maintainer's (no earlier
    # import wrote one), so it is kept
    target = new.get("tool_schema_target")
    if new.get("endpoints") and not merged.get("endpoints"):
        target = None
    value = take(
        key,
        None,
        "tool_schema_target",
        old.get("tool_schema_target"),
        target,
        None if record is None else record.get("tool_schema_target"),
        changes,
    )
    if value is None:
        merged.pop("tool_schema_target", None)
    else:
        merged["tool_schema_target"] = value
    if "endpoints" in merged:
        defaults = dict(old.get("defaults", {}))
        recorded_defaults = (record or {}).get("defaults") or {}
        for field in SOURCE_DEFAULTS:
            before = defaults.get(field)
            after = new.get("defaults", {}).get(field)
            if after is None:  # the source gives none: the file's stays, as before
                continue
            value = take(
                key,
                None,
                f"defaults.{field}",
                before,
                after,
                NO_RECORD if record is None else recorded_defaults.get(field),
                changes,
            )
            defaults[field] = value
        if defaults:
            merged["defaults"] = defaults
    old_models: dict[str, Any] = old.get("models", {})
    new_models: dict[str, Any] = new.get("models", {})
    recorded_models: dict[str, Any] | None = None
    if record is not None:
        recorded_models = record.get("models") or {}
    referenced = referenced_models(key, old)
    why_kept = {
        m: UNREADABLE_MODEL
        if m in unreadable
        else kept_reason(m, facts or {}, referenced, recorded_models)
        for m, facts in old_models.items()
        if m not in new_models
    }
    kept = {m for m in old_models if m in new_models or why_kept.get(m) is not None}
    claimed = _claimed(old_models, kept)
    models: dict[str, Any] = {}
    for model_id in sorted(set(old_models) | set(new_models)):
        if model_id not in old_models:
            clash = _clash(model_id, new_models[model_id], claimed)
            if clash is not None:
                changes.append(Change(key, model_id, None, "skipped", reason=clash))
                continue
            models[model_id] = _fresh(new_models[model_id])
            if recorded_models is not None and model_id in recorded_models:
                # the last import wrote it, and it was deleted from the file since
                changes.append(Change(key, model_id, None, "restored", reason=RESTORED_MODEL))
            else:
                changes.append(Change(key, model_id, None, "added"))
        elif model_id not in new_models:
            if model_id in kept:
                models[model_id] = old_models[model_id]
                changes.append(Change(key, model_id, None, "kept", reason=why_kept[model_id]))
            else:
                changes.append(Change(key, model_id, None, "removed"))
        else:
            recorded: Any = NO_RECORD
            if recorded_models is not None:
                recorded = recorded_models.get(model_id, {})
            models[model_id] = merge_model(
                key, model_id, old_models[model_id], new_models[model_id], changes, recorded
            )
    if models:
        merged["models"] = models
    else:
        merged.pop("models", None)
    return _ordered(merged, PROVIDER_ORDER), changes
