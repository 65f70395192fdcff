"""Every generated file, rendered in memory from the snapshot by the jinja2 templates.

Each template gets one context: the snapshot, the values made from it below (counts, the
fingerprint, the lists and tables the pages show) and the header's fields. Nothing here
touches the disk: generator.tree compares the result with ``generated/`` and writes it.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from generator import GENERATOR_VERSION
from generator.cache import FileCache
from generator.catalog_json import FILE as CATALOG_JSON
from generator.catalog_json import render_json
from generator.codes import all_codes
from generator.filters import FILTERS
from generator.matrix import matrix
from generator.pyliteral import literal
from generator.snapshot import Part, PartText, fingerprint
from provcat.catalog.format import SUPPORTED_FORMAT as FORMAT_VERSION
from provcat.endpoints.protocols import PROTOCOLS
from provcat.models.effort import EFFORT_LEVELS

TEMPLATES = Path(__file__).resolve().parent / "templates"

# (file, template) of the whole-catalog files; each provider's model module and page, and each
# schema target's page, come after them
PAGES: tuple[tuple[str, str], ...] = (
    ("provcat_catalog/__init__.py", "package/__init__.py.j2"),
    ("provcat_catalog/data.py", "package/data.py.j2"),
    ("provcat_catalog/inventory.py", "package/inventory.py.j2"),
    ("provcat_catalog/names.py", "package/names.py.j2"),
    ("provcat_catalog/records.py", "package/records.py.j2"),
    ("provcat_catalog/targets.py", "package/targets.py.j2"),
    ("provcat_catalog/models/__init__.py", "package/models_init.py.j2"),
    ("docs/README.md", "docs/README.md.j2"),
    ("docs/providers.md", "docs/providers.md.j2"),
    ("docs/endpoints.md", "docs/endpoints.md.j2"),
    ("docs/protocols.md", "docs/protocols.md.j2"),
    ("docs/aliases.md", "docs/aliases.md.j2"),
    ("docs/policies.md", "docs/policies.md.j2"),
    ("docs/diagnostics.md", "docs/diagnostics.md.j2"),
    ("docs/models.md", "docs/models.md.j2"),
    ("docs/lifecycle.md", "docs/lifecycle.md.j2"),
    ("docs/schema-targets.md", "docs/schema-targets.md.j2"),
)


class _Compiled(jinja2.BytecodeCache):
    """The templates as jinja2 compiled them, kept in the build cache beside the files' entries
    (compiling the pages' templates is about 60 ms of every build). An entry is found by the
    template's name, its source's checksum, jinja2's version and the build cache's code version
    (which holds this module: the environment's options); anything else is a miss."""

    def __init__(self, cache: FileCache) -> None:
        self.cache = cache

    def _key(self, bucket: jinja2.bccache.Bucket) -> str:
        name = f"template {jinja2.__version__} {bucket.key}"
        return self.cache.key(bucket.checksum.encode(), name)

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        kept = self.cache.get(self._key(bucket))
        if isinstance(kept, bytes):
            bucket.bytecode_from_string(kept)  # checks jinja2's magic and the checksum again

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.cache.put(self._key(bucket), bucket.bytecode_to_string())


@lru_cache(maxsize=2)
def environment(cache: FileCache | None = None) -> jinja2.Environment:
    """The templates' environment; with ``cache``, compiled templates are kept in it."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        bytecode_cache=_Compiled(cache) if cache is not None else None,
    )
    env.filters.update(FILTERS)
    return env


def in_lifecycle(model: Mapping[str, Any]) -> bool:
    """Whether the lifecycle page lists the model."""
    return bool(
        model.get("status") in ("deprecated", "retired")
        or model.get("deprecation_date")
        or model.get("shutdown_date")
    )


def lifecycle_rows(inventory: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every model marked deprecated or retired or carrying a lifecycle date, by shutdown date."""
    rows = [
        {"provider": provider, **m}
        for provider, models in inventory.items()
        for m in models
        if in_lifecycle(m)
    ]
    return sorted(
        rows, key=lambda r: (r.get("shutdown_date") or "9999-99-99", r["provider"], r["model"])
    )


def price_change_rows(inventory: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every announced price change (a period of a price schedule after the first), by day."""
    rows = []
    for provider, models in inventory.items():
        for m in models:
            periods = m.get("prices")
            if not isinstance(periods, (list, tuple)):
                continue
            for before, after in itertools.pairwise(periods):
                rows.append(
                    {
                        "provider": provider,
                        "model": m["model"],
                        "on": after.get("from"),
                        "before": before,
                        "after": after,
                    }
                )
            last = periods[-1] if periods else None
            if last is not None and last.get("until"):
                rows.append(
                    {
                        "provider": provider,
                        "model": m["model"],
                        "on": last["until"],
                        "before": last,
                        "after": None,
                    }
                )
    return sorted(rows, key=lambda r: (r["on"] or "", r["provider"], r["model"]))


def secondary_rows(inventory: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every fact a model records as read only from a reseller or third party."""
    return [
        {"provider": provider, "model": m["model"], **entry}
        for provider, models in sorted(inventory.items())
        for m in models
        for entry in m.get("secondary", ())
    ]


def counts(snapshot: dict[str, Any]) -> dict[str, int]:
    providers = snapshot["providers"]
    endpoints = [e for p in providers for e in p["endpoints"]]
    return {
        "providers": len(providers),
        "endpoints": len(endpoints),
        "aliases": sum(len(p["aliases"]) for p in providers)
        + sum(len(e["aliases"]) for e in endpoints),
        "model_aliases": len(snapshot["model_alias_index"]),
        "models": sum(len(models) for models in snapshot.get("inventory", {}).values()),
        "schema_targets": len(snapshot.get("targets", ())),
    }


def part_module(key: str) -> str:
    """The module of provcat_catalog.models holding provider ``key``'s models: readable, and
    distinct for keys that differ only in punctuation."""
    tail = hashlib.sha256(key.encode()).hexdigest()[:8]
    return "p_" + re.sub(r"[^a-z0-9]+", "_", key.lower()).strip("_") + "_" + tail


def vocabulary() -> dict[str, Any]:
    """The tool-schema vocabulary the targets' page lists."""
    # deferred: `generator site` imports this module, and the site needs no tool-schema compiler
    from provcat.toolschema.vocabulary import ACTIONS, STEPS, TRIGGERS

    return {
        "triggers": sorted(TRIGGERS.items()),
        "actions": sorted(ACTIONS.items()),
        "steps": sorted(STEPS.items()),
    }


def _context(
    snapshot: dict[str, Any], source: str, texts: Mapping[str, PartText] | None = None
) -> dict[str, Any]:
    """What every template sees."""
    providers = snapshot["providers"]
    inventory = snapshot.get("inventory", {})
    targets = snapshot.get("targets", ())
    return {
        "source": source,
        "generator_version": GENERATOR_VERSION,
        "snapshot": snapshot,
        "fingerprint": fingerprint(snapshot, texts),
        "counts": counts(snapshot),
        "format_version": FORMAT_VERSION,
        "parts": {key: part_module(key) for key in inventory},
        "provider_keys": [p["provider"] for p in providers],
        "provider_names": sorted(
            {p["declared"] for p in providers} | {a for p in providers for a in p["aliases"]}
        ),
        "endpoint_keys": sorted({e["endpoint"] for p in providers for e in p["endpoints"]}),
        "endpoint_names": {
            p["provider"]: {e["key"]: e["endpoint"] for e in p["endpoints"]} for p in providers
        },
        "no_policy": [p["provider"] for p in providers if p["policy"] is None],
        "effort_levels": EFFORT_LEVELS,
        "codes": all_codes(),
        "protocols": [
            (
                protocol,
                [
                    f"{p['provider']}/{e['endpoint']}"
                    for p in providers
                    for e in p["endpoints"]
                    if e["protocol"] == protocol.name
                ],
            )
            for protocol in PROTOCOLS.values()
        ],
        "inventory": tuple(inventory),  # the pages read which providers have one
        "model_counts": {key: len(models) for key, models in inventory.items()},
        "lifecycle_rows": lifecycle_rows(inventory),
        "price_change_rows": price_change_rows(inventory),
        "secondary_rows": secondary_rows(inventory),
        "provider_rows": literal(providers, 0, 4),
        "targets": targets,
        "matrix": matrix(targets),
        "vocabulary": vocabulary(),
    }


def provider_pages(
    source: str, key: str, part: Part, cache: FileCache | None = None
) -> dict[str, str]:
    """Provider ``key``'s model module and models page, made from its own file alone (the build
    cache keeps them with the file's records)."""
    env = environment(cache)
    models, index = part
    values = {
        "source": source,
        "generator_version": GENERATOR_VERSION,
        "key": key,
        "provider": key,
        "models": models,
        "index": index,
    }
    return {
        f"provcat_catalog/models/{part_module(key)}.py": env.get_template(
            "package/model_part.py.j2"
        ).render(values),
        f"docs/models/{key}.md": env.get_template("docs/provider_models.md.j2").render(values),
    }


def render(
    snapshot: dict[str, Any],
    source: str,
    pages: Mapping[str, dict[str, str]] | None = None,
    cache: FileCache | None = None,
    texts: Mapping[str, PartText] | None = None,
) -> dict[str, str]:
    """Every generated file: relative path -> text. ``pages`` holds ``provider_pages`` and
    ``texts`` ``part_text`` by canonical provider key where they were made already; ``cache``
    keeps compiled templates."""
    env = environment(cache)
    context = _context(snapshot, source, texts)
    files: dict[str, str] = {}
    for name, template in PAGES:
        files[name] = env.get_template(template).render(context)
    files["provcat_catalog/py.typed"] = ""
    written = {key: (t.json_models, t.json_index) for key, t in (texts or {}).items()}
    files[CATALOG_JSON] = render_json(snapshot, context["fingerprint"], source, written)
    inventory = snapshot.get("inventory", {})
    index = snapshot.get("inventory_index", {})
    for key, models in inventory.items():
        made = (pages or {}).get(key)
        files.update(
            made if made is not None else provider_pages(source, key, (models, index[key]), cache)
        )
    target_page = env.get_template("docs/target.md.j2")
    for target in snapshot.get("targets", ()):
        limits = [
            (r["code"], t) for r in target["rules"] for t in r["triggers"] if t["kind"] == "limit"
        ]
        files[f"docs/targets/{target['id']}.md"] = target_page.render(
            source=source, generator_version=GENERATOR_VERSION, t=target, limits=limits
        )
    return files
