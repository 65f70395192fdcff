"""How values reach the browse pages' HTML: the jinja2 environment and the views of stored rows.

Every value goes through jinja2's autoescaping, after :func:`storable` (a stored manifest holding
text UTF-8 cannot encode still renders) and :func:`printable` (control characters, line
separators and bidi overrides shown as visible escapes, as the command line shows them; tabs and
line breaks stay: HTML shows them as white space), the card's text too; a URL keeps the value
itself. A stored manifest is arbitrary JSON: the views read its fields defensively, so the
templates see only what they can show. Kept apart from :mod:`provcat.hub.web.pages`, which holds
the routes, sign-in and responses.
"""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup

from provcat.hub.manifest import AdapterManifest
from provcat.hub.storage import StoredAdapter
from provcat.hub.text import storable
from provcat.hub.web.cardhtml import render_card
from provcat.hub.web.licenses import read_license
from provcat.terminal import printable

__all__ = ["adapter_url", "environment", "manifest_view", "row_view", "strings"]

# manifest fields the page shows in their own places; any other is an extension field
_KNOWN = frozenset(AdapterManifest.model_fields)


def _shown(text: str) -> str:
    return printable(storable(text), "\t\n\r")  # HTML shows these three as white space


def _text(value: Any) -> Any:
    if isinstance(value, Markup) or not isinstance(value, str):  # Markup: a rendered card
        return value
    return _shown(value)


def environment() -> Any:
    import jinja2  # lazily: only a server rendering pages needs it

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("provcat.hub.web", "templates"),
        autoescape=True,
        finalize=_text,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(size=_size, adapter_url=adapter_url)
    quote = env.filters["urlencode"]
    # a URL holds the value itself (a link finds what it names), storable as on the page
    env.filters["urlencode"] = lambda v: quote(storable(v) if isinstance(v, str) else v)
    return env


def _size(n: int) -> str:
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def adapter_url(namespace: str, name: str, version: str | None = None) -> str:
    return f"/a/{namespace}/{name}" + (f"/{version}" if version else "")


def strings(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def row_view(row: StoredAdapter, downloads: int) -> dict[str, Any]:
    """What a row of the adapter list shows, with the manifest's text fields read as the adapter
    page reads them (a stored manifest is arbitrary JSON)."""
    m = row.manifest
    return {
        "downloads": downloads,
        "namespace": row.namespace,
        "name": row.name,
        "version": row.version,
        "size_bytes": row.size_bytes,
        "description": m.get("description") if isinstance(m.get("description"), str) else None,
        "tags": strings(m.get("tags")),
        "any_base_model": not strings(m.get("base_model_compatibility")),
    }


def manifest_view(row: StoredAdapter) -> dict[str, Any]:
    m = row.manifest
    extra = {k: v for k, v in m.items() if k not in _KNOWN}
    card, license_text = m.get("card"), m.get("license")
    return {
        "card": render_card(_shown(card)) if isinstance(card, str) and card.strip() else None,
        "license": read_license(storable(license_text))
        if isinstance(license_text, str) and license_text.strip()
        else None,
        "description": m.get("description") if isinstance(m.get("description"), str) else None,
        "adapter_id": m.get("adapter_id"),
        "created_at": m.get("created_at") or row.created_at,
        "tags": strings(m.get("tags")),
        "base_model_compatibility": strings(m.get("base_model_compatibility")),
        "rank": m.get("rank"),
        "target_modules": strings(m.get("target_modules")),
        "extra": json.dumps(extra, indent=2, sort_keys=True) if extra else "",
    }
