"""One run of the compiler: discover, load, schema-check, build, validate, snapshot, render."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from generator.diagnostics import Diagnostic, errors, ordered
from generator.emit import render
from generator.files import display_path, yaml_files
from generator.gcpause import paused_gc
from generator.incremental import FileCache
from generator.introspect import Importer
from generator.loader import load_file
from generator.model import ProviderDecl, build
from generator.models_check import Summary, judge, summarize
from generator.schema_check import check, check_schema_reference, meta_check
from generator.snapshot import Part, inventory_part
from generator.snapshot import build as build_snapshot
from generator.targets import load as load_targets
from generator.targets import provider_targets, records
from generator.targets import validate as validate_targets
from generator.validate import validate
from provcat.keys import canonical_key

PROVIDER_SCHEMA = "provider.schema.json"


@dataclass
class Result:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    snapshot: dict[str, Any] | None = None
    files: dict[str, str] | None = None

    @property
    def ok(self) -> bool:
        return not errors(self.diagnostics)


def provider_files(catalog: Path, base: Path) -> tuple[list[Path], list[Diagnostic]]:
    return yaml_files(catalog / "providers", base, "provider")


def load_provider(path: Path, shown: str) -> tuple[list[Diagnostic], ProviderDecl | None]:
    """One provider file: load, schema check, typed records (None when it has errors)."""
    doc, found = load_file(path, shown)
    if doc is None:
        return found, None
    found = found + check_schema_reference(doc, PROVIDER_SCHEMA) + check(doc, PROVIDER_SCHEMA)
    return found, (None if errors(found) else build(doc, path.stem))


def _light(decl: ProviderDecl) -> ProviderDecl:
    """What the build cache keeps of a provider's records: without its models when no policy
    reads them (the whole-set checks read models through a policy only; the inventory checks
    are kept as their summary, the snapshot's inventory as the provider's part)."""
    return decl if decl.policy is not None else replace(decl, models=())


@paused_gc
def run(
    catalog: Path,
    import_paths: tuple[Path, ...] = (),
    as_of: date | None = None,
    cache: FileCache | None = None,
) -> Result:
    """Compile ``catalog``; the result holds every diagnostic and, when valid, the files.

    ``as_of`` (default: today) is the day lifecycle diagnostics are judged on; it never changes
    the files. ``cache`` keeps each file's own results between runs (generator.incremental).
    """
    catalog = catalog.resolve()
    base = catalog.parent
    for extra in reversed(import_paths):
        if str(extra.resolve()) not in sys.path:
            sys.path.insert(0, str(extra.resolve()))
    files, problems = provider_files(catalog, base)
    meta_check(PROVIDER_SCHEMA, cache)
    decls: list[ProviderDecl] = []
    summaries: list[Summary] = []
    parts: dict[str, Part | None] = {}  # with a cache: each file's inventory part, kept with it
    for path in files:
        shown = display_path(path, base)
        cached = cache.get(path, shown) if cache is not None else None
        if cached is not None and isinstance(cached[1], tuple) and len(cached[1]) == 4:
            found, decl, part, summary = cached[1]
        else:
            found, decl = load_provider(path, shown)
            part, summary = None, None
            if decl is not None:
                summary = summarize(decl)
                if cache is not None:
                    part = inventory_part(decl)
                    decl = _light(decl)
            if cached is not None and cache is not None:
                cache.put(cached[0], (found, decl, part, summary))
        problems.extend(found)
        if decl is not None and summary is not None:
            decls.append(decl)
            summaries.append(summary)
            if cache is not None:
                parts[decl.file] = part
    problems.extend(validate(decls, Importer()))
    day = as_of or date.today()
    for summary in summaries:
        problems.extend(summary.problems)
        problems.extend(judge(summary, day))
    targets, found = load_targets(catalog, base)
    problems.extend(found)
    target_problems = validate_targets(targets)
    problems.extend(target_problems)
    target_ids = {t.id for t in targets}
    mapping, found = provider_targets(
        [
            (
                canonical_key(p.key.value),
                p.tool_schema_target.value if p.tool_schema_target else None,
                p.tool_schema_target.loc if p.tool_schema_target else p.key.loc,
            )
            for p in decls
        ],
        target_ids,
    )
    problems.extend(found)
    result = Result(ordered(problems))
    if result.ok:
        result.snapshot = build_snapshot(decls, records(targets), mapping, parts)
        source = display_path(catalog, base) + "/"
        result.files = render(result.snapshot, source, cache)
    return result
