"""Every file of the static site, rendered in memory from catalog.json's data.

The pages are jinja2 templates (autoescaped: a model's name or note is text, never markup);
the table's data is one script file (``models.js``), read by the table page's plain script, so
the site works from ``file://`` and from any static host, with no request to anything else.
The same catalog.json always gives the same bytes.

The output folder is replaced as a whole, so ``build`` first makes sure it is the site's to
replace (``generator.tree.refusal``): never the current folder or a parent, never a folder that
is, holds or lies inside the catalog or the build output the site is read from, and never one
holding a file the site did not write. Every page, script, style sheet and the icon name the site
on their first line (``MARKER``, in a comment: an HTML or XML comment may come before
``<!doctype html>`` or ``<svg>``), and ``catalog.json`` and its schema are always written; a
site an earlier version wrote, without the marker, is recognised by its layout and its pages'
own lines (``earlier_site``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from generator.catalog_json import CATALOG_JSON_FORMAT
from generator.site import prices, views
from generator.tree import UnsafeOutput, path_refusal, write_tree
from provcat.cli.cost import LIMITS_NOTE, request_limits

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
CATALOG = HERE.parent.parent / "catalog"  # the repository's catalog (`generator build`'s default)
# favicon.svg: the pages' icon (<link rel="icon">), so a browser asks for no /favicon.ico
ASSETS = ("site.css", "table.js", "model.js", "lifecycle.js", "favicon.svg")
# on the first line of every page, script, style sheet and icon of the site (not a substring of
# generator.tree.GENERATED_MARKER, nor it of this: neither output passes for the other's)
MARKER = "Written by the provcat site generator (python -m generator site)"
_FIRST_LINE = {
    ".html": f"<!-- {MARKER}: this folder is replaced whole on every build -->\n",
    ".svg": f"<!-- {MARKER}: this folder is replaced whole on every build -->\n",
    ".css": f"/* {MARKER}: this folder is replaced whole on every build */\n",
    ".js": f"// {MARKER}: this folder is replaced whole on every build\n",
}


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
    env.filters["price"] = prices.price  # every price of every page, as the table writes it
    return env


class NotACatalogJson(Exception):
    """The file the site is to be built from is missing or is not a catalog.json."""


def load(path: Path, required: Sequence[str] = ()) -> dict[str, Any]:
    """catalog.json's data; NotACatalogJson, saying what to do, when it is missing, not one
    (``required``: the top-level fields its schema requires), or of a format this generator does
    not read."""
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
    if data["catalog_json_format"] != CATALOG_JSON_FORMAT:
        raise NotACatalogJson(
            f"{path} is catalog.json format {data['catalog_json_format']!r}, and this generator "
            f"reads format {CATALOG_JSON_FORMAT}: build it again with this provcat "
            "(`python -m generator build`), or build the site with the provcat that wrote it"
        )
    missing = [name for name in required if name not in data]
    if missing:
        raise NotACatalogJson(
            f"{path} is not a whole catalog.json: it lacks {', '.join(missing)}; build it again "
            "(`python -m generator build`)"
        )
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
        "priced_as": views.priced_as,
        "marked": views.marked,
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
            # the prices a request is billed at: the model's own, or those of the model it
            # points to (provcat's priced_as)
            served = views.priced_as(p, m)
            billed = served.get("prices")
            page(
                views.model_href(p["provider"], m["model"]),
                "model.html.j2",
                p=p,
                m=m,
                facts=views.facts(m),
                secondary=views.secondary_marks(m),
                successor=views.successor_of(p["provider"], m, p["model_index"]),
                points_to=views.listed(p["provider"], m.get("points_to"), p["model_index"]),
                served=served,
                served_href=views.model_href(p["provider"], served["model"]),
                billed=billed,
                price_marks=views.secondary_marks(served),
                schedule=prices.schedule(billed),
                fee_inputs=prices.fee_inputs(billed),
                batched=prices.batched(billed),
                dated=prices.dated(billed),
                change_days=prices.change_days(billed),
                lines=views.usage_lines(p, m),
                # the limits `provcat cost` notes a request larger than (the model's own, or
                # those down its points_to chain)
                limits=request_limits(*(views.limited_as(p, m).get(k) for k in views.LIMITS)),
                limits_note=LIMITS_NOTE,
            )
    for name in ASSETS:
        files[name] = (STATIC / name).read_text(encoding="utf-8")
    files = {name: _FIRST_LINE[Path(name).suffix] + text for name, text in files.items()}
    files["catalog.json"] = catalog_json
    files["catalog.schema.json"] = schema
    return dict(sorted(files.items()))


# the files of a site an earlier version wrote, without MARKER: its pages, by their names
_EARLIER_PAGE = re.compile(
    r"(?:index|providers|lifecycle|secondary)\.html|providers/[^/]+\.html|models/[^/]+/[^/]+\.html"
)
# (not favicon.svg: those versions wrote none, so one without MARKER is someone else's)
_EARLIER_OTHER = frozenset(
    {*ASSETS, "models.js", "catalog.json", "catalog.schema.json"} - {"favicon.svg"}
)


def _site_page(path: Path, root: str) -> bool:
    """Whether ``path`` is a page of the site, with MARKER or as an earlier version wrote it:
    its opening lines and its title, and the style sheet ``root`` + ``site.css``."""
    try:
        with open(path, encoding="utf-8") as handle:
            head = handle.read(4000)
    except (UnicodeDecodeError, OSError):
        return False
    if MARKER in head.partition("\n")[0]:
        return True
    return (
        head.startswith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n')
        and "\u00b7 provcat catalog</title>" in head
        and f'<link rel="stylesheet" href="{root}site.css">' in head
    )


def earlier_site(out: Path) -> Callable[[str, Path], bool]:
    """Whether a file in ``out`` without MARKER is one the site wrote (given its path relative to
    ``out``, and its path): a page of an earlier version's site, or one of that site's other
    files when ``out/index.html`` is a page of the site."""

    def ours(rel: str, path: Path) -> bool:
        if _EARLIER_PAGE.fullmatch(rel):
            return _site_page(path, "../" * rel.count("/"))
        return rel in _EARLIER_OTHER and _site_page(out / "index.html", "")

    return ours


def protected(catalog_json: Path) -> dict[str, Path]:
    """The folders the site may not be written over, into or around: the repository's catalog,
    the catalog.json it is read from and, when that is a build's ``OUT/provcat_catalog/``, the
    whole build output."""
    found = {"the catalog folder": CATALOG}
    package = catalog_json.parent
    if package.name == "provcat_catalog" and (package / "__init__.py").is_file():
        found["the build output --from is part of"] = package.parent
    found["the --from catalog.json"] = catalog_json
    return found


def catalog_around(out: Path) -> Path | None:
    """The catalog whose ``providers/`` or ``schema-targets/`` folder ``out`` is (or is in), if
    any: a catalog's build refuses any folder there (`providers/ holds provider files only`), so
    a site written there breaks it. A catalog is known by its ``providers/*.yaml``; a folder
    elsewhere beside a catalog is left to the other checks."""
    full = Path(os.path.abspath(out))
    for folder in (full, *full.parents):
        if folder.name in ("providers", "schema-targets") and any(
            (folder.parent / "providers").glob("*.yaml")
        ):
            return folder.parent
    return None


ADVICE = (
    "name an empty or new folder, or a folder the site wrote (a site an older provcat wrote "
    "that is not recognised: delete that folder yourself, then build again)"
)


def build(catalog_json: Path, schema: Path, out: Path) -> tuple[int, list[str]]:
    """Write the site for ``catalog_json`` to ``out`` (the whole tree swapped in at once).
    Returns the number of files and the changed ones. Raises ``generator.tree.UnsafeOutput``,
    having written and removed nothing, when ``out`` is not the site's to replace."""
    keep = protected(catalog_json)
    around = catalog_around(out)
    if around is not None:
        keep["a catalog folder"] = around
    refused = path_refusal(out, keep)  # before the work of rendering
    if refused is not None:
        raise UnsafeOutput(refused)
    schema_text = schema.read_text(encoding="utf-8")
    data = load(catalog_json, json.loads(schema_text).get("required", ()))
    text = catalog_json.read_text(encoding="utf-8")
    files = site_files(data, text, schema_text)
    changed = write_tree(
        out,
        files,
        protect=keep,
        marker=MARKER,
        replaced=True,
        ours=earlier_site(out),
        advice=ADVICE,
    )
    return len(files), changed
