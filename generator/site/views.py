"""What the site's pages show, made from catalog.json's data: page paths, the table's rows,
a model's facts in display order, the lines of code that use it, the lifecycle and
secondary-source lists (prices: generator/site/prices.py). Plain data for the templates; no
HTML here."""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from generator.render import in_lifecycle
from generator.site.prices import table_prices
from provcat.catalog.keys import canonical_key

# capability flags: (fact, short label in the table, label on a model page)
CAPABILITIES: tuple[tuple[str, str, str], ...] = (
    ("tool_call", "tools", "Tool calling"),
    ("structured_output", "json", "Structured output"),
    ("reasoning", "reasoning", "Reasoning"),
    ("attachment", "files", "File attachments"),
    ("temperature", "temperature", "Temperature"),
    ("open_weights", "open", "Open weights"),
)
MODALITIES = ("text", "image", "audio", "video", "pdf")
# the facts a model page lists, in order, with their labels (prices, sources, the note and the
# lifecycle have sections of their own)
FACTS: tuple[tuple[str, str], ...] = (
    ("name", "Name"),
    ("family", "Family"),
    ("aliases", "Aliases"),
    ("status", "Status (as written)"),
    ("release_date", "Released"),
    ("knowledge_cutoff", "Knowledge cutoff"),
    ("context_window", "Context window (tokens)"),
    ("max_input_tokens", "Max input tokens"),
    ("max_output_tokens", "Max output tokens"),
    *((fact, label) for fact, _, label in CAPABILITIES),
    ("reasoning_efforts", "Reasoning efforts"),
    ("default_effort", "Default effort"),
    ("modalities.input", "Input modalities"),
    ("modalities.output", "Output modalities"),
    ("points_to", "Points to"),
)
_UNSAFE = re.compile(r"[^a-z0-9._-]+")


_LONGEST = 100  # characters of a name's readable part: a file name stays far under 255 bytes


def slug(name: str) -> str:
    """A file name for ``name`` that is safe on every file system and static host: a safe id
    (lower-case letters, digits, ``. _ -``, at most ``_LONGEST`` characters) is its own name;
    any other id is its safe spelling, cut at ``_LONGEST``, then ``~`` and a hash of the id.
    No safe id holds ``~``, so no id can take the name another id's hash gave."""
    safe = _UNSAFE.sub("_", name.lower()).strip("._") or "_"
    if safe == name and len(safe) <= _LONGEST:
        return safe
    return f"{safe[:_LONGEST]}~{hashlib.sha256(name.encode()).hexdigest()[:8]}"


def provider_href(provider: str) -> str:
    return f"providers/{slug(provider)}.html"


def model_href(provider: str, model: str) -> str:
    return f"models/{slug(provider)}/{slug(model)}.html"


def _fact(model: Mapping[str, Any], name: str) -> Any:
    if name.startswith("modalities."):
        return model.get("modalities", {}).get(name.split(".", 1)[1])
    return model.get(name)


def shown(value: Any) -> str:
    """A fact as the pages write it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def facts(model: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(name, label, value) of every listed fact the model has, in display order."""
    rows = []
    for name, label in FACTS:
        value = _fact(model, name)
        if value is None or value == [] or value == ():
            continue
        rows.append((name, label, shown(value)))
    return rows


def marked(marks: Mapping[str, list[str]], names: Iterable[str]) -> list[str]:
    """The third-party pages of the facts ``names`` and of the wholes that hold them
    (``prices`` holds ``prices.cache_read`` and ``prices.fees.web_search``, ``modalities``
    holds ``modalities.input``), each page once."""
    found: list[str] = []
    for name in names:
        parts = name.split(".")
        for end in range(1, len(parts) + 1):
            for source in marks.get(".".join(parts[:end]), ()):
                if source not in found:
                    found.append(source)
    return found


def secondary_marks(model: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each fact the model marks as read only from a third party -> the pages it was read on
    (``prices`` marks every price; ``prices.cache_read`` one)."""
    marks: dict[str, list[str]] = {}
    for entry in model.get("secondary", ()):
        for fact in entry["facts"]:
            marks.setdefault(fact, []).append(entry["source"])
    return marks


def listed(
    provider: str, name: str | None, index: Mapping[str, str]
) -> tuple[str, str | None] | None:
    """A model named by another's fact (its successor, the model it points to) as written and
    its page (None when the provider does not list it)."""
    if not name:
        return None
    target = index.get(canonical_key(name))
    return name, model_href(provider, target) if target is not None else None


def successor_of(
    provider: str, model: Mapping[str, Any], index: Mapping[str, str]
) -> tuple[str, str | None] | None:
    """The successor as written and its page (None when the provider does not list it)."""
    return listed(provider, model.get("successor"), index)


def priced_as(provider: Mapping[str, Any], model: Mapping[str, Any]) -> Mapping[str, Any]:
    """The model whose prices a request to ``model`` is billed at, as the runtime's
    ``provcat.models.inventory.priced_as`` finds it: ``model`` itself, or, for a model without
    prices of its own that points to another (``points_to``), the model it serves, along the
    chain."""
    return _down_chain(provider, model, lambda m: bool(m.get("prices")))


LIMITS = ("context_window", "max_input_tokens", "max_output_tokens")


def limited_as(provider: Mapping[str, Any], model: Mapping[str, Any]) -> Mapping[str, Any]:
    """The model whose limits bound a request to ``model``, as ``provcat cost``'s note takes
    them: ``model`` itself, or, when it records no limit, the first model down its
    ``points_to`` chain that does."""
    return _down_chain(provider, model, lambda m: any(m.get(k) is not None for k in LIMITS))


def _down_chain(
    provider: Mapping[str, Any], model: Mapping[str, Any], has: Callable[[Mapping[str, Any]], bool]
) -> Mapping[str, Any]:
    """``model``, or the first model down its ``points_to`` chain that ``has`` what is looked
    for (the last one reached when none has)."""
    served, seen = model, {model["model"]}
    while not has(served) and served.get("points_to"):
        target = provider["model_index"].get(canonical_key(served["points_to"]))
        if target is None or target in seen:
            break
        served = next(m for m in provider["models"] if m["model"] == target)
        seen.add(target)
    return served


def _call_endpoint(provider: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The endpoint a model of ``provider`` is called through: the first API endpoint (by key)
    whose request defaults name a model, else the first one speaking a generic protocol."""
    endpoints: list[Mapping[str, Any]] = [
        e for e in provider["endpoints"] if e["type"] == "api" and e["lifecycle"] is None
    ]
    for endpoint in endpoints:
        if "model" in endpoint["request_defaults"]:
            return endpoint
    for endpoint in endpoints:
        if endpoint["protocol"] is not None:
            return endpoint
    return None


def usage_lines(provider: Mapping[str, Any], model: Mapping[str, Any]) -> dict[str, str]:
    """The exact shell and Python lines that use this model."""
    key, model_id = provider["provider"], model["model"]
    lines = {
        "show": f"provcat models show {_shell(key)} {_shell(model_id)}",
        "python": (
            "from provcat import get_model\n"
            f"info = get_model({json.dumps(key)}, {json.dumps(model_id, ensure_ascii=False)})"
        ),
    }
    if priced_as(provider, model).get("prices"):  # priced as the model it points to, say
        lines["cost"] = f"provcat cost {_shell(key)} {_shell(model_id)} --input 1000 --output 500"
    endpoint = _call_endpoint(provider)
    if endpoint is not None:
        defaults = json.dumps({"model": model_id}, ensure_ascii=False)
        lines["call"] = (
            "from provcat import match_endpoint\n"
            f"endpoint = match_endpoint({json.dumps(key)}, {json.dumps(endpoint['endpoint'])}, "
            f"request_defaults={defaults})"
        )
    return lines


def _shell(word: str) -> str:
    return shlex.quote(word)


def lifecycle_rows(providers: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every deprecated, retired or dated model (the generated docs' rule), by shutdown date
    (undated last)."""
    rows = []
    for p in providers:
        for m in p["models"]:
            if in_lifecycle(m):
                rows.append(
                    {
                        "provider": p["provider"],
                        "model": m,
                        "href": model_href(p["provider"], m["model"]),
                        "successor": successor_of(p["provider"], m, p["model_index"]),
                    }
                )
    return sorted(
        rows,
        key=lambda r: (
            r["model"].get("shutdown_date") or "9999-99-99",
            r["provider"],
            r["model"]["model"],
        ),
    )


def secondary_rows(providers: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every fact a model marks as read only from a reseller or another third party (its
    ``secondary`` entries: the facts, the page they were read on, a reviewer's note)."""
    return [
        {
            "provider": p["provider"],
            "model": m,
            "href": model_href(p["provider"], m["model"]),
            "facts": list(entry["facts"]),
            "source": entry["source"],
            "note": entry.get("note"),
        }
        for p in providers
        for m in p["models"]
        for entry in m.get("secondary", ())
    ]


def table_data(providers: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The models table's data, compact: one array per model (the script reads them by
    position, see static/table.js), providers and their names once."""
    keys: list[str] = []
    names: list[str] = []
    rows: list[list[Any]] = []
    for p in providers:
        if not p["models"]:
            continue
        keys.append(p["provider"])
        names.append(p["display_name"])
        at = len(keys) - 1
        for m in p["models"]:
            served = priced_as(p, m)
            shown_prices, schedule = table_prices(served.get("prices"))
            caps = sum(1 << i for i, (fact, _, _) in enumerate(CAPABILITIES) if m.get(fact))
            modalities = m.get("modalities", {})
            ins = sum(
                1 << i for i, name in enumerate(MODALITIES) if name in modalities.get("input", ())
            )
            outs = sum(
                1 << i for i, name in enumerate(MODALITIES) if name in modalities.get("output", ())
            )
            rows.append(
                [
                    at,
                    m["model"],
                    m.get("name") or "",
                    m.get("status", "active"),
                    m.get("deprecation_date") or "",
                    m.get("shutdown_date") or "",
                    m.get("context_window"),
                    m.get("max_output_tokens"),
                    *shown_prices,
                    caps,
                    ins,
                    outs,
                    model_href(p["provider"], m["model"]),
                    " ".join([m.get("family") or "", *m.get("aliases", ())]).strip(),
                    schedule,
                    served["model"] if served is not m else "",
                ]
            )
    return {
        "providers": keys,
        "names": names,
        "capabilities": [[label, title] for _, label, title in CAPABILITIES],
        "modalities": list(MODALITIES),
        "rows": rows,
    }
