"""One run of the compiler: discover, load, schema-check, build, validate, snapshot, render."""

from __future__ import annotations

import gc
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any, NamedTuple

from generator.cache import FileCache
from generator.diagnostics import Diagnostic, errors, ordered
from generator.endpoint_lifecycle import check_endpoint_lifecycles
from generator.files import display_path, stray_yaml, yaml_files
from generator.introspect import Importer
from generator.loader import read_source
from generator.model import ModelDecl, ProviderDecl, build
from generator.models_check import Summary, judge, summarize
from generator.provider_targets import provider_targets
from generator.render import provider_pages, render
from generator.schema_check import check, check_schema_reference, load_bytes
from generator.snapshot import Part, PartText, inventory_part, part_text
from generator.snapshot import build as build_snapshot
from generator.target_files import FOLDER as TARGET_FOLDER
from generator.target_files import load as load_targets
from generator.target_probes import check_probes
from generator.target_records import records
from generator.targets import validate as validate_targets
from generator.validate import keys_of, validate
from provcat.catalog.keys import canonical_key

PROVIDER_SCHEMA = "provider.schema.json"


@dataclass
class Result:
    """One compiler run: every diagnostic and, when the catalog is valid, the snapshot and files."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    snapshot: dict[str, Any] | None = None
    files: Mapping[str, str] | None = None

    @property
    def ok(self) -> bool:
        return not errors(self.diagnostics)


PROVIDER_FOLDER = "providers"


def provider_files(catalog: Path, base: Path) -> tuple[list[Path], list[Diagnostic]]:
    return yaml_files(catalog / PROVIDER_FOLDER, base, "provider")


class ProviderFile(NamedTuple):
    """What one provider file gives the build, all made from the file alone (the build cache
    keeps it under the file's bytes): its problems, records, inventory summary and part, its
    model module and page, and its part as text. A file with schema errors has only its problems and, when it can be
    read that far, a record whose keys take part in the key checks (no summary)."""

    found: list[Diagnostic]
    decl: ProviderDecl | None = None
    summary: Summary | None = None
    part: Part | None = None
    pages: dict[str, str] | None = None
    text: PartText | None = None


def read_provider(path: Path, shown: str, source: str, cache: FileCache | None) -> ProviderFile:
    """One provider file's results: from the build cache when it holds the file's bytes, else
    made (and kept). ``source`` is the catalog folder as the generated headers name it."""
    raw, found = read_source(path, shown)
    if raw is None:
        return ProviderFile(found)
    key = cache.key(raw, shown) if cache is not None else None
    if cache is not None and key is not None:
        kept = cache.get(key)
        if isinstance(kept, ProviderFile):
            return kept
    doc, found = load_bytes(raw, shown, PROVIDER_SCHEMA)
    made = ProviderFile(found)
    if doc is not None:
        found = found + check_schema_reference(doc, PROVIDER_SCHEMA) + check(doc, PROVIDER_SCHEMA)
        made = ProviderFile(found)
        if errors(found):
            # the file could be read: its keys still take part in the whole-set key checks, so
            # a schema error does not hide a collision with another file (issue #25)
            made = ProviderFile(found, keys_of(doc, path.stem))
        else:
            decl = build(doc, path.stem)
            part = inventory_part(decl)
            provider = canonical_key(decl.key.value)
            pages = provider_pages(source, provider, part, cache) if part else None
            text = part_text(part) if part else None
            summary = summarize(decl)
            if decl.policy is None:
                # the summary, the part and the pages read its models' facts; the whole-set
                # checks only their ids and aliases (another provider's policy alias may not
                # spell them: generator/policies.py), so only those are kept
                decl = replace(
                    decl, models=tuple(ModelDecl(m.key, m.aliases, {}) for m in decl.models)
                )
            made = ProviderFile(found, decl, summary, part, pages, text)
    if cache is not None and key is not None:
        cache.put(key, made)
    return made


def run(
    catalog: Path,
    import_paths: tuple[Path, ...] = (),
    as_of: date | None = None,
    cache: FileCache | None = None,
) -> Result:
    """Compile ``catalog``; the result holds every diagnostic and, when valid, the files.

    ``as_of`` (default: today) is the day lifecycle diagnostics are judged on; it never changes
    the files. ``cache`` keeps each file's own results between runs (generator.cache).

    A run is one batch: its objects are freed by reference counting, and the cyclic collector's
    passes over the records it keeps would be waste (a fifth of a 10,000-model build); it is
    paused here, and only here.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        return _run(catalog, import_paths, as_of, cache)
    finally:
        if paused:
            gc.enable()


def _run(
    catalog: Path,
    import_paths: tuple[Path, ...] = (),
    as_of: date | None = None,
    cache: FileCache | None = None,
) -> Result:
    """Compile ``catalog``; the result holds every diagnostic and, when valid, the files.

    ``as_of`` (default: today) is the day lifecycle diagnostics are judged on; it never changes
    the files. ``cache`` keeps each file's own results between runs (generator.cache).
    """
    catalog = catalog.resolve()
    base = catalog.parent
    for extra in reversed(import_paths):
        if str(extra.resolve()) not in sys.path:
            sys.path.insert(0, str(extra.resolve()))
    files, problems = provider_files(catalog, base)
    problems.extend(stray_yaml(catalog, base, (PROVIDER_FOLDER, TARGET_FOLDER)))
    source = display_path(catalog, base) + "/"
    decls: list[ProviderDecl] = []
    partial: list[ProviderDecl] = []  # files with schema errors: their keys only
    summaries: list[Summary] = []
    parts: dict[str, Part | None] = {}
    pages: dict[str, dict[str, str]] = {}
    texts: dict[str, PartText] = {}
    unread: set[str] = set()  # providers whose files failed their schema check (or loading)
    for path in files:
        read = read_provider(path, display_path(path, base), source, cache)
        problems.extend(read.found)
        if read.summary is None:
            unread.add(canonical_key(path.stem))
        if read.decl is not None and read.summary is None:
            partial.append(read.decl)
            unread.update(canonical_key(k.value) for k in (read.decl.key, *read.decl.aliases))
        elif read.decl is not None and read.summary is not None:
            decls.append(read.decl)
            summaries.append(read.summary)
            parts[read.decl.file] = read.part
            if read.pages is not None:
                pages[canonical_key(read.decl.key.value)] = read.pages
            if read.text is not None:
                texts[canonical_key(read.decl.key.value)] = read.text
    problems.extend(validate(decls, Importer(), keys_only=partial))
    day = as_of or date.today()
    for summary in summaries:
        problems.extend(summary.problems)
        problems.extend(judge(summary, day))
    problems.extend(check_endpoint_lifecycles(decls))
    targets, broken, found = load_targets(catalog, base)
    problems.extend(found)
    target_problems = validate_targets(targets, broken)
    problems.extend(target_problems)
    problems.extend(check_probes(targets, zip(decls, summaries, strict=True), unread, day))
    target_ids = {t.id for t in targets}
    # a file with schema errors names its targets too: a misspelt one is reported in this run
    named = [*decls, *partial]
    mapping, found = provider_targets(
        [
            (canonical_key(p.key.value), target.value, target.loc)
            for p in named
            if (target := p.tool_schema_target) is not None and isinstance(target.value, str)
        ],
        target_ids,
        broken,
    )
    problems.extend(found)
    endpoint_mapping, found = provider_targets(
        [
            (
                f"{canonical_key(p.key.value)}/{canonical_key(e.key.value)}",
                target.value,
                target.loc,
            )
            for p in named
            for e in p.endpoints
            if (target := e.tool_schema_target) is not None and isinstance(target.value, str)
        ],
        target_ids,
        broken,
    )
    problems.extend(found)
    result = Result(ordered(problems))
    if result.ok:
        result.snapshot = build_snapshot(
            decls, records(targets), mapping, parts, endpoint_targets=endpoint_mapping
        )
        result.files = render(result.snapshot, source, pages, cache, texts)
    return result
