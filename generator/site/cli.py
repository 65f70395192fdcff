"""`python -m generator site`: build the static site from catalog.json (``make site``), and
optionally serve it on 127.0.0.1 to look at it."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent.parent
SCHEMA = ROOT / "schemas" / "catalog.schema.json"


@click.command("site")
@click.option(
    "--from",
    "source",
    type=click.Path(dir_okay=False, path_type=Path),
    default=ROOT / "generated" / "provcat_catalog" / "catalog.json",
    show_default="generated/provcat_catalog/catalog.json",
    help="The catalog.json to build from (a build's OUT/provcat_catalog/catalog.json).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=ROOT / "build" / "site",
    show_default="build/site/",
    help="Where the site is written (the folder is replaced whole).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option("--serve", is_flag=True, help="Then serve it on http://127.0.0.1:PORT/ until Ctrl-C.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
def site(source: Path, out: Path, fmt: str, serve: bool, port: int) -> None:
    """Build the static catalog site (HTML, no JavaScript build step) from catalog.json."""
    from generator.site.build import NotACatalogJson, build

    started = time.perf_counter()
    try:
        count, changed = build(source, SCHEMA, out)
    except NotACatalogJson as exc:
        raise click.ClickException(str(exc)) from None
    took = time.perf_counter() - started
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "out": str(out),
                    "files": count,
                    "changed": len(changed),
                    "seconds": round(took, 2),
                }
            )
        )
    else:
        state = f"{len(changed)} changed" if changed else "unchanged"
        click.echo(f"provcat: site of {count} files in {out} ({state}) in {took:.2f}s.")
        click.echo(f"Open {(out / 'index.html').resolve().as_uri()}")
    if serve:
        _serve(out, port)


def _serve(root: Path, port: int) -> None:
    """Serve ``root`` on 127.0.0.1 only (the standard library's static file server)."""
    import functools
    import http.server

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        click.echo(f"Serving {root} on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)")
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
