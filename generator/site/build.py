"""Every file of the static site, rendered in memory from catalog.json's data.

The pages are jinja2 templates (autoescaped: a model's name or note is text, never markup);
the table's data is one script file (``models.js``), read by the table page's plain script, so
the site works from ``file://`` and from any static host, with no request to anything else.
The same catalog.json always gives the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from generator.site import prices, views

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
ASSETS = ("site.css", "table.js", "model.js", "lifecycle.js")


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["shown"] = views.shown
    env.filters["span"] = prices.span
    return env


class NotACatalogJson(Exception):
    """The file the site is to be built from is missing or is not a catalog.json."""


def load(path: Path) -> dict[str, Any]:
    """catalog.json's data; NotACatalogJson, saying what to do, when it is missing or not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, IsADirectoryError):
        raise NotACatalogJson(
            f"no catalog.json at {path}: run `make generate` (or `python -m generator build`) first"
        ) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise NotACatalogJson(f"{path} is not a catalog.json ({exc})") from None
    if not isinstance(data, dict) or "catalog_json_format" not in data:
        raise NotACatalogJson(f"{path} is not a catalog.json (no catalog_json_format)")
    return data


def _js_data(name: str, value: Any) -> str:
    """A script that sets ``window[name]``: a script file loads from file:// where fetch()
    of a JSON file does not."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return f"window.{name}={text};\n"


def site_files(data: Mapping[str, Any], catalog_json: str, schema: str) -> dict[str, str]:
    """Every file of the site: relative path -> text."""
    env = environment()
    providers = data["providers"]
    common = {
        "fingerprint": data["fingerprint"],
        "generator_version": data["generator_version"],
        "model_count": sum(len(p["models"]) for p in providers),
        "provider_count": len(providers),
        "provider_href": views.provider_href,
        "model_href": views.model_href,
    }
    files: dict[str, str] = {}

    def page(path: str, template: str, **values: Any) -> None:
        root = "../" * path.count("/")
        files[path] = env.get_template(template).render(common, root=root, **values)

    table = views.table_data(providers)
    files["models.js"] = _js_data("PROVCAT_TABLE", table)
    page("index.html", "index.html.j2", table=table)
    page("providers.html", "providers.html.j2", providers=providers)
    page(
        "lifecycle.html",
        "lifecycle.html.j2",
        rows=views.lifecycle_rows(providers),
        changes=prices.change_rows(providers, views.model_href),
    )
    page("secondary.html", "secondary.html.j2", rows=views.secondary_rows(providers))
    for p in providers:
        page(views.provider_href(p["provider"]), "provider.html.j2", p=p)
        for m in p["models"]:
            page(
                views.model_href(p["provider"], m["model"]),
                "model.html.j2",
                p=p,
                m=m,
                facts=views.facts(m),
                secondary=views.secondary_marks(m),
                successor=views.successor_of(p["provider"], m, p["model_index"]),
                schedule=prices.schedule(m.get("prices")),
                fee_inputs=prices.fee_inputs(m.get("prices")),
                dated=prices.dated(m.get("prices")),
                change_days=prices.change_days(m.get("prices")),
                lines=views.usage_lines(p, m),
            )
    for name in ASSETS:
        files[name] = (STATIC / name).read_text(encoding="utf-8")
    files["catalog.json"] = catalog_json
    files["catalog.schema.json"] = schema
    return dict(sorted(files.items()))


def build(catalog_json: Path, schema: Path, out: Path) -> tuple[int, list[str]]:
    """Write the site for ``catalog_json`` to ``out`` (the whole tree swapped in at once).
    Returns the number of files and the changed ones."""
    from generator.tree import write_tree

    data = load(catalog_json)
    text = catalog_json.read_text(encoding="utf-8")
    files = site_files(data, text, schema.read_text(encoding="utf-8"))
    return len(files), write_tree(out, files)
