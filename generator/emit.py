"""Render the snapshot package and docs in memory, compare with disk, and swap them in atomically.

Nothing is written unless the catalog is valid; then the whole ``generated/`` tree is staged
beside the old one and swapped in with renames, so a crash leaves either the old tree or the new
one (a leftover ``.old`` tree is restored by the next run), never a mix. When only a few files
change (a one-file edit of a large catalog), those are staged beside the tree and a journal listing
them is written before they are moved in: a crash while they move leaves the journal, and the next
run (or ``recover``) finishes the moves first, so the tree is again all new; relinking and removing
every unchanged file of a swap would cost more than the rest of such a rebuild.

Files are not flushed to disk one by one (``fsync``): the swap protects against the build being
interrupted (a crash, a kill, a full disk), which needs only the renames, and a flush per file
was a third of a 10,000-model build. After a power loss a file of the new tree may be damaged;
the tree is derived data: ``generator check`` compares every output byte, and ``build
--no-cache`` rewrites what differs. A cached build trusts a file whose stat is the one its
record holds (generator.written), which such damage need not change.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from generator import GENERATOR_VERSION
from generator.outputs import Outputs
from generator.pages import PAGES, PageInputs
from generator.pyliteral import entries, literal, measured
from generator.snapshot import fingerprint
from generator.stored_parts import LazyInventory, canonical_json, exact, in_lifecycle, part_values
from generator.written import Stat, Written, read_checked

if TYPE_CHECKING:
    import jinja2

TEMPLATES = Path(__file__).resolve().parent / "templates"
IGNORED = {"__pycache__"}


def _codes(values: Any) -> str:
    return ", ".join(f"`{v}`" for v in values) or "—"


def _code_or_dash(value: Any) -> str:
    return f"`{value}`" if value not in (None, "") else "—"


def _json_or_dash(value: Any) -> str:
    if not value:
        return "—"
    return "`" + json.dumps(value, sort_keys=True, ensure_ascii=False) + "`"


def _aliasmap(value: dict[str, str]) -> str:
    return "<br>".join(f"`{k}` → `{v}`" for k, v in value.items()) or "—"


def _mdcell(value: str) -> str:
    return value.replace("|", "\\|")


def _envelope_keys(value: dict[str, Any]) -> str:
    def keys(v: Any) -> str:
        if isinstance(v, dict):
            return (
                "{"
                + ", ".join(
                    f"{k}{': ' + keys(x) if isinstance(x, dict) else ''}" for k, x in v.items()
                )
                + "}"
            )
        return ""

    return "`" + keys(value) + "`"


def _triggers(value: Any) -> str:
    parts = []
    for trig in value:
        params = {k: v for k, v in trig.items() if k != "kind"}
        text = f"`{trig['kind']}`"
        if params:
            text += " " + json.dumps(_plain(params), ensure_ascii=False)
        parts.append(_mdcell(text))
    return "<br>".join(parts)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _prettyjson(value: Any) -> str:
    return json.dumps(_plain(value), indent=2, ensure_ascii=False)


_PRICE_NAMES = (
    ("input", "in"),
    ("output", "out"),
    ("cache_read", "cache read"),
    ("cache_write", "cache write"),
    ("cache_write_1h", "cache write 1h"),
    ("input_audio", "audio in"),
    ("cache_read_audio", "audio cache read"),
    ("output_audio", "audio out"),
    ("reasoning", "reasoning"),
)


def _price_list(prices: dict[str, Any]) -> str:
    return ", ".join(f"{label} ${prices[name]}" for name, label in _PRICE_NAMES if name in prices)


def _prices_cell(prices: dict[str, Any] | None) -> str:
    """A model's prices in one table cell: base, long-context tiers, batch."""
    if not prices:
        return "—"
    parts = [_price_list(prices)]
    for tier in prices.get("tiers", ()):
        parts.append(f"above {tier['above_input_tokens']:,} input: {_price_list(tier)}")
    batch = prices.get("batch")
    if batch:
        parts.append(f"batch: {_price_list(batch)}")
        for tier in batch.get("tiers", ()):
            parts.append(f"batch above {tier['above_input_tokens']:,} input: {_price_list(tier)}")
    return "<br>".join(parts)


_CAPABILITIES = (
    ("tool_call", "tools"),
    ("structured_output", "structured output"),
    ("reasoning", "reasoning"),
    ("temperature", "temperature"),
    ("attachment", "attachments"),
    ("open_weights", "open weights"),
)


def _capabilities_cell(m: dict[str, Any]) -> str:
    parts = []
    for name, label in _CAPABILITIES:
        if name not in m:
            continue
        text = label if m[name] else f"no {label}"
        if name == "reasoning" and m[name] and m.get("reasoning_efforts"):
            text += " (" + "/".join(m["reasoning_efforts"]) + ")"
        parts.append(text)
    return ", ".join(parts) or "—"


def _modalities_cell(m: dict[str, Any]) -> str:
    modalities = m.get("modalities")
    if not modalities:
        return "—"
    ins = ", ".join(modalities.get("input", ())) or "—"
    outs = ", ".join(modalities.get("output", ())) or "—"
    return f"{ins} → {outs}"


def _lifecycle_cell(m: dict[str, Any]) -> str:
    parts = [m.get("status", "active")]
    if m.get("deprecation_date"):
        parts.append(f"deprecated {m['deprecation_date']}")
    if m.get("shutdown_date"):
        parts.append(f"shutdown {m['shutdown_date']}")
    if m.get("successor"):
        parts.append(f"successor `{m['successor']}`")
    if m.get("points_to"):
        parts.append(f"serves `{m['points_to']}`")
    return "<br>".join(parts)


def _tokens(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else "—"


def _sources(urls: Any) -> str:
    return " ".join(f"[{i}]({url})" for i, url in enumerate(urls or (), 1)) or "—"


def _model_row(m: dict[str, Any]) -> str:
    """One model's row of its provider's page. Written here, not cell by cell in the template:
    a dozen template look-ups and filter calls per model were a tenth of a 10,000-model build."""
    get = m.get
    name = get("name")
    reviewed = get("reviewed_at")
    cells = (
        f"`{_mdcell(m['model'])}`" + (f"<br>{_mdcell(name)}" if name else ""),
        _codes(m["aliases"]),
        _tokens(get("context_window")),
        _tokens(get("max_input_tokens")),
        _tokens(get("max_output_tokens")),
        _capabilities_cell(m),
        _modalities_cell(m),
        _prices_cell(get("prices")),
        _lifecycle_cell(m),
        str(get("release_date") or "—"),
        str(get("knowledge_cutoff") or "—"),
        _sources(get("source")) + (f"<br>reviewed {reviewed}" if reviewed else ""),
    )
    return "| " + " | ".join(cells) + " |"


def lifecycle_rows(inventory: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every model marked deprecated or retired or carrying a lifecycle date, by shutdown date."""
    if isinstance(inventory, LazyInventory):  # each part's rows, kept with it
        listed = ((k, part.facts.lifecycle) for k, part in inventory.parts.items())
    else:
        listed = (
            (k, tuple(m for m in models if in_lifecycle(m))) for k, models in inventory.items()
        )
    rows = [{"provider": provider, **m} for provider, models in listed for m in models]
    return sorted(
        rows, key=lambda r: (r.get("shutdown_date") or "9999-99-99", r["provider"], r["model"])
    )


def _environment(compiled: Path | None = None) -> jinja2.Environment:
    """The templates' environment; ``compiled`` keeps their compiled code between runs (jinja
    checks each template's source against it, and its own and Python's version)."""
    import jinja2  # only where a text is rendered: a rebuild that renders none needs no jinja

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        bytecode_cache=jinja2.FileSystemBytecodeCache(str(compiled)) if compiled else None,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters.update(
        pyrepr=repr,
        pyliteral=lambda value, indent=0: literal(value, 0, indent),
        codes=_codes,
        code_or_dash=_code_or_dash,
        json_or_dash=_json_or_dash,
        aliasmap=_aliasmap,
        yesno=lambda value: "yes" if value else "no",
        mdcell=_mdcell,
        envelope_keys=_envelope_keys,
        triggers=_triggers,
        prettyjson=_prettyjson,
        sources=_sources,
        model_row=_model_row,
    )
    return env


def model_counts(inventory: Mapping[str, Any]) -> dict[str, int]:
    """Each provider's number of models, in the inventory's order."""
    if isinstance(inventory, LazyInventory):
        return {key: part.facts.models for key, part in inventory.parts.items()}
    return {key: len(models) for key, models in inventory.items()}


def counts(snapshot: dict[str, Any]) -> dict[str, int]:
    providers = snapshot["providers"]
    endpoints = [e for p in providers for e in p["endpoints"]]
    return {
        "providers": len(providers),
        "endpoints": len(endpoints),
        "aliases": sum(len(p["aliases"]) for p in providers)
        + sum(len(e["aliases"]) for e in endpoints),
        "model_aliases": len(snapshot["model_alias_index"]),
        "models": sum(model_counts(snapshot.get("inventory", {})).values()),
        "schema_targets": len(snapshot.get("targets", ())),
    }


def part_module(key: str) -> str:
    """The module of provcat_catalog.models holding provider ``key``'s models: readable, and
    distinct for keys that differ only in punctuation."""
    tail = hashlib.sha256(key.encode()).hexdigest()[:8]
    return "p_" + re.sub(r"[^a-z0-9]+", "_", key.lower()).strip("_") + "_" + tail


def _part_values(snapshot: dict[str, Any], key: str) -> dict[str, Any]:
    """What provider ``key``'s model module and page show (plain data)."""
    models = snapshot["inventory"][key]
    index = snapshot.get("inventory_index", {}).get(key, {})
    return part_values(key, models, index)


_json = canonical_json


def _fingerprint(
    snapshot: dict[str, Any],
    exact: dict[str, bytes],
    cache: TextCache | None,
    rows: list[bytes] | None = None,
) -> str:
    """``snapshot.fingerprint`` to the byte, with each provider's inventory and index as JSON
    text from the cache when its data is unchanged: the canonical JSON of a mapping with sorted
    keys is its members' texts joined in key order, so only the changed providers are encoded.
    With ``rows`` (the SHA-256 of each provider row's exact bytes), the provider rows' JSON comes
    from the cache too (``_provider_json``)."""
    inventory = snapshot.get("inventory", {})
    index = snapshot.get("inventory_index", {})
    if cache is None or set(index) - set(inventory) or set(exact) != set(inventory):
        return fingerprint(snapshot)
    members: dict[str, list[bytes]] = {"inventory": [], "inventory_index": []}
    for key in sorted(inventory):
        if isinstance(inventory, LazyInventory):  # kept with the part
            blob = inventory.parts[key].facts.json
        else:
            digest = cache.digest(b"snapshot-json", exact[key])
            kept = cache.text(digest)
            if kept is None:  # JSON escapes every line break: the first one splits the two texts
                kept = _json(inventory[key]) + "\n" + _json(index.get(key, {}))
                cache.put_text(digest, kept)
            blob = kept.encode("utf-8")
        models, _, names = blob.partition(b"\n")
        label = _json(key).encode("utf-8") + b":"
        members["inventory"].append(label + models)
        if key in index:
            members["inventory_index"].append(label + names)
    # the canonical JSON's bytes, hashed piece by piece (not joined: megabytes at scale)
    hashed = hashlib.sha256(b"{")
    for i, (name, value) in enumerate(sorted(snapshot.items())):
        hashed.update((b"," if i else b"") + _json(name).encode("utf-8") + b":")
        if name in members:
            hashed.update(b"{")
            for j, piece in enumerate(members[name]):
                hashed.update(b"," + piece if j else piece)
            hashed.update(b"}")
        elif name == "providers" and rows is not None and len(rows) == len(value):
            hashed.update(_provider_json(value, rows, cache).encode("utf-8"))
        else:
            hashed.update(_json(value).encode("utf-8"))
    hashed.update(b"}")
    return "sha256:" + hashed.hexdigest()


def _provider_json(providers: Any, rows: list[bytes], cache: TextCache) -> str:
    """The canonical JSON of the snapshot's provider rows, each row's text kept under its exact
    bytes' hash (``rows``), all in one entry holding the rows this build used, a line each
    (canonical JSON escapes every line break): a list's canonical JSON is its members' joined by
    commas, so only changed rows are encoded."""
    key = cache.digest(b"provider rows json")
    kept: dict[str, str] = {}
    for line in (cache.text(key) or "").split("\n"):
        hexed, _, kept_text = line.partition(" ")
        if kept_text:
            kept[hexed] = kept_text
    used: dict[str, str] = {}
    texts = []
    for row, digest in zip(providers, rows, strict=True):
        name = digest.hex()
        text = kept.get(name)
        if text is None:
            text = _json(row)
        used[name] = text
        texts.append(text)
    if used != kept:
        with contextlib.suppress(OSError):  # not kept: encoded again next time
            cache.put_text(key, "\n".join(f"{d} {t}" for d, t in sorted(used.items())))
    return "[" + ",".join(texts) + "]"


_exact = exact


class TextCache(Protocol):
    @property
    def templates(self) -> Path: ...
    def digest(self, *parts: bytes) -> str: ...
    def text(self, key: str) -> str | None: ...
    def put_text(self, key: str, text: str) -> None: ...
    def holds(self, name: str, key: str) -> bytes | None: ...
    @property
    def known(self) -> Mapping[str, bytes]: ...


class _Renderer:
    """Renders templates into ``files``; with a cache, each text is kept under its template,
    the source folder and the exact bytes of what it reads, and a file the last build wrote
    from that same text, untouched since, is neither rendered nor read (generator.outputs).
    jinja is imported only when some text must be rendered."""

    def __init__(self, files: Outputs, source: str, cache: TextCache | None) -> None:
        self.files = files
        self.source = source
        self.cache = cache
        self._env: jinja2.Environment | None = None

    @property
    def env(self) -> jinja2.Environment:
        if self._env is None:
            self._env = _environment(self.cache.templates if self.cache is not None else None)
        return self._env

    def _render(self, template: str, values: Callable[[], dict[str, Any]]) -> str:
        context = {"source": self.source, "generator_version": GENERATOR_VERSION, **values()}
        if template.startswith("plain:"):  # written in Python (generator.plain_pages)
            from generator.plain_pages import PLAIN

            return PLAIN[template](context)
        return self.env.get_template(template).render(context)

    def page(
        self, name: str, template: str, values: Callable[[], dict[str, Any]], data: bytes
    ) -> None:
        """File ``name``: ``template`` over ``values()`` (and the header's fields), ``data``
        the exact bytes of those values."""
        cache = self.cache
        if cache is None:
            self.files.put(name, self._render(template, values))
            return
        key = cache.digest(template.encode(), self.source.encode(), data)

        def text() -> str:
            kept = cache.text(key)
            if kept is None:
                kept = self._render(template, values)
                cache.put_text(key, kept)
            return kept

        held = cache.holds(name, key)
        if held is not None:
            self.files.defer(name, key, held, text)
        else:
            self.files.put(name, text(), key)


def _model_parts(
    out: _Renderer, snapshot: dict[str, Any], parts: dict[str, str], exact: dict[str, bytes]
) -> None:
    """One module and one docs page per provider with an inventory; an unchanged provider's text
    comes from the cache (keyed by its data and the generator's code), so a one-file change
    renders one of each."""
    out.page("provcat_catalog/models/__init__.py", "package/models_init.py.j2", dict, b"")
    for key in parts:

        def values(key: str = key) -> dict[str, Any]:
            return _part_values(snapshot, key)

        data = exact.get(key, b"")
        out.page(
            f"provcat_catalog/models/{parts[key]}.py", "package/model_part.py.j2", values, data
        )
        out.page(f"docs/models/{key}.md", "docs/provider_models.md.j2", values, data)


def render(
    snapshot: dict[str, Any], source: str, cache: TextCache | None = None
) -> Mapping[str, str]:
    """Every generated file, relative path -> text (some made only when read: generator.outputs)."""
    inventory = snapshot.get("inventory", {})
    # each provider's data by the hash of its exact bytes: hashed once, not once per cache key
    exact = (
        {key: part.facts.digest for key, part in inventory.parts.items()}
        if isinstance(inventory, LazyInventory)  # kept with each part
        else {
            key: hashlib.sha256(_exact(_part_values(snapshot, key))).digest() for key in inventory
        }
        if cache is not None
        else {}
    )
    rows = PageInputs.row_digests_of(snapshot) if cache is not None else None
    inputs = PageInputs(snapshot, _fingerprint(snapshot, exact, cache, rows), cache, rows)
    files = Outputs(cache.known if cache is not None else None)
    out = _Renderer(files, source, cache)
    parts = inputs.value("parts")
    for name, template, reads in PAGES:
        if name == "provcat_catalog/models/__init__.py":  # then each provider's module and page
            _model_parts(out, snapshot, parts, exact)
            continue
        if name == "provcat_catalog/py.typed":
            files.put(name, "")
            continue

        def values(reads: tuple[str, ...] = reads) -> dict[str, Any]:
            return inputs.context(reads)

        out.page(name, template, values, inputs.digest(reads) if cache is not None else b"")
    for target in snapshot.get("targets", ()):

        def one(target: dict[str, Any] = target) -> dict[str, Any]:
            limits = [
                (r["code"], t)
                for r in target["rules"]
                for t in r["triggers"]
                if t["kind"] == "limit"
            ]
            return {"t": target, "limits": limits}

        data = hashlib.sha256(_exact({"t": target})).digest() if cache is not None else b""
        out.page(f"docs/targets/{target['id']}.md", "docs/target.md.j2", one, data)
    return files


def provider_rows(rows: tuple[Any, ...], cache: Any, digests: list[bytes]) -> str:
    """``rows | pyliteral(4)`` (generator.pyliteral): with a cache, each row's measured form is
    kept under its exact bytes (``digests``: the SHA-256 of each), all in one entry (the rows
    this build used), so the snapshot's provider table renders only changed rows."""
    if cache is None:
        return literal(rows, 0, 4)
    key = cache.digest(b"literal rows")
    kept: dict[str, list[Any]] = {}
    with contextlib.suppress(ValueError, TypeError):
        loaded = json.loads(cache.text(key) or "{}")
        kept = loaded if isinstance(loaded, dict) else {}
    used: dict[str, list[Any]] = {}
    found = iter(digests)

    def measure(row: Any) -> tuple[int, str]:
        digest = next(found).hex()
        form = kept.get(digest)
        if not (isinstance(form, list) and len(form) == 2):
            form = list(measured(row, 4))
        used[digest] = form
        return int(form[0]), str(form[1])

    text = entries(rows, 4, measure)
    if used != kept:
        cache.put_text(key, json.dumps(used, sort_keys=True, ensure_ascii=False))
    return text


def vocabulary() -> dict[str, Any]:
    """The tool-schema vocabulary the targets' page lists."""
    from provcat.toolschema.vocabulary import ACTIONS, STEPS, TRIGGERS

    return {
        "triggers": sorted(TRIGGERS.items()),
        "actions": sorted(ACTIONS.items()),
        "steps": sorted(STEPS.items()),
    }


# trigger kind -> the keyword it concerns (keyword-list triggers are read from `keywords`)
_KIND_KEYWORD = {
    "format": "format",
    "const": "const",
    "one-of": "oneOf",
    "definitions": "definitions",
    "nullable": "nullable",
    "additional-properties": "additionalProperties",
    "min-items-not-in": "minItems",
    "enum-values": "enum",
    "ref": "$ref",
    "type": "type",
}
_RANK = "RLWTDP"


def _outcome(rule: dict[str, Any]) -> str:
    if rule["action"] == "unsupported":
        return "R" if rule["severity"] == "error" else "W"
    if rule["lossy"]:
        return "L"
    if rule["action"] == "keep":
        return "W"
    if rule["action"] == "drop-annotation":
        return "D"
    return "T"


def matrix(targets: Any) -> list[dict[str, Any]]:
    """One row per keyword any target names, one cell per target: the outcomes of its rules."""
    words: set[str] = set()
    for t in targets:
        for values in t["keywords"].values():
            words.update(values)
        words.update(t["output"]["key_order"])
        for r in t["rules"]:
            for trig in r["triggers"]:
                if trig["kind"] in ("keyword", "constraints-present"):
                    words.update(trig["keywords"])
                elif trig["kind"] in _KIND_KEYWORD:
                    words.add(_KIND_KEYWORD[trig["kind"]])
    rows = []
    for word in sorted(words):
        cells = []
        for t in targets:
            found: set[str] = set()
            known = {k for values in t["keywords"].values() for k in values}
            for r in t["rules"]:
                for trig in r["triggers"]:
                    kind = trig["kind"]
                    hit = (
                        (kind in ("keyword", "constraints-present") and word in trig["keywords"])
                        or _KIND_KEYWORD.get(kind) == word
                        or (kind == "unknown-keyword" and word not in known)
                    )
                    if hit:
                        found.add(_outcome(r))
                        if {"unconvertible", "conflict"} & set(r["extra"]):
                            found.add("L")
            rewrite = t["output"]["schema_style"] == "rewrite"
            if not found:
                if not rewrite or word in t["output"]["key_order"]:
                    found.add("P")
                elif t["output"]["refs"] == "inline" and word in ("$ref", "$defs", "definitions"):
                    found.add("T")
                else:
                    found.add("D")
            elif not rewrite or word in t["output"]["key_order"]:
                found.add("P")
            cells.append(", ".join(sorted(found, key=_RANK.index)))
        rows.append({"keyword": word, "cells": cells})
    return rows


def read_tree(root: Path) -> dict[str, str]:
    """The text files under ``root`` (relative posix path -> text as stored: line endings are
    not translated, so a file converted to CRLF reads as changed), without caches."""
    found: dict[str, str] = {}
    if not root.is_dir():
        return found

    def visit(folder: str, prefix: str) -> None:  # os.scandir: no Path object per file
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name in IGNORED:
                    continue
                rel = prefix + entry.name
                if entry.is_dir():
                    visit(entry.path, rel + "/")
                elif entry.is_file():
                    try:
                        with open(entry.path, encoding="utf-8", newline="") as handle:
                            found[rel] = handle.read()
                    except (UnicodeDecodeError, OSError):
                        found[rel] = "<unreadable>"

    visit(str(root), "")
    return dict(sorted(found.items()))


def changed_files(
    root: Path,
    files: Mapping[str, str],
    written: Written | None = None,
    seen: dict[str, Stat] | None = None,
) -> list[str]:
    """Paths that differ between ``files`` and the tree on disk (added, changed or removed).

    With ``written`` (what the last build left in ``root``), a file untouched since and meant
    to hold the same bytes is not read (generator.written); any other is read and compared byte
    for byte. ``seen`` receives the stat of each file found unchanged."""
    if written is None:
        current = read_tree(root)
        names = sorted(set(current) | set(files))
        return [n for n in names if current.get(n) != files.get(n)]
    on_disk = set(_names(root))
    changed = []
    for name in sorted(on_disk | set(files)):
        if name not in files or name not in on_disk:
            changed.append(name)
            continue
        if isinstance(files, Outputs) and files.deferred(name):
            st = written.untouched(name)  # it held this text when the files were made
        else:
            st = written.same(name, _digest_of(files, name))
        if st is None:
            found = read_checked(os.path.join(root, name))
            if found is None or found[0] != files[name].encode("utf-8"):
                changed.append(name)
                continue
            st = found[1]
        if seen is not None:
            seen[name] = st
    return changed


def _digest_of(files: Mapping[str, str], name: str) -> bytes:
    if isinstance(files, Outputs):
        return files.digest(name)
    return hashlib.sha256(files[name].encode("utf-8")).digest()


def _names(root: Path) -> list[str]:
    """The files under ``root`` (relative posix paths), without reading them."""
    found: list[str] = []
    if not root.is_dir():
        return found

    def visit(folder: str, prefix: str) -> None:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name in IGNORED:
                    continue
                if entry.is_dir():
                    visit(entry.path, prefix + entry.name + "/")
                elif entry.is_file():
                    found.append(prefix + entry.name)

    visit(str(root), "")
    return found


def diff(root: Path, files: Mapping[str, str], per_file: int = 12) -> str:
    """A short unified diff of the stale files: the snapshot data first, ``per_file`` lines each."""
    current = read_tree(root)
    names = sorted(changed_files(root, files), key=lambda n: (not n.endswith("data.py"), n))
    import difflib  # `check` only

    lines: list[str] = []
    for name in names:
        chunk = list(
            difflib.unified_diff(
                current.get(name, "").splitlines(),
                files.get(name, "").splitlines(),
                f"{root.name}/{name} (on disk)",
                f"{root.name}/{name} (from the catalog)",
                n=1,
                lineterm="",
            )
        )
        if not chunk and name in current and name in files:
            # the same lines: only their endings differ (a checkout or an editor wrote CRLF)
            chunk = [f"{root.name}/{name}: the line endings differ (the catalog gives LF)"]
        if len(chunk) > per_file:
            chunk = [*chunk[:per_file], f"... ({len(chunk) - per_file} more diff lines)"]
        lines.extend(chunk)
    return "\n".join(lines)


def recover(root: Path) -> None:
    """Finish moves a journal lists, and restore a tree left half-swapped by a crash between the
    two renames."""
    _finish(root)
    if root.exists():
        for leftover in root.parent.glob(f".{root.name}.old-*"):
            _remove(str(leftover))
        return
    olds = sorted(root.parent.glob(f".{root.name}.old-*"))
    if olds:
        os.rename(olds[-1], root)


def _in_place_limit(total: int) -> int:
    """How many changed files of a tree of ``total`` are moved in place (eight, or a tenth of the
    tree if more); more, and the whole tree is staged and swapped."""
    return max(8, total // 10)


def _journal(root: Path) -> Path:
    return root.parent / f".{root.name}.journal"


def _finish(root: Path) -> None:
    """Carry out the moves and deletions the journal beside ``root`` lists (an interrupted
    ``_in_place``), then drop the journal and its staging folder."""
    journal = _journal(root)
    try:
        plan = json.loads(journal.read_text(encoding="utf-8"))
        stage, moves, deletes = plan.get("stage"), plan["moves"], plan["deletes"]
        # each move's staged file: listed (files beside the tree), or in a staging folder
        files = plan.get("staged") or [os.path.join(stage, name) for name in moves]
        if len(files) != len(moves):
            raise ValueError("a staged file for each move")
    except FileNotFoundError:
        return
    except (OSError, ValueError, KeyError, TypeError, AttributeError):  # never written whole:
        journal.unlink(missing_ok=True)  # nothing was moved
        return
    for name, staged in zip(moves, files, strict=True):
        if os.path.exists(staged):
            target = os.path.join(root, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.replace(staged, target)
    for name in deletes:
        target = os.path.join(root, name)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(target)
        folder = os.path.dirname(target)
        while folder != str(root) and folder.startswith(str(root)):
            try:
                os.rmdir(folder)  # only an emptied one: a full build would not have it
            except OSError:
                break
            folder = os.path.dirname(folder)
    if stage is not None:
        _remove(stage)
    journal.unlink(missing_ok=True)


def _in_place(root: Path, files: Mapping[str, str], changed: list[str]) -> None:
    """Stage the changed files beside ``root``, write the journal, then move them in. They are
    staged as files, not in a folder: making and removing a folder tree cost more than the
    rest of a one-file rebuild's writes."""
    prefix = _fresh(root.parent, f".{root.name}.new-", make=False)
    moves = [name for name in changed if name in files]
    staged = [f"{prefix}-{i}" for i in range(len(moves))]
    try:
        for name, path in zip(moves, staged, strict=True):
            _write(path, files[name])
        plan = {
            "staged": staged,
            "moves": moves,
            "deletes": [n for n in changed if n not in files],
        }
        journal = _journal(root)
        tmp = f"{journal}.{os.getpid()}.tmp"
        _write(tmp, json.dumps(plan))
        os.replace(tmp, journal)  # from here on the moves happen, now or in the next run
    except BaseException:
        for path in staged:
            with contextlib.suppress(OSError):
                os.unlink(path)
        raise
    _finish(root)


def _remove(path: str) -> None:
    """Delete the tree at ``path`` as far as it can be (what is left is a later run's leftover)."""
    try:
        with os.scandir(path) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    _remove(entry.path)
                else:
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)
        os.rmdir(path)
    except OSError:
        pass


def _fresh(parent: Path, prefix: str, make: bool) -> str:
    """A new name ``prefix<random>`` in ``parent``, made a folder when ``make`` (then with the
    umask's permissions, as any folder of the tree)."""
    while True:
        path = os.path.join(parent, f"{prefix}{os.getpid()}-{os.urandom(4).hex()}")
        if not make:
            if not os.path.lexists(path):
                return path
            continue
        try:
            os.mkdir(path)
        except FileExistsError:
            continue
        return path


def _link(source: str, target: str) -> bool:
    try:
        os.link(source, target)
    except OSError:  # another file system, or links not supported: write the file instead
        return False
    return True


def _write(target: str, text: str) -> None:
    """One staged file (no fsync: see the module's docstring)."""
    with open(target, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def write_tree(
    root: Path,
    files: Mapping[str, str],
    written: Written | None = None,
    seen: dict[str, Stat] | None = None,
) -> list[str]:
    """Make ``root`` hold exactly ``files``. Returns the changed paths (empty: nothing written).
    ``written`` and ``seen``: as for ``changed_files``."""
    recover(root)
    changed = changed_files(root, files, written, seen)
    if not changed:
        return []
    if root.is_dir() and len(changed) <= _in_place_limit(len(files)):
        _in_place(root, files, changed)
        return changed
    root.parent.mkdir(parents=True, exist_ok=True)
    stage = _fresh(root.parent, f".{root.name}.new-", make=True)
    keep = set(files) - set(changed)
    if seen is not None:
        seen.clear()  # linking a file into the new tree changes its ctime: read it next time
    folders = {stage}
    here = str(root)
    try:
        for name in files:
            target = os.path.join(stage, name)
            folder = os.path.dirname(target)
            if folder not in folders:
                os.makedirs(folder, exist_ok=True)
                folders.add(folder)
            if name in keep and _link(os.path.join(here, name), target):
                continue  # unchanged: the new tree shares the old file, nothing is rewritten
            _write(target, files[name])
        old = _fresh(root.parent, f".{root.name}.old-", make=False)
        if root.exists():
            os.rename(root, old)
        os.rename(stage, root)
    except BaseException:
        _remove(stage)
        recover(root)
        raise
    _remove(old)
    return changed
