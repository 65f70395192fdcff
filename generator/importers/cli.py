"""`python -m generator import models-dev PATH --into DIR`: seed or refresh a catalog folder.

Exit 0 when the files were written (source defects are warnings, listed with their positions),
1 when a file in DIR cannot be read back or a file cannot be written (then nothing is written,
unless the error says how many files were swapped in; with ``--format json``, a JSON object
with ``ok`` false either way), 2 on a usage error or a refused import (a partial snapshot).
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any, NoReturn

import click

from generator.diagnostics import Diagnostic, counted, errors, ordered, render
from generator.files import display_path, skipped
from generator.importers.merge import (
    UNREADABLE_MODEL,
    UNREADABLE_PROVIDER,
    Change,
    merge_provider,
)
from generator.importers.model_facts import SOURCE_REPO
from generator.importers.models_dev import (
    HEADER,
    OPENAI_CHAT_TARGET,
    ImportedProvider,
    import_snapshot,
    provider_ids,
)
from generator.importers.ownership import maintained
from generator.importers.source import SourceError, open_snapshot
from generator.importers.write import SwapFailed, write_folders
from generator.importers.yamlout import dump, splice_models
from generator.loader import load_file
from generator.refusals import refuse
from generator.target_files import FOLDER as TARGETS_FOLDER
from provcat.catalog.keys import close_matches

IMPORTED_MARK = "# Imported from models.dev"
# what the last import wrote, per provider, beside the files it wrote (a dotfile: the build
# skips it); a re-import tells a maintainer's value from its own by it
RECORD_NAME = ".models-dev-import.json"
RECORD_ABOUT = (
    "What `python -m generator import models-dev` last wrote into each provider file, so a "
    "re-import keeps the values maintainers changed (docs/big-catalog.md). Keep it with the files."
)
SHOWN_CHANGES = 40  # changes listed in the text summary without --verbose
# an import that would remove more than half of a provider's imported models is refused (a
# partial snapshot) when the provider had at least this many: a provider of 2 or 3 models that
# loses 2 is no sign of one
FEW_MODELS = 4
# the bundled catalog (`generator build`'s default): its schema targets are provcat's own rules,
# each citing the vendor's page, not models.dev's; a new catalog gets a copy of them
BUNDLED_CATALOG = Path(__file__).resolve().parent.parent.parent / "catalog"


@click.group("import")
def import_group() -> None:
    """Seed or refresh a catalog folder from a public model catalog snapshot."""


def _existing(
    folder: Path, base: Path
) -> tuple[dict[str, tuple[dict[str, Any], str]], list[Diagnostic]]:
    """The provider files already in ``folder``: stem -> (data, text)."""
    found: dict[str, tuple[dict[str, Any], str]] = {}
    problems: list[Diagnostic] = []
    if not folder.is_dir():
        return found, problems
    for path in sorted(folder.glob("*.yaml"), key=lambda p: p.name):
        doc, diagnostics = load_file(path, display_path(path, base))
        problems.extend(diagnostics)
        if doc is not None and isinstance(doc.data, dict):
            found[path.stem] = (doc.data, doc.text)
    return found, problems


def _read_record(folder: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The providers recorded by the last import (None when there is no record) and, when the
    record cannot be read, why."""
    path = folder / RECORD_NAME
    if not path.is_file():
        return None, None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, f"{path}: {exc}"
    providers = data.get("providers") if isinstance(data, dict) else None
    if not isinstance(providers, dict):
        return None, f"{path}: no 'providers' object"
    return providers, None


def _record_text(providers: dict[str, Any]) -> str:
    return (
        json.dumps(
            {"about": RECORD_ABOUT, "providers": providers},
            indent=1,
            sort_keys=True,
            ensure_ascii=False,
        )
        + "\n"
    )


def _bundled_targets(bundled: Path) -> dict[str, bytes]:
    """The bundled catalog's schema-target files, name -> bytes (copied byte for byte)."""
    folder = bundled / TARGETS_FOLDER
    if not folder.is_dir():
        return {}
    return {
        path.name: path.read_bytes()
        for path in sorted(folder.glob("*.yaml"), key=lambda p: p.name)
        if not skipped(path.name) and path.is_file()
    }


def _target_ids(folder: Path) -> set[str]:
    """The schema targets a catalog's ``schema-targets/`` holds (a target's id is its file's
    stem: ``target_file_name_mismatch``)."""
    if not folder.is_dir():
        return set()
    return {p.stem for p in folder.glob("*.yaml") if not skipped(p.name)}


def _select(providers: list[ImportedProvider], selected: tuple[str, ...]) -> list[ImportedProvider]:
    """The providers named by ``--provider SOURCE[=KEY]``, renamed to KEY."""
    by_key = {p.key: p for p in providers}
    chosen: list[ImportedProvider] = []
    for spec in selected:
        source, _, key = spec.partition("=")
        if source not in by_key:  # its provider.toml was unreadable: reported as a defect
            continue
        picked = by_key[source]
        if key:
            picked = dataclasses.replace(
                picked, key=key, document={**picked.document, "provider": key}
            )
        chosen.append(picked)
    return chosen


def _summary(changes: list[Change]) -> dict[str, Any]:
    providers = Counter(c.kind for c in changes if c.model is None and c.field is None)
    models = Counter(c.kind for c in changes if c.model is not None and c.field is None)
    fields = Counter(c.kind for c in changes if c.field is not None and c.kind != "relinked")
    return {
        "providers": dict(sorted(providers.items())),
        "models": dict(sorted(models.items())),
        "fields": dict(sorted(fields.items())),
        # `source` links that name the new snapshot's commit, the model's file unchanged
        "source_links_relinked": sum(1 for c in changes if c.kind == "relinked"),
    }


def _link_commit(link: Any) -> str:
    found = re.search(r"/blob/([^/]+)/", str(link))
    return found.group(1) if found else "?"


def _describe(change: Change) -> str:
    where = change.provider + (f"/{change.model}" if change.model else "")
    if change.field is None:
        if change.kind == "kept":
            return f"  kept     {where} ({change.reason})"
        if change.kind == "skipped":
            return f"  skipped  {where}: not added, {change.reason}"
        if change.kind == "restored":
            return f"  restored {where}: {change.reason}"
        return f"  {change.kind:<8} {where}"
    if change.kind == "changed":
        return f"  changed  {where}: {change.field} {change.old!r} -> {change.new!r}"
    if change.kind == "kept":  # a maintainer's value, which the source does not give
        return f"  kept     {where}: {change.field} {change.old!r} ({change.reason})"
    value = change.new if change.kind == "added" else change.old
    return f"  {change.kind:<8} {where}: {change.field} {value!r}"


@import_group.command("models-dev")
@click.argument("path", type=click.Path(path_type=Path))
@click.option(
    "--into",
    "into",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="The catalog folder to write (its providers/ is created or updated).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="How the summary and the source's defects are printed.",
)
@click.option(
    "--verbose", is_flag=True, help=f"List every change, not only the first {SHOWN_CHANGES}."
)
@click.option(
    "--provider",
    "selected",
    multiple=True,
    metavar="SOURCE[=KEY]",
    help="Import only this models.dev provider (repeatable), into KEY.yaml when the catalog "
    "names it differently (google=gemini). Files of other providers are left alone.",
)
@click.option(
    "--models-only",
    is_flag=True,
    help="Refresh only the `models:` of files that exist (the bundled catalog): everything "
    "above it stays byte for byte; no file is created or removed.",
)
@click.option(
    "--allow-removals",
    is_flag=True,
    help="Remove what the snapshot lacks even when it is more than half of the providers an "
    f"import wrote, or of the models an import wrote for a provider of {FEW_MODELS} or more "
    "(refused without it: a partial snapshot looks like that).",
)
def models_dev(
    path: Path,
    into: Path,
    fmt: str,
    verbose: bool,
    selected: tuple[str, ...],
    models_only: bool,
    allow_removals: bool,
) -> None:
    """Import a models.dev snapshot (its folder, or a .tar.gz of it) into the catalog DIR."""
    try:
        snap = open_snapshot(path)
    except SourceError as exc:
        raise click.UsageError(str(exc)) from exc
    if not any(True for _ in snap.files("providers/")):
        if (path / "providers").is_dir():
            what = f"{path}'s providers/ folder is empty"
        elif path.is_dir():
            what = f"{path} holds no providers/ folder"
        else:
            what = f"{path} holds no files under providers/"
        raise click.UsageError(f"{what}: is it a models.dev snapshot?")
    known = provider_ids(snap)
    for spec in selected:
        source = spec.partition("=")[0]
        if source not in known:
            close = close_matches(source, known, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise click.UsageError(f"the snapshot has no provider {source!r}{hint}")
    only = frozenset(s.partition("=")[0] for s in selected) if selected else None
    # A catalog without schema targets gets the bundled ones; a folder that is there (even
    # empty) is the maintainers' and is never written. --models-only creates no file.
    targets_folder = into / TARGETS_FOLDER
    new_targets: dict[str, bytes] = {}
    if not models_only and not (targets_folder.exists() or targets_folder.is_symlink()):
        new_targets = _bundled_targets(BUNDLED_CATALOG)
    # the target of the endpoints the import makes, where the catalog will have it
    has_target = OPENAI_CHAT_TARGET in (
        _target_ids(targets_folder) | {Path(name).stem for name in new_targets}
    )
    result = import_snapshot(snap, only, OPENAI_CHAT_TARGET if has_target else None)
    if selected:
        result.providers = _select(result.providers, selected)
    folder = into / "providers"
    existing, problems = _existing(folder, into.resolve().parent)
    if errors(problems):
        _print(fmt, ordered(problems), [], None, written=False)
        sys.exit(1)
    if models_only:
        absent = sorted(p.key for p in result.providers if p.key not in existing)
        if absent:
            raise click.UsageError(
                f"--models-only refreshes existing files; {folder} has no "
                f"{', '.join(a + '.yaml' for a in absent)} (name them with --provider SOURCE=KEY)"
            )
    if not models_only:
        written_by_hand = sorted(
            f"{p.key}.yaml"
            for p in result.providers
            if p.key in existing and IMPORTED_MARK not in existing[p.key][1]
        )
        if written_by_hand:
            names = ", ".join(written_by_hand)
            raise click.UsageError(
                f"{folder} holds {names}, which no import wrote (no '{IMPORTED_MARK}' line): an "
                "import rewrites a file whole, so their comments (the sources they cite) and "
                "layout would be lost; nothing was written. Refresh their models with "
                "--models-only --provider SOURCE=KEY, or import into a folder of its own "
                "(--into catalog-big/)"
            )
    source = f"{SOURCE_REPO} at {result.commit}" if result.commit else path.name
    header = HEADER.format(source=source)
    record: dict[str, Any] | None = None
    if not models_only:  # the bundled files are reviewed by their diff; no record is kept
        record, unreadable = _read_record(folder)
        if unreadable is not None:
            click.echo(
                f"provcat: the record of the last import cannot be read ({unreadable}); the "
                "source's values replace the files' and it is written anew",
                err=True,
            )
    texts: dict[str, str | bytes | None] = {}
    changes: list[Change] = []
    imported = set()
    inventory = 0  # files written with no endpoints, only models (`inventory_only:`)
    entries: dict[str, dict[str, Any]] = {}  # the record of each provider imported
    # providers that would lose more than half of the models an import wrote for them:
    # (key, removed, imported)
    thinned: list[tuple[str, int, int]] = []
    for provider in result.providers:
        imported.add(provider.key)
        old = existing.get(provider.key)
        last = None if record is None else record.get(provider.key)
        if models_only and old is not None:
            kept = {k: v for k, v in old[0].items() if k != "models"}
            document, found = merge_provider(
                old[0],
                {**kept, "models": provider.document.get("models", {})},
                unreadable=provider.unreadable,
            )
            text = splice_models(old[1], document.get("models", {}))
        else:
            document, found = merge_provider(
                old[0] if old else None, provider.document, last, provider.unreadable
            )
            text = dump(header, document)
            entries[provider.key] = _entry(provider.document, document, last)
        changes.extend(found)
        if old is not None:
            lost = sum(1 for c in found if c.model and c.field is None and c.kind == "removed")
            before = _imported_models(old[0], None if models_only else last)
            if lost and before >= FEW_MODELS and lost * 2 > before:
                thinned.append((provider.key, lost, before))
        if document.get("inventory_only") is not None:
            inventory += 1
        if old is None or old[1] != text:
            texts[f"{provider.key}.yaml"] = text
    for stem, (data, text) in sorted(existing.items()):
        if stem in imported or IMPORTED_MARK not in text or selected or models_only:
            continue
        if stem in result.unreadable:  # the source lists it: its file is not known to be gone
            changes.append(Change(stem, None, None, "kept", reason=UNREADABLE_PROVIDER))
            continue
        why = maintained(data, None if record is None else record.get(stem))
        if why is not None:
            reason = f"gone from the source; {why}"
            changes.append(Change(stem, None, None, "kept", reason=reason))
        else:
            texts[f"{stem}.yaml"] = None
            changes.append(Change(stem, None, None, "removed"))
    removed = sorted(name.removesuffix(".yaml") for name, t in texts.items() if t is None)
    ours = sum(1 for _, text in existing.values() if IMPORTED_MARK in text)
    if len(removed) * 2 <= ours:
        removed = []  # half of them or fewer: no sign of a partial snapshot
    if (removed or thinned) and not allow_removals:
        refuse("TooManyRemovals", _too_many_removals(path, folder, removed, ours, thinned), fmt)
    if not models_only:
        recorded = dict(record or {})
        recorded.update(entries)
        for name, written in texts.items():
            if written is None:
                recorded.pop(name.removesuffix(".yaml"), None)
        new_record = _record_text(recorded)
        path_record = folder / RECORD_NAME
        old_record = path_record.read_text(encoding="utf-8") if path_record.is_file() else None
        if new_record != old_record:
            texts[RECORD_NAME] = new_record
    writes: dict[Path, dict[str, str | bytes | None]] = {folder: texts}
    if new_targets:
        writes[targets_folder] = dict(new_targets)
    try:
        # the record last: an import cut short leaves the old record beside the files
        write_folders(writes, last=[folder / RECORD_NAME])
    except SwapFailed as exc:
        _write_failed(
            fmt,
            f"cannot write {into}: {exc}; {exc.replaced} of its {exc.total} new files were "
            f"swapped in before that, and the record of the last import ({RECORD_NAME}) was "
            "not changed (check the disk and the folder's permissions, then run the same import "
            "again to finish it)",
            exc,
        )
    except OSError as exc:
        _write_failed(
            fmt,
            f"cannot write {into}: {exc}; no file of it was changed (check the disk and the "
            "folder's permissions, then run the import again)",
            exc,
        )
    skipped = sum(1 for c in changes if c.kind == "skipped" and c.field is None)
    kept_unreadable = _unreadable(changes)
    totals = {
        "providers": len(result.providers),
        "inventory_only": inventory,
        "models": sum(p.models for p in result.providers) - skipped,
        "models_skipped": skipped,
        # models whose own `[provider]` table gives them an API the catalog cannot express:
        # each is an import_unknown_field warning naming it
        "models_with_own_api": sum(p.own_api for p in result.providers),
        # models the files keep that the source no longer lists (each listed as kept)
        "models_kept": sum(
            1
            for c in changes
            if c.kind == "kept" and c.model and not c.field and c.reason != UNREADABLE_MODEL
        ),
        # providers and models the source lists whose files in it cannot be read: kept as they
        # were (each listed as kept, and named in `unreadable`)
        "providers_kept_unreadable": len(kept_unreadable["providers"]),
        "models_kept_unreadable": len(kept_unreadable["models"]),
        "files_written": sum(1 for n, t in texts.items() if t is not None and n != RECORD_NAME),
        "files_removed": sum(1 for t in texts.values() if t is None),
        "schema_targets_copied": len(new_targets),
    }
    targets: dict[str, Any] | None = None
    if not models_only:  # --models-only leaves everything but `models:` as it is
        targets = {
            "folder": str(targets_folder),
            # the bundled files copied into a catalog that had no schema-targets/ folder
            "copied": sorted(new_targets),
            # what the import gives a provider with an openai-chat endpoint (None: the catalog
            # has no such target, so none)
            "tool_schema_target": OPENAI_CHAT_TARGET if has_target else None,
            "endpoints": sum(1 for p in result.providers if p.protocol is not None),
        }
    _print(
        fmt,
        ordered(result.diagnostics),
        changes,
        totals,
        written=True,
        verbose=verbose,
        models_only=models_only,
        targets=targets,
        unreadable=kept_unreadable,
    )


def _write_failed(fmt: str, message: str, exc: Exception) -> NoReturn:
    """A write that failed, exit 1: with ``--format json`` one object on stdout (``ok`` false,
    ``error`` WriteError), as a usage error's, else ``Error: ...`` on stderr."""
    if fmt == "json":
        click.echo(
            json.dumps(
                {"ok": False, "error": "WriteError", "message": message},
                indent=2,
                ensure_ascii=False,
            )
        )
        sys.exit(1)
    raise click.ClickException(message) from exc


def _first_ten(names: list[str]) -> str:
    """``names`` for a message: the first ten, and how many more."""
    return ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")


def _imported_models(doc: dict[str, Any], last: dict[str, Any] | None) -> int:
    """How many models of a provider's file an import wrote: those the record of the last import
    (``last``) lists, or without one those with an ``imported:`` record of their own (as a
    re-import tells them from those added by hand)."""
    models = doc.get("models")
    if not isinstance(models, dict):
        return 0
    if last is not None:
        return sum(1 for m in models if m in (last.get("models") or {}))
    return sum(1 for facts in models.values() if isinstance(facts, dict) and "imported" in facts)


def _too_many_removals(
    path: Path,
    folder: Path,
    removed: list[str],
    ours: int,
    thinned: list[tuple[str, int, int]],
) -> str:
    """Why an import that would remove more than half of the imported providers, or of the
    imported models of a provider, is refused."""
    what = []
    if removed:
        what.append(
            f"{path} lacks {len(removed)} of the {ours} providers an import wrote into {folder} "
            f"({_first_ten(removed)}), so this import would remove their files: more than half of them"
        )
    if thinned:
        shown = _first_ten([f"{key} {lost} of {before}" for key, lost, before in thinned])
        noun = "provider" if len(thinned) == 1 else "providers"
        what.append(
            f"{'it' if removed else path} lacks most of the models an import wrote for "
            f"{len(thinned)} {noun} in {folder} ({shown}), so this import would remove them "
            "from their files: more than half of each one's"
        )
    return (
        "; and ".join(what) + ". Nothing was written. A partial snapshot looks like this (an "
        "interrupted git clone, a sparse checkout, a folder copied in part): check that it is a "
        "whole models.dev checkout and import again; if the source really dropped them, pass "
        "--allow-removals"
    )


def _entry(
    document: dict[str, Any], merged: dict[str, Any], last: dict[str, Any] | None
) -> dict[str, Any]:
    """What the record keeps of a provider: its ``document`` as this import mapped it, plus what
    the last import (``last``) wrote of the models the file keeps (``merged``) that the source no
    longer gives: gone from it but named elsewhere or edited, or their files unreadable. So the
    next import still tells their values from its own: a model nothing names any more is
    removed, and one the source brings back takes the source's values again."""
    before = (last or {}).get("models") or {}
    given = document.get("models", {})
    carried = {m: before[m] for m in merged.get("models", {}) if m not in given and m in before}
    if not carried:
        return document
    models = {**document.get("models", {}), **carried}
    return {**document, "models": {m: models[m] for m in sorted(models)}}


def _unreadable(changes: list[Change]) -> dict[str, list[str]]:
    """The providers and models kept as they were because their source files cannot be read."""
    return {
        "providers": [
            c.provider for c in changes if c.model is None and c.reason == UNREADABLE_PROVIDER
        ],
        "models": [
            f"{c.provider}/{c.model}"
            for c in changes
            if c.model is not None and c.field is None and c.reason == UNREADABLE_MODEL
        ],
    }


def _print(
    fmt: str,
    diagnostics: list[Diagnostic],
    changes: list[Change],
    totals: dict[str, int] | None,
    *,
    written: bool,
    verbose: bool = False,
    models_only: bool = False,
    targets: dict[str, Any] | None = None,
    unreadable: dict[str, list[str]] | None = None,
) -> None:
    if fmt == "json":
        payload = {
            "ok": written,
            "models_only": models_only,
            "diagnostics": [d.as_json() for d in diagnostics],
            "totals": totals,
            "summary": _summary(changes),
            "changes": [c.as_json() for c in changes],
            "schema_targets": targets,
            # kept as they were: the source lists them, but their files in it cannot be read
            "unreadable_kept": unreadable,
        }
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False, default=str))
        return
    if diagnostics:
        click.echo(render(diagnostics, "text"), err=True)
    if not written:
        click.echo(
            "provcat: the catalog folder has unreadable files; nothing was written.", err=True
        )
        return
    assert totals is not None
    by_code = Counter(d.code for d in diagnostics)
    if by_code:
        listed = ", ".join(f"{n} {code}" for code, n in sorted(by_code.items()))
        own = totals.get("models_with_own_api", 0)
        apis = (
            f"; {own} of these {'names' if own == 1 else 'name'} a model with an API of its "
            "own, which the catalog cannot express"
            if own
            else ""
        )
        click.echo(
            f"provcat: {counted(len(diagnostics), 'warning')} about the source ({listed}{apis}); "
            "each is printed on stderr with what the import did about it."
        )
    summary = _summary(changes)
    parts = []
    for what in ("providers", "models", "fields"):
        counts = summary[what]
        if counts:
            parts.append(what + " " + ", ".join(f"{n} {k}" for k, n in counts.items()))
    # a skipped model is always listed, after the others: the catalog lacks it until a
    # maintainer decides what it is
    skipped = [c for c in changes if c.kind == "skipped"]
    # a `source` link that only names the new commit is one line, not a change per model
    others = [c for c in changes if c.kind not in ("skipped", "relinked")]
    shown = others if verbose else others[:SHOWN_CHANGES]
    for change in shown:
        click.echo(_describe(change))
    if len(others) > len(shown):
        click.echo(
            f"  ... and {len(others) - len(shown)} more (--verbose or --format json lists them all)"
        )
    for change in skipped:
        click.echo(_describe(change))
    relinked = [c for c in changes if c.kind == "relinked"]
    if relinked:
        commit = _link_commit(relinked[0].new)
        click.echo(
            f"  relinked the source links of {counted(len(relinked), 'model')} to commit "
            f"{commit} (their files in the source are the same files; not counted as changes)"
        )
    models = counted(totals["models"], "model")
    more = []
    if totals["models_kept"]:
        more.append(f"{totals['models_kept']} more kept that the source does not list")
    if totals["models_skipped"]:
        more.append(f"{totals['models_skipped']} more skipped")
    if totals["models_kept_unreadable"]:
        more.append(
            f"{totals['models_kept_unreadable']} more kept whose source file cannot be read"
        )
    if more:
        models += f" ({'; '.join(more)}; listed above)"
    if targets is not None:
        _print_targets(targets)
    if unreadable and (unreadable["providers"] or unreadable["models"]):
        _print_unreadable(unreadable)
    if models_only:  # the files keep everything above `models:`, endpoints included
        what = f"refreshed the models of {counted(totals['providers'], 'provider')}: {models}"
    else:
        what = (
            f"imported {counted(totals['providers'], 'provider')} ({totals['inventory_only']} "
            f"inventory only), {models}"
        )
    click.echo(
        f"provcat: {what}; {counted(totals['files_written'], 'file')} written, "
        f"{totals['files_removed']} removed; changes: {'; '.join(parts) or 'none'}."
    )


def _print_unreadable(unreadable: dict[str, list[str]]) -> None:
    """The providers and models the catalog keeps as they were because their files in the
    snapshot cannot be read: the import cannot tell what the source says of them now."""
    providers, models = unreadable["providers"], unreadable["models"]
    what = " and ".join(
        part
        for part in (
            counted(len(providers), "provider") if providers else "",
            counted(len(models), "model") if models else "",
        )
        if part
    )
    shown = _first_ten([*providers, *models])
    click.echo(
        f"provcat: kept {what} as they were, not updated or removed: the snapshot lists them but "
        f"their files in it cannot be read ({shown}; each is an import_unreadable_source or "
        "import_dangling_link warning on stderr). Fix those files, or fetch the snapshot again, "
        "and import again to update them."
    )


def _print_targets(targets: dict[str, Any]) -> None:
    """What the import did about the catalog's schema targets: nothing to say on a re-import
    into a catalog that has them."""
    folder = targets["folder"].rstrip("/") + "/"
    copied = targets["copied"]
    target = targets["tool_schema_target"]
    if copied:
        ids = ", ".join(sorted(Path(name).stem for name in copied))
        given = (
            f"; the providers with an {target} endpoint get tool_schema_target: {target}"
            if target is not None
            else ""
        )
        click.echo(
            f"provcat: copied the bundled catalog's {counted(len(copied), 'schema target')} "
            f"({ids}) into {folder}: provcat's tool-schema rules, not models.dev's{given}. A "
            "re-import leaves that folder as you keep it."
        )
    if target is None and targets["endpoints"]:
        n = targets["endpoints"]
        get = "gets" if n == 1 else "get"
        click.echo(
            f"provcat: {folder} has no {OPENAI_CHAT_TARGET} schema target, so the "
            f"{counted(n, 'provider')} with an {OPENAI_CHAT_TARGET} endpoint {get} no "
            f"tool_schema_target; copy catalog/schema-targets/{OPENAI_CHAT_TARGET}.yaml into it "
            "and import again to give them one."
        )
