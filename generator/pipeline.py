"""One run of the compiler: discover, load, schema-check, build, validate, snapshot, render."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from generator.diagnostics import Diagnostic, errors, ordered
from generator.emit import render
from generator.endpoint_lifecycle import check_endpoint_lifecycles
from generator.files import display_path, yaml_files
from generator.gcpause import paused_gc
from generator.incremental import FileCache
from generator.introspect import Importer
from generator.loader import load_file
from generator.model import (
    ProviderDecl,
    build,
    config_endpoint_defaults,
    use_endpoint_defaults,
)
from generator.models_check import Summary, judge, summarize
from generator.schema_check import check, check_schema_reference, meta_check
from generator.snapshot import build as build_snapshot
from generator.snapshot import inventory_part
from generator.stored_parts import Part, StoredPart
from generator.targets import load as load_targets
from generator.targets import provider_targets, records
from generator.targets import validate as validate_targets
from generator.validate import validate
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
    return decl if decl.policy is not None else decl.replace(models=())


def _key(decl: ProviderDecl) -> str:
    return canonical_key(decl.key.value)


def _part_loader(cache: FileCache, key: str, path: Path, shown: str) -> Callable[[], Part]:
    """Loads the part kept for cache entry ``key``; a damaged one is made again from the file,
    which must still be the file the entry was kept for."""

    def load() -> Part:
        part = cache.part(key)
        if isinstance(part, tuple) and len(part) == 2:
            return part
        _, decl = load_provider(path, shown)
        if cache.key(path, shown) != key or decl is None:
            raise RuntimeError(f"{shown} changed while the build ran; build again")
        made = inventory_part(decl)
        if made is None:
            raise RuntimeError(f"{shown} changed while the build ran; build again")
        cache.put_part(key, made)
        return made

    return load


def _endpoint_defaults(cache: FileCache) -> None:
    """The endpoint settings' defaults, as the last build with this runtime read them: reading
    them from the runtime imports pydantic, which a one-file rebuild need not otherwise pay."""
    key = cache.digest(b"endpoint defaults")
    text = cache.text(key)
    if text is not None:
        with contextlib.suppress(ValueError):
            if use_endpoint_defaults(json.loads(text)):
                return
    names, types = config_endpoint_defaults()
    data = [list(names), types]
    use_endpoint_defaults(data)
    text = json.dumps(data, sort_keys=True)
    if json.loads(text) == data:  # kept only when JSON gives back the very values
        with contextlib.suppress(OSError):
            cache.put_text(key, text)


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
    parts: dict[str, StoredPart | None] = {}  # with a cache: each file's inventory part
    sources: dict[str, str] = {}  # with a cache: each file's key in it
    primed = False  # the endpoint defaults, read from the cache on the first file it misses
    for path in files:
        shown = display_path(path, base)
        cached = cache.get(path, shown) if cache is not None else None
        value = cached[1] if cached is not None else None
        if (
            cache is not None
            and cached is not None
            and isinstance(value, tuple)
            and len(value) == 4
            and (value[2] is None or cache.has_part(cached[0]))
        ):
            found, decl, facts, summary = value
            keep = True  # read from the entry: its key is the file's
            if decl is not None and facts is not None:
                load = _part_loader(cache, cached[0], path, shown)
                parts[decl.file] = StoredPart(facts, load)
            elif decl is not None:
                parts[decl.file] = None
        else:
            if cache is not None and not primed:
                _endpoint_defaults(cache)
                primed = True
            found, decl = load_provider(path, shown)
            # a result is kept only under the key of the bytes it was made from (the key may be
            # from a read before the build: the file read now must be that one)
            keep = (
                cache is not None
                and cached is not None
                and cache.key(path, shown, True) == cached[0]
            )
            facts, summary = None, None
            if decl is not None:
                summary = summarize(decl)
                if cache is not None:
                    part = inventory_part(decl)
                    stored = None if part is None else StoredPart.made(_key(decl), part)
                    facts = stored.facts if stored is not None else None
                    parts[decl.file] = stored
                    decl = _light(decl)
                    if keep and cached is not None and part is not None:
                        cache.put_part(cached[0], part)
            if keep and cached is not None and cache is not None:
                cache.put(cached[0], (found, decl, facts, summary))
        problems.extend(found)
        if decl is not None and summary is not None:
            decls.append(decl)
            summaries.append(summary)
            if keep and cached is not None:
                sources[decl.file] = cached[0]
    problems.extend(validate(decls, Importer(), cache, cache, sources))
    day = as_of or date.today()
    for summary in summaries:
        problems.extend(summary.problems)
        problems.extend(judge(summary, day))
    problems.extend(check_endpoint_lifecycles(decls))
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
    endpoint_mapping, found = provider_targets(
        [
            (
                f"{canonical_key(p.key.value)}/{canonical_key(e.key.value)}",
                e.tool_schema_target.value,
                e.tool_schema_target.loc,
            )
            for p in decls
            for e in p.endpoints
            if e.tool_schema_target is not None
        ],
        target_ids,
    )
    problems.extend(found)
    result = Result(ordered(problems))
    if result.ok:
        result.snapshot = build_snapshot(
            decls, records(targets), mapping, parts, endpoint_targets=endpoint_mapping
        )
        source = display_path(catalog, base) + "/"
        result.files = render(result.snapshot, source, cache)
    if cache is not None:
        cache.flush()
    return result
